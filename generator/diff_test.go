package generator

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkOps checks that ops spell a (kept and removed lines) and b (kept
// and added lines), with the line numbers where each stands, and returns
// the number of lines kept.
func checkOps(t *testing.T, a, b []string, ops []diffOp) (kept int) {
	t.Helper()
	var ga, gb []string
	for _, op := range ops {
		if op.kind != '+' {
			if op.aLine != len(ga) {
				t.Fatalf("%c%q at a line %d, want %d", op.kind, op.text, op.aLine, len(ga))
			}
			ga = append(ga, op.text)
		}
		if op.kind != '-' {
			if op.bLine != len(gb) {
				t.Fatalf("%c%q at b line %d, want %d", op.kind, op.text, op.bLine, len(gb))
			}
			gb = append(gb, op.text)
		}
		if op.kind == ' ' {
			kept++
		}
	}
	if strings.Join(ga, "\n") != strings.Join(a, "\n") || strings.Join(gb, "\n") != strings.Join(b, "\n") {
		t.Fatalf("the diff does not spell its inputs")
	}
	return kept
}

// TestDiffSmall: on inputs the exact diff takes, every line of the
// longest common subsequence is kept.
func TestDiffSmall(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		a, b := randomLines(r, r.IntN(30)), randomLines(r, r.IntN(30))
		kept := checkOps(t, a, b, diffLines(a, b))
		if want := lcsLength(a, b); kept != want {
			t.Fatalf("kept %d lines of %q and %q, the longest common subsequence has %d", kept, a, b, want)
		}
	}
}

func randomLines(r *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = string(rune('a' + r.IntN(4)))
	}
	return lines
}

func lcsLength(a, b []string) int {
	row := make([]int, len(b)+1)
	for i := range a {
		diag := 0
		for j := range b {
			up := row[j+1]
			if a[i] == b[j] {
				row[j+1] = diag + 1
			} else {
				row[j+1] = max(row[j+1], row[j])
			}
			diag = up
		}
	}
	return row[len(b)]
}

// TestDiffLarge: two versions of a generated file of 1000 types that
// differ in a few places, at both ends and in between, give a diff of
// those places, not a replacement of everything between the first and
// the last; Diff shows at most maxDiffLines lines of hunks.
func TestDiffLarge(t *testing.T) {
	var a []string
	for i := range 1000 {
		a = append(a, fmt.Sprintf("func (v *T%d) AppendCBOR(dst []byte) ([]byte, error) {", i))
		for k := range 200 {
			a = append(a, fmt.Sprintf("\tdst = runtime.AppendUint(dst, v.F%d)", k%10), "\treturn dst, nil", "}")
		}
	}
	b := append([]string(nil), a...)
	edits := []int{0, 1, 5000, 123456, 300000, len(b) - 2}
	for _, e := range edits {
		b[e] = "changed"
	}
	ops := diffLines(a, b)
	kept := checkOps(t, a, b, ops)
	if kept != len(a)-len(edits) {
		t.Errorf("kept %d of %d lines, want all but the %d changed", kept, len(a), len(edits))
	}

	for i := 0; i < len(b); i += 1000 {
		b[i] += " again"
	}
	d := Diff("disk", "generated", []byte(strings.Join(a, "\n")), []byte(strings.Join(b, "\n")))
	if lines := strings.Count(d, "\n"); lines > maxDiffLines+100 {
		t.Errorf("Diff printed %d lines", lines)
	}
	if !strings.Contains(d, "more changed lines") {
		t.Errorf("Diff does not say that it left changes out:\n%s", d[len(d)-200:])
	}
}
