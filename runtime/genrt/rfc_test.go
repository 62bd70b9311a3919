package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// appendixA transcribes the examples of RFC 8949 Appendix A. The one example
// the RFC 7049 table had and RFC 8949 dropped, simple(24) as f8 18, is not
// well-formed under RFC 8949 and sits in appendixF instead.
//
// enc is true when the runtime's append functions must reproduce hex exactly:
// definite lengths, shortest heads and the shortest float that keeps the
// value (the CoreDet rules). The other examples are checked by decoding.
type appendixAExample struct {
	diag string
	hex  string
	want any
	enc  bool
}

var appendixA = []appendixAExample{
	{"0", "00", uint64(0), true},
	{"1", "01", uint64(1), true},
	{"10", "0a", uint64(10), true},
	{"23", "17", uint64(23), true},
	{"24", "1818", uint64(24), true},
	{"25", "1819", uint64(25), true},
	{"100", "1864", uint64(100), true},
	{"1000", "1903e8", uint64(1000), true},
	{"1000000", "1a000f4240", uint64(1000000), true},
	{"1000000000000", "1b000000e8d4a51000", uint64(1000000000000), true},
	{"18446744073709551615", "1bffffffffffffffff", uint64(math.MaxUint64), true},
	{"18446744073709551616", "c249010000000000000000", tTag{2, []byte{1, 0, 0, 0, 0, 0, 0, 0, 0}}, true},
	{"-18446744073709551616", "3bffffffffffffffff", tSkip{}, false},
	{"-18446744073709551617", "c349010000000000000000", tTag{3, []byte{1, 0, 0, 0, 0, 0, 0, 0, 0}}, true},
	{"-1", "20", int64(-1), true},
	{"-10", "29", int64(-10), true},
	{"-100", "3863", int64(-100), true},
	{"-1000", "3903e7", int64(-1000), true},
	{"0.0", "f90000", 0.0, true},
	{"-0.0", "f98000", math.Copysign(0, -1), true},
	{"1.0", "f93c00", 1.0, true},
	{"1.1", "fb3ff199999999999a", 1.1, true},
	{"1.5", "f93e00", 1.5, true},
	{"65504.0", "f97bff", 65504.0, true},
	{"100000.0", "fa47c35000", 100000.0, true},
	{"3.4028234663852886e+38", "fa7f7fffff", 3.4028234663852886e+38, true},
	{"1.0e+300", "fb7e37e43c8800759c", 1.0e+300, true},
	{"5.960464477539063e-8", "f90001", 5.960464477539063e-8, true},
	{"0.00006103515625", "f90400", 0.00006103515625, true},
	{"-4.0", "f9c400", -4.0, true},
	{"-4.1", "fbc010666666666666", -4.1, true},
	{"Infinity", "f97c00", math.Inf(1), true},
	{"NaN", "f97e00", math.NaN(), true},
	{"-Infinity", "f9fc00", math.Inf(-1), true},
	// The same three values in single and double precision: not the
	// shortest form, so decoded only.
	{"Infinity (f32)", "fa7f800000", math.Inf(1), false},
	{"NaN (f32)", "fa7fc00000", math.NaN(), false},
	{"-Infinity (f32)", "faff800000", math.Inf(-1), false},
	{"Infinity (f64)", "fb7ff0000000000000", math.Inf(1), false},
	{"NaN (f64)", "fb7ff8000000000000", math.NaN(), false},
	{"-Infinity (f64)", "fbfff0000000000000", math.Inf(-1), false},
	{"false", "f4", false, true},
	{"true", "f5", true, true},
	{"null", "f6", tNull{}, true},
	{"undefined", "f7", tUndef{}, false},
	{"simple(16)", "f0", tSimple(16), false},
	{"simple(255)", "f8ff", tSimple(255), false},
	{`0("2013-03-21T20:04:00Z")`, "c074323031332d30332d32315432303a30343a30305a", tTag{0, "2013-03-21T20:04:00Z"}, true},
	{"1(1363896240)", "c11a514b67b0", tTag{1, uint64(1363896240)}, true},
	{"1(1363896240.5)", "c1fb41d452d9ec200000", tTag{1, 1363896240.5}, true},
	{"23(h'01020304')", "d74401020304", tTag{23, []byte{1, 2, 3, 4}}, true},
	{"24(h'6449455446')", "d818456449455446", tTag{24, []byte{0x64, 0x49, 0x45, 0x54, 0x46}}, true},
	{`32("http://www.example.com")`, "d82076687474703a2f2f7777772e6578616d706c652e636f6d", tTag{32, "http://www.example.com"}, true},
	{"h''", "40", []byte{}, true},
	{"h'01020304'", "4401020304", []byte{1, 2, 3, 4}, true},
	{`""`, "60", "", true},
	{`"a"`, "6161", "a", true},
	{`"IETF"`, "6449455446", "IETF", true},
	{`"\"\\"`, "62225c", "\"\\", true},
	{`"\u00fc"`, "62c3bc", "\u00fc", true},
	{`"\u6c34"`, "63e6b0b4", "\u6c34", true},
	{`"\ud800\udd51"`, "64f0908591", "\U00010151", true},
	{"[]", "80", arr(), true},
	{"[1, 2, 3]", "83010203", arr(uint64(1), uint64(2), uint64(3)), true},
	{"[1, [2, 3], [4, 5]]", "8301820203820405", arr(uint64(1), arr(uint64(2), uint64(3)), arr(uint64(4), uint64(5))), true},
	{"[1, 2, 3, ..., 25]", "98190102030405060708090a0b0c0d0e0f101112131415161718181819", arr(oneTo25()...), true},
	{"{}", "a0", mp(), true},
	{"{1: 2, 3: 4}", "a201020304", mp(uint64(1), uint64(2), uint64(3), uint64(4)), true},
	{`{"a": 1, "b": [2, 3]}`, "a26161016162820203", mp("a", uint64(1), "b", arr(uint64(2), uint64(3))), true},
	{`["a", {"b": "c"}]`, "826161a161626163", arr("a", mp("b", "c")), true},
	{`{"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"}`, "a56161614161626142616361436164614461656145",
		mp("a", "A", "b", "B", "c", "C", "d", "D", "e", "E"), true},
	{"(_ h'0102', h'030405')", "5f42010243030405ff", []byte{1, 2, 3, 4, 5}, false},
	{`(_ "strea", "ming")`, "7f657374726561646d696e67ff", "streaming", false},
	{"[_ ]", "9fff", iarr(), false},
	{"[_ 1, [2, 3], [_ 4, 5]]", "9f018202039f0405ffff", iarr(uint64(1), arr(uint64(2), uint64(3)), iarr(uint64(4), uint64(5))), false},
	{"[_ 1, [2, 3], [4, 5]]", "9f01820203820405ff", iarr(uint64(1), arr(uint64(2), uint64(3)), arr(uint64(4), uint64(5))), false},
	{"[1, [2, 3], [_ 4, 5]]", "83018202039f0405ff", arr(uint64(1), arr(uint64(2), uint64(3)), iarr(uint64(4), uint64(5))), false},
	{"[1, [_ 2, 3], [4, 5]]", "83019f0203ff820405", arr(uint64(1), iarr(uint64(2), uint64(3)), arr(uint64(4), uint64(5))), false},
	{"[_ 1, 2, 3, ..., 25]", "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", iarr(oneTo25()...), false},
	{`{_ "a": 1, "b": [_ 2, 3]}`, "bf61610161629f0203ffff", imp("a", uint64(1), "b", iarr(uint64(2), uint64(3))), false},
	{`["a", {_ "b": "c"}]`, "826161bf61626163ff", arr("a", imp("b", "c")), false},
	{`{_ "Fun": true, "Amt": -2}`, "bf6346756ef563416d7421ff", imp("Fun", true, "Amt", int64(-2)), false},
}

func oneTo25() []any {
	var s []any
	for i := uint64(1); i <= 25; i++ {
		s = append(s, i)
	}
	return s
}

func TestAppendixAEncode(t *testing.T) {
	n := 0
	for _, ex := range appendixA {
		if !ex.enc {
			continue
		}
		n++
		want := mustHex(ex.hex)
		if got := appendTree(nil, ex.want); !bytes.Equal(got, want) {
			t.Errorf("%s: runtime encodes %x, RFC 8949 says %x", ex.diag, got, want)
		}
		// The examples chosen for enc are exactly those that fxamacker's
		// CoreDet mode writes byte for byte too.
		if fx, ok := fxValue(ex.want); ok {
			b, err := fxEnc.Marshal(fx)
			if err != nil {
				t.Errorf("%s: fxamacker: %v", ex.diag, err)
			} else if !bytes.Equal(b, want) {
				t.Errorf("%s: fxamacker encodes %x, want %x", ex.diag, b, want)
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d encodable examples; the table lost entries", n)
	}
}

// fxValue turns a scalar of the expected tree into the Go value fxamacker
// encodes to the same bytes.
func fxValue(v any) (any, bool) {
	switch w := v.(type) {
	case uint64, int64, float64, bool, string, []byte:
		return w, true
	case tNull:
		return nil, true
	}
	return nil, false
}

func TestAppendixADecode(t *testing.T) {
	for _, ex := range appendixA {
		data := mustHex(ex.hex)
		for _, k := range decoderKinds {
			d := k.new(data)
			if err := readTree(d, ex.want); err != nil {
				t.Errorf("%s %s (%s): %v", k.name, ex.diag, ex.hex, err)
				continue
			}
			checkAtEnd(t, d, len(data))
		}
	}
}

func TestAppendixAValidAndSkip(t *testing.T) {
	for _, ex := range appendixA {
		data := mustHex(ex.hex)
		if err := genrt.Valid(data); err != nil {
			t.Errorf("Valid(%s = %s) = %v", ex.diag, ex.hex, err)
		}
		if err := cbor.Wellformed(data); err != nil {
			t.Errorf("fxamacker Wellformed(%s) = %v", ex.hex, err)
		}
		if err := fxValid(data); err != nil {
			t.Errorf("fxamacker strict decode(%s) = %v; genrt.Valid accepts it", ex.hex, err)
		}
		for _, k := range decoderKinds {
			off, err := skipAll(k, data)
			if err != nil {
				t.Errorf("%s Skip(%s) = %v", k.name, ex.hex, err)
			} else if off != int64(len(data)) {
				t.Errorf("%s Skip(%s) consumed %d bytes, want %d", k.name, ex.hex, off, len(data))
			}
		}
	}
}

// TestAppendixAStream decodes all examples back to back from one stream: the
// reader decoder must stop at each item's last byte.
func TestAppendixAStream(t *testing.T) {
	var all []byte
	for _, ex := range appendixA {
		all = append(all, mustHex(ex.hex)...)
	}
	for _, k := range decoderKinds {
		d := k.new(all)
		for _, ex := range appendixA {
			if err := readTree(d, ex.want); err != nil {
				t.Fatalf("%s: %s: %v", k.name, ex.diag, err)
			}
		}
		checkAtEnd(t, d, len(all))

		d = k.new(all)
		for i := range appendixA {
			if err := d.Skip(); err != nil {
				t.Fatalf("%s: Skip item %d: %v", k.name, i, err)
			}
		}
		checkAtEnd(t, d, len(all))
	}
}

// appendixF lists RFC 8949 Appendix F.1, "Examples of CBOR data items that
// are not well-formed", grouped as the RFC groups them, plus the two-byte
// simple values the RFC describes but lists only by example.
var appendixF = []struct {
	group string
	items []string
}{
	{"end of input in a head", []string{
		"18", "19", "1a", "1b", "19 01", "1a 01 02", "1b 01 02 03 04 05 06 07",
		"38", "58", "78", "98", "9a 01 ff 00", "b8", "d8", "f8", "f9 00", "fa 00 00", "fb 00 00 00"}},
	{"definite-length strings with short data", []string{
		"41", "61", "5a ff ff ff ff 00", "5b ff ff ff ff ff ff ff ff 01 02 03",
		"7a ff ff ff ff 00", "7b 7f ff ff ff ff ff ff ff 01 02 03"}},
	{"definite-length maps and arrays not closed with enough items", []string{
		"81", "81 81 81 81 81 81 81 81 81", "82 00", "a1", "a2 01 02", "a1 00", "a2 00 00 00"}},
	{"tag number not followed by tag content", []string{"c0"}},
	{"indefinite-length strings not closed by a break", []string{"5f 41 00", "7f 61 00"}},
	{"indefinite-length maps and arrays not closed by a break", []string{
		"9f", "9f 01 02", "bf", "bf 01 02 01 02", "81 9f", "9f 80 00",
		"9f 9f 9f 9f 9f ff ff ff ff", "9f 81 9f 81 9f 9f ff ff ff"}},
	{"reserved additional information values", []string{
		"1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e",
		"9c", "9d", "9e", "bc", "bd", "be", "dc", "dd", "de", "fc", "fd", "fe"}},
	{"reserved two-byte encodings of simple values", []string{"f8 00", "f8 01", "f8 18", "f8 1f"}},
	{"indefinite-length string chunks not of the correct type", []string{
		"5f 00 ff", "5f 21 ff", "5f 61 00 ff", "5f 80 ff", "5f a0 ff", "5f c0 00 ff", "5f e0 ff", "7f 41 00 ff"}},
	{"indefinite-length string chunks not definite length", []string{"5f 5f 41 00 ff ff", "7f 7f 61 00 ff ff"}},
	{"break on its own outside of an indefinite-length item", []string{"ff"}},
	{"break in a definite-length array or map or a tag", []string{
		"81 ff", "82 00 ff", "a1 ff", "a1 ff 00", "a1 00 ff", "a2 00 00 ff", "9f 81 ff", "9f 82 9f 81 9f 9f ff ff ff ff"}},
	{"break in a value position of an indefinite-length map", []string{"bf 00 ff", "bf 00 00 00 ff"}},
	{"major type 0, 1, 6 with additional information 31", []string{"1f", "3f", "df"}},
}

// appendixFExtra are further not-well-formed items of the same kinds: every
// reserved two-byte simple value, a break as a tag's content, a break as a
// map key after a key-value pair inside a definite map, and an indefinite
// string inside an indefinite string's chunk position of the other type.
func appendixFExtra() []string {
	var s []string
	for v := 0; v < 32; v++ {
		s = append(s, fmt.Sprintf("f8%02x", v))
	}
	return append(s, "c1 ff", "d8 20 ff", "a2 01 02 ff 00", "5f 7f ff ff", "7f 5f ff ff", "5f 9f ff ff", "7f f6 ff")
}

func allAppendixF() []string {
	var s []string
	for _, g := range appendixF {
		s = append(s, g.items...)
	}
	return append(s, appendixFExtra()...)
}

func TestAppendixFRejected(t *testing.T) {
	count := 0
	for _, h := range allAppendixF() {
		count++
		data := mustHex(h)
		if err := cbor.Wellformed(data); err == nil {
			t.Errorf("fxamacker Wellformed accepts %s; the table is wrong", h)
		}
		err := genrt.Valid(data)
		if err == nil {
			t.Errorf("Valid(%s) = nil, want an error", h)
			continue
		}
		asError(t, err)
		for _, k := range decoderKinds {
			d := k.new(data)
			err := d.Skip()
			if err == nil {
				t.Errorf("%s Skip(%s) = nil after %d bytes, want an error", k.name, h, d.Offset())
				continue
			}
			asError(t, err)
			if d.Offset() > int64(len(data)) {
				t.Errorf("%s Skip(%s) reports offset %d past the input", k.name, h, d.Offset())
			}
		}
	}
	if count < 100 {
		t.Fatalf("only %d examples", count)
	}
}

// TestAppendixFTypedReads feeds the not-well-formed items to the typed read
// that the item's first byte calls for; each must fail with a *genrt.Error.
func TestAppendixFTypedReads(t *testing.T) {
	for _, h := range allAppendixF() {
		data := mustHex(h)
		for _, k := range decoderKinds {
			err := readByFirstByte(k.new(data))
			if err == nil {
				t.Errorf("%s typed read of %s = nil, want an error", k.name, h)
				continue
			}
			asError(t, err)
		}
	}
}

// readByFirstByte reads one item with the typed read its first byte selects,
// descending into containers with Skip for the contents.
func readByFirstByte(d *genrt.Decoder) error {
	m, err := d.PeekMajor()
	if err != nil {
		return err
	}
	switch m {
	case genrt.MajorUint:
		_, err = d.ReadUint64()
	case genrt.MajorNeg:
		_, err = d.ReadInt64()
	case genrt.MajorBytes:
		_, err = d.ReadBytes(nil)
	case genrt.MajorText:
		_, err = d.ReadString()
	case genrt.MajorArray, genrt.MajorMap:
		var n int
		per := 1 // items per element: a map pair is two
		if m == genrt.MajorArray {
			n, err = d.ReadArrayHead()
		} else {
			n, err = d.ReadMapHead()
			per = 2
		}
		if err != nil {
			return err
		}
		for i := 0; n < 0 || i < n; i++ {
			if n < 0 {
				brk, err := d.ReadBreak()
				if err != nil {
					return err
				}
				if brk {
					break
				}
			}
			for j := 0; j < per; j++ {
				if err := readByFirstByte(d); err != nil {
					return err
				}
			}
		}
		d.Leave()
		return nil
	case genrt.MajorTag:
		if _, err = d.ReadTag(); err != nil {
			return err
		}
		return readByFirstByte(d)
	case genrt.MajorSimple:
		if _, err = d.ReadFloat64(); err == nil {
			return nil
		}
		if _, err = d.ReadBool(); err == nil {
			return nil
		}
		var null bool
		if null, err = d.ReadNull(); err == nil && !null {
			err = d.Skip()
		}
	}
	return err
}

// TestAppendixFErrors pins the sentinel for the groups where the reason is
// unambiguous.
func TestAppendixFErrors(t *testing.T) {
	for _, g := range appendixF {
		var want error
		switch g.group {
		case "end of input in a head", "indefinite-length strings not closed by a break",
			"indefinite-length maps and arrays not closed by a break", "tag number not followed by tag content",
			"definite-length maps and arrays not closed with enough items":
			want = io.ErrUnexpectedEOF
		case "reserved additional information values", "reserved two-byte encodings of simple values",
			"indefinite-length string chunks not of the correct type", "indefinite-length string chunks not definite length",
			"break on its own outside of an indefinite-length item", "break in a definite-length array or map or a tag",
			"break in a value position of an indefinite-length map", "major type 0, 1, 6 with additional information 31":
			want = genrt.ErrSyntax
		default:
			continue // short string data: io.ErrUnexpectedEOF or ErrLimit for huge lengths
		}
		is := func(err error) bool { return errors.Is(err, want) }
		if g.group == "break in a definite-length array or map or a tag" {
			// A definite map or array whose items are cut short by the
			// break is also shorter than its head says: the []byte decoder
			// may report the truncation first.
			is = func(err error) bool { return errors.Is(err, want) || errors.Is(err, io.ErrUnexpectedEOF) }
		}
		for _, h := range g.items {
			data := mustHex(h)
			if err := genrt.Valid(data); !is(err) {
				t.Errorf("Valid(%s) = %v, want errors.Is %v", h, err, want)
			}
			for _, k := range decoderKinds {
				if _, err := skipAll(k, data); !is(err) {
					t.Errorf("%s Skip(%s) = %v, want errors.Is %v", k.name, h, err, want)
				}
			}
		}
	}
}
