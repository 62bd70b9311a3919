package schema

import (
	"go/token"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/model"
)

func TestKindCompatible(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		ok       bool
	}{
		{"string", "string", true},
		{"string", "int64", false},
		{"int64", "string", false},
		{"int8", "int64", true},
		{"int64", "int8", false},
		{"int", "int64", true},
		{"int64", "int", true}, // int counts as 64 bits
		{"int32", "int", true},
		{"uint8", "uint16", true},
		{"uint16", "uint8", false},
		{"uint32", "int64", true},
		{"uint64", "int64", false},
		{"uint32", "int32", false},
		{"int8", "uint64", false},
		{"uint8", "float32", true},
		{"int16", "float32", true},
		{"int32", "float32", false},
		{"int32", "float64", true},
		{"uint64", "float64", false},
		{"float32", "float64", true},
		{"float64", "float32", false},
		{"float64", "int64", false},
		{"bool", "int8", false},
		{"[]byte", "string", false},
		{"string", "[]byte", false},
		{"[16]byte", "[]byte", true},
		{"[]byte", "[16]byte", false},
		{"[16]byte", "[8]byte", false},
		{"[]int8", "[]byte", false},
		{"[]byte", "[]uint8", false},
		{"[]int8", "[]int16", true},
		{"[]int16", "[]int8", false},
		{"[3]int8", "[]int64", true},
		{"[3]int8", "[3]int64", true},
		{"[3]int8", "[4]int8", false},
		{"[]int8", "[3]int8", false},
		{"string", "*string", true},
		{"*string", "string", false},
		{"*int8", "*int32", true},
		{"[]string", "*[]string", true},
		{"map[string]int8", "map[string]int64", true},
		{"map[int8]string", "map[int16]string", true},
		{"map[int16]string", "map[int8]string", false},
		{"map[string][]int8", "map[string][]int32", true},
		{"map[string]map[string]int8", "map[string]map[string]int64", true},
		{"map[string]int8", "[]int8", false},
		{"Item", "Item", true},
		{"Item", "LineItem", false},
		{"time.Time", "time.Time", true},
		{"time.Time", "int64", false},
		{"reserved", "string", false},
	} {
		if got := kindCompatible(parseKind(tc.old), parseKind(tc.new)); got != tc.ok {
			t.Errorf("kindCompatible(%q, %q) = %v, want %v", tc.old, tc.new, got, tc.ok)
		}
	}
}

const sampleRecord = `# a comment
cbor-gen schema 1

type Empty required=0

type Order required=2
Order 0 ID "id" uint64
Order 1 Notes 3 map[string]string
Order 2 reserved was Coupon "a \"quoted\" key" *string
Order 3 reserved
Order 4 Total "Total" int64
`

func TestRecordRoundTrip(t *testing.T) {
	rec, err := ParseRecord("x.lock", []byte(sampleRecord))
	if err != nil {
		t.Fatal(err)
	}
	o := rec.types["Order"]
	if o == nil || o.required != 2 || len(o.slots) != 5 {
		t.Fatalf("Order = %+v", o)
	}
	want := []slotRecord{
		{name: "ID", key: `"id"`, kind: "uint64"},
		{name: "Notes", key: "3", kind: "map[string]string"},
		{reserved: true, name: "Coupon", key: `"a \"quoted\" key"`, kind: "*string"},
		{reserved: true},
		{name: "Total", key: `"Total"`, kind: "int64"},
	}
	for i, s := range o.slots {
		if s != want[i] {
			t.Errorf("slot %d = %+v, want %+v", i, s, want[i])
		}
	}
	if e := rec.types["Empty"]; e == nil || len(e.slots) != 0 {
		t.Errorf("Empty = %+v", e)
	}

	// Formatting and parsing again gives the same record and the same
	// bytes: the format is its own normal form.
	text := formatRecord(rec, "cbor_gen.go")
	again, err := ParseRecord("x.lock", text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if text2 := formatRecord(again, "cbor_gen.go"); string(text2) != string(text) {
		t.Errorf("format is not stable:\n%s\n---\n%s", text, text2)
	}
	body := string(text[strings.Index(string(text), schemaVersion):])
	wantBody := schemaVersion + "\n\ntype Empty required=0\n\ntype Order required=2\n" +
		"Order 0 ID \"id\" uint64\nOrder 1 Notes 3 map[string]string\n" +
		"Order 2 reserved was Coupon \"a \\\"quoted\\\" key\" *string\nOrder 3 reserved\nOrder 4 Total \"Total\" int64\n"
	if body != wantBody {
		t.Errorf("formatted record:\n%s\nwant:\n%s", body, wantBody)
	}
}

// TestRecordNoLegacy: "nolegacy" at the end of a type line, after any
// tag, reads back and is written back in place.
func TestRecordNoLegacy(t *testing.T) {
	text := "cbor-gen schema 1\n\ntype A required=1 nolegacy\nA 0 X \"X\" int\n\ntype B required=0 tag=7? nolegacy\n\ntype C map\n"
	rec, err := ParseRecord("x.lock", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.types["A"].noLegacy || !rec.types["B"].noLegacy || rec.types["B"].tag != "7?" || rec.types["C"].noLegacy {
		t.Fatalf("A %+v, B %+v, C %+v", rec.types["A"], rec.types["B"], rec.types["C"])
	}
	out := string(formatRecord(rec, "cbor_gen.go"))
	if body := out[strings.Index(out, schemaVersion):]; body != text {
		t.Errorf("formatted:\n%s\nwant:\n%s", body, text)
	}
}

// TestRecordBody: "body" ends a type line, after any tag and "nolegacy",
// reads back and is written back in place.
func TestRecordBody(t *testing.T) {
	text := "cbor-gen schema 1\n\ntype A required=1 body\nA 0 X \"X\" int\n\ntype B required=0 tag=7 nolegacy body\n\ntype C map body\n\ntype D required=0 nolegacy\n"
	rec, err := ParseRecord("x.lock", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.types["A"].body || !rec.types["B"].body || !rec.types["B"].noLegacy || !rec.types["C"].body || rec.types["D"].body {
		t.Fatalf("A %+v, B %+v, C %+v, D %+v", rec.types["A"], rec.types["B"], rec.types["C"], rec.types["D"])
	}
	out := string(formatRecord(rec, "cbor_gen.go"))
	if got := out[strings.Index(out, schemaVersion):]; got != text {
		t.Errorf("formatted:\n%s\nwant:\n%s", got, text)
	}
}

func TestRecordErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"no version", "type T required=0\n", `x.lock:1:1: not a cbor-gen schema record`},
		{"empty", "", `x.lock:1:1: not a cbor-gen schema record`},
		{"slot before type", "cbor-gen schema 1\nT 0 A \"A\" int\n", "x.lock:2:1: slot of T before its type line"},
		{"slot out of order", "cbor-gen schema 1\ntype T required=0\nT 1 A \"A\" int\n", "x.lock:3:3: slot 1 of T out of order: want 0"},
		{"bad key", "cbor-gen schema 1\ntype T required=0\nT 0 A key int\n", "x.lock:3:1: bad legacy key key"},
		{"bad quote", "cbor-gen schema 1\ntype T required=0\nT 0 A \"key int\n", "x.lock:3:7: bad quoted key"},
		{"too few fields", "cbor-gen schema 1\ntype T required=0\nT 0 A\n", "x.lock:3:1: want"},
		{"required too large", "cbor-gen schema 1\ntype T required=2\nT 0 A \"A\" int\n", "x.lock:2:1: type T: required=2 but only 1 slots"},
		{"twice", "cbor-gen schema 1\ntype T required=0\ntype T required=0\n", "x.lock:3:6: type T is recorded twice"},
		{"bad required", "cbor-gen schema 1\ntype T required=x\n", "x.lock:2:8: bad required count"},
		{"nolegacy before tag", "cbor-gen schema 1\ntype T required=0 nolegacy tag=7\n", "x.lock:2:19: want"},
		{"unknown word", "cbor-gen schema 1\ntype T required=0 legacy\n", "x.lock:2:19: want"},
		{"body before nolegacy", "cbor-gen schema 1\ntype T required=0 body nolegacy\n", "x.lock:2:19: want"},
		{"body twice", "cbor-gen schema 1\ntype T required=0 body body\n", "x.lock:2:19: want"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRecord("x.lock", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestLockPath(t *testing.T) {
	for in, want := range map[string]string{
		"/p/cbor_gen.go":   "/p/cbor_gen.lock",
		"/p/order_cbor.go": "/p/order_cbor.lock",
		"/p/out":           "/p/out.lock",
	} {
		if got := LockPath(in); got != want {
			t.Errorf("LockPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKindTree checks that a kind built from the model has the tree that
// parsing its text gives, so that kindCompatible treats a recorded kind
// and a current one alike.
func TestKindTree(t *testing.T) {
	for _, typ := range []model.Type{
		model.Int{Bits: 8, Signed: true},
		model.Bytes{},
		model.ByteArray{N: 16},
		model.Slice{Elem: model.Pointer{Elem: model.Float{Bits: 32}}},
		model.Array{N: 3, Elem: model.Bytes{}},
		model.Map{Key: model.String{}, Elem: model.Map{Key: model.Int{}, Elem: model.Slice{Elem: model.Bool{}}}},
		model.Pointer{Elem: model.Pointer{Elem: model.String{}}},
		model.Reserved{},
	} {
		built := KindOf(typ, nil)
		if parsed := parseKind(built.Text); !sameKind(built, parsed) {
			t.Errorf("%s: built %+v, parsed %+v", built.Text, built, parsed)
		}
	}
}

func sameKind(a, b *kind) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Text == b.Text && a.form == b.form && a.n == b.n && sameKind(a.key, b.key) && sameKind(a.elem, b.elem)
}

// TestCheckSchema runs the schema check on a model and a record in
// memory: no package, no files.
func TestCheckSchema(t *testing.T) {
	pos := func(line int) token.Position {
		return token.Position{Filename: "x.go", Line: line, Column: 2, Offset: line * 10}
	}
	field := func(name string, line int, typ model.Type) *model.Field {
		return &model.Field{Name: name, Key: name, Pos: pos(line), Type: typ}
	}
	fileOf := func(fields ...*model.Field) *model.File {
		return &model.File{Path: "example.com/x", Structs: []*model.Struct{{Name: "T", Pos: pos(1), Fields: fields}}}
	}
	const old = "cbor-gen schema 1\n\ntype T required=2\nT 0 A \"A\" int8\nT 1 B \"B\" string\n"

	// A compatible change and an appended field: no break, and the new
	// field is optional.
	res := Check(fileOf(field("A", 2, model.Int{Bits: 64, Signed: true}), field("B", 3, model.String{}), field("C", 4, model.Bool{})), "/p/cbor_gen.go", []byte(old))
	if res.Breaks != nil || res.Unreadable != nil {
		t.Fatalf("breaks %v, unreadable %v", res.Breaks, res.Unreadable)
	}
	if res.Required["T"] != 2 {
		t.Errorf("required = %v", res.Required)
	}
	if !strings.Contains(string(res.Record), "type T required=2\nT 0 A \"A\" int64\nT 1 B \"B\" string\nT 2 C \"C\" bool\n") {
		t.Errorf("record:\n%s", res.Record)
	}

	// A narrowing, a changed key and a removed field, in the order of
	// their positions.
	b := field("B", 3, model.Int{Bits: 8, Signed: true})
	b.Key = "b"
	res = Check(fileOf(field("A", 2, model.Int{Bits: 8, Signed: true}), b), "/p/cbor_gen.go", []byte(old+"T 2 C \"C\" bool\n"))
	want := []string{
		"x.go:3:2: field T.B changed from string to int8",
		"x.go:3:2: field T.B: legacy map key changed from \"B\" to \"b\"",
		"x.go:1:2: field T.C (slot 2) was removed",
	}
	if res.Breaks == nil {
		t.Fatal("no breaks")
	}
	got := res.Breaks.Error()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("breaks lack %q:\n%s", w, got)
		}
	}

	// No record yet: everything is required; a record that does not
	// parse is reported and written anew.
	if res := Check(fileOf(field("A", 2, model.Bool{})), "/p/cbor_gen.go", nil); res.Unreadable != nil || res.Required["T"] != 1 {
		t.Errorf("first run: %+v", res)
	}
	if res := Check(fileOf(field("A", 2, model.Bool{})), "/p/cbor_gen.go", []byte{}); res.Unreadable == nil || res.Breaks != nil {
		t.Errorf("empty record: %+v", res)
	}
}

// TestTagForKeepsOptions checks the tag that a re-keyed field is told to
// take: the recorded key, with the options of the field's tag now, since
// a cbor tag replaces a json tag whole.
func TestTagForKeepsOptions(t *testing.T) {
	for _, tc := range []struct {
		key  string
		fd   model.Field
		want string
	}{
		{`"name"`, model.Field{}, "`cbor:\"name\"`"},
		{`"name"`, model.Field{OmitEmpty: true}, "`cbor:\"name,omitempty\"`"},
		{`"name"`, model.Field{OmitZero: true}, "`cbor:\"name,omitzero\"`"},
		{`"name"`, model.Field{OmitEmpty: true, OmitZero: true}, "`cbor:\"name,omitempty,omitzero\"`"},
		{"3", model.Field{}, "`cbor:\"3,keyasint\"`"},
		{"-2", model.Field{OmitEmpty: true}, "`cbor:\"-2,keyasint,omitempty\"`"},
		// Back from an integer key to a text one: keyasint goes.
		{`"id"`, model.Field{KeyAsInt: true, KeyInt: 1, OmitZero: true}, "`cbor:\"id,omitzero\"`"},
	} {
		if got := tagFor(tc.key, &tc.fd); got != tc.want {
			t.Errorf("tagFor(%s, %+v) = %s, want %s", tc.key, tc.fd, got, tc.want)
		}
	}

	// In the schema check's advice, for the array format's legacy key
	// and a map-format type's key.
	pos := token.Position{Filename: "x.go", Line: 3, Column: 2}
	fd := &model.Field{Name: "B", Key: "b", Pos: pos, Type: model.String{}, OmitEmpty: true}
	const old = "cbor-gen schema 1\n\ntype T required=1\nT 0 B \"B\" string\n"
	for _, mapFormat := range []bool{false, true} {
		f := &model.File{Path: "example.com/x", Structs: []*model.Struct{{Name: "T", Pos: pos, Fields: []*model.Field{fd}, MapFormat: mapFormat}}}
		record := old
		if mapFormat {
			record = "cbor-gen schema 1\n\ntype T map\nT key B \"B\" string\n"
		}
		res := Check(f, "/p/cbor_gen.go", []byte(record))
		if res.Breaks == nil {
			t.Fatalf("map format %v: no break for a changed key", mapFormat)
		}
		if want := "Keep the key with the tag `cbor:\"B,omitempty\"`"; !strings.Contains(res.Breaks.Error(), want) {
			t.Errorf("map format %v: advice lacks %s:\n%v", mapFormat, want, res.Breaks)
		}
	}
}

// TestRecordForeign: the sections of foreign types read back and are
// written back in place, under version 2, beside a generated type named
// foreign; a record of version 1 reads as before.
func TestRecordForeign(t *testing.T) {
	text := "cbor-gen schema 2\n\ntype foreign required=1\nforeign 0 A \"A\" ex.com/p.Point\n\n" +
		"foreign ex.com/p.Code cbor\n\nforeign ex.com/p.Pair array\nex.com/p.Pair 0 A \"A\" int\nex.com/p.Pair 1 B \"b c\" []string\n\n" +
		"foreign ex.com/p.Point map\nex.com/p.Point key X 1 *int8 omitempty\nex.com/p.Point key in.Y \"y\" ex.com/p.Code omitempty omitzero\n"
	rec, err := ParseRecord("x.lock", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if p := rec.foreign["ex.com/p.Point"]; p == nil || p.form != "map" || len(p.fields) != 2 || p.fields[1].opts != "omitempty omitzero" {
		t.Fatalf("Point = %+v", p)
	}
	if len(rec.types["foreign"].slots) != 1 || rec.version != foreignVersion {
		t.Fatalf("type foreign = %+v, version %q", rec.types["foreign"], rec.version)
	}
	out := string(formatRecord(rec, "cbor_gen.go"))
	if body := out[strings.Index(out, foreignVersion):]; body != text {
		t.Errorf("formatted:\n%s\nwant:\n%s", body, text)
	}
	for _, bad := range []struct{ text, want string }{
		{"cbor-gen schema 2\nforeign ex.com/p.T list\n", `x.lock:2:20: bad form "list"`},
		{"cbor-gen schema 2\nforeign ex.com/p.T cbor\nex.com/p.T key A \"A\" int\n", "x.lock:3:1: foreign type ex.com/p.T is recorded as cbor: it has no fields"},
		{"cbor-gen schema 2\nforeign ex.com/p.T array\nex.com/p.T 1 A \"A\" int\n", "x.lock:3:12: slot 1 of ex.com/p.T out of order"},
		{"cbor-gen schema 2\nforeign ex.com/p.T map\nex.com/p.T key A \"A\" int always\n", `x.lock:3:26: want omitempty or omitzero, found "always"`},
		{"cbor-gen schema 2\nforeign ex.com/p.T map\nforeign ex.com/p.T map\n", "x.lock:3:9: type ex.com/p.T is recorded twice"},
		{"cbor-gen schema 4\n", `x.lock:1:1: not a cbor-gen schema record`},
	} {
		if _, err := ParseRecord("x.lock", []byte(bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.text, err, bad.want)
		}
	}
}

// TestRecordValue reads and writes the value line of a value type (a
// named type of another kind), and refuses a value line where it cannot be.
func TestRecordValue(t *testing.T) {
	text := "cbor-gen schema 3\n\ntype IDs required=0 tag=1006\nIDs value []uint64\n\ntype T required=1\nT 0 A \"A\" IDs\n"
	rec, err := ParseRecord("x.lock", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.types["IDs"].value; got != "[]uint64" {
		t.Errorf("value of IDs = %q, want []uint64", got)
	}
	if got := rec.types["T"].value; got != "" {
		t.Errorf("value of the struct T = %q, want none", got)
	}
	out := string(formatRecord(rec, "x.go"))
	if !strings.Contains(out, "\ncbor-gen schema 3\n") || !strings.Contains(out, "\ntype IDs required=0 tag=1006\nIDs value []uint64\n") {
		t.Errorf("formatRecord wrote\n%s", out)
	}
	// Without value lines the record keeps the older version, which older
	// cbor-gen reads.
	delete(rec.types, "IDs")
	if out := string(formatRecord(rec, "x.go")); !strings.Contains(out, "\ncbor-gen schema 1\n") {
		t.Errorf("formatRecord without value lines wrote\n%s", out)
	}
	for _, bad := range []struct{ text, want string }{
		{"cbor-gen schema 3\ntype T required=1\nT 0 A \"A\" int\nT value int\n", "x.lock:4:3: type T has slots or keys, or a value line already"},
		{"cbor-gen schema 3\ntype T required=0\nT value int\nT value uint\n", "x.lock:4:3: type T has slots or keys, or a value line already"},
		{"cbor-gen schema 3\ntype T required=0\nT value\n", `x.lock:3:1: want "TYPE value KIND"`},
		{"cbor-gen schema 3\nT value int\n", "x.lock:2:1: slot of T before its type line"},
	} {
		if _, err := ParseRecord("x.lock", []byte(bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.text, err, bad.want)
		}
	}
}
