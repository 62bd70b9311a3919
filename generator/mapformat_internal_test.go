package generator

import (
	"strings"
	"testing"
)

// TestMapFormatRefusals: what contradicts //cborgen:map, and the field
// options whose outcome fxamacker decides only by reflection, are refused
// at the type or field, with what to do.
func TestMapFormatRefusals(t *testing.T) {
	dir := schemaModule(t)
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"nolegacy", "//cborgen:map\n//cborgen:nolegacy\ntype T struct{ A int }\n",
			[]string{"x.go:5:6: type T: //cborgen:map: //cborgen:nolegacy is about the legacy map form"}},
		{"extensible", "//cborgen:map\n//cborgen:extensible\ntype T struct{ A int }\n",
			[]string{"//cborgen:extensible is about array elements"}},
		{"not a struct", "//cborgen:map\n//cborgen:tag 5000\ntype T []byte\n",
			[]string{"type T: //cborgen:map: it is for struct types; T is not a struct"}},
		{"toarray", "//cborgen:map\ntype T struct {\n\t_ struct{} `cbor:\",toarray\"`\n\tA int\n}\n",
			[]string{"the struct's toarray option asks for an array"}},
		{"reserved", "import \"github.com/cborgen/cborgen/runtime\"\n\n//cborgen:map\ntype T struct {\n\tA int\n\t_ runtime.Reserved\n}\n",
			[]string{"runtime.Reserved keeps a slot of an array"}},
		{"omitempty foreign struct", "import \"image\"\n\n//cborgen:map\ntype T struct {\n\tP image.Point `cbor:\"p,omitempty\"`\n}\n",
			[]string{"x.go:7:2: field T.P: omitempty: fxamacker/cbor tests a struct of type image.Point field by field"}},
		{"omitzero not comparable", "//cborgen:map\ntype T struct {\n\tI Inner `cbor:\"i,omitzero\"`\n}\n\ntype Inner struct{ S []int }\n",
			[]string{"x.go:5:2: field T.I: omitzero: Inner is not comparable", "give it an IsZero() bool method"}},
		{"omitempty type parameter", "//cborgen:map\ntype T[P any] struct {\n\tV P `cbor:\"v,omitempty\"`\n}\n",
			[]string{"field T.V: omitempty: whether a value of type parameter P is empty depends on the type argument"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := versions(t, dir, Config{}, tc.src)
			if err == nil {
				t.Fatal("generated; want a refusal")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}
}
