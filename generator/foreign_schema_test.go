package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The schema record of the types of another package that the generated
// code hands to fxamacker/cbor: a struct of package other, which cbor-gen
// does not generate, held by a field of a generated struct. The record
// keeps its shape as fxamacker encodes it, and a new version of other
// that stored data would not survive is refused, naming the path from
// the generated field.

// foreignOuter is package x: a generated struct whose fields hold the
// types of package other.
const foreignOuter = "import \"example.com/x/other\"\n\ntype Outer struct {\n\tID int\n\tO  other.Point\n\tP  *other.Pair\n\tL  []other.Wrap\n}\n"

// foreignOther is package other, with Point's and Pair's fields as given.
func foreignOther(point, pair string) string {
	return "package other\n\nimport \"time\"\n\n" +
		"type Point struct {\n" + point + "}\n\n" +
		"type Pair struct {\n\t_ struct{} `cbor:\",toarray\"`\n" + pair + "}\n\n" +
		"type Wrap struct {\n\tIn   Inner `cbor:\"in\"`\n\tNext *Wrap `cbor:\"next,omitempty\"`\n\tAt   time.Time\n\tMeta struct{ Z int8 }\n}\n\n" +
		"type Inner struct {\n\tZ int16 `cbor:\"1,keyasint\"`\n}\n"
}

const (
	pointV1 = "\tX int32  `cbor:\"x\"`\n\tY string `cbor:\"y,omitempty\"`\n"
	pairV1  = "\tA int32\n\tB string\n"
)

// foreignVersions generates package x against each version of package
// other in turn, writing the record after each, and returns the outcome
// of the last.
func foreignVersions(t *testing.T, dir string, cfg Config, others ...string) (*Output, error) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "x.go"), "package x\n\n"+foreignOuter)
	cfg.Pattern = dir
	cfg.Types = []string{"Outer"}
	var out *Output
	var err error
	for i, src := range others {
		writeFile(t, filepath.Join(dir, "other", "other.go"), src)
		out, err = Render(cfg)
		if i == len(others)-1 {
			break
		}
		if err != nil {
			t.Fatalf("version %d: %v", i+1, err)
		}
		writeFile(t, out.LockPath, string(out.Lock))
	}
	return out, err
}

func TestForeignSchema(t *testing.T) {
	v1 := foreignOther(pointV1, pairV1)
	for _, tc := range []struct {
		name string
		v2   string
		want []string // parts of the error, in order; none: success
		lock []string // lines of the record after the change, when it succeeds
	}{{
		name: "map field retyped",
		v2:   foreignOther("\tX string `cbor:\"x\"`\n\tY string `cbor:\"y,omitempty\"`\n", pairV1),
		want: []string{`x.go:7:2: field Outer.O.X (key "x" of example.com/x/other.Point) changed from int32 to string: stored maps hold int32 values under "x", which a string field cannot decode to the same value. Keep a version of example.com/x/other.Point that reads the stored data`},
	}, {
		name: "map key renamed",
		v2:   foreignOther("\tX int32  `cbor:\"xx\"`\n\tY string `cbor:\"y,omitempty\"`\n", pairV1),
		want: []string{`x.go:7:2: field Outer.O.X (in example.com/x/other.Point) changed its key from "x" to "xx": stored maps hold X under "x"`},
	}, {
		name: "map key removed",
		v2:   foreignOther("\tY string `cbor:\"y,omitempty\"`\n", pairV1),
		want: []string{`x.go:7:2: field Outer.O.X (key "x") was removed from example.com/x/other.Point: stored maps hold its values under "x"`},
	}, {
		name: "map field renamed in Go, key kept",
		v2:   foreignOther("\tXPos int32  `cbor:\"x\"`\n\tY string `cbor:\"y,omitempty\"`\n", pairV1),
		lock: []string{"example.com/x/other.Point key XPos \"x\" int32\n"},
	}, {
		name: "map field added, widened, reordered",
		v2:   foreignOther("\tY string `cbor:\"y\"`\n\tX int64  `cbor:\"x\"`\n\tZ []byte `cbor:\"z,omitempty\"`\n", pairV1),
		lock: []string{
			"foreign example.com/x/other.Point map\n",
			"example.com/x/other.Point key Y \"y\" string\n",
			"example.com/x/other.Point key X \"x\" int64\n",
			"example.com/x/other.Point key Z \"z\" []byte omitempty\n",
		},
	}, {
		name: "array fields swapped",
		v2:   foreignOther(pointV1, "\tB string\n\tA int32\n"),
		want: []string{
			"x.go:8:2: field Outer.P.A moved from position 0 to 1 in example.com/x/other.Pair, which fxamacker/cbor encodes as an array (toarray): stored arrays hold A at position 0, and would decode into B",
			"x.go:8:2: field Outer.P.B moved from position 1 to 0",
		},
	}, {
		name: "array field retyped",
		v2:   foreignOther(pointV1, "\tA string\n\tB string\n"),
		want: []string{"x.go:8:2: field Outer.P.A (position 0 of example.com/x/other.Pair, an array) changed from int32 to string"},
	}, {
		name: "array field added",
		v2:   foreignOther(pointV1, pairV1+"\tC bool\n"),
		want: []string{"x.go:8:2: Outer.P (example.com/x/other.Pair) now has 3 fields, and had 2: fxamacker/cbor decodes a struct with the toarray option only from an array of exactly its number of fields"},
	}, {
		name: "map became array",
		v2:   strings.Replace(foreignOther(pointV1, pairV1), "type Point struct {\n", "type Point struct {\n\t_ struct{} `cbor:\",toarray\"`\n", 1),
		want: []string{"x.go:7:2: Outer.O (example.com/x/other.Point) is now a struct that fxamacker/cbor encodes as an array (toarray), and was a struct that fxamacker/cbor encodes as a map: stored data holds maps of its fields"},
	}, {
		name: "own marshaler",
		v2:   foreignOther(pointV1, pairV1) + "\nfunc (p Point) MarshalCBOR() ([]byte, error) { return []byte{0xf6}, nil }\n",
		want: []string{"x.go:7:2: Outer.O (example.com/x/other.Point) is now a type with its own MarshalCBOR or UnmarshalCBOR"},
	}, {
		name: "nested, through a slice",
		v2:   strings.Replace(v1, "Z int16 `cbor:\"1,keyasint\"`", "Z int16 `cbor:\"2,keyasint\"`", 1),
		want: []string{`x.go:9:2: field Outer.L[].In.Z (in example.com/x/other.Inner) changed its key from 1 to 2`},
	}, {
		name: "anonymous struct within",
		v2:   strings.Replace(v1, "Meta struct{ Z int8 }", "Meta struct{ Z uint8 }", 1),
		want: []string{`x.go:9:2: field Outer.L[].Meta.Z (key "Z" of example.com/x/other.Wrap.Meta) changed from int8 to uint8`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := foreignVersions(t, schemaModule(t), Config{}, v1, tc.v2)
			if len(tc.want) == 0 {
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
			if err == nil {
				t.Fatalf("no error; record:\n%s", out.Lock)
			}
			rest := err.Error()
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error does not contain %q (in order):\n%v", w, err)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestForeignSchemaRecord: what the record holds of the types of package
// other, and that a record of version 1, written before foreign types
// were recorded, is read: the shapes are recorded, with a note, and
// checked from the next run on.
func TestForeignSchemaRecord(t *testing.T) {
	dir := schemaModule(t)
	v1 := foreignOther(pointV1, pairV1)
	out, err := foreignVersions(t, dir, Config{}, v1)
	if err != nil {
		t.Fatal(err)
	}
	want := `cbor-gen schema 2

type Outer required=4
Outer 0 ID "ID" int
Outer 1 O "O" example.com/x/other.Point
Outer 2 P "P" *example.com/x/other.Pair
Outer 3 L "L" []example.com/x/other.Wrap

foreign example.com/x/other.Inner map
example.com/x/other.Inner key Z 1 int16

foreign example.com/x/other.Pair array
example.com/x/other.Pair 0 A "A" int32
example.com/x/other.Pair 1 B "B" string

foreign example.com/x/other.Point map
example.com/x/other.Point key X "x" int32
example.com/x/other.Point key Y "y" string omitempty

foreign example.com/x/other.Wrap map
example.com/x/other.Wrap key In "in" example.com/x/other.Inner
example.com/x/other.Wrap key Next "next" *example.com/x/other.Wrap omitempty
example.com/x/other.Wrap key At "At" time.Time
example.com/x/other.Wrap key Meta "Meta" example.com/x/other.Wrap.Meta

foreign example.com/x/other.Wrap.Meta map
example.com/x/other.Wrap.Meta key Z "Z" int8
`
	lock := string(out.Lock)
	if _, body, _ := strings.Cut(lock, "\n\n"); body != want {
		t.Fatalf("record:\n%s\nwant:\n%s", body, want)
	}

	// The record as an older cbor-gen wrote it: version 1, no foreign
	// types. A change to Point is not refused (there is nothing to
	// compare it with), and the record gains the shapes.
	old, _, _ := strings.Cut(lock, "\nforeign ")
	old = strings.Replace(old, "cbor-gen schema 2", "cbor-gen schema 1", 1) + "\n"
	writeFile(t, out.LockPath, old)
	writeFile(t, filepath.Join(dir, "other", "other.go"), foreignOther("\tX string `cbor:\"x\"`\n", pairV1))
	out, err = Render(Config{Pattern: dir, Settings: Settings{Types: []string{"Outer"}}})
	if err != nil {
		t.Fatalf("a record of version 1 is refused: %v", err)
	}
	if !strings.Contains(string(out.Lock), "cbor-gen schema 2\n") || !strings.Contains(string(out.Lock), "example.com/x/other.Point key X \"x\" string\n") {
		t.Errorf("record after the upgrade:\n%s", out.Lock)
	}
	note := "cbor_gen.lock: note: recording the shapes of the types of other packages that the generated code hands to fxamacker/cbor, such as example.com/x/other.Pair"
	if !strings.Contains(strings.Join(out.Notes, "\n"), note) {
		t.Errorf("notes %q lack %q", out.Notes, note)
	}

	// From then on, the shapes are checked.
	writeFile(t, out.LockPath, string(out.Lock))
	writeFile(t, filepath.Join(dir, "other", "other.go"), foreignOther("\tX int32 `cbor:\"x\"`\n", pairV1))
	if _, err := Render(Config{Pattern: dir, Settings: Settings{Types: []string{"Outer"}}}); err == nil || !strings.Contains(err.Error(), "field Outer.O.X") {
		t.Fatalf("after the upgrade, a change of Point: %v", err)
	}
}
