package generator

import (
	"strings"
	"testing"
)

// TestRawDirective: //cborgen:raw F takes a []byte field of the struct
// that is not encoded, and refuses anything else with a reason; the
// record is the same with and without it.
func TestRawDirective(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"tagged out", "//cborgen:raw Raw\ntype T struct {\n\tA   int\n\tRaw []byte `cbor:\"-\"`\n}\n", ""},
		{"unexported", "//cborgen:raw raw\ntype T struct {\n\tA   int\n\traw []byte\n}\n", ""},
		{"encoded", "//cborgen:raw Raw\ntype T struct {\n\tA   int\n\tRaw []byte\n}\n", "field Raw is encoded (slot or key \"Raw\"); tag it `cbor:\"-\"`"},
		{"not bytes", "//cborgen:raw Raw\ntype T struct {\n\tA   int\n\tRaw string `cbor:\"-\"`\n}\n", "field Raw is string; the bytes go into a []byte"},
		{"missing", "//cborgen:raw Raw\ntype T struct {\n\tA int\n}\n", "the struct has no field Raw"},
		{"twice", "//cborgen:raw Raw\n//cborgen:raw Raw\ntype T struct {\n\tA   int\n\tRaw []byte `cbor:\"-\"`\n}\n", "want one //cborgen:raw F"},
		{"value type", "//cborgen:raw Raw\n//cborgen:tag 1300\ntype T []byte\n", "//cborgen:raw Raw is for struct types; T is a named []byte type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := versions(t, schemaModule(t), Config{}, tc.src)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(out.Lock), "type T required=1\nT 0 A \"A\" int\n") {
					t.Errorf("record:\n%s", out.Lock)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
