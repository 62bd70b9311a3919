package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMapFormatRefusals: what contradicts //cborgen:map, and the field
// options whose outcome fxamacker decides only by reflection, are refused
// at the type or field, with what to do.
func TestMapFormatRefusals(t *testing.T) {
	dir := schemaModule(t)
	writeExt(t, dir)
	const extImport = "import \"example.com/x/ext\"\n\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"nolegacy", "//cborgen:map\n//cborgen:nolegacy\ntype T struct{ A int }\n",
			[]string{"x.go:5:6: type T: //cborgen:map: //cborgen:nolegacy is about the legacy map form"}},
		{"extensible", "//cborgen:map\n//cborgen:extensible\ntype T struct{ A int }\n",
			[]string{"//cborgen:extensible is about array elements"}},
		{"not a struct", "//cborgen:map\n//cborgen:tag 5000\ntype T []byte\n",
			[]string{"x.go:3:1: type T: //cborgen:map is for struct types; T is a named []byte type (directives of a named []byte type: //cborgen:body, //cborgen:catchall, "}},
		{"toarray", "//cborgen:map\ntype T struct {\n\t_ struct{} `cbor:\",toarray\"`\n\tA int\n}\n",
			[]string{"the struct's toarray option asks for an array"}},
		{"reserved", "import \"github.com/cborgen/cborgen/runtime\"\n\n//cborgen:map\ntype T struct {\n\tA int\n\t_ runtime.Reserved\n}\n",
			[]string{"runtime.Reserved keeps a slot of an array"}},
		{"omitempty foreign struct through an unexported pointer", extImport + "//cborgen:map\ntype T struct {\n\tS ext.Hidden `cbor:\"s,omitempty\"`\n}\n",
			[]string{"x.go:7:2: field T.S: omitempty: field ext.Hidden.A: it is promoted through the unexported embedded pointer inner"}},
		{"omitempty foreign struct holding a MarshalBinary type", extImport + "//cborgen:map\ntype T struct {\n\tS ext.Link `cbor:\"s,omitempty\"`\n}\n",
			[]string{"field T.S: omitempty: field ext.Link.U: fxamacker/cbor calls MarshalBinary of url.URL"}},
		{"omitempty foreign struct whose selector reaches another field", extImport + "//cborgen:map\ntype T struct {\n\tS ext.Shadow `cbor:\"s,omitempty\"`\n}\n",
			[]string{"field T.S: omitempty: field ext.Shadow.A: Go's selector A reaches another field than fxamacker/cbor reads"}},
		{"omitempty foreign struct with both array options", extImport + "//cborgen:map\ntype T struct {\n\tS ext.Both `cbor:\"s,omitempty\"`\n}\n",
			[]string{"field T.S: omitempty: fxamacker/cbor refuses the struct ext.Both: it has both toarray and toindefarray"}},
		{"omitzero not comparable, an unexported field of another package", extImport + "//cborgen:map\ntype T struct {\n\tS ext.Set `cbor:\"s,omitzero\"`\n}\n",
			[]string{"x.go:7:2: field T.S: omitzero: ext.Set is not comparable and has the field items, unexported in package example.com/x/ext, " +
				"so the generated code cannot test it for its zero value; give the field's type an IsZero() bool method"}},
		{"omitzero not comparable, a type parameter inside", "//cborgen:map\ntype T[P any] struct {\n\tI Inner[P] `cbor:\"i,omitzero\"`\n}\n\ntype Inner[P any] struct{ S []int; V P }\n",
			[]string{"x.go:5:2: field T.I: omitzero: Inner[P] is not comparable and its part .V holds a value of type parameter P", "give the field's type an IsZero() bool method"}},
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

// TestSchemaMapTypes: a map type's contract is its keys. Adding,
// removing, reordering and renaming fields is accepted; a changed key, a
// key given a kind that cannot read what stored maps hold under it (a
// removed field's key included), and a change of format are refused.
func TestSchemaMapTypes(t *testing.T) {
	const v1 = "//cborgen:map\ntype T struct {\n\tA int32  `cbor:\"1,keyasint\"`\n\tB string `cbor:\"b\"`\n}\n"
	for _, tc := range []struct {
		name string
		v2   string
		want []string // substrings of the refusal; none: accepted
		lock []string // lines of the record after an accepted run
	}{
		{name: "field added",
			v2:   "//cborgen:map\ntype T struct {\n\tA int32  `cbor:\"1,keyasint\"`\n\tB string `cbor:\"b\"`\n\tC bool `cbor:\"c\"`\n}\n",
			lock: []string{"type T map\n", "T key A 1 int32\n", "T key B \"b\" string\n", "T key C \"c\" bool\n"}},
		{name: "field removed",
			v2:   "//cborgen:map\ntype T struct {\n\tB string `cbor:\"b\"`\n}\n",
			lock: []string{"T key B \"b\" string\n", "T key retired A 1 int32\n"}},
		{name: "reordered, renamed, widened",
			v2:   "//cborgen:map\ntype T struct {\n\tName string `cbor:\"b\"`\n\tA int64  `cbor:\"1,keyasint\"`\n}\n",
			lock: []string{"T key Name \"b\" string\n", "T key A 1 int64\n"}},
		{name: "key changed",
			v2:   "//cborgen:map\ntype T struct {\n\tA int32  `cbor:\"2,keyasint\"`\n\tB string `cbor:\"b\"`\n}\n",
			want: []string{"field T.A: map key changed from 1 to 2", "Keep the key with the tag `cbor:\"1,keyasint\"`"}},
		{name: "retyped",
			v2:   "//cborgen:map\ntype T struct {\n\tA string `cbor:\"1,keyasint\"`\n\tB string `cbor:\"b\"`\n}\n",
			want: []string{"field T.A (key 1) changed from int32 to string"}},
		{name: "to an array",
			v2:   "//cborgen:array\ntype T struct {\n\tA int32  `cbor:\"1,keyasint\"`\n\tB string `cbor:\"b\"`\n}\n",
			want: []string{"type T is no longer //cborgen:map"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := versions(t, schemaModule(t), Config{}, v1, tc.v2)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				for _, l := range tc.lock {
					if !strings.Contains(string(out.Lock), l) {
						t.Errorf("record lacks %q:\n%s", l, out.Lock)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted; want a refusal with %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n%v\nwant it to contain %q", err, w)
				}
			}
		})
	}

	// A removed field's key, taken later by a field of another kind.
	dir := schemaModule(t)
	_, err := versions(t, dir, Config{}, v1,
		"//cborgen:map\ntype T struct {\n\tB string `cbor:\"b\"`\n}\n",
		"//cborgen:map\ntype T struct {\n\tB string `cbor:\"b\"`\n\tN []byte `cbor:\"1,keyasint\"`\n}\n")
	if err == nil || !strings.Contains(err.Error(), "stored maps hold int32 values under 1 (the removed field A left there)") {
		t.Errorf("a retired key reused: %v", err)
	}
	// An array type made a map type.
	_, err = versions(t, schemaModule(t), Config{}, "type T struct{ A int }\n", "//cborgen:map\ntype T struct{ A int }\n")
	if err == nil || !strings.Contains(err.Error(), "type T is now //cborgen:map: stored values are arrays") {
		t.Errorf("an array type made a map type: %v", err)
	}
}

// TestRequiredDirectiveRecord: //cborgen:required is the record's
// required count from the start, and may lower it later; it is refused
// where no array is read.
func TestRequiredDirectiveRecord(t *testing.T) {
	out, err := versions(t, schemaModule(t), Config{},
		"type T struct{ A, B, C int }\n",
		"//cborgen:required 1\ntype T struct{ A, B, C int }\n")
	if err != nil || !strings.Contains(string(out.Lock), "type T required=1\n") {
		t.Errorf("lowered by the directive: %v\n%s", err, out.Lock)
	}
	out, err = versions(t, schemaModule(t), Config{},
		"//cborgen:required 1\ntype T struct{ A, B, C int }\n",
		"type T struct{ A, B, C int }\n")
	if err != nil || !strings.Contains(string(out.Lock), "type T required=1\n") {
		t.Errorf("the directive dropped: stored arrays still may be short: %v\n%s", err, out.Lock)
	}
	for _, tc := range []struct{ src, want string }{
		{"//cborgen:required 4\ntype T struct{ A, B, C int }\n", "type T: //cborgen:required 4: the type has only 3 fields"},
		{"//cborgen:required x\ntype T struct{ A int }\n", "want //cborgen:required N"},
		{"//cborgen:required 0\n//cborgen:map\ntype T struct{ A int }\n", "only array structs have a required count"},
	} {
		if _, err := versions(t, schemaModule(t), Config{}, tc.src); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestMapFormatVariants: an untagged map-format variant of a union claims
// maps only, so it sits beside an array variant that refuses its legacy
// map form, and clashes with one that accepts it.
func TestMapFormatVariants(t *testing.T) {
	const union = "//cborgen:union\ntype V interface{ isV() }\n\nfunc (*A) isV() {}\nfunc (*M) isV() {}\n\n//cborgen:map\ntype M struct{ X int }\n\n"
	if _, err := versions(t, schemaModule(t), Config{}, union+"//cborgen:nolegacy\ntype A struct{ Y int }\n"); err != nil {
		t.Errorf("a map variant beside an array-only variant: %v", err)
	}
	_, err := versions(t, schemaModule(t), Config{}, union+"type A struct{ Y int }\n")
	if err == nil || !strings.Contains(err.Error(), "map") {
		t.Errorf("a map variant beside a variant that also reads maps: %v", err)
	}
}

// writeExt writes the package ext into the module at dir: structs of a
// package that is not generated, for the omitempty tests of a field of
// such a type.
func writeExt(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "ext"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "ext", "ext.go"), `package ext

import "net/url"

type Hidden struct{ *inner }

type inner struct {
	A int `+"`cbor:\",omitempty\"`"+`
}

type Link struct {
	U url.URL `+"`cbor:\",omitempty\"`"+`
}

type Both struct {
	_ struct{} `+"`cbor:\",toarray,toindefarray\"`"+`
	A int
}

type Open struct {
	A int `+"`cbor:\"a,omitempty\"`"+`
	b int
	deep
}

type deep struct {
	C uint `+"`cbor:\"c,omitempty\"`"+`
}

type Set struct{ items []int }

type Shadow struct {
	A int `+"`cbor:\"a,omitempty\"`"+`
	inner
}
`)
}

// TestMapFormatForeignOmitEmpty: omitempty on a struct of another package
// that is not generated is fxamacker's test of it, decided now: never
// empty (image.Point, whose fields lack omitempty: always written), or a
// test of each of its omitempty fields, promoted ones reached past an
// unexported embedded struct as Go promotes them.
func TestMapFormatForeignOmitEmpty(t *testing.T) {
	dir := schemaModule(t)
	writeExt(t, dir)
	// later's own //go:generate line generates G, which has no methods
	// yet: once it has them, fxamacker never finds a G empty, so a
	// struct holding one is never empty either.
	if err := os.MkdirAll(filepath.Join(dir, "later"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "later", "later.go"), "package later\n\n//go:generate go tool cbor-gen -type G\n\n"+
		"type G struct {\n\tA int `cbor:\"a,omitempty\"`\n}\n\n"+
		"type S struct {\n\tG G `cbor:\"g,omitempty\"`\n\tB int `cbor:\"b,omitempty\"`\n}\n")
	for _, tc := range []struct {
		name, src string
		want, not []string
	}{
		{"never empty", "import \"image\"\n\n//cborgen:map\ntype T struct {\n\tP image.Point `cbor:\"p,omitempty\"`\n}\n",
			[]string{"dst = append(dst, \"\\x61p\"...)"}, []string{"omitted"}},
		{"field by field", "import \"example.com/x/ext\"\n\n//cborgen:map\ntype T struct {\n\tS ext.Open `cbor:\"s,omitempty\"`\n}\n",
			[]string{"if v.S.A != 0 || v.S.C != 0 {"}, nil},
		{"a struct generated later inside", "import \"example.com/x/later\"\n\n//cborgen:map\ntype T struct {\n\tS later.S `cbor:\"s,omitempty\"`\n}\n",
			[]string{"dst = append(dst, \"\\x61s\"...)"}, []string{"omitted", "v.S.G.A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := versions(t, dir, Config{}, tc.src)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out.Source), w) {
					t.Errorf("output lacks %q:\n%s", w, out.Source)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(string(out.Source), w) {
					t.Errorf("output holds %q:\n%s", w, out.Source)
				}
			}
		})
	}
}
