package generator

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Diff returns a unified-style line diff from a to b, with three lines of
// context, or "" when they are equal. At most maxDiffLines lines of hunks
// are shown; a note says how many changed lines were left out.
func Diff(aName, bName string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const context = 3
	var changes []int
	for i, op := range ops {
		if op.kind != ' ' {
			changes = append(changes, i)
		}
	}
	shown := 0
	for c := 0; c < len(changes); {
		if shown >= maxDiffLines {
			fmt.Fprintf(&out, "... and %d more changed lines\n", len(changes)-c)
			break
		}
		// A hunk runs from one change to the last change that follows
		// within twice the context, plus the context around them.
		first, last := changes[c], changes[c]
		for c++; c < len(changes) && changes[c]-last <= 2*context; c++ {
			last = changes[c]
		}
		lo, hi := max(first-context, 0), min(last+context+1, len(ops))
		var an, bn int
		for _, op := range ops[lo:hi] {
			if op.kind != '+' {
				an++
			}
			if op.kind != '-' {
				bn++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", ops[lo].aLine+1, an, ops[lo].bLine+1, bn)
		for _, op := range ops[lo:hi] {
			fmt.Fprintf(&out, "%c%s\n", op.kind, op.text)
		}
		shown += hi - lo
	}
	return out.String()
}

const (
	maxDiffLines = 400       // lines of hunks Diff shows
	maxLCSCells  = 4_000_000 // the largest table the exact diff fills (16 MB)
)

// diffOp is one line of a diff: ' ' kept, '-' only in a, '+' only in b;
// aLine and bLine are the 0-based line numbers where it stands.
type diffOp struct {
	kind         byte
	text         string
	aLine, bLine int
}

// diffLines is a line diff of a and b. Common lines at both ends are
// kept; between them, a stretch small enough gets the exact
// longest-common-subsequence diff, and a larger one is cut at the lines
// that occur once in each side, in the same order (a generated file has
// many: each function's signature), and each piece between them is
// diffed alike. A large stretch without such lines is replaced whole.
// Time and memory stay near linear in the size of the files.
func diffLines(a, b []string) []diffOp {
	var ops []diffOp
	diffRange(&ops, a, b, 0, 0)
	return ops
}

// diffRange appends the diff of a and b, which start at lines a0 and b0.
func diffRange(ops *[]diffOp, a, b []string, a0, b0 int) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		*ops = append(*ops, diffOp{' ', a[pre], a0 + pre, b0 + pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	ai, bi := a0+pre, b0+pre
	var anchors [][2]int
	if len(am)*len(bm) > maxLCSCells {
		anchors = uniqueAnchors(am, bm)
	}
	switch {
	case len(am)*len(bm) <= maxLCSCells:
		lcsDiff(ops, am, bm, ai, bi)
	case len(anchors) > 0:
		i, j := 0, 0
		for _, p := range anchors {
			diffRange(ops, am[i:p[0]], bm[j:p[1]], ai+i, bi+j)
			*ops = append(*ops, diffOp{' ', am[p[0]], ai + p[0], bi + p[1]})
			i, j = p[0]+1, p[1]+1
		}
		diffRange(ops, am[i:], bm[j:], ai+i, bi+j)
	default:
		for k, s := range am {
			*ops = append(*ops, diffOp{'-', s, ai + k, bi})
		}
		for k, s := range bm {
			*ops = append(*ops, diffOp{'+', s, ai + len(am), bi + k})
		}
	}
	for k := len(a) - suf; k < len(a); k++ {
		*ops = append(*ops, diffOp{' ', a[k], a0 + k, b0 + len(b) - len(a) + k})
	}
}

// uniqueAnchors returns the pairs (i, j) with a[i] == b[j] where the line
// occurs once in a and once in b, the longest run of them increasing in
// both i and j.
func uniqueAnchors(a, b []string) [][2]int {
	count := make(map[string][2]int, len(a))
	where := make(map[string]int, len(a))
	for i, s := range a {
		c := count[s]
		c[0]++
		count[s] = c
		where[s] = i
	}
	for _, s := range b {
		if c, ok := count[s]; ok {
			c[1]++
			count[s] = c
		}
	}
	var pairs [][2]int // in the order of b
	for j, s := range b {
		if c := count[s]; c[0] == 1 && c[1] == 1 {
			pairs = append(pairs, [2]int{where[s], j})
		}
	}
	// The longest subsequence of pairs increasing in i (patience sorting):
	// tails[k] is the index of the pair that ends the best run of length
	// k+1 found so far; prev links each pair to the one before it in its run.
	var tails []int
	prev := make([]int, len(pairs))
	for p := range pairs {
		k := sort.Search(len(tails), func(k int) bool { return pairs[tails[k]][0] >= pairs[p][0] })
		prev[p] = -1
		if k > 0 {
			prev[p] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, p)
		} else {
			tails[k] = p
		}
	}
	if len(tails) == 0 {
		return nil
	}
	run := make([][2]int, len(tails))
	for k, p := len(tails)-1, tails[len(tails)-1]; k >= 0; k, p = k-1, prev[p] {
		run[k] = pairs[p]
	}
	return run
}

// lcsDiff appends the exact longest-common-subsequence diff of a and b,
// which start at lines a0 and b0.
func lcsDiff(ops *[]diffOp, a, b []string, a0, b0 int) {
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			*ops = append(*ops, diffOp{' ', a[i], a0 + i, b0 + j})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			*ops = append(*ops, diffOp{'-', a[i], a0 + i, b0 + j})
			i++
		default:
			*ops = append(*ops, diffOp{'+', b[j], a0 + i, b0 + j})
			j++
		}
	}
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
