package diag

import (
	"encoding/hex"
	"strings"
	"testing"
)

// appendixA holds the examples of RFC 8949 Appendix A: the encoding and
// its diagnostic notation. Bignums keep their tag form (the appendix
// writes their value); everything else is the appendix's text.
var appendixA = []struct{ hex, diag string }{
	{"00", "0"},
	{"01", "1"},
	{"0a", "10"},
	{"17", "23"},
	{"1818", "24"},
	{"1819", "25"},
	{"1864", "100"},
	{"1903e8", "1000"},
	{"1a000f4240", "1000000"},
	{"1b000000e8d4a51000", "1000000000000"},
	{"1bffffffffffffffff", "18446744073709551615"},
	{"c249010000000000000000", "2(h'010000000000000000')"},
	{"3bffffffffffffffff", "-18446744073709551616"},
	{"c349010000000000000000", "3(h'010000000000000000')"},
	{"20", "-1"},
	{"29", "-10"},
	{"3863", "-100"},
	{"3903e7", "-1000"},
	{"f90000", "0.0"},
	{"f98000", "-0.0"},
	{"f93c00", "1.0"},
	{"fb3ff199999999999a", "1.1"},
	{"f93e00", "1.5"},
	{"f97bff", "65504.0"},
	{"fa47c35000", "100000.0"},
	{"fa7f7fffff", "3.4028234663852886e+38"},
	{"fb7e37e43c8800759c", "1.0e+300"},
	{"f90001", "5.960464477539063e-8"},
	{"f90400", "0.00006103515625"},
	{"f9c400", "-4.0"},
	{"fbc010666666666666", "-4.1"},
	{"f97c00", "Infinity"},
	{"f97e00", "NaN"},
	{"f9fc00", "-Infinity"},
	{"fa7f800000", "Infinity"},
	{"fa7fc00000", "NaN"},
	{"faff800000", "-Infinity"},
	{"fb7ff0000000000000", "Infinity"},
	{"fb7ff8000000000000", "NaN"},
	{"fbfff0000000000000", "-Infinity"},
	{"f4", "false"},
	{"f5", "true"},
	{"f6", "null"},
	{"f7", "undefined"},
	{"f0", "simple(16)"},
	{"f8ff", "simple(255)"},
	{"c074323031332d30332d32315432303a30343a30305a", `0("2013-03-21T20:04:00Z")`},
	{"c11a514b67b0", "1(1363896240)"},
	{"c1fb41d452d9ec200000", "1(1363896240.5)"},
	{"d74401020304", "23(h'01020304')"},
	{"d818456449455446", "24(h'6449455446')"},
	{"d82076687474703a2f2f7777772e6578616d706c652e636f6d", `32("http://www.example.com")`},
	{"40", "h''"},
	{"4401020304", "h'01020304'"},
	{"60", `""`},
	{"6161", `"a"`},
	{"6449455446", `"IETF"`},
	{"62225c", `"\"\\"`},
	// The RFC writes these three with \u escapes; printable text is
	// written as it is (the same string in diagnostic notation).
	{"62c3bc", `"ü"`},
	{"63e6b0b4", `"水"`},
	{"64f0908591", `"𐅑"`},
	{"80", "[]"},
	{"83010203", "[1, 2, 3]"},
	{"8301820203820405", "[1, [2, 3], [4, 5]]"},
	{"98190102030405060708090a0b0c0d0e0f101112131415161718181819", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]"},
	{"a0", "{}"},
	{"a201020304", "{1: 2, 3: 4}"},
	{"a26161016162820203", `{"a": 1, "b": [2, 3]}`},
	{"826161a161626163", `["a", {"b": "c"}]`},
	{"a56161614161626142616361436164614461656145", `{"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"}`},
	{"5f42010243030405ff", "(_ h'0102', h'030405')"},
	{"7f657374726561646d696e67ff", `(_ "strea", "ming")`},
	{"9fff", "[_ ]"},
	{"9f018202039f0405ffff", "[_ 1, [2, 3], [_ 4, 5]]"},
	{"9f01820203820405ff", "[_ 1, [2, 3], [4, 5]]"},
	{"83018202039f0405ff", "[1, [2, 3], [_ 4, 5]]"},
	{"83019f0203ff820405", "[1, [_ 2, 3], [4, 5]]"},
	{"9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", "[_ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]"},
	{"bf61610161629f0203ffff", `{_ "a": 1, "b": [_ 2, 3]}`},
	{"826161bf61626163ff", `["a", {_ "b": "c"}]`},
	{"bf6346756ef563416d7421ff", `{_ "Fun": true, "Amt": -2}`},
	// Not in the appendix: empty indefinite-length strings, as RFC 8610
	// Appendix G.2 writes them.
	{"5fff", "''_"},
	{"7fff", `""_`},
	{"bfff", "{_ }"},
}

// anySchema has one type whose only slot takes any item, so that Decode
// prints items as they are.
var anySchema = &Schema{Types: map[string]*Type{"Any": {Name: "Any", Required: 1, Slots: []Slot{{Name: "V", Kind: "any"}}}}}

func TestPlainAppendixA(t *testing.T) {
	for _, c := range appendixA {
		data, _ := hex.DecodeString(c.hex)
		var p parser
		p = parser{data: data, lim: DefaultLimits}
		n := p.item(0)
		if p.err != nil || p.off != len(data) {
			t.Errorf("%s: parse error %v at %d", c.hex, p.err, p.off)
			continue
		}
		if got := string(plain(nil, n)); got != c.diag {
			t.Errorf("%s: got %s, want %s", c.hex, got, c.diag)
		}
	}
}

// TestPlainSequence checks that -plain writes a CBOR sequence one item a
// line, and that Decode reports what it read.
func TestPlainSequence(t *testing.T) {
	var all []byte
	var want strings.Builder
	for _, c := range appendixA {
		data, _ := hex.DecodeString(c.hex)
		all = append(all, data...)
		want.WriteString(c.diag + "\n")
	}
	s := &Schema{Types: map[string]*Type{"Any": {Name: "Any"}}}
	res, err := Decode(s, "Any", all, Options{Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil || res.Items != len(appendixA) {
		t.Fatalf("items %d, err %v", res.Items, res.Err)
	}
	if string(res.Text) != want.String() {
		t.Errorf("got\n%s\nwant\n%s", res.Text, want.String())
	}
}

// notWellFormed are the examples of RFC 8949 Appendix F, and items beyond
// the runtime's limits: each must be refused with an offset.
var notWellFormed = []string{
	// end of input in a head
	"18", "19", "1a", "1b", "1901", "1a0102", "1b01020304050607", "38", "58", "78", "98", "9a01ff00", "b8", "d8", "f8", "f900", "fa0000", "fb000000",
	// definite-length strings with short data
	"41", "61", "5affffffff00", "5bffffffffffffffff010203", "7affffffff00", "7b7fffffffffffffff010203",
	// definite-length maps and arrays not closed with enough items
	"81", "818181818181818181", "8200", "a1", "a20102", "a100", "a2000000",
	// tag number not followed by tag content
	"c0",
	// indefinite-length strings not closed by a break
	"5f4100", "7f6100",
	// indefinite-length maps and arrays not closed by a break
	"9f", "9f0102", "bf", "bf01020102", "819f", "9f8000", "9f9f9f9f9fffffffff", "9f819f819f9fffffff",
	// reserved additional information
	"1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e", "9c", "9d", "9e", "bc", "bd", "be", "dc", "dd", "de", "fc", "fd", "fe",
	// two-byte simple values below 32
	"f800", "f801", "f818", "f81f",
	// indefinite length on integers and tags
	"1f", "3f", "df",
	// wrong chunks of an indefinite-length string
	"5f00ff", "5f21ff", "5f6100ff", "5f80ff", "5fa0ff", "5fc000ff", "5fe0ff", "7f4100ff", "5f5f4100ffff", "7f7f6100ffff",
	// a break where none may be
	"ff", "81ff", "8200ff", "a1ff", "a1ff00", "a100ff", "a20000ff", "9f81ff", "9f829f819f9fffffffff",
	// a break in place of a map value
	"bf00ff", "bf000000ff",
	// deeper than the runtime's 32 levels
	strings.Repeat("81", 33) + "00",
	strings.Repeat("c1", 34) + "00",
	// longer than the runtime's limits, claimed by the head
	"9b0000000100000000", "bb0000000100000000", "5b0000000100000000",
}

func TestNotWellFormed(t *testing.T) {
	for _, h := range notWellFormed {
		data, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(h, err)
		}
		for _, plain := range []bool{false, true} {
			res, err := Decode(anySchema, "Any", data, Options{Plain: plain})
			if err != nil {
				t.Fatal(err)
			}
			if res.Err == nil {
				t.Errorf("%s: accepted, got %s", h, res.Text)
				continue
			}
			if res.Err.Offset < 0 || res.Err.Offset > len(data) || res.OK() {
				t.Errorf("%s: error %v, offset out of the input", h, res.Err)
			}
			if !plain && !strings.Contains(string(res.Text), "/ not well-formed at offset ") {
				t.Errorf("%s: the notation does not say where it stopped:\n%s", h, res.Text)
			}
		}
	}
}

// TestDepthLimit checks the limit is the runtime's: 32 nested arrays
// are taken, 33 are not.
func TestDepthLimit(t *testing.T) {
	ok, _ := hex.DecodeString(strings.Repeat("81", 32) + "00")
	res, _ := Decode(anySchema, "Any", append([]byte{0x81}, ok[1:]...), Options{})
	if res.Err != nil {
		t.Errorf("32 levels: %v", res.Err)
	}
}

// TestQuoteText: printable text as it is, escapes for what is not
// printable, and \ufffd for bytes that are not UTF-8.
func TestQuoteText(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"Zoë", `"Zoë"`, true},
		{"a\"b\\c\n", `"a\"b\\c\n"`, true},
		{"\x00\x7f\u0085\u200b", `"\u0000\u007f\u0085\u200b"`, true},
		{"水𐅑", `"水𐅑"`, true},
		{"a\xffb", `"a\ufffdb"`, false},
		{"\uFFFD", `"�"`, true},
	} {
		got, ok := quoteText([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("quoteText(%q) = %s, %v; want %s, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
