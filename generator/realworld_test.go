package generator_test

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/iotest"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/nested"
	"github.com/cborgen/cborgen/testdata/golden/realworld"
	"github.com/cborgen/cborgen/testdata/golden/timemode"
)

// The real-world field types (testdata/golden/realworld and timemode) are
// checked against fxamacker/cbor as the other golden cases are, with
// mirrors that keep the types fxamacker handles itself (time.Time,
// big.Int, cbor.RawMessage, marshalers, interfaces) and that keep embedded
// fields embedded. In both directions: the generated encoder writes
// fxamacker's bytes; fxamacker reads them as the generated decoder does;
// the generated decoder reads fxamacker's legacy maps as fxamacker does;
// and fxamacker, handed a struct that holds a generated type, writes and
// reads the same bytes as the generated code.

const realworldValues = 2000

func TestRealWorld(t *testing.T) {
	bytewise := encMode(t, cbor.SortCoreDeterministic)
	richOpts := cbor.CoreDetEncOptions()
	richOpts.Time, richOpts.TimeTag = cbor.TimeRFC3339Nano, cbor.EncTagRequired
	rich, err := richOpts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		value generated
		em    cbor.EncMode
		// lossy reports a value whose encoding does not read back as the
		// value, in fxamacker as in the generated code: then the bytes of
		// a round trip are not compared, the decoded values still are.
		lossy func(v reflect.Value) bool
		// estimate: the type has fields that SizeCBOR can only guess
		// (type parameters, the slow path), so it is no upper bound.
		estimate bool
	}{
		{value: new(realworld.Values), em: bytewise, estimate: true},
		{value: new(realworld.Doc), em: bytewise, lossy: func(v reflect.Value) bool {
			// A nil embedded pointer is written as nulls, which both read
			// as a pointer to zero fields.
			return v.FieldByName("Meta").IsNil()
		}},
		{value: new(realworld.Audit), em: bytewise},
		{value: new(realworld.Uses), em: bytewise, estimate: true},
		{value: new(realworld.Page[int]), em: bytewise, estimate: true},
		{value: new(realworld.Page[nested.Item]), em: bytewise, estimate: true},
		{value: new(realworld.Page[*nested.Item]), em: bytewise, estimate: true},
		{value: new(realworld.Page[realworld.Kind]), em: bytewise, estimate: true},
		{value: new(realworld.Page[time.Time]), em: bytewise, estimate: true},
		{value: new(realworld.Page[[]string]), em: bytewise, estimate: true},
		{value: new(realworld.Page[uint8]), em: bytewise, estimate: true},
		{value: new(realworld.Pair[int8, realworld.Tree]), em: bytewise, estimate: true},
		{value: new(realworld.Pair[string, big.Int]), em: bytewise, estimate: true},
		{value: new(realworld.Tree), em: bytewise},
		{value: new(realworld.List), em: bytewise},
		{value: new(timemode.Event), em: rich},
		{value: new(timemode.Box[int]), em: rich, estimate: true},
	}
	for _, tc := range cases {
		typ := reflect.TypeOf(tc.value).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(6, uint64(len(typ.String()))))
			m := newMirrors()
			arrayT, mapT := m.mirror(typ, true), m.mirror(typ, false)
			for i := 0; i < realworldValues && !t.Failed(); i++ {
				x := reflect.New(typ)
				rwFill(r, x.Elem(), map[reflect.Type]int{})
				lossy := tc.lossy != nil && tc.lossy(x.Elem())
				checkRealWorld(t, x.Interface().(generated), tc.em, arrayT, mapT, lossy, tc.estimate)
			}
		})
	}
}

func checkRealWorld(t *testing.T, x generated, em cbor.EncMode, arrayT, mapT reflect.Type, lossy, estimate bool) {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	got, err := x.MarshalCBOR()
	want, wantErr := em.Marshal(convert(xv, arrayT).Interface())
	if err != nil || wantErr != nil {
		// Both refuse the same values: times RFC 3339 cannot hold, a raw
		// message of indefinite length.
		if err == nil || wantErr == nil {
			t.Fatalf("MarshalCBOR: %v; fxamacker: %v", err, wantErr)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("array format differs from fxamacker for %#v\n got %s\nwant %s", xv.Interface(), hex.EncodeToString(got), hex.EncodeToString(want))
	}
	if n := x.SizeCBOR(); n < len(got) && !estimate {
		t.Fatalf("SizeCBOR is %d, below the %d bytes of %x", n, len(got), got)
	}
	if via, err := em.Marshal(x); err != nil || !bytes.Equal(via, got) {
		t.Fatalf("fxamacker Marshal of the generated type: %x, %v; want %x", via, err, got)
	}

	// Mixed use: fxamacker encodes and decodes a struct holding the
	// generated type through the generated methods.
	holder := reflect.StructOf([]reflect.StructField{toArrayField, {Name: "V", Type: xv.Type()}})
	h := reflect.New(holder)
	h.Elem().Field(1).Set(xv)
	if hb, err := em.Marshal(h.Interface()); err != nil || !bytes.Equal(hb, append([]byte{0x81}, got...)) {
		t.Fatalf("fxamacker Marshal of a holder: %x, %v; want 81%x", hb, err, got)
	}
	h2 := reflect.New(holder)
	if err := cbor.Unmarshal(append([]byte{0x81}, got...), h2.Interface()); err != nil {
		t.Fatalf("fxamacker Unmarshal of a holder: %v", err)
	}
	if b, err := h2.Elem().Field(1).Addr().Interface().(generated).MarshalCBOR(); err != nil || !lossy && !bytes.Equal(b, got) {
		t.Fatalf("value decoded by fxamacker through the generated methods: %x, %v; want %x", b, err, got)
	}

	// The generated decoder, with reuse, against fxamacker's decoder.
	y := reflect.New(xv.Type())
	for range 2 {
		if err := y.Interface().(generated).UnmarshalCBOR(got); err != nil {
			t.Fatalf("UnmarshalCBOR(%x): %v", got, err)
		}
		if again, err := y.Interface().(generated).MarshalCBOR(); err != nil || !lossy && !bytes.Equal(again, got) {
			t.Fatalf("round trip changed the bytes:\n got %x\nwant %x (%v)", again, got, err)
		}
	}
	fx := reflect.New(arrayT)
	if err := cbor.Unmarshal(got, fx.Interface()); err != nil {
		t.Fatalf("fxamacker cannot read %x: %v", got, err)
	}
	sameValue(t, "array format", convert(y.Elem(), arrayT), fx.Elem())

	// Legacy maps, as fxamacker writes them.
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
	sameValue(t, "legacy format", convert(z.Elem(), arrayT), convert(oracle.Elem(), arrayT))
}

// sameValue compares two values of a mirror type, strictly: times by
// instant and zone offset, big integers by value, floats bit for bit
// (any NaN equals any NaN), nil apart from empty.
func sameValue(t *testing.T, what string, got, want reflect.Value) {
	t.Helper()
	if !rwEqual(got, want) {
		t.Fatalf("%s: the generated decoder and fxamacker disagree:\n got %#v\nwant %#v", what, got.Interface(), want.Interface())
	}
}

// TestRealWorldStream decodes the types whose decoders keep raw items
// (RawMessage, marshalers, interfaces) from a reader that hands out one
// byte at a time.
func TestRealWorldStream(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var all []byte
	var want [][]byte
	for range 200 {
		var v realworld.Values
		rwFill(r, reflect.ValueOf(&v).Elem(), map[reflect.Type]int{})
		b, err := v.MarshalCBOR()
		if err != nil {
			continue // a raw message of indefinite length, refused as fxamacker refuses it
		}
		all = append(all, b...)
		want = append(want, b)
	}
	d := genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(all)))
	for i, w := range want {
		var v realworld.Values
		if err := v.DecodeCBOR(d); err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		if got, _ := v.MarshalCBOR(); !bytes.Equal(got, w) {
			t.Fatalf("value %d: got %x, want %x", i, got, w)
		}
	}
}

// TestTimeModes checks genrt.AppendTime, which every time field calls,
// against fxamacker in each of its time modes, with and without tags, and
// runtime.ReadTime against fxamacker's decoder on what each mode writes.
func TestTimeModes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for mode := genrt.TimeUnix; mode <= genrt.TimeRFC3339NanoUTC; mode++ {
		for _, tag := range []bool{false, true} {
			opts := cbor.CoreDetEncOptions()
			opts.Time = cbor.TimeMode(mode)
			if tag {
				opts.TimeTag = cbor.EncTagRequired
			}
			em, err := opts.EncMode()
			if err != nil {
				t.Fatal(err)
			}
			for range realworldValues {
				tm := randomTime(r)
				want, wantErr := em.Marshal(tm)
				got, err := genrt.AppendTime(nil, tm, mode, tag)
				if (err != nil) != (wantErr != nil) || err == nil && !bytes.Equal(got, want) {
					t.Fatalf("mode %d tag %v, %v: got %x (%v), want %x (%v)", mode, tag, tm, got, err, want, wantErr)
				}
				if err != nil {
					continue
				}
				var fx time.Time
				if err := cbor.Unmarshal(got, &fx); err != nil {
					t.Fatal(err)
				}
				back, err := genrt.NewBytesDecoder(got).ReadTime()
				if err != nil || !back.Equal(fx) || back.Location().String() != fx.Location().String() {
					t.Fatalf("ReadTime(%x) = %v, %v; fxamacker reads %v", got, back, err, fx)
				}
			}
		}
	}
}

// TestDecodeTimeAndBigInt feeds the forms fxamacker's decoder accepts by
// default (and some it rejects) to the generated decoder.
func TestDecodeTimeAndBigInt(t *testing.T) {
	cases := []string{
		"1a5f5e1000", "c11a5f5e1000", "3a05f5e0ff", "fb41d7d784000c0000", "f97e00", "f97c00", "fa47c35000",
		"74323032302d30392d31335431323a32363a34305a", "c074323032302d30392d31335431323a32363a34305a",
		"d9d9f71a5f5e1000", "d8631a5f5e1000", "f6", "f7", "c0f6", "c01a5f5e1000", "c16161", "6178", "40", "f5", "80",
		"1bffffffffffffffff", "c249010000000000000000", "c349010000000000000000", "c240", "c2f6", "3bffffffffffffffff",
	}
	for _, h := range cases {
		data, _ := hex.DecodeString(h)
		var fxT time.Time
		fxErr := cbor.Unmarshal(data, &fxT)
		gotT, err := genrt.NewBytesDecoder(data).ReadTime()
		if (err != nil) != (fxErr != nil) || err == nil && !gotT.Equal(fxT) {
			t.Errorf("time %s: got %v (%v), fxamacker %v (%v)", h, gotT, err, fxT, fxErr)
		}
		var fxB big.Int
		fxErr = cbor.Unmarshal(data, &fxB)
		var gotB big.Int
		err = genrt.NewBytesDecoder(data).ReadBigInt(&gotB)
		if (err != nil) != (fxErr != nil) || err == nil && gotB.Cmp(&fxB) != 0 {
			t.Errorf("big.Int %s: got %v (%v), fxamacker %v (%v)", h, &gotB, err, &fxB, fxErr)
		}
	}
}

// TestRealWorldHostile mutates valid encodings of the real-world types:
// the generated decoders must return errors, never panic.
func TestRealWorldHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, v := range []generated{new(realworld.Values), new(realworld.Doc), new(realworld.Uses), new(realworld.Page[realworld.Kind])} {
		for range 300 {
			x := reflect.New(reflect.TypeOf(v).Elem())
			rwFill(r, x.Elem(), map[reflect.Type]int{})
			b, err := x.Interface().(generated).MarshalCBOR()
			if err != nil || len(b) == 0 {
				continue
			}
			for range 20 {
				m := append([]byte(nil), b...)
				switch r.IntN(3) {
				case 0:
					m = m[:r.IntN(len(m))]
				case 1:
					m[r.IntN(len(m))] = byte(r.Uint32())
				default:
					m[r.IntN(len(m))] ^= 1 << r.IntN(8)
				}
				y := reflect.New(x.Elem().Type()).Interface().(generated)
				_ = y.UnmarshalCBOR(m) // must not panic
			}
		}
	}
}
