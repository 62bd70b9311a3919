package generator_test

import (
	"bytes"
	"encoding/hex"
	"math"
	"math/big"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"testing"
	"testing/iotest"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime"
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
		// divergent reports a value whose decoding fxamacker does
		// differently on purpose (see the README): then only the round
		// trip through the generated code is compared.
		divergent func(v reflect.Value) bool
		// estimate: the type has fields that SizeCBOR can only guess
		// (type parameters, the slow path), so it is no upper bound.
		estimate bool
	}{
		{value: new(realworld.Values), em: bytewise, estimate: true},
		{value: new(realworld.Doc), em: bytewise, divergent: func(v reflect.Value) bool {
			return v.FieldByName("Meta").IsNil() // a nil embedded pointer is written as nulls
		}},
		{value: new(realworld.Audit), em: bytewise},
		{value: new(realworld.Uses), em: bytewise, estimate: true},
		{value: new(realworld.Page[int]), em: bytewise, estimate: true},
		{value: new(realworld.Page[nested.Item]), em: bytewise, estimate: true},
		{value: new(realworld.Page[*nested.Item]), em: bytewise, estimate: true},
		{value: new(realworld.Page[realworld.Kind]), em: bytewise, estimate: true},
		{value: new(realworld.Page[time.Time]), em: bytewise, estimate: true},
		{value: new(realworld.Page[[]string]), em: bytewise, estimate: true},
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
				div := tc.divergent != nil && tc.divergent(x.Elem())
				checkRealWorld(t, x.Interface().(generated), tc.em, arrayT, mapT, div, tc.estimate)
			}
		})
	}
}

func checkRealWorld(t *testing.T, x generated, em cbor.EncMode, arrayT, mapT reflect.Type, divergent, estimate bool) {
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
	if b, err := h2.Elem().Field(1).Addr().Interface().(generated).MarshalCBOR(); err != nil || !bytes.Equal(b, got) {
		t.Fatalf("value decoded by fxamacker through the generated methods: %x, %v; want %x", b, err, got)
	}

	// The generated decoder, with reuse, against fxamacker's decoder.
	y := reflect.New(xv.Type())
	for range 2 {
		if err := y.Interface().(generated).UnmarshalCBOR(got); err != nil {
			t.Fatalf("UnmarshalCBOR(%x): %v", got, err)
		}
		if again, err := y.Interface().(generated).MarshalCBOR(); err != nil || !bytes.Equal(again, got) {
			t.Fatalf("round trip changed the bytes:\n got %x\nwant %x (%v)", again, got, err)
		}
	}
	fx := reflect.New(arrayT)
	if err := cbor.Unmarshal(got, fx.Interface()); err != nil {
		t.Fatalf("fxamacker cannot read %x: %v", got, err)
	}
	if !divergent {
		sameValue(t, "array format", convert(y.Elem(), arrayT), fx.Elem())
	}

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

func rwEqual(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Type() {
	case typeTime:
		ta, tb := a.Interface().(time.Time), b.Interface().(time.Time)
		_, oa := ta.Zone()
		_, ob := tb.Zone()
		return ta.Equal(tb) && oa == ob
	case typeBigInt:
		ba, bb := a.Interface().(big.Int), b.Interface().(big.Int)
		return ba.Cmp(&bb) == 0
	case reflect.TypeFor[netip.Addr]():
		return a.Interface() == b.Interface()
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return rwEqual(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !rwEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if !rwEqual(a.MapIndex(k), b.MapIndex(k)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() && !rwEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Float32, reflect.Float64:
		fa, fb := a.Float(), b.Float()
		return math.Float64bits(fa) == math.Float64bits(fb) || math.IsNaN(fa) && math.IsNaN(fb)
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// mirrors builds method-free copies of generated struct types, keeping
// the types that fxamacker encodes by their own rules, and embedded
// fields. reflect cannot build recursive types, so a struct that is
// already twice on the way down becomes an empty placeholder; fill never
// puts a value there.
type mirrors struct{ stack map[reflect.Type]int }

func newMirrors() *mirrors { return &mirrors{stack: map[reflect.Type]int{}} }

var (
	typeTime   = reflect.TypeFor[time.Time]()
	typeBigInt = reflect.TypeFor[big.Int]()
)

// kept reports whether t is used as it is in a mirror: it is not a
// generated type or a plain struct (one fxamacker walks field by field).
func kept(t reflect.Type) bool {
	if reflect.PointerTo(t).Implements(reflect.TypeFor[generated]()) {
		return false
	}
	switch {
	case t == typeTime, t == typeBigInt, t.Kind() == reflect.Interface,
		reflect.PointerTo(t).Implements(reflect.TypeFor[cbor.Marshaler]()),
		reflect.PointerTo(t).Implements(reflect.TypeFor[interface{ MarshalBinary() ([]byte, error) }]()):
		return true
	}
	return false
}

func (m *mirrors) mirror(t reflect.Type, toArray bool) reflect.Type {
	if kept(t) {
		return t
	}
	switch t.Kind() {
	case reflect.Pointer:
		return reflect.PointerTo(m.mirror(t.Elem(), toArray))
	case reflect.Slice:
		if e := m.mirror(t.Elem(), toArray); e != t.Elem() {
			return reflect.SliceOf(e)
		}
	case reflect.Array:
		if e := m.mirror(t.Elem(), toArray); e != t.Elem() {
			return reflect.ArrayOf(t.Len(), e)
		}
	case reflect.Map:
		if e := m.mirror(t.Elem(), toArray); e != t.Elem() {
			return reflect.MapOf(t.Key(), e)
		}
	case reflect.Struct:
		var fields []reflect.StructField
		if toArray {
			fields = append(fields, toArrayField)
		}
		if m.stack[t] >= maxRecursion {
			return reflect.StructOf(fields)
		}
		m.stack[t]++
		defer func() { m.stack[t]-- }()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			// Embedded mirrors carry no toarray field: fxamacker only
			// reads the outer struct's.
			fields = append(fields, reflect.StructField{Name: f.Name, Type: m.mirror(f.Type, toArray && !f.Anonymous),
				Tag: f.Tag, Anonymous: f.Anonymous})
		}
		return reflect.StructOf(fields)
	}
	return t
}

// convert copies v into a new value of type to, matching struct fields by
// name (from a generated type to its mirror and back); kept types are
// copied as they are.
func convert(v reflect.Value, to reflect.Type) reflect.Value {
	out := reflect.New(to).Elem()
	if v.Type() == to {
		out.Set(v)
		return out
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			out.Set(reflect.New(to.Elem()))
			out.Elem().Set(convert(v.Elem(), to.Elem()))
		}
	case reflect.Slice:
		if !v.IsNil() {
			out.Set(reflect.MakeSlice(to, v.Len(), v.Len()))
			for i := 0; i < v.Len(); i++ {
				out.Index(i).Set(convert(v.Index(i), to.Elem()))
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(convert(v.Index(i), to.Elem()))
		}
	case reflect.Map:
		if !v.IsNil() {
			out.Set(reflect.MakeMapWithSize(to, v.Len()))
			iter := v.MapRange()
			for iter.Next() {
				out.SetMapIndex(iter.Key(), convert(iter.Value(), to.Elem()))
			}
		}
	case reflect.Struct:
		for i := 0; i < to.NumField(); i++ {
			f := to.Field(i)
			if !f.IsExported() {
				continue
			}
			if sf, ok := v.Type().FieldByName(f.Name); ok && len(sf.Index) == 1 {
				out.Field(i).Set(convert(v.Field(sf.Index[0]), f.Type))
			}
		}
	default:
		out.Set(v.Convert(to))
	}
	return out
}

// rwFill is fill, with random values for the kept types.
func rwFill(r *rand.Rand, v reflect.Value, stack map[reflect.Type]int) {
	switch v.Type() {
	case typeTime:
		v.Set(reflect.ValueOf(randomTime(r)))
		return
	case typeBigInt:
		v.Set(reflect.ValueOf(*randomBigInt(r)))
		return
	case reflect.TypeFor[cbor.RawMessage]():
		raws := []string{"", "01", "6161", "a0", "820102", "f6", "c11a5f5e1000", "9f01ff", "f97e00", "c249010000000000000000"}
		if s := raws[r.IntN(len(raws))]; s != "" {
			b, _ := hex.DecodeString(s)
			v.SetBytes(b)
		}
		return
	case reflect.TypeFor[netip.Addr]():
		addrs := []netip.Addr{{}, netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("fe80::1%eth0")}
		v.Set(reflect.ValueOf(addrs[r.IntN(len(addrs))]))
		return
	case reflect.TypeFor[realworld.Money]():
		v.Set(reflect.ValueOf(realworld.Money{Units: int64(randomInt(r)), Currency: randomString(r)}))
		return
	case reflect.TypeFor[any]():
		anys := []any{nil, uint64(7), int64(-300), "text", true, 1.5, math.Inf(-1), []any{uint64(1), "x"},
			map[any]any{"k": uint64(2), uint64(3): []any{}}, []byte{1, 2}}
		if a := anys[r.IntN(len(anys))]; a != nil {
			v.Set(reflect.ValueOf(a))
		}
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		return // named interfaces stay nil: fxamacker cannot decode into a nil one
	case reflect.Pointer:
		if r.IntN(3) > 0 && !blocked(v.Type(), stack) {
			v.Set(reflect.New(v.Type().Elem()))
			rwFill(r, v.Elem(), stack)
		}
	case reflect.Slice:
		if r.IntN(4) == 0 || blocked(v.Type(), stack) {
			return
		}
		n := r.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			rwFill(r, v.Index(i), stack)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			rwFill(r, v.Index(i), stack)
		}
	case reflect.Map:
		if r.IntN(4) == 0 || blocked(v.Type(), stack) {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for n := r.IntN(4); n > 0; n-- {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			rwFill(r, k, stack)
			rwFill(r, e, stack)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		stack[v.Type()]++
		defer func() { stack[v.Type()]-- }()
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				rwFill(r, v.Field(i), stack)
			}
		}
	default:
		fill(r, v, stack)
	}
}

func randomTime(r *rand.Rand) time.Time {
	if r.IntN(5) == 0 {
		return time.Time{}
	}
	secs := r.Int64N(4e9) - 1e9
	if r.IntN(8) == 0 {
		secs = r.Int64N(2e11) - 1e11 // years far from 1970, some outside RFC 3339's
	}
	t := time.Unix(secs, r.Int64N(2)*r.Int64N(1e9))
	switch r.IntN(4) {
	case 0:
		return t.UTC()
	case 1:
		return t.In(time.FixedZone("", 5*3600+1800))
	case 2:
		return t.In(time.FixedZone("", -8*3600))
	}
	return t
}

func randomBigInt(r *rand.Rand) *big.Int {
	x := new(big.Int)
	switch r.IntN(4) {
	case 0:
		x.SetInt64(int64(randomInt(r)))
	case 1:
		x.SetUint64(randomInt(r))
	default:
		b := make([]byte, 1+r.IntN(20))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		x.SetBytes(b)
	}
	if r.IntN(2) == 0 {
		x.Neg(x)
	}
	if r.IntN(10) == 0 {
		x.Lsh(big.NewInt(-1), 64) // -2^64: still a CBOR integer
	}
	return x
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
	d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(all)))
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

// TestTimeModes checks runtime.AppendTime, which every time field calls,
// against fxamacker in each of its time modes, with and without tags, and
// runtime.ReadTime against fxamacker's decoder on what each mode writes.
func TestTimeModes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for mode := runtime.TimeUnix; mode <= runtime.TimeRFC3339NanoUTC; mode++ {
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
				got, err := runtime.AppendTime(nil, tm, mode, tag)
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
				back, err := runtime.NewBytesDecoder(got).ReadTime()
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
		gotT, err := runtime.NewBytesDecoder(data).ReadTime()
		if (err != nil) != (fxErr != nil) || err == nil && !gotT.Equal(fxT) {
			t.Errorf("time %s: got %v (%v), fxamacker %v (%v)", h, gotT, err, fxT, fxErr)
		}
		var fxB big.Int
		fxErr = cbor.Unmarshal(data, &fxB)
		var gotB big.Int
		err = runtime.NewBytesDecoder(data).ReadBigInt(&gotB)
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
