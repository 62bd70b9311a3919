package generator_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/testdata/golden/foreign"
	"github.com/cborgen/cborgen/testdata/golden/foreign/ext"
)

// TestForeignOmitEmpty: a map-format struct holding, under omitempty,
// structs of a package that is not generated (ext) leaves each out
// exactly when fxamacker does, by fxamacker's field-by-field test:
// random values, their fields emptied at random at every level, encoded
// byte for byte as fxamacker encodes the same struct, and decoded as
// fxamacker decodes the bytes.
func TestForeignOmitEmpty(t *testing.T) {
	em := encMode(t, cbor.SortCoreDeterministic)
	typ := reflect.TypeFor[foreign.Foreign]()
	plainT, toPlain := plainOf(typ)
	n := 3000
	if testing.Short() {
		n = 400
	}
	r := rand.New(rand.NewPCG(27, 5))
	// What the values met: Opts left out although not the zero value
	// (only fields off the wire, or a non-nil Extra with an empty note,
	// held something), Opts written because of one field alone, and the
	// keys of the never-empty structs written though their fields are
	// zero.
	var hiddenOnly, oneField, zeroWritten int
	for i := 0; i < n && !t.Failed(); i++ {
		x := new(foreign.Foreign)
		xv := reflect.ValueOf(x).Elem()
		rwFill(r, xv, map[reflect.Type]int{})
		emptyFields(r, xv)
		emptyFields(r, reflect.ValueOf(&x.Opts).Elem())
		emptyFields(r, reflect.ValueOf(&x.Opts.Limits).Elem())
		emptyFields(r, reflect.ValueOf(&x.Both).Elem())
		if x.Opts.Extra != nil && r.IntN(2) == 0 {
			x.Opts.Note = ""
		}
		if r.IntN(3) == 0 {
			x.Opts.Depth = uint16(r.Uint32())
		} else {
			x.Opts.Depth = 0
		}
		if r.IntN(4) == 0 {
			// One field alone makes Opts non-empty.
			x.Opts = ext.Options{When: x.Opts.When}
			switch r.IntN(4) {
			case 0:
				x.Opts.Depth = 1
			case 1:
				x.Opts.Limits.Min = -1
			case 2:
				x.Opts.Extra = &ext.Extra{Note: "n"}
			case 3:
				x.Opts.Ratio = 0.5
			}
		}
		if r.IntN(5) == 0 {
			x.Point, x.Stamp = ext.Point{}, ext.Stamp{}
		}
		got := checkForeignValue(t, x, em, plainT, toPlain)
		var keys map[string]cbor.RawMessage
		if err := cbor.Unmarshal(got, &keys); err != nil {
			t.Fatalf("%x: %v", got, err)
		}
		_, hasOpts := keys["opts"]
		if !hasOpts && !reflect.ValueOf(x.Opts).IsZero() {
			hiddenOnly++
		}
		if hasOpts && reflect.DeepEqual(x.Opts, ext.Options{When: x.Opts.When, Limits: x.Opts.Limits, Extra: x.Opts.Extra}) {
			oneField++
		}
		if _, ok := keys["none"]; ok {
			t.Fatalf("%x holds the key none: fxamacker finds every ext.Nothing empty", got)
		}
		_, hasPoint := keys["point"]
		_, hasPair := keys["pair"]
		_, hasStamp := keys["stamp"]
		if !hasPoint || !hasPair || !hasStamp {
			t.Fatalf("%x lacks a key of a struct fxamacker never finds empty", got)
		}
		if x.Point == (ext.Point{}) && x.Stamp == (ext.Stamp{}) {
			zeroWritten++
		}
	}
	if !t.Failed() && (hiddenOnly == 0 || oneField == 0 || zeroWritten == 0) {
		t.Errorf("the values missed a case: %d Opts left out though not zero, %d written for one field, %d zero structs written",
			hiddenOnly, oneField, zeroWritten)
	}
}

// TestForeignOmitEmptyDecodesFxamacker: what fxamacker writes of the
// struct's method-free copy, the generated decoder reads as fxamacker
// does, and writes back byte for byte.
func TestForeignOmitEmptyDecodesFxamacker(t *testing.T) {
	em := encMode(t, cbor.SortCoreDeterministic)
	typ := reflect.TypeFor[foreign.Foreign]()
	plainT, toPlain := plainOf(typ)
	r := rand.New(rand.NewPCG(27, 6))
	n := 1000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n && !t.Failed(); i++ {
		p := reflect.New(plainT).Elem()
		rwFill(r, p, map[reflect.Type]int{})
		emptyFields(r, p)
		emptyFields(r, p.FieldByName("Opts"))
		data, err := em.Marshal(p.Interface())
		if err != nil {
			t.Fatal(err)
		}
		var y foreign.Foreign
		if err := y.UnmarshalCBOR(data); err != nil {
			t.Fatalf("UnmarshalCBOR(%x): %v", data, err)
		}
		oracle := reflect.New(plainT)
		if err := cbor.Unmarshal(data, oracle.Interface()); err != nil {
			t.Fatal(err)
		}
		if !rwEqual(toPlain(reflect.ValueOf(y)), oracle.Elem()) {
			t.Fatalf("%x decodes to\n%+v\nfxamacker reads\n%+v", data, y, oracle.Elem().Interface())
		}
		again, err := y.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := em.Marshal(oracle.Elem().Interface())
		if err != nil || !bytes.Equal(again, want) {
			t.Fatalf("written back as %x; fxamacker writes %x (%v)", again, want, err)
		}
	}
}

// checkForeignValue is checkMapValue without its bound on SizeCBOR, which
// counts a field that fxamacker writes at a guess.
func checkForeignValue(t *testing.T, x *foreign.Foreign, em cbor.EncMode, plainT reflect.Type, toPlain func(reflect.Value) reflect.Value) []byte {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	got, err := x.MarshalCBOR()
	if err != nil {
		t.Fatalf("MarshalCBOR: %v", err)
	}
	want, err := em.Marshal(toPlain(xv).Interface())
	if err != nil {
		t.Fatalf("fxamacker: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoding differs from fxamacker for %+v\n got %x\nwant %x", *x, got, want)
	}
	if via, err := em.Marshal(x); err != nil || !bytes.Equal(via, got) {
		t.Fatalf("fxamacker Marshal of the generated type: %x, %v; want %x", via, err, got)
	}
	var y foreign.Foreign
	if err := y.UnmarshalCBOR(got); err != nil {
		t.Fatalf("UnmarshalCBOR(%x): %v", got, err)
	}
	oracle := reflect.New(plainT)
	if err := cbor.Unmarshal(got, oracle.Interface()); err != nil {
		t.Fatalf("fxamacker cannot read %x: %v", got, err)
	}
	if !rwEqual(toPlain(reflect.ValueOf(y)), oracle.Elem()) {
		t.Fatalf("%x decodes to\n%+v\nfxamacker reads\n%+v", got, y, oracle.Elem().Interface())
	}
	if again, err := y.MarshalCBOR(); err != nil || !bytes.Equal(again, got) {
		t.Fatalf("round trip changed the bytes:\n got %x\nwant %x (%v)", again, got, err)
	}
	return got
}
