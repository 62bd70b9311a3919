package finish

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/generator/internal/testmod"
)

// unformat turns gofmt'd source back into text shaped as jennifer renders
// it: no indentation, no alignment, a space after each closing brace and
// before each top-level func, as in "} \n\n// doc \n func".
func unformat(src []byte) []byte {
	src = regexp.MustCompile(`(?m)^[\t ]+`).ReplaceAll(src, nil)
	src = regexp.MustCompile(`([^\s]) {2,}`).ReplaceAll(src, []byte("$1 "))
	src = regexp.MustCompile(`(?m)^}$`).ReplaceAll(src, []byte("} "))
	return regexp.MustCompile(`(?m)^func `).ReplaceAll(src, []byte(" func "))
}

// TestFormatParts: formatting in parts gives format.Source's bytes, and
// does take the parts (the cuts all land between functions).
func TestFormatParts(t *testing.T) {
	inputs := map[string][]byte{}
	golden, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "golden", "*", model.DefaultOutput))
	if err != nil || len(golden) == 0 {
		t.Fatalf("no golden outputs: %v", err)
	}
	for _, path := range golden {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[path] = src
	}
	if !testing.Short() {
		out, err := generated(t, testmod.Large(t, 100))
		if err != nil {
			t.Fatal(err)
		}
		inputs["100 types"] = out.Source
	}
	for name, formatted := range inputs {
		for _, src := range [][]byte{formatted, unformat(formatted)} {
			want, err := format.Source(src)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !bytes.Equal(want, formatted) {
				t.Fatalf("%s: unformat changed more than the layout:\n%s", name, diff("formatted", "unformatted", formatted, want))
			}
			for _, parts := range []int{2, 3, 7} {
				texts, clause := cutFunctions(src, parts)
				if len(texts) < 2 {
					if parts == 7 {
						t.Errorf("%s: no cut in %d parts", name, parts)
					}
					continue // no function starts after the middle
				}
				got, ok := formatCut(texts, clause)
				if !ok {
					t.Errorf("%s: %d parts do not format on their own", name, len(texts))
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s in %d parts:\n%s", name, len(texts), diff("format.Source", "formatParts", want, got))
				}
			}
		}
	}
}

// TestFormatPartsError: source that does not format gets format.Source's
// error, also when a cut lands inside a function.
func TestFormatPartsError(t *testing.T) {
	src := []byte("package p\n\nfunc a() {\nif true {\nx := 1\n}\n\n// inside\n_ = x +\n}\n\nfunc b() {}\n")
	_, want := format.Source(src)
	if want == nil {
		t.Fatal("the test source formats")
	}
	for _, parts := range []int{2, 3} {
		if _, err := formatParts(src, parts); err == nil || err.Error() != want.Error() {
			t.Errorf("%d parts: %v, want %v", parts, err, want)
		}
	}
}

// BenchmarkFormatSource formats the output of a package of 1000 types,
// laid out as jennifer renders it, in parts and as one.
func BenchmarkFormatSource(b *testing.B) {
	out, err := generated(b, testmod.Large(b, 1000))
	if err != nil {
		b.Fatal(err)
	}
	src := unformat(out.Source)
	for _, bc := range []struct {
		name string
		fn   func([]byte) ([]byte, error)
	}{{"parts", formatSource}, {"whole", format.Source}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.fn(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
