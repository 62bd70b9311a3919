package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// TestAtStructField checks that the one exit of a -small DecodeCBOR names
// the field and the type as the default code does at each place a field
// can fail: AtRoot(AtField(err, name), typ, OneItem), the name taken by
// its number from the type's space-separated field names.
func TestAtStructField(t *testing.T) {
	names := "ID Name  Tail"
	for field, name := range []string{"ID", "Name", "", "Tail"} {
		cause := func() error {
			return genrt.NewBytesDecoder(mustHex("01")).Errorf(genrt.ErrType, "expected text string, found unsigned integer")
		}
		got := genrt.AtStructField(genrt.AtIndex(cause(), 3), field, names, "Item")
		want := genrt.AtRoot(genrt.AtField(genrt.AtIndex(cause(), 3), name), "Item", genrt.OneItem)
		if got.Error() != want.Error() {
			t.Errorf("field %d: %q, want %q", field, got, want)
		}
		if !errors.Is(got, genrt.ErrType) {
			t.Errorf("field %d: %v is not ErrType", field, got)
		}
	}
}

// TestInitBytes checks that a zero Decoder readied by InitBytes is the
// Decoder NewBytesDecoder makes, with and without process defaults.
func TestInitBytes(t *testing.T) {
	data := mustHex("8201626869")
	check := func(what string) {
		t.Helper()
		var d genrt.Decoder
		d.InitBytes(data)
		if want := genrt.NewBytesDecoder(data); !reflect.DeepEqual(&d, want) {
			t.Errorf("%s: InitBytes made %+v\nNewBytesDecoder %+v", what, d, *want)
		}
	}
	check("built-in defaults")
	genrt.SetDefaultOptions(genrt.Options{MaxDepth: 7, Strict: true})
	defer genrt.SetDefaultOptions(genrt.Options{})
	check("process defaults")
}

// TestOwned checks the copy MarshalCBOR returns: the bytes of its
// buffer in a slice of their own, or the error alone.
func TestOwned(t *testing.T) {
	var b [64]byte
	enc := append(b[:0], 0x82, 0x01, 0x02)
	out, err := genrt.Owned(enc, nil)
	if err != nil || !bytes.Equal(out, []byte{0x82, 0x01, 0x02}) {
		t.Fatalf("Owned = %x, %v", out, err)
	}
	b[1] = 0xff
	if out[1] != 0x01 {
		t.Error("Owned's result shares the buffer")
	}
	if out, err := genrt.Owned(enc, genrt.ErrRange); out != nil || err != genrt.ErrRange {
		t.Errorf("Owned with an error = %x, %v", out, err)
	}
}

// TestSliceOf checks the -small loops of slices against what the
// generated loop writes and reads: fxamacker's encoding of the same value
// (null for nil), each element kind, definite and indefinite arrays,
// reuse of the slice, and the errors inside an element.
func TestSliceOf(t *testing.T) {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, em, []string{"a", "", "longer text than twenty-three bytes"})
	roundTrip(t, em, []bool{true, false})
	roundTrip(t, em, []int{0, -1, 24, math.MaxInt, math.MinInt})
	roundTrip(t, em, []int8{math.MinInt8, math.MaxInt8})
	roundTrip(t, em, []int16{math.MinInt16, math.MaxInt16})
	roundTrip(t, em, []int32{math.MinInt32, math.MaxInt32})
	roundTrip(t, em, []int64{math.MinInt64, math.MaxInt64})
	roundTrip(t, em, []uint{0, 23, 24, math.MaxUint})
	roundTrip(t, em, []uint16{math.MaxUint16})
	roundTrip(t, em, []uint32{math.MaxUint32})
	roundTrip(t, em, []uint64{math.MaxUint64})
	roundTrip(t, em, []string(nil))
	roundTrip(t, em, []int{})

	// An indefinite array, into a slice with room: its elements are
	// reused, the length is the input's.
	s := make([]uint16, 1, 8)
	s, err = genrt.ReadSliceOf(genrt.NewBytesDecoder(mustHex("9f 01 02 ff")), s)
	if err != nil || !reflect.DeepEqual(s, []uint16{1, 2}) {
		t.Errorf("indefinite: %v, %v", s, err)
	}

	// Errors: the element's, inside its index; the array's own, as it is.
	for _, c := range []struct {
		in, want string
	}{
		{"82 01 61 61", "[1]"},       // text where an integer is
		{"82 01 1a 00010000", "[1]"}, // too big for uint16
		{"9f 01", ""},                // the input ends before the break
		{"61 61", ""},                // not an array
	} {
		_, err := genrt.ReadSliceOf(genrt.NewBytesDecoder(mustHex(c.in)), []uint16(nil))
		if err == nil {
			t.Errorf("%s: no error", c.in)
		} else if got := err.Error(); !strings.Contains(got, c.want) || c.want == "" && strings.Contains(got, "[") {
			t.Errorf("%s: %q does not name %q", c.in, got, c.want)
		}
	}
}

// roundTrip checks AppendSliceOf against fxamacker's encoding of v and
// ReadSliceOf against v.
func roundTrip[E genrt.SmallElem](t *testing.T, em cbor.EncMode, v []E) {
	t.Helper()
	want, err := em.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if got := genrt.AppendSliceOf(nil, v); !bytes.Equal(got, want) {
		t.Errorf("%T %v: AppendSliceOf %x, fxamacker %x", v, v, got, want)
	}
	got, err := genrt.ReadSliceOf(genrt.NewBytesDecoder(want), []E{})
	if err != nil || !reflect.DeepEqual(got, v) && !(len(got) == 0 && len(v) == 0 && (got == nil) == (v == nil)) {
		t.Errorf("%T %x: ReadSliceOf %v, %v", v, want, got, err)
	}
}

// TestAppendStringMapOf checks the -small map writer against fxamacker's
// canonical encoding of the same maps (keys sorted as CBOR's
// length-first order sorts them, null for nil).
func TestAppendStringMapOf(t *testing.T) {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	check := func(v any, got []byte) {
		t.Helper()
		want, err := em.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%v: %x, want %x", v, got, want)
		}
	}
	ints := map[string]int64{"b": 2, "a": -1, "aa": 300, "": math.MinInt64}
	check(ints, genrt.AppendStringMapOf(nil, ints))
	texts := map[string]string{"zz": "1", "y": "2"}
	check(texts, genrt.AppendStringMapOf(nil, texts))
	bools := map[string]bool{"only": true}
	check(bools, genrt.AppendStringMapOf(nil, bools))
	var none map[string]uint32
	check(none, genrt.AppendStringMapOf(nil, none))
	check(map[string]uint32{}, genrt.AppendStringMapOf(nil, map[string]uint32{}))
}

// TestReadStringToAndFinishCall checks the two calls of -small's
// UnmarshalCBOR and DecodeCBOR against the forms they replace: a string
// read over the old value (null keeps it), and the end of the input.
func TestReadStringToAndFinishCall(t *testing.T) {
	for _, in := range []string{"6161", "f6", "01", "7f"} {
		s, want := "old", "old"
		var wantErr, err error
		want, wantErr = genrt.NewBytesDecoder(mustHex(in)).ReadStringOr(want)
		err = genrt.NewBytesDecoder(mustHex(in)).ReadStringTo(&s)
		if s != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: ReadStringTo %q, %v; ReadStringOr %q, %v", in, s, err, want, wantErr)
		}
	}
	for _, in := range []string{"01", "0102", ""} {
		var d genrt.Decoder
		d.InitBytes(mustHex(in))
		_, rerr := d.ReadUint64()
		got := d.FinishCall(rerr, "Item")
		e := genrt.NewBytesDecoder(mustHex(in))
		_, rerr = e.ReadUint64()
		want := e.Finish(rerr, "Item")
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: FinishCall %v, Finish %v", in, got, want)
		}
	}
	var d genrt.Decoder
	d.InitBytes(mustHex("0102"))
	d.ReadUint64()
	if err := d.FinishCall(nil, "Item"); !errors.Is(err, genrt.ErrTrailing) {
		t.Errorf("data after the value: %v, want ErrTrailing", err)
	}
}
