package diag

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// slotMembers is what the array rule of t must list: the slots' field
// names in slot order, reserved slots as reservedN.
func slotMembers(t *Type) []string {
	var want []string
	for i, s := range t.Slots {
		if s.Reserved {
			want = append(want, fmt.Sprintf("reserved%d", i))
		} else {
			want = append(want, cddlID(s.Name))
		}
	}
	return want
}

// CheckCDDL reports what the CDDL text of s lacks: a rule for each type
// and union, and for each array type an array rule with the slots in
// order.
func CheckCDDL(s *Schema, text string) error {
	names, members := rules(text)
	for _, name := range s.names() {
		if !slices.Contains(names, ruleName(name)) {
			return fmt.Errorf("no rule for %s", name)
		}
		t := s.Types[name]
		if t == nil || t.Map || t.opaque() {
			continue
		}
		if got, want := members[ruleName(name)], slotMembers(t); !slices.Equal(got, want) {
			return fmt.Errorf("%s-array lists %v, want the slots %v", name, got, want)
		}
	}
	return nil
}

func TestCDDL(t *testing.T) {
	s := testSchema()
	text := string(CDDL(s, "the test record"))
	if err := CheckCDDL(s, text); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, want := range []string{
		"Order = Order-array / Order-legacy\n",
		"Order-array = [\n  SKU: tstr,  ; 0\n  Count: uint8,  ; 1\n  reserved2: any,  ; 2: reserved, was Coupon\n  ? Price: float / null,  ; 3\n  ? Tags: null / {* tstr => tstr},  ; 4\n  ? Items: null / [* Item],  ; 5\n]\n",
		"Order-legacy = {\n  ? \"sku\" => tstr,  ; SKU\n  ? \"count\" => uint8,  ; Count\n  ? \"Price\" => float / null,  ; Price\n",
		"  * tstr => any,  ; other keys are skipped\n  * int => any,\n}\n",
		"Item = #6.7(Item-array) / #6.7(Item-legacy) / Item-array / Item-legacy\n",
		"Item-legacy = {\n  ? 1 => uint,  ; ID\n  ? 2 => tstr,  ; Name\n",
		"Header = Header-map\nHeader-map = {\n  ? 1 => int64,  ; Alg\n  ? 4 => bstr / null,  ; KeyID\n  * tstr",
		"Number = #6.11(any)\n",
		"Value = Flag / Node / Number / Pair / Text\n",
		"  Sum: bstr .size 2,  ; 3\n",
		"  At: cborgen-time,  ; 0\n  Big: integer / null,  ; 1\n",
		"int8 = -128..127\nint64 = -9223372036854775808..9223372036854775807\nuint8 = uint .size 1\ncborgen-time = int / float / tstr / tdate / time\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing\n%s\nin\n%s", want, text)
		}
	}
}

// TestCDDLNested checks that a choice within an array or a map is in
// parentheses, with any array or map within it a rule of its own.
func TestCDDLNested(t *testing.T) {
	s := &Schema{Types: map[string]*Type{"N": {Name: "N", Required: 2, Slots: []Slot{
		{Name: "Deep", Kind: "[][]string"},
		{Name: "ByKey", Kind: "map[bool]*[]float32"},
	}}}}
	text := string(CDDL(s, "x"))
	for _, want := range []string{
		"  Deep: null / [* (null / slice-string)],  ; 0\n",
		"  ByKey: null / {* bool => (null / slice-float16-32)},  ; 1\n",
		"slice-float16-32 = [* (float16 / float32)]\nslice-string = [* tstr]\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing\n%s\nin\n%s", want, text)
		}
	}
	if err := CheckCDDL(s, text); err != nil {
		t.Error(err)
	}
}

// TestCDDLParses parses the CDDL of the test record with an independent
// parser, the npm cddl package, and compares the members of its array
// rules with the slots. It runs where node is installed and the test
// module's packages are (npm ci in testdata/npm); elsewhere it skips.
func TestCDDLParses(t *testing.T) {
	s := testSchema()
	file := filepath.Join(t.TempDir(), "test.cddl")
	if err := os.WriteFile(file, CDDL(s, "the test record"), 0o666); err != nil {
		t.Fatal(err)
	}
	arrays := NodeParseCDDL(t, filepath.Join("testdata", "npm"), file)
	for _, name := range s.names() {
		if typ := s.Types[name]; typ != nil && !typ.Map && !typ.opaque() {
			if got, want := arrays[file][name+"-array"], slotMembers(typ); !slices.Equal(got, want) {
				t.Errorf("%s-array: the parser reads %v, want %v", name, got, want)
			}
		}
	}
}

// genericSchema has a generic type used with three sets of arguments,
// one of them a use of itself.
func genericSchema() *Schema {
	return &Schema{Types: map[string]*Type{
		"Pair": {Name: "Pair", Required: 3, Params: []string{"K", "V"}, Slots: []Slot{
			{Name: "Key", Kind: "K"},
			{Name: "Vals", Kind: "[]V"},
			{Name: "ByKey", Kind: "map[string]*V"},
		}},
		"Item": {Name: "Item", Required: 1, Slots: []Slot{{Name: "KV", Kind: "K"}}}, // a field named like a parameter
		"Doc": {Name: "Doc", Required: 3, Slots: []Slot{
			{Name: "A", Kind: "Pair[string, Item]"},
			{Name: "B", Kind: "*Pair[uint8, []byte]"},
			{Name: "C", Kind: "Pair[int64, Pair[string, Item]]"},
		}},
	}}
}

// TestCDDLGeneric: each use of a generic type is a rule of its own, with
// the type arguments in place of the parameters (and nothing else).
func TestCDDLGeneric(t *testing.T) {
	s := genericSchema()
	text := string(CDDL(s, "x"))
	for _, want := range []string{
		"  A: Pair-string-Item,  ; 0\n",
		"  B: Pair-uint8-slice-byte / null,  ; 1\n",
		"  C: Pair-int64-Pair-string-Item,  ; 2\n",
		"Pair-string-Item-array = [\n  Key: tstr,  ; 0\n  Vals: null / [* Item],  ; 1\n  ByKey: null / {* tstr => (Item / null)},  ; 2\n]\n",
		"Pair-uint8-slice-byte-array = [\n  Key: uint8,  ; 0\n  Vals: null / [* (bstr / null)],  ; 1\n",
		"Pair-int64-Pair-string-Item-array = [\n  Key: int64,  ; 0\n  Vals: null / [* Pair-string-Item],  ; 1\n",
		"Item-array = [\n  KV: any,  ; 0\n]\n",
		"; Pair[K, V] is generic",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing\n%s\nin\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\nPair-string-Item = "); n != 1 {
		t.Errorf("Pair-string-Item written %d times", n)
	}
	if err := CheckCDDL(s, text); err != nil {
		t.Error(err)
	}
	file := filepath.Join(t.TempDir(), "generic.cddl")
	if err := os.WriteFile(file, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	arrays := NodeParseCDDL(t, filepath.Join("testdata", "npm"), file)
	if got := arrays[file]["Pair-int64-Pair-string-Item-array"]; !slices.Equal(got, []string{"Key", "Vals", "ByKey"}) {
		t.Errorf("the npm parser reads %v", got)
	}
}

// TestDecodeGeneric annotates a use of a generic type with its type
// arguments in place.
func TestDecodeGeneric(t *testing.T) {
	// [["k", [[7]], {}], null, null]: Doc.A is Pair[string, Item].
	res, err := Decode(genericSchema(), "Doc", []byte{0x83, 0x83, 0x61, 'k', 0x81, 0x81, 0x07, 0xa0, 0xf6, 0xf6}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/ 0: A: Pair[string, Item] (current format) /", "/ Item (current format) /", "/ 0: KV: K, which the record does not describe /"} {
		if !strings.Contains(string(res.Text), want) {
			t.Errorf("missing %q in\n%s", want, res.Text)
		}
	}
	if !res.OK() {
		t.Errorf("refused: %v\n%s", res.Problems, res.Text)
	}
}
