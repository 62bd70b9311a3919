package generator_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/mapformat"
	"github.com/cborgen/cborgen/testdata/golden/sortlength"
	"github.com/cborgen/cborgen/testdata/golden/sortnone"
)

// The oracle for //cborgen:map types is fxamacker/cbor writing the same
// struct without toarray under CoreDetEncOptions. The struct itself is
// given to fxamacker as a method-free copy (a struct type with the same
// fields, types and tags); its fields keep their types, so that fields of
// generated types go through their own methods, as they would in a
// program, and fxamacker applies omitempty and omitzero to them by its own
// rules.

// The fields of Record, whose embedded structs reflect.StructOf cannot
// copy: written out with the same names, types and tags.
type (
	RecBase struct {
		ID   uint64 `cbor:"id"`
		Note string `cbor:"note,omitempty"`
	}
	RecMore struct {
		Count int `cbor:"count"`
	}
	recordPlain struct {
		RecBase
		*RecMore
		Name string `cbor:"name"`
	}
)

func recordToPlain(v reflect.Value) reflect.Value {
	r := v.Interface().(mapformat.Record)
	p := recordPlain{RecBase: RecBase(r.Base), Name: r.Name}
	if r.More != nil {
		p.RecMore = &RecMore{Count: r.More.Count}
	}
	return reflect.ValueOf(p)
}

// plainOf returns the method-free copy of the struct type t and the
// function that copies a value into it.
func plainOf(t reflect.Type) (reflect.Type, func(reflect.Value) reflect.Value) {
	if t == reflect.TypeFor[mapformat.Record]() {
		return reflect.TypeFor[recordPlain](), recordToPlain
	}
	var fields []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag, PkgPath: f.PkgPath})
	}
	pt := reflect.StructOf(fields)
	return pt, func(v reflect.Value) reflect.Value { return v.Convert(pt) }
}

func TestMapFormat(t *testing.T) {
	bytewise := encMode(t, cbor.SortCoreDeterministic)
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, tc := range []struct {
		value generated
		tag   []byte // the type's own tag head, written before the map
		em    cbor.EncMode
		array bool // an array type holding map types
	}{
		// Keys length-first, and in field order as fxamacker writes
		// struct fields with SortNone.
		{value: new(sortlength.Labels), em: encMode(t, cbor.SortLengthFirst)},
		{value: new(sortnone.Labels), em: encMode(t, cbor.SortNone)},
		{value: new(mapformat.Header)},
		{value: new(mapformat.Zeros)},
		{value: new(mapformat.Record)},
		{value: new(mapformat.Wide)},
		{value: new(mapformat.Message), tag: genrt.AppendTag(nil, 1018)},
		{value: new(mapformat.Coord)},
		{value: new(mapformat.Signature), array: true},
		{value: new(mapformat.Holder), array: true},
	} {
		typ := reflect.TypeOf(tc.value).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(len(typ.Name()))))
			plainT, toPlain := plainOf(typ)
			if tc.array {
				// An array type: its copy carries toarray.
				fields := []reflect.StructField{toArrayField}
				for i := 0; i < typ.NumField(); i++ {
					f := typ.Field(i)
					fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
				}
				plainT = reflect.StructOf(fields)
				toPlain = func(v reflect.Value) reflect.Value { return convert(v, plainT) }
			}
			em := tc.em
			if em == nil {
				em = bytewise
			}
			var shrunk int
			for i := 0; i < n && !t.Failed(); i++ {
				x := reflect.New(typ)
				rwFill(r, x.Elem(), map[reflect.Type]int{})
				emptyFields(r, x.Elem())
				got := checkMapValue(t, x.Interface().(generated), em, tc.tag, plainT, toPlain)
				if typ == reflect.TypeFor[mapformat.Wide]() && len(got) > 0 && got[0] < 0xb8 {
					shrunk++
				}
			}
			if typ == reflect.TypeFor[mapformat.Wide]() && shrunk == 0 {
				t.Errorf("no Wide value shrank to a one-byte head: the rewrite of a longer head went untested")
			}
		})
	}
}

// emptyFields sets each top-level field of v to its zero value with a
// probability of its own per value, so that omitempty and omitzero meet
// every mix of present and absent fields.
func emptyFields(r *rand.Rand, v reflect.Value) {
	p := r.Float64()
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).IsExported() && r.Float64() < p {
			v.Field(i).SetZero()
		}
	}
}

// checkMapValue checks one value of a map-format type (or an array type
// holding one) against fxamacker and returns its encoding.
func checkMapValue(t *testing.T, x generated, em cbor.EncMode, tag []byte, plainT reflect.Type, toPlain func(reflect.Value) reflect.Value) []byte {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	got, err := x.MarshalCBOR()
	plain := toPlain(xv)
	want, fxErr := em.Marshal(plain.Interface())
	if err != nil || fxErr != nil {
		// A RawMessage that fxamacker refuses to write (an indefinite
		// length under CoreDetEncOptions) is refused by both.
		if err == nil || fxErr == nil {
			t.Fatalf("MarshalCBOR: %v; fxamacker: %v", err, fxErr)
		}
		return nil
	}
	if err := genrt.Valid(got); err != nil {
		t.Fatalf("MarshalCBOR wrote invalid CBOR %x: %v", got, err)
	}
	if n := x.SizeCBOR(); n < len(got) {
		t.Fatalf("SizeCBOR is %d, below the %d bytes of %x", n, len(got), got)
	}
	want = append(append([]byte{}, tag...), want...)
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding differs from fxamacker for %+v\n got %x\nwant %x", xv.Interface(), got, want)
	}
	if via, err := em.Marshal(x); err != nil || !bytes.Equal(via, got) {
		t.Fatalf("fxamacker Marshal of the generated type: %x, %v; want %x", via, err, got)
	}

	// Decoding: the generated decoder reads what fxamacker reads from the
	// same bytes (without the type's tag, which fxamacker's copy lacks),
	// and writes it back byte for byte.
	y := reflect.New(xv.Type())
	if err := y.Interface().(generated).UnmarshalCBOR(got); err != nil {
		t.Fatalf("UnmarshalCBOR(%x): %v", got, err)
	}
	oracle := reflect.New(plainT)
	if err := cbor.Unmarshal(got[len(tag):], oracle.Interface()); err != nil {
		t.Fatalf("fxamacker cannot read %x: %v", got, err)
	}
	if !rwEqual(toPlain(y.Elem()), oracle.Elem()) {
		t.Fatalf("%x decodes to\n%+v\nfxamacker reads\n%+v", got, y.Elem().Interface(), oracle.Elem().Interface())
	}
	if again, err := y.Interface().(generated).MarshalCBOR(); err != nil || !bytes.Equal(again, got) {
		t.Fatalf("round trip changed the bytes:\n got %x\nwant %x (%v)", again, got, err)
	}
	return got
}

// TestMapFormatRefusesArrays checks that a map-format type reads its map
// only: an array is an ErrType naming the type, as fxamacker refuses an
// array for a struct without toarray.
func TestMapFormatRefusesArrays(t *testing.T) {
	for _, data := range [][]byte{{0x80}, {0x82, 0x01, 0x02}, {0x9f, 0xff}, {0x01}} {
		var h mapformat.Header
		err := h.UnmarshalCBOR(data)
		if !errors.Is(err, genrt.ErrType) {
			t.Errorf("Header.UnmarshalCBOR(%x) = %v, want ErrType", data, err)
		}
		var p struct {
			A int64 `cbor:"1,keyasint"`
		}
		if fxErr := cbor.Unmarshal(data, &p); fxErr == nil && data[0] != 0xf6 {
			t.Errorf("fxamacker reads %x into a map struct: the oracle changed", data)
		}
	}
	// The map form of Header, as fxamacker writes it, with an unknown key
	// and a key in another case: read as fxamacker reads it.
	in := struct {
		Alg   int64  `cbor:"1,keyasint"`
		Other string `cbor:"99,keyasint"`
	}{Alg: -7, Other: "skipped"}
	data, err := cbor.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var h mapformat.Header
	if err := h.UnmarshalCBOR(data); err != nil || h.Alg != -7 {
		t.Fatalf("UnmarshalCBOR(%x) = %+v, %v", data, h, err)
	}
}
