package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/runtime"
)

// Hostile inputs that need the shape of the storage types: recursion
// (Value -> Array -> Value, Value -> Composite -> Fields -> Field -> Value)
// and nested counts. The generic table (cbortest, the Hostile subtests of
// TestValue and the others) takes these as Suite.Bombs too.

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func rep(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

var (
	// voidValue is a Value with every member null.
	voidValue = cat([]byte{0x8d}, rep(0xf6, 13))
	// zeroComposite is the zero Composite.
	zeroComposite = cat([]byte{0x86, 0x82, 0x48}, rep(0, 8), []byte{0x60, 0xf6, 0x00, 0x60, 0xf6, 0x00})
)

// A recursive value n levels deep is n prefixes, the innermost value,
// then n suffixes.
type wrapper struct{ prefix, suffix []byte }

func (w wrapper) nest(base []byte, n int) []byte {
	return cat(bytes.Repeat(w.prefix, n), base, bytes.Repeat(w.suffix, n))
}

var (
	// arrayOf is a Value whose Array holds one Value.
	arrayOf = wrapper{cat([]byte{0x8d}, rep(0xf6, 9), []byte{0x81}), rep(0xf6, 3)}
	// legacyArrayOf is the same Value as a legacy map: {"a": [inner]}.
	legacyArrayOf = wrapper{[]byte{0xa1, 0x61, 'a', 0x81}, nil}
	// compositeOf is a Composite whose one Field holds a Value whose
	// Composite is the inner one: four containers per turn.
	compositeOf = wrapper{
		cat([]byte{0x86, 0x82, 0x48}, rep(0, 8), []byte{0x60, 0xf6, 0x00, 0x60, 0x81, 0x82, 0x60, 0x8d}, rep(0xf6, 12)),
		[]byte{0x00},
	}
)

// forgedNest is a Value whose Array declares 65536 elements, the first of
// which is such a Value again, levels deep, then 64 KiB of breaks: every
// count is within the bytes that remain, so only a budget over the whole
// input keeps the slices from claiming those bytes again at every level.
func forgedNest(levels int) []byte {
	var b []byte
	for range levels {
		b = append(b, 0x8d)
		b = append(b, rep(0xf6, 9)...)
		b = append(b, 0x9a, 0x00, 0x01, 0x00, 0x00)
	}
	return append(b, rep(0xff, 1<<16+1)...)
}

// forgedDictNest is the same through Dict: 32768 pairs declared, the
// first value a Value with such a Dict again.
func forgedDictNest(levels int) []byte {
	var b []byte
	for range levels {
		b = append(b, 0x8d)
		b = append(b, rep(0xf6, 10)...)
		b = append(b, 0xba, 0x00, 0x00, 0x80, 0x00, 0x60)
	}
	return append(b, rep(0xff, 1<<16+1)...)
}

// valueBombs and compositeBombs join the generic hostile table.
func valueBombs() map[string][]byte {
	return map[string][]byte{
		"Array in Array, 17 turns (34 levels)":        arrayOf.nest(voidValue, 17),
		"legacy Array in Array, 17 turns (34 levels)": legacyArrayOf.nest([]byte{0xa0}, 17),
		"Array in Array, 100000 turns":                arrayOf.nest(voidValue, 100000)[:1<<20],
		"Composite in Value, 9 turns":                 cat([]byte{0x8d}, rep(0xf6, 12), compositeOf.nest(zeroComposite, 9)),
		"forged Array counts, 15 levels":              forgedNest(15),
		"forged Dict counts, 15 levels":               forgedDictNest(15),
	}
}

func compositeBombs() map[string][]byte {
	return map[string][]byte{
		"Composite in Value, 9 turns (36 levels)": compositeOf.nest(zeroComposite, 9),
		"Composite in Value, 10000 turns":         compositeOf.nest(zeroComposite, 10000),
	}
}

// TestDepthThroughRecursiveTypes: the depth limit holds through the
// recursive types, in both formats, and the error names the path.
func TestDepthThroughRecursiveTypes(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  []byte
		limit int
	}{
		{"Array in Array", arrayOf.nest(voidValue, 15), 32},                 // 31 levels
		{"legacy Array in Array", legacyArrayOf.nest([]byte{0xa0}, 15), 32}, // 31 levels
		{"Composite in Value", cat([]byte{0x8d}, rep(0xf6, 12), compositeOf.nest(zeroComposite, 7)), 32},
	} {
		var v storage.Value
		if err := v.UnmarshalCBOR(c.data); err != nil {
			t.Errorf("%s within the limit: %v", c.name, err)
		}
		// Two levels less allowed: refused.
		if err := runtime.Unmarshal(c.data, &v, runtime.Options{MaxDepth: 28}); !errors.Is(err, runtime.ErrLimit) {
			t.Errorf("%s, MaxDepth 28: %v, want runtime.ErrLimit", c.name, err)
		}
	}

	// The 33rd level is a Value at offset 16*11; its path has 16 Arrays.
	data := arrayOf.nest(voidValue, 17)
	want := "cbor: Value" + strings.Repeat(".Array[0]", 16) + ": nesting depth exceeds limit 32 at offset 176"
	var v storage.Value
	if err := v.UnmarshalCBOR(data); err == nil || err.Error() != want {
		t.Errorf("UnmarshalCBOR(17 turns) = %v\nwant %s", err, want)
	}
	// Over a stream too the outermost type names the path.
	err := v.DecodeCBOR(runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(data))))
	if err == nil || err.Error() != want {
		t.Errorf("DecodeCBOR(17 turns) = %v\nwant %s", err, want)
	}

	// Composite -> Fields -> Field -> Value -> Composite: the 33rd level is
	// the Composite of the 9th turn, 8*31 bytes in.
	data = compositeOf.nest(zeroComposite, 9)
	var c storage.Composite
	err = c.UnmarshalCBOR(data)
	want = "cbor: Composite" + strings.Repeat(".Fields[0].Value.Composite", 8) + ": nesting depth exceeds limit 32 at offset 248"
	if err == nil || err.Error() != want {
		t.Errorf("UnmarshalCBOR(9 turns) = %v\nwant %s", err, want)
	}
}

// TestNestedForgedCounts: counts nested inside one another that each fit
// the bytes that remain allocate in proportion to the input once, not once
// per level (before the runtime's Hint kept a budget, 15 levels in 70 KB
// allocated 134 MB).
func TestNestedForgedCounts(t *testing.T) {
	for name, data := range map[string][]byte{"Array": forgedNest(15), "Dict": forgedDictNest(15)} {
		for _, stream := range []bool{false, true} {
			var err error
			var v storage.Value
			got := allocatedBytes(func() {
				if stream {
					err = v.DecodeCBOR(runtime.NewDecoder(bytes.NewReader(data)))
				} else {
					err = v.UnmarshalCBOR(data)
				}
			})
			if err == nil {
				t.Errorf("%s, stream %v: no error", name, stream)
			}
			// sizeof(Value) is 136 bytes; a map entry takes a little more.
			if limit := uint64(200 * len(data)); got > limit {
				t.Errorf("%s, stream %v: %d bytes of input allocated %d bytes, more than %d", name, stream, len(data), got, limit)
			}
		}
	}
}

// TestErrorPaths checks whole messages: the Go path from the type passed
// to UnmarshalCBOR down to the value, what was wrong, and the offset.
func TestErrorPaths(t *testing.T) {
	// A Composite whose fourth Field's Value declares a Dict of 200000
	// pairs at offset 1184: the type name is long enough to put it there.
	typeName := strings.Repeat("T", 1105)
	field := cat([]byte{0x82, 0x60}, voidValue)
	bomb := cat([]byte{0x82, 0x60, 0x8d}, rep(0xf6, 10), []byte{0xba, 0x00, 0x03, 0x0d, 0x40})
	composite := cat([]byte{0x86, 0x82, 0x48}, rep(0, 8), []byte{0x60, 0xf6, 0x00, 0x79, 0x04, 0x51}, []byte(typeName),
		[]byte{0x84}, field, field, field, bomb)

	limits := []byte{0x87, 0x00, 0x00, 0x00, 0xf4, 0x00, 0x83, 0x01, 0x02, 0x19, 0x9c, 0x40, 0xf6}
	legacyPath := []byte{0xa3, 0x61, 'd', 0x01, 0x61, 'i', 0x60, 0x61, 'd', 0x02}
	dict := cat([]byte{0x8d}, rep(0xf6, 10), []byte{0xa2, 0x61, 'a'}, voidValue, []byte{0x62, 0xc3, 0x28}, voidValue, rep(0xf6, 2))

	for _, c := range []struct {
		name   string
		decode func([]byte) error
		data   []byte
		want   string
		is     error
	}{
		{"pairs over the limit", new(storage.Composite).UnmarshalCBOR, composite,
			"cbor: Composite.Fields[3].Value.Dict: map pairs 200000 exceed limit 131072 at offset 1184", runtime.ErrLimit},
		{"integer out of range", new(storage.Limits).UnmarshalCBOR, limits,
			"cbor: Limits.Quotas[2]: integer 40000 overflows int16 at offset 9", runtime.ErrRange},
		{"duplicate field in a legacy map (strict)", func(b []byte) error {
			return runtime.Unmarshal(b, new(storage.Path), runtime.Options{Strict: true})
		}, legacyPath,
			`cbor: Path: map key appears twice at offset 7`, runtime.ErrDuplicateKey},
		{"wrong key type in a legacy map", new(storage.Location).UnmarshalCBOR, []byte{0xa1, 0x41, 'a', 0x40},
			"cbor: Location: expected text string or integer map key, found byte string at offset 1", runtime.ErrType},
		{"key beyond int64 in a legacy map", new(storage.Field).UnmarshalCBOR, cat([]byte{0xa1, 0x1b}, rep(0xff, 8), []byte{0x60}),
			"cbor: Field: integer 18446744073709551615 overflows int64 map key at offset 1", runtime.ErrRange},
		{"invalid UTF-8 in a Dict key", new(storage.Value).UnmarshalCBOR, dict,
			"cbor: Value.Dict: text string is not valid UTF-8 at offset 28", runtime.ErrUTF8},
		{"truncated", new(storage.Composite).UnmarshalCBOR, composite[:1150],
			"cbor: Composite.Fields[1].Value: array elements 13 exceed the 8 bytes left at offset 1141", io.ErrUnexpectedEOF},
		{"truncated in a string", new(storage.Composite).UnmarshalCBOR, composite[:100],
			"cbor: Composite.TypeName: unexpected end of data in text string of 1105 bytes at offset 14", io.ErrUnexpectedEOF},
		{"no data", new(storage.Composite).UnmarshalCBOR, nil,
			"cbor: Composite: no data at offset 0", io.ErrUnexpectedEOF},
		{"trailing data", new(storage.Path).UnmarshalCBOR, []byte{0x82, 0x01, 0x60, 0x00},
			"cbor: Path: unexpected data after the value at offset 3", runtime.ErrTrailing},
	} {
		err := c.decode(c.data)
		var rerr *runtime.Error
		if err == nil || err.Error() != c.want || !errors.Is(err, c.is) || !errors.As(err, &rerr) {
			t.Errorf("%s:\n got %v\nwant %s (%v)", c.name, err, c.want, c.is)
		}
	}
}

// TestOptionsPerCall: the limits set through runtime.Unmarshal and
// Decoder.SetOptions reach the generated decoders at every level, with the
// same errors over a stream.
func TestOptionsPerCall(t *testing.T) {
	fourteen := cat([]byte{0x8d}, rep(0xf6, 9), []byte{0x8e}, bytes.Repeat(voidValue, 14), rep(0xf6, 3))
	dict := cat([]byte{0x8d}, rep(0xf6, 10), []byte{0xa2, 0x61, 'a'}, voidValue, []byte{0x61, 'b'}, voidValue, rep(0xf6, 2))
	long := cat([]byte{0x8d}, rep(0xf6, 5), []byte{0x69}, []byte("123456789"), rep(0xf6, 7))
	for _, c := range []struct {
		data         []byte
		opts         runtime.Options
		want, stream string
	}{
		{fourteen, runtime.Options{MaxArrayElements: 13},
			"cbor: Value.Array: array elements 14 exceed limit 13 at offset 10",
			"cbor: Value.Array: array elements 14 exceed limit 13 at offset 10"},
		{dict, runtime.Options{MaxMapPairs: 1},
			"cbor: Value.Dict: map pairs 2 exceed limit 1 at offset 11",
			"cbor: Value.Dict: map pairs 2 exceed limit 1 at offset 11"},
		{long, runtime.Options{MaxStringLength: 8},
			"cbor: Value.Str: text string length 9 exceeds limit 8 at offset 6",
			"cbor: Value.Str: text string length 9 exceeds limit 8 at offset 6"},
		{fourteen, runtime.Options{MaxDepth: 2},
			"cbor: Value.Array[0]: nesting depth exceeds limit 2 at offset 11",
			"cbor: Value.Array[0]: nesting depth exceeds limit 2 at offset 11"},
		{cat([]byte{0x98, 0x0d}, rep(0xf6, 13)), runtime.Options{Strict: true},
			"cbor: Value: head is not the shortest for its argument at offset 0",
			"cbor: Value: head is not the shortest for its argument at offset 0"},
	} {
		var v storage.Value
		if err := v.UnmarshalCBOR(c.data); err != nil {
			t.Errorf("default options: %v", err)
		}
		if err := runtime.Unmarshal(c.data, &v, c.opts); err == nil || err.Error() != c.want {
			t.Errorf("runtime.Unmarshal(%+v):\n got %v\nwant %s", c.opts, err, c.want)
		}
		d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(c.data)))
		d.SetOptions(c.opts)
		if err := v.DecodeCBOR(d); err == nil || err.Error() != c.stream {
			t.Errorf("DecodeCBOR with SetOptions(%+v):\n got %v\nwant %s", c.opts, err, c.stream)
		}
	}
}

// TestStrictUnknownKeys: a legacy map may repeat a key that names no
// field (it is skipped) unless the decoder is strict; a key that names a
// field may never come twice.
func TestStrictUnknownKeys(t *testing.T) {
	data := []byte{0xa4, 0x61, 'd', 0x01, 0x61, 'x', 0x00, 0x61, 'i', 0x60, 0x61, 'x', 0x01}
	var p storage.Path
	if err := p.UnmarshalCBOR(data); err != nil || p.Domain != 1 {
		t.Errorf("default: %+v, %v", p, err)
	}
	err := runtime.Unmarshal(data, &p, runtime.Options{Strict: true})
	if want := "cbor: Path: map key appears twice at offset 10"; err == nil || err.Error() != want || !errors.Is(err, runtime.ErrDuplicateKey) {
		t.Errorf("strict:\n got %v\nwant %s", err, want)
	}
}

// allocatedBytes returns the bytes f allocates: the least of three runs,
// so that what other goroutines allocate meanwhile does not count.
func allocatedBytes(f func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		var before, after goruntime.MemStats
		goruntime.GC()
		goruntime.ReadMemStats(&before)
		f()
		goruntime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

func ExampleValue_streamOfRecords() {
	// Records written one after another, one in the legacy map format.
	var stream []byte
	for _, s := range []string{"a", "b"} {
		b, _ := storage.Value{Str: &s}.MarshalCBOR()
		stream = append(stream, b...)
	}
	stream = append(stream, 0xa1, 0x61, 's', 0x61, 'c') // {"s": "c"}

	d := runtime.NewDecoder(bytes.NewReader(stream))
	d.SetOptions(runtime.Options{MaxDepth: 8})
	for {
		var v storage.Value
		err := v.DecodeCBOR(d)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(*v.Str)
	}
	// Output:
	// a
	// b
	// c
}
