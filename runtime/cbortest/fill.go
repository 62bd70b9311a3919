package cbortest

import (
	"encoding"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cborgen/cborgen/runtime/genrt"
)

var (
	timeType    = reflect.TypeFor[time.Time]()
	decoderType = reflect.TypeFor[*genrt.Decoder]()
)

// ownEncoding reports whether values of t are written by methods that
// cbor-gen did not generate (MarshalCBOR without DecodeCBOR, or
// MarshalBinary): their fields are left zero, since only those methods
// know what they may hold.
func ownEncoding(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return false
	}
	if _, ok := pt.MethodByName("MarshalCBOR"); ok {
		return !generated(t) || hooked(t)
	}
	return pt.Implements(reflect.TypeFor[encoding.BinaryMarshaler]())
}

// hooked reports whether t is a //cborgen:body type: its own hooks
// call the generated DecodeCBORBody.
func hooked(t reflect.Type) bool {
	_, ok := reflect.PointerTo(t).MethodByName("DecodeCBORBody")
	return ok
}

// HasHooks reports whether values of t hold a //cborgen:body type, whose
// hand-written hooks may refuse what a random value (or a zero one)
// holds: its tests do not try random values.
func HasHooks(t reflect.Type) bool { return hasHooks(t, map[reflect.Type]bool{}) }

func hasHooks(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && hooked(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return hasHooks(t.Elem(), seen)
	case reflect.Map:
		return hasHooks(t.Key(), seen) || hasHooks(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if hasHooks(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// generated reports whether t has the methods cbor-gen generates
// (DecodeCBOR(*runtime.Decoder) error).
func generated(t reflect.Type) bool {
	m, ok := reflect.PointerTo(t).MethodByName("DecodeCBOR")
	return ok && m.Type.NumIn() == 2 && m.Type.In(1) == decoderType
}

// OnWire reports whether fxamacker/cbor encodes struct field f: it is
// exported and its tag (the cbor tag, else the json tag) is not "-".
func OnWire(f reflect.StructField) bool {
	if !f.IsExported() || f.Name == "_" {
		return false
	}
	tag, ok := f.Tag.Lookup("cbor")
	if !ok || tag == "" {
		tag = f.Tag.Get("json")
	}
	return tag != "-"
}

// Filler makes random values of the types cbor-gen supports. It favours the
// values where encodings change shape: integers at the edges of each head
// size, floats that fit float16 or float32 exactly, NaN and the infinities,
// -0, strings and byte strings of 23, 24, 255 and 256 bytes, nil beside empty
// slices and maps. Fields that are not [OnWire] are left alone.
type Filler struct {
	Rand *rand.Rand
	// Zero are types left at their zero value wherever they appear (a
	// catch-all variant, whose bytes must be one valid item).
	Zero []reflect.Type
	// MaxDepth bounds the nesting of pointers, slices and maps; deeper
	// ones are left nil. Zero means 5.
	MaxDepth int
	// MaxLen bounds the length of slices and maps at the top; it shrinks
	// by one per level. Zero means 4.
	MaxLen int
}

// Fill sets the value ptr points to to a random value.
func (f *Filler) Fill(ptr any) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		panic("cbortest.Fill: ptr must be a non-nil pointer")
	}
	f.fill(v.Elem(), 0)
}

func (f *Filler) maxDepth() int {
	if f.MaxDepth == 0 {
		return 5
	}
	return f.MaxDepth
}

func (f *Filler) maxLen() int {
	if f.MaxLen == 0 {
		return 4
	}
	return f.MaxLen
}

// absent reports whether an optional value at depth is left nil.
func (f *Filler) absent(depth int) bool {
	if depth >= f.maxDepth() {
		return true
	}
	return f.Rand.IntN(f.maxDepth()+1) <= depth
}

func (f *Filler) length(depth int) int {
	n := f.maxLen() - depth
	if n < 1 {
		n = 1
	}
	return f.Rand.IntN(n + 1)
}

func (f *Filler) fill(v reflect.Value, depth int) {
	r := f.Rand
	t := v.Type()
	if !v.CanSet() || slices.Contains(f.Zero, t) {
		return
	}
	if t == timeType {
		// Whole seconds and nanoseconds in the years 1 to 9999, UTC:
		// every time mode writes them, and reads them back.
		v.Set(reflect.ValueOf(time.Unix(r.Int64N(253402300799+62135596800)-62135596800, int64(r.IntN(1e9))).UTC()))
		return
	}
	if ownEncoding(t) {
		return // its own methods decide what its fields may hold
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return // left nil: no value to choose

	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(f.int(v.Type().Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(f.uint(v.Type().Bits()))
	case reflect.Float32:
		v.SetFloat(float64(f.float32()))
	case reflect.Float64:
		v.SetFloat(f.float64())
	case reflect.String:
		v.SetString(f.string())
	case reflect.Pointer:
		if f.absent(depth) {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := f.bytes()
			if b == nil {
				v.SetZero()
				return
			}
			s := reflect.MakeSlice(v.Type(), len(b), len(b))
			for i, c := range b {
				s.Index(i).SetUint(uint64(c))
			}
			v.Set(s)
			return
		}
		if r.IntN(8) == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		if f.absent(depth) {
			v.SetZero()
			return
		}
		n := f.length(depth)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		if r.IntN(8) == 0 {
			v.Set(reflect.MakeMap(v.Type()))
			return
		}
		if f.absent(depth) {
			v.SetZero()
			return
		}
		n := f.length(depth)
		m := reflect.MakeMapWithSize(v.Type(), n)
		for range n {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(k, depth+1)
			if hasNaN(k) || sameKey(m, k) {
				continue // keys Go tells apart and CBOR may not
			}
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			switch {
			case OnWire(sf):
				f.fill(v.Field(i), depth)
			case sf.Anonymous && !sf.IsExported() && sf.Type.Kind() == reflect.Struct:
				f.fill(v.Field(i), depth) // its exported fields are promoted
			}
		}
	}
}

// int returns a random integer that fits in bits bits, signed.
func (f *Filler) int(bits int) int64 {
	r := f.Rand
	if r.IntN(2) == 0 {
		edges := []int64{0, 1, -1, 23, 24, -24, -25, 127, -128, 255, 256, -256, -257,
			32767, -32768, 65535, 65536, -65536, -65537, math.MaxInt32, math.MinInt32,
			math.MaxUint32, math.MaxUint32 + 1, -math.MaxUint32 - 1, -math.MaxUint32 - 2,
			math.MaxInt64, math.MinInt64}
		for {
			e := edges[r.IntN(len(edges))]
			if bits == 64 || (e >= -1<<(bits-1) && e < 1<<(bits-1)) {
				return e
			}
		}
	}
	n := 1 + r.IntN(bits-1) // magnitude bits
	x := int64(r.Uint64() >> (64 - n))
	if r.IntN(2) == 0 {
		x = -x - 1
	}
	return x
}

// uint returns a random unsigned integer that fits in bits bits.
func (f *Filler) uint(bits int) uint64 {
	r := f.Rand
	if r.IntN(2) == 0 {
		edges := []uint64{0, 1, 23, 24, 255, 256, 65535, 65536, math.MaxUint32,
			math.MaxUint32 + 1, math.MaxUint64}
		for {
			e := edges[r.IntN(len(edges))]
			if bits == 64 || e < 1<<bits {
				return e
			}
		}
	}
	n := 1 + r.IntN(bits)
	return r.Uint64() >> (64 - n)
}

var floatEdges = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, -2.25, 100, 65504, 65505, 65520, -65504,
	5.960464477539063e-08, // the smallest float16 subnormal
	6.103515625e-05,       // the smallest normal float16
	1.0 / 3, 0.1, 1e-7, 1e300, -1e-300, 3.4028234663852886e+38, 1.401298464324817e-45,
	math.MaxFloat64, math.SmallestNonzeroFloat64, 16777216, 16777217, 1 << 53, 1<<53 + 1,
	math.Inf(1), math.Inf(-1), math.NaN(),
}

func (f *Filler) float64() float64 {
	r := f.Rand
	switch r.IntN(4) {
	case 0:
		return floatEdges[r.IntN(len(floatEdges))]
	case 1: // a short binary fraction, exact in float16 or float32
		return float64(int64(r.IntN(1<<12))-1<<11) / float64(int64(1)<<r.IntN(20))
	case 2:
		return float64(f.float32())
	default:
		return math.Float64frombits(r.Uint64())
	}
}

func (f *Filler) float32() float32 {
	r := f.Rand
	switch r.IntN(3) {
	case 0:
		return float32(floatEdges[r.IntN(len(floatEdges))])
	case 1:
		return float32(int64(r.IntN(1<<12))-1<<11) / float32(int64(1)<<r.IntN(20))
	default:
		return math.Float32frombits(r.Uint32())
	}
}

var stringEdges = []string{
	"", "a", "héllo", "日本語", "🙂", "\x00", "a\u00a0b", "kv.get",
	strings.Repeat("x", 23), strings.Repeat("y", 24), strings.Repeat("é", 128),
	strings.Repeat("z", 255), strings.Repeat("w", 256),
}

// string returns random valid UTF-8: CBOR text must be.
func (f *Filler) string() string {
	r := f.Rand
	if r.IntN(3) == 0 {
		return stringEdges[r.IntN(len(stringEdges))]
	}
	n := r.IntN(12)
	b := make([]byte, 0, n*2)
	for range n {
		var c rune
		switch r.IntN(4) {
		case 0:
			c = rune(r.IntN(0x80))
		case 1:
			c = rune(0x80 + r.IntN(0x800-0x80))
		case 2:
			c = rune(0x800 + r.IntN(0xd800-0x800))
		default:
			c = rune(0x10000 + r.IntN(utf8.MaxRune+1-0x10000))
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}

func (f *Filler) bytes() []byte {
	r := f.Rand
	switch r.IntN(6) {
	case 0:
		return nil
	case 1:
		return []byte{}
	case 2:
		n := []int{23, 24, 255, 256}[r.IntN(4)]
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	default:
		b := make([]byte, r.IntN(20))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
}

// hasNaN reports whether v holds a NaN float: two such map keys are
// different in Go and have the same encoding.
func hasNaN(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.IsNaN(v.Float())
	case reflect.Array:
		for i := range v.Len() {
			if hasNaN(v.Index(i)) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if hasNaN(v.Field(i)) {
				return true
			}
		}
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasNaN(v.Elem())
	}
	return false
}

// sameKey reports whether the map m has a key deeply equal to k (two
// pointers to equal values, which encode alike).
func sameKey(m, k reflect.Value) bool {
	for _, have := range m.MapKeys() {
		if reflect.DeepEqual(have.Interface(), k.Interface()) {
			return true
		}
	}
	return false
}
