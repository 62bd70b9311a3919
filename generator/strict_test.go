package generator_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/containers"
)

// TestStrictRefuses: each input fxamacker/cbor's default options read
// beyond the data model of a field's type, put in one field of a
// Containers, is read as fxamacker reads it into the mirror (into a value
// that held data, in place) and refused in strict mode, with the cause
// given, over a slice and over a one-byte stream.
func TestStrictRefuses(t *testing.T) {
	base, err := (&containers.Containers{}).MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var elems []cbor.RawMessage
	if err := cbor.Unmarshal(base, &elems); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		field int // Bytes 0, Fixed 2, Ints 4, Triple 6, Grid 7, ByName 9
		item  string
		is    error
	}{
		{2, "4101", runtime.ErrLength},         // a short byte string for a [3]byte
		{2, "4401020304", runtime.ErrLength},   // a long one
		{2, "83010203", runtime.ErrType},       // an array of integers for a [3]byte
		{2, "f6", runtime.ErrType},             // null: the value kept
		{6, "8101", runtime.ErrLength},         // a short array for a [3]int16
		{6, "8401020304", runtime.ErrLength},   // a long one
		{6, "9f0102ff", runtime.ErrStrict},     // a short indefinite one
		{6, "83e50000", runtime.ErrType},       // a simple value for an int16
		{6, "f7", runtime.ErrType},             // undefined: the value kept
		{7, "81820102", runtime.ErrType},       // a short [2][2]uint8, of integer arrays
		{0, "820102", runtime.ErrType},         // an array of integers for a []byte
		{0, "c6f6", runtime.ErrType},           // a tag around null for a []byte
		{4, "c6f6", runtime.ErrType},           // ... for a []int
		{9, "d818f6", runtime.ErrType},         // ... for a map
		{6, "c6f6", runtime.ErrType},           // ... for a [3]int16: kept
		{9, "a26161016162f6", runtime.ErrType}, // a null map value: zero
	}
	typ := reflect.TypeFor[containers.Containers]()
	arrayT := newMirrors().mirror(typ, true)
	for _, c := range cases {
		parts := append([]cbor.RawMessage(nil), elems...)
		parts[c.field] = mustHex(t, c.item)
		in, err := cbor.Marshal(parts)
		if err != nil {
			t.Fatal(err)
		}
		used := func() *containers.Containers {
			return &containers.Containers{Fixed: [3]byte{7, 7, 7}, Triple: [3]int16{9, 9, 9}, Bytes: []byte{5}, ByName: map[string]int{"z": 1}}
		}
		got := used()
		if err := got.UnmarshalCBOR(in); err != nil {
			t.Errorf("%s in field %d: default options: %v", c.item, c.field, err)
			continue
		}
		m := copyInto(reflect.ValueOf(used()).Elem(), arrayT)
		if err := cbor.Unmarshal(in, m.Addr().Interface()); err != nil {
			t.Fatalf("%s in field %d: fxamacker: %v", c.item, c.field, err)
		}
		if want := convert(m, typ).Interface(); !reflect.DeepEqual(*got, want) {
			t.Errorf("%s in field %d: %+v, fxamacker %+v", c.item, c.field, *got, want)
		}
		for _, stream := range []bool{false, true} {
			if err := decodeStrict(used(), in, stream); !errors.Is(err, c.is) {
				t.Errorf("%s in field %d, stream %v: strict: %v, want %v", c.item, c.field, stream, err, c.is)
			}
		}
	}
}

// decodeStrict decodes in into v in strict mode, over a slice or over a
// one-byte stream.
func decodeStrict(v *containers.Containers, in []byte, stream bool) error {
	if !stream {
		return runtime.Unmarshal(in, v, runtime.Options{Strict: true})
	}
	d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(in)))
	d.SetOptions(runtime.Options{Strict: true})
	return v.DecodeCBOR(d)
}
