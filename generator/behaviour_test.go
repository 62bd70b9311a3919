package generator_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/basic"
	"github.com/cborgen/cborgen/testdata/golden/containers"
	"github.com/cborgen/cborgen/testdata/golden/floatnone"
	"github.com/cborgen/cborgen/testdata/golden/halfmethods"
	"github.com/cborgen/cborgen/testdata/golden/nested"
	"github.com/cborgen/cborgen/testdata/golden/nilempty"
	"github.com/cborgen/cborgen/testdata/golden/small"
	"github.com/cborgen/cborgen/testdata/golden/sortlength"
	"github.com/cborgen/cborgen/testdata/golden/sortnone"
	"github.com/cborgen/cborgen/testdata/golden/tags"
)

// The generated code of the golden cases is checked by behaviour against
// fxamacker/cbor, the reference: for random values, the array format must
// be the bytes fxamacker writes for the same value with toarray and
// CoreDetEncOptions, and decoding either format must agree with fxamacker.
//
// fxamacker calls a type's MarshalCBOR once it has one, so the oracle works
// on mirrors: struct types built with reflect that have the same fields and
// tags and no methods, with a `_ struct{} cbor:",toarray"` field for the
// array format and without it for the legacy map format.

// generated is what every generated type has.
type generated interface {
	MarshalCBOR() ([]byte, error)
	AppendCBOR(dst []byte) ([]byte, error)
	UnmarshalCBOR(data []byte) error
	DecodeCBOR(d *genrt.Decoder) error
	SizeCBOR() int
}

const randomValues = 1000

func TestBehaviour(t *testing.T) {
	bytewise := encMode(t, cbor.SortCoreDeterministic)
	length := encMode(t, cbor.SortLengthFirst)
	nilEmptyOpts := cbor.CoreDetEncOptions()
	nilEmptyOpts.NilContainers = cbor.NilContainerAsEmpty
	nilEmpty, err := nilEmptyOpts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	floatNone := floatNoneMode(t)
	cases := []struct {
		value generated // a pointer to the zero value of the type
		em    cbor.EncMode
	}{
		{new(basic.Scalars), bytewise},
		{new(basic.Named), bytewise},
		{new(basic.Empty), bytewise},
		{new(basic.Wide), bytewise},
		{new(containers.Containers), bytewise},
		{new(nested.Item), bytewise},
		{new(nested.Order), bytewise},
		{new(tags.Tagged), bytewise},
		{new(tags.IntKeys), bytewise},
		{new(tags.Cased), bytewise},
		{new(sortlength.Index), length},
		{new(sortnone.Index), nil}, // unsorted: checked by value, not by bytes
		{new(nilempty.Holder), nilEmpty},
		{new(nilempty.Inner), nilEmpty},
		{new(halfmethods.Reading), bytewise},
		{new(floatnone.Point), floatNone},
		{new(floatnone.Reading), floatNone},
		// -small: the same checks of the smaller code.
		{new(small.Scalars), bytewise},
		{new(small.Containers), bytewise},
		{new(small.Item), bytewise},
		{new(small.Order), bytewise},
		{new(small.Tagged), bytewise},
		{new(small.IntKeys), bytewise},
		{new(small.Cased), bytewise},
		{new(small.Empty), bytewise},
	}
	for _, tc := range cases {
		typ := reflect.TypeOf(tc.value).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(typ.String()))))
			m := newMirrors()
			arrayT, mapT := m.mirror(typ, true), m.mirror(typ, false)
			for i := 0; i < randomValues && !t.Failed(); i++ {
				x := reflect.New(typ)
				fill(r, x.Elem(), map[reflect.Type]int{})
				if tc.em == nil {
					checkUnsorted(t, x.Interface().(generated), bytewise, arrayT)
				} else {
					checkValue(t, x.Interface().(generated), tc.em, arrayT, mapT)
					checkRecased(t, r, x.Interface().(generated), tc.em, arrayT, mapT)
				}
			}
		})
	}
}

func encMode(t testing.TB, sort cbor.SortMode) cbor.EncMode {
	opts := cbor.CoreDetEncOptions()
	opts.Sort = sort
	em, err := opts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	return em
}

func checkValue(t *testing.T, x generated, em cbor.EncMode, arrayT, mapT reflect.Type) {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	got, err := x.MarshalCBOR()
	if err != nil {
		t.Fatalf("MarshalCBOR: %v", err)
	}
	if err := genrt.Valid(got); err != nil {
		t.Fatalf("MarshalCBOR wrote invalid CBOR %x: %v", got, err)
	}
	if n := x.SizeCBOR(); n < len(got) {
		t.Fatalf("SizeCBOR is %d, below the %d bytes of %x", n, len(got), got)
	}

	// Byte equality with fxamacker, through a mirror and through the
	// generated methods (which fxamacker must pick up).
	{
		want, err := em.Marshal(convert(xv, arrayT).Interface())
		if err != nil {
			t.Fatalf("fxamacker Marshal: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("array format differs from fxamacker for %#v\n got %s\nwant %s", xv.Interface(), hex.EncodeToString(got), hex.EncodeToString(want))
		}
		via, err := em.Marshal(x)
		if err != nil || !bytes.Equal(via, got) {
			t.Fatalf("fxamacker Marshal of the generated type: %x, %v; want %x", via, err, got)
		}
	}

	// Round trip through the generated decoder, with reuse of a value
	// that already holds data.
	y := reflect.New(xv.Type())
	for range 2 {
		if err := y.Interface().(generated).UnmarshalCBOR(got); err != nil {
			t.Fatalf("UnmarshalCBOR(%x): %v", got, err)
		}
		again, err := y.Interface().(generated).MarshalCBOR()
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("round trip changed the bytes:\n got %x\nwant %x (%v)", again, got, err)
		}
	}

	// fxamacker reads our array bytes into the mirror and agrees.
	mv := reflect.New(arrayT)
	if err := cbor.Unmarshal(got, mv.Interface()); err != nil {
		t.Fatalf("fxamacker cannot read %x: %v", got, err)
	}
	if back, _ := em.Marshal(mv.Elem().Interface()); !bytes.Equal(back, got) {
		t.Fatalf("fxamacker reads %x back as %x", got, back)
	}

	// The legacy format: fxamacker writes the mirror without toarray; the
	// generated decoder must read what fxamacker reads from those bytes.
	legacy, err := em.Marshal(convert(xv, mapT).Interface())
	if err != nil {
		t.Fatalf("fxamacker Marshal (legacy): %v", err)
	}
	z := reflect.New(xv.Type())
	if err := z.Interface().(generated).UnmarshalCBOR(legacy); err != nil {
		t.Fatalf("UnmarshalCBOR(legacy %x): %v", legacy, err)
	}
	oracle := reflect.New(mapT)
	if err := cbor.Unmarshal(legacy, oracle.Interface()); err != nil {
		t.Fatalf("fxamacker cannot read its own legacy bytes %x: %v", legacy, err)
	}
	want, err := em.Marshal(convert(oracle.Elem(), arrayT).Interface())
	if err != nil {
		t.Fatal(err)
	}
	fromLegacy, err := z.Interface().(generated).MarshalCBOR()
	if err != nil || !bytes.Equal(fromLegacy, want) {
		t.Fatalf("legacy %x decoded and re-encoded:\n got %x\nwant %x (%v)", legacy, fromLegacy, want, err)
	}
}

// checkRecased decodes the legacy encoding of x with its keys re-cased at
// random. fxamacker falls back to a case-insensitive match when no field
// name matches a key exactly, and the generated decoder must read what it
// reads; where the re-cased keys name one field twice, both keep the
// first value (fxamacker's default, DupMapKeyQuiet), and fxamacker with
// duplicate detection and the generated decoder in strict mode both
// refuse the map.
func checkRecased(t *testing.T, r *rand.Rand, x generated, em cbor.EncMode, arrayT, mapT reflect.Type) {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	legacy, err := em.Marshal(convert(xv, mapT).Interface())
	if err != nil {
		t.Fatalf("fxamacker Marshal (legacy): %v", err)
	}
	data := recase(t, r, legacy)
	z := reflect.New(xv.Type())
	err = z.Interface().(generated).UnmarshalCBOR(data)
	if fxErr := dupMode.Unmarshal(data, reflect.New(mapT).Interface()); fxErr != nil {
		var dup *cbor.DupMapKeyError
		serr := genrt.Unmarshal(data, reflect.New(xv.Type()).Interface().(generated), genrt.Options{Strict: true})
		if !errors.As(fxErr, &dup) || !errors.Is(serr, genrt.ErrDuplicateKey) {
			t.Fatalf("re-cased legacy %x: fxamacker with duplicate detection: %v; generated, strict: %v", data, fxErr, serr)
		}
	}
	oracle := reflect.New(mapT)
	if fxErr := cbor.Unmarshal(data, oracle.Interface()); fxErr != nil {
		t.Fatalf("re-cased legacy %x: fxamacker: %v", data, fxErr)
	}
	if err != nil {
		t.Fatalf("UnmarshalCBOR(re-cased legacy %x): %v", data, err)
	}
	want, err := em.Marshal(convert(oracle.Elem(), arrayT).Interface())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := z.Interface().(generated).MarshalCBOR(); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("re-cased legacy %x decoded and re-encoded:\n got %x\nwant %x (%v)", data, got, want, err)
	}
}

// dupMode is fxamacker's default decoding with duplicate map keys refused.
var dupMode = func() cbor.DecMode {
	dm, err := cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF}.DecMode()
	if err != nil {
		panic(err)
	}
	return dm
}()

// recase returns the map legacy with each letter of its text keys (the
// top level only) turned at random into another case of it: any rune of
// its unicode.SimpleFold orbit, so "k" may become "K" or the Kelvin sign.
func recase(t *testing.T, r *rand.Rand, legacy []byte) []byte {
	t.Helper()
	d := genrt.NewBytesDecoder(legacy)
	n, err := d.ReadMapHead()
	if err != nil {
		t.Fatalf("legacy %x: %v", legacy, err)
	}
	out := append([]byte{}, legacy[:int(d.Offset())]...)
	seen := map[string]bool{}
	for i := 0; i != n; i++ {
		start := int(d.Offset())
		k, err := d.ReadKey()
		if err != nil {
			t.Fatalf("legacy %x: %v", legacy, err)
		}
		if k.Kind == genrt.KeyText {
			// Two keys made the same would be a duplicate that is no
			// field's (Kelvin sign + "ey" from "key" and "KEY"), which
			// the generated decoder skips and fxamacker's duplicate
			// detection refuses: try other cases.
			var key string
			for try := 0; try == 0 || (seen[key] && try < 10); try++ {
				var runes []rune
				for _, c := range string(k.Text) {
					for range r.IntN(4) {
						c = unicode.SimpleFold(c)
					}
					runes = append(runes, c)
				}
				key = string(runes)
			}
			seen[key] = true
			out = genrt.AppendString(out, key)
		} else {
			out = append(out, legacy[start:int(d.Offset())]...)
		}
		start = int(d.Offset())
		if err := d.Skip(); err != nil {
			t.Fatalf("legacy %x: %v", legacy, err)
		}
		out = append(out, legacy[start:int(d.Offset())]...)
	}
	return out
}

// checkUnsorted checks a type generated with -sort=none, whose map keys
// come in Go's map order: the value must survive a round trip, compared
// by its sorted fxamacker encoding.
func checkUnsorted(t *testing.T, x generated, sorted cbor.EncMode, arrayT reflect.Type) {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	got, err := x.MarshalCBOR()
	if err != nil {
		t.Fatalf("MarshalCBOR: %v", err)
	}
	if err := genrt.Valid(got); err != nil {
		t.Fatalf("MarshalCBOR wrote invalid CBOR %x: %v", got, err)
	}
	if n := x.SizeCBOR(); n < len(got) {
		t.Fatalf("SizeCBOR is %d, below the %d bytes of %x", n, len(got), got)
	}
	want, err := sorted.Marshal(convert(xv, arrayT).Interface())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("encoding has %d bytes, fxamacker (sorted) %d", len(got), len(want))
	}
	y := reflect.New(xv.Type())
	if err := y.Interface().(generated).UnmarshalCBOR(got); err != nil {
		t.Fatalf("UnmarshalCBOR(%x): %v", got, err)
	}
	back, err := sorted.Marshal(convert(y.Elem(), arrayT).Interface())
	if err != nil || !bytes.Equal(back, want) {
		t.Fatalf("round trip changed the value: %x, want %x (%v)", back, want, err)
	}
}

// TestErrorPath checks that a decoding error names the Go path of the
// bad value.
func TestErrorPath(t *testing.T) {
	o := nested.Order{Items: []nested.Item{{SKU: "a"}, {SKU: "b"}, {SKU: "c"}, {SKU: "d"}}}
	b, err := o.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	// Items[3].SKU is the text "d" (61 64); make it an integer.
	i := bytes.Index(b, []byte{0x61, 'd'})
	bad := append(append(append([]byte{}, b[:i]...), 0x05), b[i+2:]...)
	var got nested.Order
	err = got.UnmarshalCBOR(bad)
	var e *genrt.Error
	if !errors.As(err, &e) || e.Path() != "Order.Items[3].SKU" || !errors.Is(err, genrt.ErrType) {
		t.Fatalf("error %v: want a *runtime.Error at Order.Items[3].SKU wrapping ErrType", err)
	}
}

// TestDecodeCases feeds hand-written CBOR to the generated decoders:
// indefinite lengths, the legacy map in any key order, and bad input that
// must give a typed error.
func TestDecodeCases(t *testing.T) {
	item := nested.Item{SKU: "a", Qty: 2, Price: 1}
	cases := []struct {
		name string
		hex  string
		want *nested.Item // nil: an error wrapping wantErr
		err  error
	}{
		{"definite", "83616102f93c00", &item, nil},
		{"indefinite", "9f616102f93c00ff", &item, nil},
		{"legacy", "a36351747902655072696365f93c0063534b556161", &nested.Item{SKU: "a", Qty: 2, Price: 1}, nil},
		{"legacy out of order, unknown keys", "a463517479026158f601f663534b556161", &nested.Item{SKU: "a", Qty: 2}, nil},
		{"legacy indefinite", "bf63534b556161ff", &nested.Item{SKU: "a"}, nil},
		{"legacy integer key skipped", "a2182a6161635174790a", &nested.Item{Qty: 10}, nil},
		{"legacy duplicate field", "a263517479016351747902", &nested.Item{Qty: 1}, nil}, // the first value stays
		{"legacy keys in other cases", "a36371545902655052494345f93c0063736b756161", &nested.Item{SKU: "a", Qty: 2, Price: 1}, nil},
		{"legacy Kelvin sign skipped", "a16573e284aa756161", &nested.Item{}, nil},
		{"legacy duplicate by case", "a263517479016371747902", &nested.Item{Qty: 1}, nil},
		{"too short", "82616102", nil, genrt.ErrLength},
		{"too long", "84616102f93c0000", nil, genrt.ErrLength},
		{"indefinite too short", "9f616102ff", nil, genrt.ErrLength},
		{"indefinite too long", "9f616102f93c0000ff", nil, genrt.ErrLength},
		{"trailing", "83616102f93c0000", nil, genrt.ErrTrailing},
		{"wrong type", "63616263", nil, genrt.ErrType},
		{"truncated", "83616102f93c", nil, io.ErrUnexpectedEOF},
		{"field of wrong type", "83010203", nil, genrt.ErrType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := hex.DecodeString(tc.hex)
			if err != nil {
				t.Fatal(err)
			}
			var got nested.Item // (into a used value: TestDecodeIntoUsed)
			err = got.UnmarshalCBOR(data)
			if tc.want != nil {
				if err != nil || got != *tc.want {
					t.Fatalf("got %+v, %v; want %+v", got, err, *tc.want)
				}
				return
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want one wrapping %v", err, tc.err)
			}
		})
	}
}

// TestStream decodes a sequence of values from a reader that hands out one
// byte at a time, through the same generated DecodeCBOR.
func TestStream(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var all []byte
	var want [][]byte
	for range 50 {
		var o nested.Order
		fill(r, reflect.ValueOf(&o).Elem(), map[reflect.Type]int{})
		b, err := o.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		want = append(want, b)
	}
	d := genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(all)))
	for i, w := range want {
		var o nested.Order
		if err := o.DecodeCBOR(d); err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		if got, _ := o.MarshalCBOR(); !bytes.Equal(got, w) {
			t.Fatalf("value %d: got %x, want %x", i, got, w)
		}
	}
	var o nested.Order
	if err := o.DecodeCBOR(d); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last value: %v, want io.EOF", err)
	}
}

// TestInlineStructPaths: a small nested struct is read in line by its
// holder when it comes as an array of its field count, and through its
// own DecodeCBOR otherwise (an indefinite-length array, a legacy map). All
// three give the same value, and an error inside it the same path.
func TestInlineStructPaths(t *testing.T) {
	want := nested.Item{SKU: "ab", Qty: 7, Price: 1.5}
	forms := map[string]string{
		"array":      "83" + "626162" + "07" + "f93e00",
		"indefinite": "9f" + "626162" + "07" + "f93e00" + "ff",
		"legacy":     "a3" + "63534b55626162" + "63517479" + "07" + "655072696365" + "f93e00",
	}
	for name, first := range forms {
		var o nested.Order
		full := orderWith(t, first)
		if err := o.UnmarshalCBOR(full); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o.First != want {
			t.Errorf("%s: First = %+v, want %+v", name, o.First, want)
		}
	}
	// Qty as text: the same path whichever way First is read.
	bad := map[string]string{
		"array":      "83" + "626162" + "6137" + "f93e00",
		"indefinite": "9f" + "626162" + "6137" + "f93e00" + "ff",
	}
	var paths []string
	for _, name := range []string{"array", "indefinite"} {
		var o nested.Order
		err := o.UnmarshalCBOR(orderWith(t, bad[name]))
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		msg := err.Error()
		if i := strings.Index(msg, " at offset"); i >= 0 {
			msg = msg[:i]
		}
		paths = append(paths, msg)
	}
	if paths[0] != paths[1] || !strings.Contains(paths[0], "Order.First.Qty") {
		t.Errorf("errors differ or miss the path: in line %q, through DecodeCBOR %q", paths[0], paths[1])
	}
}

// orderWith is a nested.Order with ID 1, First as the hex item first,
// and every other field empty, in the array format.
func orderWith(t *testing.T, first string) []byte {
	t.Helper()
	var o nested.Order
	o.ID = 1
	enc, err := o.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	// Replace the encoding of the zero First (83 60 00 f90000: "", 0, 0.0).
	zero := []byte{0x83, 0x60, 0x00, 0xf9, 0x00, 0x00}
	i := bytes.Index(enc, zero)
	if i < 0 {
		t.Fatalf("no zero Item in %x", enc)
	}
	f, err := hex.DecodeString(first)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(append([]byte(nil), enc[:i]...), f...), enc[i+len(zero):]...)
}
