package generator

import (
	"strings"
	"testing"
)

// TestUnknownField: a runtime.Unknown field on a map-format or an
// extensible array type, exported or not, tagged out or not; refused
// elsewhere with the reason. The record notes it on the type line, and
// adding or removing it is no break.
func TestUnknownField(t *testing.T) {
	const imp = "import \"github.com/cborgen/cborgen/runtime\"\n\n"
	for _, tc := range []struct {
		name string
		srcs []string // versions; the last one's outcome is checked
		want string   // a line of the record, or a part of the error
		ok   bool
	}{
		{"map", []string{imp + "//cborgen:map\ntype T struct {\n\tA int\n\tX runtime.Unknown\n}\n"}, "type T map unknown=X\nT key A \"A\" int\n", true},
		{"map, unexported", []string{imp + "//cborgen:map\ntype T struct {\n\tA int\n\tx runtime.Unknown\n}\n"}, "type T map unknown=x\n", true},
		{"extensible, tagged out", []string{imp + "//cborgen:extensible\ntype T struct {\n\tA int\n\tX runtime.Unknown `cbor:\"-\"`\n}\n"}, "type T required=1 unknown=X\nT 0 A \"A\" int\n", true},
		{"added", []string{"//cborgen:map\ntype T struct {\n\tA int\n}\n", imp + "//cborgen:map\ntype T struct {\n\tA int\n\tX runtime.Unknown\n}\n"}, "type T map unknown=X\n", true},
		{"removed", []string{imp + "//cborgen:map\ntype T struct {\n\tA int\n\tX runtime.Unknown\n}\n", "//cborgen:map\ntype T struct {\n\tA int\n}\n"}, "type T map\n", true},
		{"array", []string{imp + "type T struct {\n\tA int\n\tX runtime.Unknown\n}\n"}, "field X (runtime.Unknown) keeps the keys of a //cborgen:map type", false},
		{"two", []string{imp + "//cborgen:map\ntype T struct {\n\tA int\n\tX runtime.Unknown\n\tY runtime.Unknown\n}\n"}, "a second runtime.Unknown field (X keeps the unknown content already)", false},
		{"embedded", []string{imp + "//cborgen:map\ntype T struct {\n\tA int\n\truntime.Unknown\n}\n"}, "embed no runtime.Unknown", false},
		{"pointer", []string{imp + "//cborgen:map\ntype T struct {\n\tA int\n\tX *runtime.Unknown\n}\n"}, "runtime.Unknown is not a value to encode", false},
		{"promoted", []string{imp + "//cborgen:map\ntype B struct {\n\tX runtime.Unknown\n}\n\n//cborgen:map\ntype T struct {\n\tA int\n\tB\n}\n"}, "runtime.Unknown promoted from embedded B", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := versions(t, schemaModule(t), Config{}, tc.srcs...)
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out.Lock), tc.want) {
				t.Errorf("record:\n%s", out.Lock)
			}
		})
	}
}
