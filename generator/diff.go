package generator

import (
	"bytes"
	"fmt"
	"strings"
)

// Diff returns a unified-style line diff from a to b, with three lines of
// context, or "" when they are equal.
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
	for c := 0; c < len(changes); {
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
	}
	return out.String()
}

// diffOp is one line of a diff: ' ' kept, '-' only in a, '+' only in b;
// aLine and bLine are the 0-based line numbers where it stands.
type diffOp struct {
	kind         byte
	text         string
	aLine, bLine int
}

// diffLines is a longest-common-subsequence line diff. Generated files are
// small, so the quadratic table is fine; for very large inputs it falls
// back to replacing everything between the common prefix and suffix.
func diffLines(a, b []string) []diffOp {
	var ops []diffOp
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		ops = append(ops, diffOp{' ', a[pre], pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(am)*len(bm) > 25_000_000 {
		for i, s := range am {
			ops = append(ops, diffOp{'-', s, pre + i, pre})
		}
		for j, s := range bm {
			ops = append(ops, diffOp{'+', s, pre + len(am), pre + j})
		}
	} else {
		// lcs[i][j] is the LCS length of am[i:] and bm[j:].
		lcs := make([][]int32, len(am)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(bm)+1)
		}
		for i := len(am) - 1; i >= 0; i-- {
			for j := len(bm) - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(am) || j < len(bm) {
			switch {
			case i < len(am) && j < len(bm) && am[i] == bm[j]:
				ops = append(ops, diffOp{' ', am[i], pre + i, pre + j})
				i++
				j++
			case i < len(am) && (j == len(bm) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffOp{'-', am[i], pre + i, pre + j})
				i++
			default:
				ops = append(ops, diffOp{'+', bm[j], pre + i, pre + j})
				j++
			}
		}
	}
	for k := 0; k < suf; k++ {
		ai, bi := len(a)-suf+k, len(b)-suf+k
		ops = append(ops, diffOp{' ', a[ai], ai, bi})
	}
	return ops
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
