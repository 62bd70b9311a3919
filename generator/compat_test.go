package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompatRefusals: what -compat whyrusleeping cannot write as
// whyrusleeping/cbor-gen writes it is refused with the field's position
// and the reason, never generated with other bytes; the settings of this
// generator's own format do not combine with it.
func TestCompatRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a package per case")
	}
	for _, s := range []Settings{
		{Compat: "fxamacker"},
		{MaxArray: 10},
		{Compat: "whyrusleeping", Float: "none"},
		{Compat: "whyrusleeping", Tests: true},
		{Compat: "whyrusleeping", MaxString: -1},
	} {
		if _, err := s.options(); err == nil {
			t.Errorf("%+v: accepted", s)
		}
	}
	cases := []struct{ src, want string }{
		{"type T struct {\n\tN int\n}\n", "c.go:4:2: field T.N: kind int is not supported"},
		{"type T struct {\n\tP *uint8\n}\n", "field T.P: pointers to integers not supported"},
		{"type T struct {\n\tM map[int]string\n}\n", "field T.M: non-string map keys"},
		{"type T struct {\n\tA [][2]uint64\n}\n", "slices and arrays of [2]uint64"},
		{"type T struct {\n\tA uint64 `cborgen:\"optional\"`\n\tB uint64\n}\n", "mandatory field B cannot come after optional fields"},
		{"type T struct {\n\tA uint64 `cborgen:\"const=x\"`\n}\n", "const vals are only supported for string types"},
		{"type T struct {\n\tA uint64 `cborgen:\"preservenil\"`\n}\n", "preservenil is only supported on slice types"},
		{"//cborgen:map\ntype T struct {\n\tA uint64 `cborgen:\"omitempty\"`\n}\n", "omit empty not supported"},
		{"//cborgen:tag 7\ntype T struct {\n\tA uint64\n}\n", "//cborgen:tag 7 does not apply under -compat whyrusleeping"},
		{"type T struct {\n\tA S `cborgen:\"transparent\"`\n\tB uint64\n}\ntype S struct{ X uint64 }\n", "transparent structs must have exactly one field"},
		{"type T[X any] struct {\n\tA uint64\n}\n", "type T is generic"},
	}
	dir := schemaModule(t)
	for i, tc := range cases {
		pkgDir := filepath.Join(dir, "w"+string(rune('a'+i)))
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(pkgDir, "c.go"), "package c\n\n"+tc.src)
		_, err := Render(Config{Pattern: pkgDir, Settings: Settings{Types: []string{"T"}, Compat: "whyrusleeping"}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v\nwant an error with %q", tc.src, err, tc.want)
		}
	}
}

// TestCompatTransparentRecord: under -compat whyrusleeping a transparent
// type is recorded by the kind of what it holds, and a change of that
// kind which stored values would not survive is refused.
func TestCompatTransparentRecord(t *testing.T) {
	cfg := Config{Settings: Settings{Types: []string{"Epochs", "Envelope"}, Compat: "whyrusleeping"}}
	const envelope = "\n\ntype Envelope struct {\n\tIDs []uint64 `cborgen:\"transparent\"`\n}\n"
	out, err := versions(t, schemaModule(t), cfg, "type Epochs []int64"+envelope)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Epochs value []int64\n", "Envelope value []uint64\n"} {
		if !strings.Contains(string(out.Lock), want) {
			t.Errorf("record lacks %q:\n%s", want, out.Lock)
		}
	}
	_, err = versions(t, schemaModule(t), cfg, "type Epochs []int64"+envelope, "type Epochs []string"+envelope)
	if err == nil || !strings.Contains(err.Error(), "type Epochs changed from []int64 to []string") {
		t.Errorf("Epochs []int64 -> []string: %v", err)
	}
	_, err = versions(t, schemaModule(t), cfg, "type Epochs []int64"+envelope, "type Epochs []int64"+strings.Replace(envelope, "[]uint64", "string", 1))
	if err == nil || !strings.Contains(err.Error(), "type Envelope changed from []uint64 to string") {
		t.Errorf("Envelope's transparent field []uint64 -> string: %v", err)
	}
}
