package generator_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
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
		{2, "4101", genrt.ErrLength},
		{2, "4401020304", genrt.ErrLength},
		{2, "83010203", genrt.ErrType},
		{2, "f6", genrt.ErrType},
		{6, "8101", genrt.ErrLength},
		{6, "8401020304", genrt.ErrLength},
		{6, "9f0102ff", genrt.ErrStrict},
		{6, "83e50000", genrt.ErrType},
		{6, "f7", genrt.ErrType},
		{7, "81820102", genrt.ErrType},
		{0, "820102", genrt.ErrType},
		{0, "c6f6", genrt.ErrType},
		{4, "c6f6", genrt.ErrType},
		{9, "d818f6", genrt.ErrType},
		{6, "c6f6", genrt.ErrType},
		{9, "a26161016162f6", genrt.ErrType},
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
		return genrt.Unmarshal(in, v, genrt.Options{Strict: true})
	}
	d := genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(in)))
	d.SetOptions(genrt.Options{Strict: true})
	return v.DecodeCBOR(d)
}
