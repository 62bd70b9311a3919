package generator_test

import (
	"encoding/hex"
	"math"
	"math/big"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/testdata/golden/realworld"
)

// The oracle's tools, shared by the behaviour tests of every golden case:
// mirrors of generated types that fxamacker/cbor encodes without the
// generated methods, conversion to and from them, a strict comparison,
// and random values that exercise the encodings.

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
		k, e := m.mirror(t.Key(), toArray), m.mirror(t.Elem(), toArray)
		if k != t.Key() || e != t.Elem() {
			return reflect.MapOf(k, e)
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

const maxRecursion = 2

var toArrayField = reflect.StructField{
	Name: "_", PkgPath: "github.com/cborgen/cborgen/generator_test",
	Type: reflect.TypeOf(struct{}{}), Tag: `cbor:",toarray"`,
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
				out.SetMapIndex(convert(iter.Key(), to.Key()), convert(iter.Value(), to.Elem()))
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

// rwEqual compares two values of a mirror type strictly; see sameValue.
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

// fill sets v to a random value that exercises the encodings: boundary
// integers, floats that shrink to float16, NaN and infinities, nil and
// empty containers, multi-byte UTF-8. Structs that their mirrors hold
// as placeholders (see blocked) stay nil.
func fill(r *rand.Rand, v reflect.Value, stack map[reflect.Type]int) {
	fillValue(r, v, stack, 5, nil)
}

// rwFill is fill for the real-world types: shorter containers, and
// values of their own for the types that mirrors keep (times, big
// integers, raw messages, marshalers, interfaces).
func rwFill(r *rand.Rand, v reflect.Value, stack map[reflect.Type]int) {
	fillValue(r, v, stack, 4, fillKept)
}

// fillValue is fill and rwFill: slices and maps get fewer than maxLen
// elements, and own, when not nil, sets the values of the types it
// knows first, reporting whether it did.
func fillValue(r *rand.Rand, v reflect.Value, stack map[reflect.Type]int, maxLen int, own func(*rand.Rand, reflect.Value) bool) {
	if own != nil && own(r, v) {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(randomInt(r)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(randomInt(r))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(randomFloat(r))
	case reflect.String:
		v.SetString(randomString(r))
	case reflect.Pointer:
		if r.IntN(3) > 0 && !blocked(v.Type(), stack) {
			v.Set(reflect.New(v.Type().Elem()))
			fillValue(r, v.Elem(), stack, maxLen, own)
		}
	case reflect.Slice:
		if r.IntN(4) == 0 || blocked(v.Type(), stack) {
			return // nil
		}
		n := r.IntN(maxLen)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := 0; i < n; i++ {
			fillValue(r, v.Index(i), stack, maxLen, own)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fillValue(r, v.Index(i), stack, maxLen, own)
		}
	case reflect.Map:
		if r.IntN(4) == 0 || blocked(v.Type(), stack) {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for n := r.IntN(maxLen); n > 0; n-- {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillValue(r, k, stack, maxLen, own)
			fillValue(r, e, stack, maxLen, own)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		stack[v.Type()]++
		defer func() { stack[v.Type()]-- }()
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillValue(r, v.Field(i), stack, maxLen, own)
			}
		}
	}
	// Interfaces stay nil: fxamacker cannot decode into a nil named one,
	// and rwFill's own values cover any.
}

// fillKept sets v when its type is one that mirrors keep, and reports
// whether it did.
func fillKept(r *rand.Rand, v reflect.Value) bool {
	switch v.Type() {
	case typeTime:
		v.Set(reflect.ValueOf(randomTime(r)))
		return true
	case typeBigInt:
		v.Set(reflect.ValueOf(*randomBigInt(r)))
		return true
	case reflect.TypeFor[cbor.RawMessage]():
		raws := []string{"", "01", "6161", "a0", "820102", "f6", "c11a5f5e1000", "9f01ff", "f97e00", "c249010000000000000000"}
		if s := raws[r.IntN(len(raws))]; s != "" {
			b, _ := hex.DecodeString(s)
			v.SetBytes(b)
		}
		return true
	case reflect.TypeFor[netip.Addr]():
		addrs := []netip.Addr{{}, netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("fe80::1%eth0")}
		v.Set(reflect.ValueOf(addrs[r.IntN(len(addrs))]))
		return true
	case reflect.TypeFor[realworld.Money]():
		v.Set(reflect.ValueOf(realworld.Money{Units: int64(randomInt(r)), Currency: randomString(r)}))
		return true
	case reflect.TypeFor[any]():
		anys := []any{nil, uint64(7), int64(-300), "text", true, 1.5, math.Inf(-1), []any{uint64(1), "x"},
			map[any]any{"k": uint64(2), uint64(3): []any{}}, []byte{1, 2}}
		if a := anys[r.IntN(len(anys))]; a != nil {
			v.Set(reflect.ValueOf(a))
		}
		return true
	}
	return false
}

// blocked reports whether t leads (through pointers, slices, arrays and
// maps) to a struct that is already maxRecursion times on the way down, so
// that its mirror is a placeholder and the value must stay nil.
func blocked(t reflect.Type, stack map[reflect.Type]int) bool {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			return stack[t] >= maxRecursion
		default:
			return false
		}
	}
}

func randomInt(r *rand.Rand) uint64 {
	edges := []uint64{0, 1, 23, 24, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxUint64}
	switch r.IntN(3) {
	case 0:
		return edges[r.IntN(len(edges))] - uint64(r.IntN(2))
	case 1:
		return uint64(r.IntN(100)) - 50
	}
	return r.Uint64() >> r.IntN(64)
}

func randomFloat(r *rand.Rand) float64 {
	special := []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 65504, 65520, 1e-7, 5.960464477539063e-08,
		math.MaxFloat32, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 3.4028235677973366e+38}
	switch r.IntN(3) {
	case 0:
		return special[r.IntN(len(special))]
	case 1:
		return float64(float32(r.NormFloat64() * 1000))
	}
	return math.Float64frombits(r.Uint64())
}

func randomString(r *rand.Rand) string {
	words := []string{"", "a", "SKU-1", "héllo", "日本語", "emoji 😀", "a longer string of more than twenty-three bytes"}
	return words[r.IntN(len(words))]
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
