package emit

import (
	"strings"
	"testing"
)

// TestResolveTokens: the token pass gives the parse's result byte for
// byte where it answers, and leaves to the parse every source in which a
// local may need another name.
func TestResolveTokens(t *testing.T) {
	const own = "example.com/p"
	for _, tc := range []struct {
		name string
		src  string
		fast bool // the token pass answers
	}{
		{"block", `package p

import (
	cborgenself "example.com/p"
	runtime "github.com/cborgen/cborgen/runtime/genrt"
	"time"
)

func (v *cborgenself.T) AppendCBOR(dst []byte) ([]byte, error) {
	var x cborgenself.U // cborgenself.V in a comment stays
	_ = time.Now
	_ = "cborgenself.W"
	return genrt.AppendUint(dst, 1), nil
}
`, true},
		{"one import left", `package p

import (
	cborgenself "example.com/p"
	"time"
)

var _ = []cborgenself.T{}

var _ = time.Now
`, true},
		{"single import", `package p

import cborgenself "example.com/p"

var _ cborgenself.T
`, true},
		{"unsorted, no semicolon", `package p

import (b "z.example/b"; cborgenself "example.com/p"; "a.example/a")

var _ = cborgenself.T{}.M
`, true},
		{"no imports", "package p\n\nvar _ = 1\n", true},
		{"a local named like a type", `package p

import cborgenself "example.com/p"

func (v *cborgenself.field) F() {
	for field := 0; field < 2; field++ {
		_ = cborgenself.field{}
	}
}
`, false},
		{"a method named like a type", `package p

import cborgenself "example.com/p"

func (v *cborgenself.T) Size() int { return 0 }

func (v *cborgenself.Size) X() {}
`, false},
		{"a selector named like a type", `package p

import (
	cborgenself "example.com/p"
	runtime "github.com/cborgen/cborgen/runtime/genrt"
)

func (v *cborgenself.Reader) X() { _ = runtime.Reader }
`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := resolveParsed([]byte(tc.src), own, map[string]bool{"field_": true})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := resolveTokens([]byte(tc.src), own)
			if ok != tc.fast {
				t.Fatalf("token pass answered %v, want %v", ok, tc.fast)
			}
			if ok && string(got) != string(want) {
				t.Errorf("token pass:\n%s\nparse:\n%s", got, want)
			}
			if strings.Contains(string(want), "*"+selfAlias+".") || strings.Contains(string(want), " "+selfAlias+".U") {
				t.Errorf("parse left the stand-in:\n%s", want)
			}
			all, err := resolveNames([]byte(tc.src), own, map[string]bool{"field_": true})
			if err != nil || string(all) != string(want) {
				t.Errorf("resolveNames = %q, %v; want %q", all, err, want)
			}
		})
	}
}
