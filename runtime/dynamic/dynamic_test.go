package dynamic_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/dynamic"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/nested"
)

// Every encoding here is compared with fxamacker/cbor's for the same
// value (CoreDetEncOptions, with the Options' sort and time choices), and
// every decoding with fxamacker's reading of the same bytes.

func coreDet(t *testing.T, o dynamic.Options) cbor.EncMode {
	t.Helper()
	opts := cbor.CoreDetEncOptions()
	switch o.Sort {
	case genrt.SortLengthFirst:
		opts.Sort = cbor.SortLengthFirst
	case genrt.SortNone:
		opts.Sort = cbor.SortNone
	}
	opts.Time = cbor.TimeMode(o.Time)
	if o.TimeTag {
		opts.TimeTag = cbor.EncTagRequired
	}
	em, err := opts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	return em
}

// checkValue encodes x with AppendValue and Append, compares both with
// fxamacker, and decodes the bytes with DecodeValue, Decode and
// fxamacker: all three must give a value that encodes to the same bytes.
func checkValue[T any](t *testing.T, x T, o dynamic.Options) {
	t.Helper()
	want, err := coreDet(t, o).Marshal(x)
	if err != nil {
		t.Fatalf("fxamacker Marshal(%#v): %v", x, err)
	}
	got, err := dynamic.AppendValue([]byte{0xee}, &x, o)
	if err != nil || !bytes.Equal(got, append([]byte{0xee}, want...)) {
		t.Fatalf("AppendValue(%T %#v) = %x, %v; want ee%x", x, x, got, err, want)
	}
	if got, err := dynamic.Append(nil, x, o); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Append(%T %#v) = %x, %v; want %x", x, x, got, err, want)
	}

	reencode := func(how string, y T) {
		t.Helper()
		if b, err := coreDet(t, o).Marshal(y); err != nil || !bytes.Equal(b, want) {
			t.Fatalf("%s of %x read %#v, which encodes to %x (%v)", how, want, y, b, err)
		}
	}
	var viaValue T
	d := genrt.NewBytesDecoder(want)
	if err := dynamic.DecodeValue(d, &viaValue); err != nil || d.Offset() != int64(len(want)) {
		t.Fatalf("DecodeValue(%x) into %T: %v, at offset %d", want, viaValue, err, d.Offset())
	}
	reencode("DecodeValue", viaValue)
	var viaDecode T
	if err := dynamic.Decode(genrt.NewBytesDecoder(want), &viaDecode); err != nil {
		t.Fatalf("Decode(%x) into %T: %v", want, viaDecode, err)
	}
	reencode("Decode", viaDecode)
	var viaFx T
	if err := cbor.Unmarshal(want, &viaFx); err != nil {
		t.Fatalf("fxamacker Unmarshal(%x) into %T: %v", want, viaFx, err)
	}
	if !reflect.DeepEqual(viaValue, viaFx) && !isNaN(viaFx) {
		t.Fatalf("DecodeValue(%x) = %#v, fxamacker reads %#v", want, viaValue, viaFx)
	}
}

func isNaN(x any) bool {
	switch x := x.(type) {
	case float32:
		return x != x
	case float64:
		return x != x
	}
	return false
}

func TestBasicTypes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var o dynamic.Options
	ints := []int64{0, 1, -1, 23, 24, -24, -25, 255, 256, -256, -257, 65535, 65536, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}
	for range 200 {
		ints = append(ints, int64(r.Uint64())>>r.IntN(64))
	}
	for _, i := range ints {
		checkValue(t, i, o)
		checkValue(t, int(i), o)
		checkValue(t, int8(i), o)
		checkValue(t, int16(i), o)
		checkValue(t, int32(i), o)
		checkValue(t, uint(i), o)
		checkValue(t, uint8(i), o)
		checkValue(t, uint16(i), o)
		checkValue(t, uint32(i), o)
		checkValue(t, uint64(i), o)
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1.5, 65504, 65505, 1e-8, math.MaxFloat32, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for range 200 {
		floats = append(floats, math.Float64frombits(r.Uint64()))
	}
	for _, f := range floats {
		checkValue(t, f, o)
		checkValue(t, float32(f), o)
	}
	for _, b := range []bool{false, true} {
		checkValue(t, b, o)
	}
	for _, s := range []string{"", "a", strings.Repeat("x", 24), "日本語", strings.Repeat("é", 300)} {
		checkValue(t, s, o)
		checkValue(t, []byte(s), o)
	}
	checkValue(t, []byte(nil), o)
	for _, n := range []string{"0", "1", "-1", "18446744073709551615", "18446744073709551616", "-18446744073709551617", "123456789012345678901234567890"} {
		b, _ := new(big.Int).SetString(n, 10)
		checkValue(t, *b, o)
	}
}

func TestTimes(t *testing.T) {
	at := []time.Time{
		{},
		time.Unix(0, 0).UTC(),
		time.Date(2024, 2, 29, 12, 30, 45, 123456789, time.UTC),
		time.Date(1969, 7, 20, 20, 17, 40, 0, time.FixedZone("x", -5*3600)),
	}
	for mode := genrt.TimeUnix; mode <= genrt.TimeRFC3339NanoUTC; mode++ {
		for _, tag := range []bool{false, true} {
			for _, x := range at {
				checkValue(t, x, dynamic.Options{Time: mode, TimeTag: tag})
			}
		}
	}
}

// TestGenerated: a type with generated methods goes through them, and
// its bytes are those fxamacker writes through the same methods.
func TestGenerated(t *testing.T) {
	items := []nested.Item{{}, {SKU: "a", Qty: 3, Price: 2.5}}
	for _, it := range items {
		want, err := it.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		checkValue(t, it, dynamic.Options{})
		got, err := dynamic.AppendValue(nil, &it, dynamic.Options{})
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendValue(%+v) = %x, %v; want %x", it, got, err, want)
		}
		back := nested.Item{SKU: "old", Qty: 9}
		if err := dynamic.DecodeValue(genrt.NewBytesDecoder(want), &back); err != nil || back != it {
			t.Fatalf("DecodeValue(%x) = %+v, %v; want %+v", want, back, err, it)
		}
	}
	o := nested.Order{ID: 7, Items: items}
	checkValue(t, o, dynamic.Options{})
	checkValue(t, &o, dynamic.Options{})
	checkValue(t, []nested.Item{items[1]}, dynamic.Options{})
}

type (
	kind  uint8
	color string
	pair  struct {
		A int    `cbor:"a"`
		B string `cbor:"b"`
	}
)

// TestFallback: named non-struct types, composites, structs without
// generated methods and interfaces go to fxamacker, with the Options'
// key order.
func TestFallback(t *testing.T) {
	for _, o := range []dynamic.Options{{}, {Sort: genrt.SortLengthFirst}} {
		checkValue(t, kind(7), o)
		checkValue(t, color("red"), o)
		checkValue(t, []string{"a", "b"}, o)
		checkValue(t, []string(nil), o)
		checkValue(t, map[string]int{"bb": 1, "a": 2, "ccc": 3, "d": 4}, o)
		checkValue(t, map[int]bool{-1: true, 1000: false, 3: true}, o)
		checkValue(t, pair{A: 1, B: "x"}, o)
		checkValue(t, &pair{A: -1}, o)
		checkValue(t, [2]float64{1, 0.5}, o)
		checkValue(t, any(nil), o)
		checkValue(t, any([]any{uint64(1), "x", map[any]any{"k": true}}), o)
	}
	// A nil interface is null without asking fxamacker.
	if got, err := dynamic.Append(nil, nil, dynamic.Options{}); err != nil || !bytes.Equal(got, []byte{0xf6}) {
		t.Fatalf("Append(nil) = %x, %v; want f6", got, err)
	}
}

// TestByteStrings: a slice or array of a uint8-kinded type parameter is a
// byte string, as fxamacker writes it.
func TestByteStrings(t *testing.T) {
	em := coreDet(t, dynamic.Options{})
	kinds := []kind{1, 2, 255}
	want, err := em.Marshal(kinds)
	if err != nil {
		t.Fatal(err)
	}
	if want[0]>>5 != genrt.MajorBytes {
		t.Fatalf("fxamacker writes []kind as %x, not a byte string", want)
	}
	got, err := dynamic.AppendSlice(nil, kinds, dynamic.Options{})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("AppendSlice(%v) = %x, %v; want %x", kinds, got, err, want)
	}
	back := make([]kind, 0, 8)
	backCap := cap(back)
	if err := dynamic.DecodeSlice(genrt.NewBytesDecoder(want), &back); err != nil || !reflect.DeepEqual(back, kinds) || cap(back) != backCap {
		t.Fatalf("DecodeSlice(%x) = %v (cap %d), %v; want %v in the old capacity %d", want, back, cap(back), err, kinds, backCap)
	}

	arr := [3]kind{9, 8, 7}
	want, err = em.Marshal(arr)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := dynamic.AppendArray(nil, arr[:], dynamic.Options{}); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("AppendArray(%v) = %x, %v; want %x", arr, got, err, want)
	}
	var arrBack [3]kind
	if err := dynamic.DecodeArray(genrt.NewBytesDecoder(want), arrBack[:]); err != nil || arrBack != arr {
		t.Fatalf("DecodeArray(%x) = %v, %v", want, arrBack, err)
	}

	// nil is null; an empty slice is an empty byte string.
	for _, s := range [][]kind{nil, {}} {
		want, _ := em.Marshal(s)
		got, err := dynamic.AppendSlice(nil, s, dynamic.Options{})
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendSlice(%#v) = %x, %v; want %x", s, got, err, want)
		}
		back := []kind{1}
		if err := dynamic.DecodeSlice(genrt.NewBytesDecoder(want), &back); err != nil || (back == nil) != (s == nil) || len(back) != 0 {
			t.Fatalf("DecodeSlice(%x) = %#v, %v; want %#v", want, back, err, s)
		}
	}

	// Other element types are arrays of AppendValue's encodings.
	strs := []string{"a", "bc"}
	want, _ = em.Marshal(strs)
	if got, err := dynamic.AppendSlice(nil, strs, dynamic.Options{}); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("AppendSlice(%v) = %x, %v; want %x", strs, got, err, want)
	}
	var strsBack []string
	if err := dynamic.DecodeSlice(genrt.NewBytesDecoder(want), &strsBack); err != nil || !reflect.DeepEqual(strsBack, strs) {
		t.Fatalf("DecodeSlice(%x) = %v, %v", want, strsBack, err)
	}
	indef := []byte{0x9f, 0x61, 'a', 0x62, 'b', 'c', 0xff}
	strsBack = nil
	if err := dynamic.DecodeSlice(genrt.NewBytesDecoder(indef), &strsBack); err != nil || !reflect.DeepEqual(strsBack, strs) {
		t.Fatalf("DecodeSlice(%x) = %v, %v", indef, strsBack, err)
	}
	var two [2]string
	if err := dynamic.DecodeArray(genrt.NewBytesDecoder(indef), two[:]); err != nil || two != [2]string{"a", "bc"} {
		t.Fatalf("DecodeArray(%x) = %v, %v", indef, two, err)
	}
}

// TestErrors: every failure is a *runtime.Error with the right cause, and
// one from fxamacker keeps its own error inside.
func TestErrors(t *testing.T) {
	run := func(data []byte, f func(d *genrt.Decoder) error) error {
		d := genrt.NewBytesDecoder(data)
		d.SetOptions(genrt.Options{Strict: true}) // other lengths: fxamacker's reading outside strict mode
		return f(d)
	}
	cases := []struct {
		name   string
		data   []byte
		decode func(d *genrt.Decoder) error
		cause  error  // errors.Is
		path   string // of the *runtime.Error
	}{
		{"int from text", []byte{0x61, 'a'}, func(d *genrt.Decoder) error { var x int; return dynamic.DecodeValue(d, &x) }, genrt.ErrType, ""},
		{"uint8 overflow", []byte{0x19, 0x01, 0x00}, func(d *genrt.Decoder) error { var x uint8; return dynamic.DecodeValue(d, &x) }, genrt.ErrRange, ""},
		{"truncated string", []byte{0x62, 'a'}, func(d *genrt.Decoder) error { var x string; return dynamic.DecodeValue(d, &x) }, io.ErrUnexpectedEOF, ""},
		{"bad UTF-8", []byte{0x61, 0xff}, func(d *genrt.Decoder) error { var x string; return dynamic.DecodeValue(d, &x) }, genrt.ErrUTF8, ""},
		{"generated type", []byte{0x83, 0x01, 0x02, 0x03}, func(d *genrt.Decoder) error { var x nested.Item; return dynamic.DecodeValue(d, &x) }, genrt.ErrType, "Item.SKU"},
		{"element of a slice", []byte{0x82, 0x01, 0x61, 'a'}, func(d *genrt.Decoder) error { var x []int; return dynamic.DecodeSlice(d, &x) }, genrt.ErrType, "[1]"},
		{"array too short", []byte{0x81, 0x01}, func(d *genrt.Decoder) error { var x [2]int; return dynamic.DecodeArray(d, x[:]) }, genrt.ErrLength, ""},
		{"array too long", []byte{0x83, 0x01, 0x02, 0x03}, func(d *genrt.Decoder) error { var x [2]int; return dynamic.DecodeArray(d, x[:]) }, genrt.ErrLength, ""},
		{"byte array of the wrong length", []byte{0x41, 0x01}, func(d *genrt.Decoder) error { var x [2]kind; return dynamic.DecodeArray(d, x[:]) }, genrt.ErrLength, ""},
		{"not well-formed before fxamacker", []byte{0x1c}, func(d *genrt.Decoder) error { var x color; return dynamic.Decode(d, &x) }, genrt.ErrSyntax, ""},
		{"fallback truncated", []byte{0x82, 0x01}, func(d *genrt.Decoder) error { var x []string; return dynamic.Decode(d, &x) }, io.ErrUnexpectedEOF, ""},
	}
	for _, tc := range cases {
		err := run(tc.data, tc.decode)
		var re *genrt.Error
		if !errors.As(err, &re) || !errors.Is(err, tc.cause) || re.Path() != tc.path {
			t.Errorf("%s: %x: error %v; want a *runtime.Error at %q wrapping %v", tc.name, tc.data, err, tc.path, tc.cause)
		}
	}

	// fxamacker's own error for a well-formed item of the wrong type is
	// inside the *runtime.Error, and both agree on refusing it.
	data := []byte{0x61, 'a'}
	var x []int
	err := dynamic.Decode(genrt.NewBytesDecoder(data), &x)
	var re *genrt.Error
	var ute *cbor.UnmarshalTypeError
	if !errors.As(err, &re) || !errors.As(err, &ute) {
		t.Errorf("Decode(%x) into []int: %v; want a *runtime.Error holding a *cbor.UnmarshalTypeError", data, err)
	}
	if fxErr := cbor.Unmarshal(data, &x); fxErr == nil || fxErr.Error() != ute.Error() {
		t.Errorf("fxamacker says %v, Decode %v", fxErr, err)
	}

	// The Decoder's limits hold before fxamacker sees the item.
	deep := append(bytes.Repeat([]byte{0x81}, 40), 0x01)
	var anyV any
	d := genrt.NewBytesDecoder(deep)
	if err := dynamic.Decode(d, &anyV); !errors.Is(err, genrt.ErrLimit) {
		t.Errorf("Decode of 40 nested arrays: %v; want ErrLimit", err)
	}

	// Encoding what fxamacker cannot encode is an error from both.
	ch := make(chan int)
	if _, err := dynamic.Append(nil, ch, dynamic.Options{}); err == nil {
		t.Errorf("Append(chan) succeeded")
	}
	if _, err := dynamic.AppendValue(nil, &ch, dynamic.Options{}); err == nil {
		t.Errorf("AppendValue(chan) succeeded")
	}
	late := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := dynamic.AppendValue(nil, &late, dynamic.Options{Time: genrt.TimeRFC3339}); !errors.Is(err, genrt.ErrTimeRange) {
		t.Errorf("AppendValue(year 10000, RFC 3339): %v; want ErrTimeRange", err)
	}
}
