package diag

import (
	"encoding/hex"
	"strings"
	"testing"
)

// testSchema is a small record: an array type with a reserved slot and
// optional trailing slots, a tagged type with keyasint keys, a map type,
// a union, and opaque named types.
func testSchema() *Schema {
	k := func(s string) Key { return Key{Text: s} }
	ik := func(n int64) Key { return Key{IsInt: true, Int: n} }
	return &Schema{
		Types: map[string]*Type{
			"Order": {Name: "Order", Required: 3, Slots: []Slot{
				{Name: "SKU", Key: k("sku"), HasKey: true, Kind: "string"},
				{Name: "Count", Key: k("count"), HasKey: true, Kind: "uint8"},
				{Reserved: true, Name: "Coupon", Key: k("coupon"), HasKey: true, Kind: "string"},
				{Name: "Price", Key: k("Price"), HasKey: true, Kind: "*float64"},
				{Name: "Tags", Key: k("tags"), HasKey: true, Kind: "map[string]string"},
				{Name: "Items", Key: k("items"), HasKey: true, Kind: "[]Item"},
			}},
			"Item": {Name: "Item", Required: 2, HasTag: true, Tag: 7, TagOptional: true, Slots: []Slot{
				{Name: "ID", Key: ik(1), HasKey: true, Kind: "uint64"},
				{Name: "Name", Key: ik(2), HasKey: true, Kind: "string"},
			}},
			"Header": {Name: "Header", Map: true, Slots: []Slot{
				{Name: "Alg", Key: ik(1), HasKey: true, Kind: "int64"},
				{Name: "KeyID", Key: ik(4), HasKey: true, Kind: "[]byte"},
				{Reserved: true, Name: "Old", Key: ik(9), HasKey: true, Kind: "string"},
			}},
			"Times": {Name: "Times", Required: 4, Slots: []Slot{
				{Name: "At", Kind: "time.Time"},
				{Name: "Big", Kind: "*math/big.Int"},
				{Name: "N", Kind: "int8"},
				{Name: "Sum", Kind: "[2]byte"},
			}},
			"Node":   {Name: "Node", HasTag: true, Tag: 10, Required: 1, Slots: []Slot{{Name: "Kids", Key: k("kids"), HasKey: true, Kind: "[]Value"}}},
			"Pair":   {Name: "Pair", Required: 2, Slots: []Slot{{Name: "A", Kind: "int"}, {Name: "B", Kind: "int"}}},
			"Text":   {Name: "Text"},
			"Flag":   {Name: "Flag"},
			"Number": {Name: "Number", HasTag: true, Tag: 11},
		},
		Unions: map[string]*Union{
			"Value": {Name: "Value", Variants: []string{"Flag", "Node", "Number", "Pair", "Text"}},
		},
	}
}

func decodeHex(t *testing.T, typ, h string) *Result {
	t.Helper()
	data, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Decode(testSchema(), typ, data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAnnotatedCurrent(t *testing.T) {
	// ["A-1", 3, null, null, {"k": "v"}]: five of six slots, as data
	// written before Items was added.
	res := decodeHex(t, "Order", "85 63412d31 03 f6 f6 a1616b6176")
	want := `[             / Order (current format) /
  "A-1",      / 0: SKU /
  3,          / 1: Count /
  null,       / 2: reserved, was Coupon /
  null,       / 3: Price /
  {"k": "v"}  / 4: Tags /
]
`
	if string(res.Text) != want || !res.OK() {
		t.Errorf("got (ok %v, problems %v)\n%s\nwant\n%s", res.OK(), res.Problems, res.Text, want)
	}
}

func TestAnnotatedLegacy(t *testing.T) {
	// {"SKU": "A-1", "count": 3, "coupon": "X", "zzz": 1, "items": [7([1, "a"]), {2: "b", 1: 2}]}
	res := decodeHex(t, "Order", "a5 63534b55 63412d31 65636f756e74 03 66636f75706f6e 6158 637a7a7a 01 656974656d73 82 c7820161 61 a2 02 6162 01 02")
	for _, want := range []string{
		"/ Order (legacy map) /",
		`"SKU": "A-1",`, "/ 0: SKU (key matched by case folding) /",
		"/ 1: Count /",
		"/ key of the retired Coupon, skipped /",
		"/ unknown key, skipped /",
		"7([", "/ Item (current format) /",
		"/ Item (legacy map) /", `2: "b",`, "/ 1: Name /",
	} {
		if !strings.Contains(string(res.Text), want) {
			t.Errorf("missing %q in\n%s", want, res.Text)
		}
	}
	if !res.OK() {
		t.Errorf("refused: %v\n%s", res.Problems, res.Text)
	}
}

// TestProblems checks that what the generated decoder refuses is marked
// where it is, with its path, and only that.
func TestProblems(t *testing.T) {
	cases := []struct {
		typ, hex, path, msg string
	}{
		{"Order", "83 6141 03 6141 ", "Order", ""}, // reserved slot: anything goes
		{"Order", "84 6141 03 f6 6141", "Order.Price", "expected float, found text string"},
		{"Order", "83 6141 190190 f6", "Order.Count", "integer 400 overflows uint8"},
		{"Order", "83 6141 20 f6", "Order.Count", "integer -1 overflows uint8"},
		{"Order", "82 6141 03", "Order", "expected array of 3 to 6 elements, found 2"},
		{"Order", "87 6141 03 f6 f6 f6 f6 00", "Order[6]", "Order has 6 slots; only an //cborgen:extensible type skips more"},
		{"Order", "83 f6 03 f6", "", ""}, // null into a string: the value is kept, as fxamacker keeps it
		{"Order", "83 f4 03 f6", "Order.SKU", "expected text string, found bool"},
		{"Order", "83 6141 e5 f6", "", ""},   // a simple value into an integer: its code
		{"Order", "83 6141 f820 f6", "", ""}, // the same in two bytes
		{"Order", "83 6141 f5 f6", "Order.Count", "expected integer, found bool"},
		{"Order", "83 62ff41 03 f6", "Order.SKU", "text string is not valid UTF-8"},
		{"Order", "a2 63736b75 6141 63534b55 6142", "", ""}, // a field twice: the first value stays
		{"Order", "a1 01 02", "", ""},                       // an integer key names no field: skipped
		{"Order", "a1 f4 02", "Order", "map key is a bool, which cannot name a field"},
		{"Order", "f6", "", ""}, // a struct keeps its value for null
		{"Order", "f5", "Order", "expected array or map, found bool"},
		{"Order", "86 6141 03 f6 f6 f6 81 c8820161 61", "Order.Items[0]", "expected tag 7, found tag 8"},
		{"Order", "86 6141 03 f6 f6 f6 81 820161 61", "", ""}, // the tag is optional
		{"Order", "86 6141 03 f6 f6 f6 81 c7c8820161 61", "Order.Items[0]", "expected tag 7, found tag 7 then tag 8"},
		{"Order", "86 6141 03 f6 f6 f6 81 c7d9d9f7820161 61", "Order.Items[0]", "expected tag 7, found tag 7 then tag 55799"},
		{"Order", "86 6141 03 f6 f6 f6 81 d9d9f7c7820161 61", "", ""}, // 55799 before the type's tag
		{"Order", "d9d9f7 83 6141 03 f6", "", ""},                     // self-described CBOR
		{"Order", "c6 83 6141 03 f6", "", ""},                         // a tag with no meaning for Order is skipped
		{"Order", "c1 83 6141 03 f6", "Order", "tag 1 must hold a number, found array"},
		{"Order", "83 c0 6141 03 f6", "", ""}, // tag 0 on text: the decoder reads the text
		{"Order", "83 c0 01 03 f6", "Order.SKU", "tag 0 must hold a text string, found integer"},
		{"Order", "84 6141 03 f6 c5f6", "", ""}, // a tagged null: a pointer to a kept value
		{"Order", "84 6141 03 f6 c5f5", "Order.Price", "expected float, found bool"},
		{"Header", "a2 01 26 04 4101", "", ""},
		{"Header", "a2 01 26 09 01", "", ""}, // a retired key, skipped unread
		{"Header", "a1 04 6161", "Header.KeyID", "expected byte string, found text string"},
		{"Header", "82 01 02", "Header", "expected map, found array"},
		{"Times", "84 c11a514b67b0 c249010000000000000000 c24101 42 0102", "", ""},
		{"Times", "84 c0 6161 f6 00 42 0102", "Times.At", "not an RFC 3339 time"},
		{"Times", "84 00 f6 c24201ff 42 0102", "Times.N", "integer 511 overflows int8"},
		{"Times", "84 00 f6 00 43 010203", "", ""}, // a [2]byte takes the first 2 bytes
		{"Times", "84 00 f6 00 82 01 1901ff", "Times.Sum[1]", "integer 511 overflows uint8"},
		{"Times", "84 00 f6 00 83 01 02 6161", "", ""}, // the third element is skipped
		{"Times", "84 00 c2 01 00 42 0102", "Times.Big", "tag 2 must hold a byte string, found integer"},
		{"Value", "f6", "", ""},
		{"Value", "ca 81 82 cb 01 82 01 02", "", ""}, // Node{[Number, Pair]}
		{"Value", "ca 81 6161", "Value(Node).Kids", "expected array, found text string"},
		{"Value", "cc 01", "Value", "no variant of Value takes tag 12 (unless one of Flag, Text is its //cborgen:catchall, which keeps any item)"},
		{"Value", "6161", "", ""}, // Flag or Text: shown, not refused
	}
	for _, c := range cases {
		res := decodeHex(t, c.typ, c.hex)
		if res.Err != nil {
			t.Errorf("%s %s: not well-formed: %v", c.typ, c.hex, res.Err)
			continue
		}
		if c.msg == "" {
			if len(res.Problems) > 0 {
				t.Errorf("%s %s: refused: %v\n%s", c.typ, c.hex, res.Problems, res.Text)
			}
			continue
		}
		if len(res.Problems) != 1 || res.Problems[0].Path != c.path || !strings.HasPrefix(res.Problems[0].Msg, c.msg) {
			t.Errorf("%s %s: problems %q, want one at %s: %s\n%s", c.typ, c.hex, res.Problems, c.path, c.msg, res.Text)
			continue
		}
		if !strings.Contains(string(res.Text), strings.ReplaceAll(c.msg, "/", "|")) {
			t.Errorf("%s %s: the notation does not show %q:\n%s", c.typ, c.hex, c.msg, res.Text)
		}
	}
}

func TestUnionVariants(t *testing.T) {
	res := decodeHex(t, "Value", "ca 81 83 cb 01 82 01 02 f5")
	for _, want := range []string{
		"10([", "/ Node (Value variant, current format) /",
		"11(1)", "/ Number (Value variant) /",
		"/ Pair (Value variant, current format) /",
		"true", "/ Value: one of Flag, Text (the record does not say which) /",
	} {
		if !strings.Contains(string(res.Text), want) {
			t.Errorf("missing %q in\n%s", want, res.Text)
		}
	}
}

func TestTimeComment(t *testing.T) {
	res := decodeHex(t, "Times", "84 c11a514b67b0 f6 00 42 0102")
	if !strings.Contains(string(res.Text), "/ 0: At: 2013-03-21T20:04:00Z /") {
		t.Errorf("no readable time:\n%s", res.Text)
	}
}

// TestPartial checks that an item cut short is printed up to where it
// ends, with the offset, and that the items before it are whole.
func TestPartial(t *testing.T) {
	res := decodeHex(t, "Order", "83 6141 03 f6 83 6141")
	if res.Err == nil || res.Err.Offset != 8 || res.Items != 2 {
		t.Fatalf("err %v, items %d", res.Err, res.Items)
	}
	text := string(res.Text)
	if !strings.Contains(text, "/ not well-formed at offset 8: unexpected end of input /") || strings.Count(text, "/ Order (current format) /") != 2 {
		t.Errorf("got\n%s", text)
	}
	if len(res.Problems) != 0 {
		t.Errorf("an item cut short is not also a short array: %v", res.Problems)
	}
}

func TestUnknownType(t *testing.T) {
	if _, err := Decode(testSchema(), "Nope", []byte{0}, Options{}); err == nil || !strings.Contains(err.Error(), "Header, Item") {
		t.Errorf("error %v", err)
	}
}

func TestHex(t *testing.T) {
	for in, want := range map[string]string{"83 01\n02\t0a\r\n": "8301020a", "A1FF": "a1ff"} {
		got, ok := Hex([]byte(in))
		if !ok || hex.EncodeToString(got) != want {
			t.Errorf("Hex(%q) = %x, %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "8", "83 0", "0x83", "\x83\x01"} {
		if _, ok := Hex([]byte(in)); ok {
			t.Errorf("Hex(%q) accepted", in)
		}
	}
}

// TestOut checks that with Options.Out the notation goes there, item by
// item, and is the same text.
func TestOut(t *testing.T) {
	data, _ := hex.DecodeString("8361410300" + "83614103f6" + "83")
	want, _ := Decode(testSchema(), "Order", data, Options{})
	var b strings.Builder
	got, err := Decode(testSchema(), "Order", data, Options{Out: &b})
	if err != nil || len(got.Text) != 0 || b.String() != string(want.Text) || len(got.Problems) != len(want.Problems) {
		t.Errorf("Out: %q, err %v, problems %v\nwant %q", b.String(), err, got.Problems, want.Text)
	}
}

// hintedSchema is testSchema with what the source adds to a record: the
// kinds of the named types of other kinds, the directives, a catch-all.
func hintedSchema() *Schema {
	s := testSchema()
	s.Types["Flag"].Value = "bool"
	s.Types["Text"].Value = "string"
	s.Types["Number"].Value = "uint8"
	s.Types["Pair"].NoLegacy = true
	s.Types["Node"].Extensible = true
	s.Types["Bag"] = &Type{Name: "Bag", HasTag: true, Tag: 13, Value: "map[string]Value"}
	s.Types["Raw"] = &Type{Name: "Raw", Value: "[]byte", CatchAll: true}
	s.Unions["Value"].Variants = append(s.Unions["Value"].Variants, "Bag", "Raw")
	return s
}

func TestHinted(t *testing.T) {
	cases := []struct {
		hex, path, msg, show string
	}{
		{"6161", "", "", "/ Text (Value variant) /"},
		{"f5", "", "", "/ Flag (Value variant) /"},
		{"cb 18 ff", "", "", "/ Number (Value variant) /"},
		{"cb 19 0100", "Value(Number)", "integer 256 overflows uint8", ""},
		{"cc 01", "", "", "/ Value: Raw (the catch-all variant: no other takes tag 12) /"},
		{"01", "", "", "/ Value: Raw (the catch-all variant: no other takes an untagged integer) /"},
		{"a1 6141 01", "", "", "/ Value: Raw (the catch-all variant: no other takes an untagged map) /"}, // Pair has no legacy map
		{"Pair: a1 6141 01", "Pair", "expected array, found map (Pair has no legacy map form)", ""},
		{"ca 82 80 01", "", "", "/ 1: skipped (written by a newer version) /"},
		{"cd a1 616b 6161", "", "", `/ Text (Value variant) /`},
		{"cd a1 616b 01", "", "", `/ Value: Raw (the catch-all variant`},
		{"cd f6", "", "", "13(null)"}, // a nil Bag, tagged: the decoder takes it too
		{"f6", "", "", "/ Value: nil /"},
	}
	for _, c := range cases {
		typ, h := "Value", c.hex
		if before, after, ok := strings.Cut(h, ": "); ok {
			typ, h = before, after
		}
		data, _ := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		res, err := Decode(hintedSchema(), typ, data, Options{})
		if err != nil || res.Err != nil {
			t.Fatalf("%s: %v %v", c.hex, err, res.Err)
		}
		switch {
		case c.msg == "" && len(res.Problems) > 0:
			t.Errorf("%s: refused: %v\n%s", c.hex, res.Problems, res.Text)
		case c.msg != "" && (len(res.Problems) != 1 || res.Problems[0].Path != c.path || !strings.HasPrefix(res.Problems[0].Msg, c.msg)):
			t.Errorf("%s: problems %v, want %s: %s\n%s", c.hex, res.Problems, c.path, c.msg, res.Text)
		case !strings.Contains(string(res.Text), c.show):
			t.Errorf("%s: no %q in\n%s", c.hex, c.show, res.Text)
		}
	}
}

// TestNullKept labels a null "kept" only where fxamacker/cbor leaves the
// value as it is: a string, a number, a struct of the record; not an
// interface or a kind the record does not describe, which a null may set
// to nil.
func TestNullKept(t *testing.T) {
	s := &Schema{Types: map[string]*Type{
		"Rec": {Name: "Rec", Required: 5, Slots: []Slot{
			{Name: "S", Kind: "string"},
			{Name: "E", Kind: "error"},
			{Name: "F", Kind: "fmt.Stringer"},
			{Name: "P", Kind: "Pair"},
			{Name: "A", Kind: "any"},
		}},
		"Pair": {Name: "Pair", Required: 2, Slots: []Slot{{Name: "A", Kind: "int"}, {Name: "B", Kind: "int"}}},
	}}
	res, err := Decode(s, "Rec", []byte{0x85, 0xf6, 0xf6, 0xf6, 0xf6, 0xf6}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/ 0: S: kept /", "/ 1: E: error, which the record does not describe /", "/ 2: F: fmt.Stringer, which the record does not describe /", "/ 3: P: kept /", "/ 4: A /"} {
		if !strings.Contains(string(res.Text), want) {
			t.Errorf("missing %q in\n%s", want, res.Text)
		}
	}
}
