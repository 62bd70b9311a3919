package generator

import (
	"strings"
	"testing"
)

// TestOptionalRecord: the record keeps //cborgen:optional N on the type
// line; lowering N (or adding the directive) is compatible, raising it or
// dropping it is refused; the directive's mistakes are refused when
// generating.
func TestOptionalRecord(t *testing.T) {
	typ := func(directives string) string {
		return directives + "type T struct {\n\tA int\n\tB string\n\tC []byte\n\tD *int\n}\n"
	}
	for _, tc := range []struct {
		name     string
		versions []string
		want     string // part of the error of the last version; "": success
		lock     []string
	}{{
		name:     "recorded",
		versions: []string{typ("//cborgen:optional 2\n")},
		lock:     []string{"type T required=2 optional=2\n"},
	}, {
		name:     "lowered",
		versions: []string{typ("//cborgen:optional 3\n"), typ("//cborgen:optional 1\n")},
		lock:     []string{"type T required=1 optional=1\n"},
	}, {
		name:     "added to a type in the record",
		versions: []string{typ(""), typ("//cborgen:optional 2\n")},
		lock:     []string{"type T required=2 optional=2\n"},
	}, {
		name:     "raised",
		versions: []string{typ("//cborgen:optional 1\n"), typ("//cborgen:optional 3\n")},
		want:     "type T raised //cborgen:optional from 1 to 3: values stored under 1 may end after slot 1",
	}, {
		name:     "dropped",
		versions: []string{typ("//cborgen:optional 2\n"), typ("")},
		want:     "type T lost //cborgen:optional 2",
	}, {
		name:     "with the same required count",
		versions: []string{typ("//cborgen:optional 2\n//cborgen:required 2\n")},
		lock:     []string{"type T required=2 optional=2\n"},
	}, {
		name:     "with another required count",
		versions: []string{typ("//cborgen:optional 2\n//cborgen:required 1\n")},
		want:     "//cborgen:optional 2 contradicts //cborgen:required 1",
	}, {
		name:     "past the fields",
		versions: []string{typ("//cborgen:optional 5\n")},
		want:     "the type has only 4 fields",
	}, {
		name:     "on a map type",
		versions: []string{typ("//cborgen:optional 1\n//cborgen:map\n")},
		want:     "only array structs have optional trailing elements",
	}, {
		// Not comparable: zero as reflect's IsZero tells it, part by part.
		name:     "a field whose zero value is told part by part",
		versions: []string{"//cborgen:optional 1\ntype T struct {\n\tA int\n\tB struct{ L []int }\n}\n"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := versions(t, schemaModule(t), Config{}, tc.versions...)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range tc.lock {
					if !strings.Contains(string(out.Lock), l) {
						t.Errorf("record lacks %q:\n%s", l, out.Lock)
					}
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
