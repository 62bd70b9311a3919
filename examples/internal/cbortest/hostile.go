package cbortest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	goruntime "runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// The allocation bound of a hostile decode: at most allocPerByte times the
// input plus allocFixed. Each element of a slice or map takes at least one
// byte of input, but may take far more memory: a 1-byte empty legacy map
// "a0" decodes into a 152-byte storage.Field, and the first pair of a Go
// map allocates a group of eight slots (1224 bytes for a map[string]Value,
// from a 3-byte pair). Valid input of the examples reaches about 250 bytes
// per byte in such patterns; a decoder that trusted a count, or let nested
// forged counts each claim the same remaining bytes, goes far beyond (15
// nested Value.Array counts made 1900 bytes per byte before Hint kept a
// budget). allocFixed covers the stream decoder's first 4 KiB buffer and
// the error value.
const (
	allocPerByte = 512
	allocFixed   = 64 << 10

	largeInput = 4096 // see checkHostile
)

// hostile is one input every generated decoder must refuse.
type hostile struct {
	name string
	data []byte
	is   error // a cause errors.Is must find; nil: any *runtime.Error
}

// The replacements tried at every position of a valid encoding.
var (
	// Heads that declare far more than the input holds, for each major
	// type with a length (over every limit, just over the element and
	// pair limit, within the limits), indefinite heads never closed, and
	// a tag without end.
	forgedHeads = func() [][]byte {
		var hs [][]byte
		for _, major := range []byte{genrt.MajorBytes, genrt.MajorText, genrt.MajorArray, genrt.MajorMap} {
			for _, n := range []uint64{math.MaxUint64, 1 << 63, 1 << 32, runtime.DefaultMaxArrayElements + 1, 65535} {
				hs = append(hs, genrt.AppendHead(nil, major, n))
			}
			hs = append(hs, []byte{major<<5 | 31})
		}
		return append(hs, []byte{0xdb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	}()
	// Nesting beyond the default depth of 32.
	depthBombs = [][]byte{
		append(bytes.Repeat([]byte{0x81}, 40), 0x00),
		bytes.Repeat([]byte{0x9f}, 40),
		append(bytes.Repeat([]byte{0xa1, 0x00}, 40), 0x00),
		append(bytes.Repeat([]byte{0xc1}, 40), 0x00),
		append(bytes.Repeat([]byte{0x81, 0xa1, 0x61, 0x61}, 20), 0x00),
	}
	// Text that is not UTF-8: a cut sequence, a surrogate, a bad chunk.
	badUTF8 = [][]byte{
		{0x62, 0xc3, 0x28},
		{0x63, 0xed, 0xa0, 0x80},
		{0x7f, 0x61, 0xff, 0xff},
	}
	// One item of each major type and simple value; those the field's type
	// takes (as fxamacker/cbor decides) are left out for each position.
	wrongTypes = [][]byte{
		{0x00}, {0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0x20}, {0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0x40}, {0x41, 0x00}, {0x60}, {0x61, 0x61},
		{0x80}, {0x81, 0x00}, {0xa0}, {0xa1, 0x00, 0x00},
		{0xc1, 0x00}, {0xd8, 0x20, 0x60},
		{0xf4}, {0xf5}, {0xf6}, {0xf7}, {0xf0},
		{0xf9, 0x7e, 0x00}, {0xfb, 0x3f, 0xf1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a},
	}
	// Keys of a legacy map that cannot name a field.
	wrongKeys = []struct {
		key []byte
		is  error
	}{
		{[]byte{0x40}, runtime.ErrType}, {[]byte{0x41, 0x61}, runtime.ErrType},
		{[]byte{0x80}, runtime.ErrType}, {[]byte{0xa0}, runtime.ErrType},
		{[]byte{0xf4}, runtime.ErrType}, {[]byte{0xf6}, runtime.ErrType},
		{[]byte{0xf9, 0x3c, 0x00}, runtime.ErrType}, {[]byte{0xc1, 0x00}, runtime.ErrType},
		{[]byte{0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, runtime.ErrRange},
		{[]byte{0x3b, 0x80, 0, 0, 0, 0, 0, 0, 0}, runtime.ErrRange},
		{[]byte{0x61, 0xff}, runtime.ErrUTF8},
		{[]byte{0xff}, runtime.ErrSyntax},
	}
)

// bases returns the valid encodings the hostile, strict and stream checks
// start from, as fxamacker/cbor writes them: the samples in name order,
// then random values; in the current and in the legacy format.
func (s Suite[T, A, M]) bases(t testing.TB) (values []T, arrays, legacies [][]byte) {
	t.Helper()
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range s.Samples {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		values = append(values, s.Samples[name])
	}
	f := s.Filler
	f.Rand = rand.New(rand.NewPCG(s.Seed, 0x686f7374))
	for range 4 {
		var v T
		f.Fill(&v)
		values = append(values, v)
	}
	for _, v := range values {
		var a A
		mirror.Convert(&a, v)
		b, err := arrayMode.Marshal(a)
		if err != nil {
			t.Fatalf("fxamacker/cbor: %v", err)
		}
		var m M
		mirror.Convert(&m, v)
		l, err := legacyMode.Marshal(m)
		if err != nil {
			t.Fatalf("fxamacker/cbor, legacy: %v", err)
		}
		arrays, legacies = append(arrays, b), append(legacies, l)
	}
	return values, arrays, legacies
}

// hostileCases derives the hostile inputs from valid encodings of one
// format. fxRejects reports whether fxamacker/cbor refuses an input for
// the mirror of that format; it decides which wrong types are wrong.
func hostileCases(encs [][]byte, fxRejects func([]byte) bool, legacy bool) []hostile {
	var out []hostile
	seen := map[string]bool{}
	add := func(name string, data []byte, is error) {
		if !seen[string(data)] {
			seen[string(data)] = true
			out = append(out, hostile{name, data, is})
		}
	}
	for e, enc := range encs {
		for i := range len(enc) {
			add(fmt.Sprintf("base %d cut at %d", e, i), enc[:i], io.ErrUnexpectedEOF)
		}
		if e >= 6 {
			continue // the edits below: six bases are plenty
		}
		top := parse(enc, 0)
		positions := []span{top}
		names := []string{"the item"}
		for i, k := range top.kids {
			if legacy && i%2 == 0 {
				continue // a key; the keys get their own edits below
			}
			positions = append(positions, k)
			names = append(names, fmt.Sprintf("element %d", i))
			if legacy {
				names[len(names)-1] = fmt.Sprintf("value of pair %d", i/2)
			}
		}
		for p, at := range positions {
			where := fmt.Sprintf("base %d, %s", e, names[p])
			for _, h := range forgedHeads {
				add(fmt.Sprintf("%s: forged head %x", where, h), splice(enc, at.start, at.end, h), nil)
			}
			for _, h := range depthBombs {
				add(fmt.Sprintf("%s: depth bomb %x...", where, h[:4]), splice(enc, at.start, at.end, h), nil)
			}
			for _, h := range badUTF8 {
				add(fmt.Sprintf("%s: invalid UTF-8 %x", where, h), splice(enc, at.start, at.end, h), nil)
			}
			if e == 0 {
				// Counts the input could hold, followed by breaks, which no
				// element can be: the decoder may allocate for the count,
				// but only in proportion to the input.
				pad := bytes.Repeat([]byte{0xff}, 1<<16)
				for _, h := range [][]byte{{0x9a, 0, 1, 0, 0}, {0xba, 0, 0, 0x80, 0}} {
					add(fmt.Sprintf("%s: count %x in 64 KiB", where, h), splice(enc, at.start, at.end, h, pad), nil)
				}
			}
			for _, h := range wrongTypes {
				data := splice(enc, at.start, at.end, h)
				if !seen[string(data)] && !otherFormat(enc[at.start], h[0], legacy) && fxRejects(data) {
					add(fmt.Sprintf("%s: wrong type %x", where, h), data, nil)
				}
			}
		}
		if !legacy || len(top.kids) == 0 || top.indef {
			continue
		}
		for i := 0; i < len(top.kids); i += 2 {
			k := top.kids[i]
			for _, w := range wrongKeys {
				add(fmt.Sprintf("base %d, key of pair %d: wrong key %x", e, i/2, w.key), splice(enc, k.start, k.end, w.key), w.is)
			}
		}
	}
	return out
}

// otherFormat reports whether replacing an item whose initial byte is orig
// with one whose initial byte is repl may be right although fxamacker/cbor
// refuses it with the mirror of one format: where a struct may be, the
// generated decoders take it in the other format too (a map in an array,
// an array in a legacy map), and where a float is, they take every
// integer, down to -2^64 (fxamacker stops at the int64 range).
func otherFormat(orig, repl byte, legacy bool) bool {
	structy := orig>>5 == genrt.MajorArray || orig>>5 == genrt.MajorMap || orig == 0xf6
	if structy && repl>>5 == genrt.MajorMap && !legacy {
		return true
	}
	if structy && repl>>5 == genrt.MajorArray && legacy {
		return true
	}
	float := orig == 0xf9 || orig == 0xfa || orig == 0xfb || orig == 0xf6
	return float && repl>>5 == genrt.MajorNeg
}

// shortHostile is about how many generated hostile inputs per format go
// test -short runs (the named bombs always run).
const shortHostile = 300

// hostileTable runs the table for both formats, over a byte slice and over
// a stream that returns one byte at a time.
func (s Suite[T, A, M]) hostileTable(t *testing.T) {
	_, arrays, legacies := s.bases(t)
	arrayRejects := func(data []byte) bool {
		var a A
		return cbor.Unmarshal(data, &a) != nil
	}
	legacyRejects := func(data []byte) bool {
		var m M
		return cbor.Unmarshal(data, &m) != nil
	}
	kinds := []struct {
		name  string
		cases []hostile
	}{
		{"array", shortSample(hostileCases(arrays, arrayRejects, false), shortHostile)},
		{"legacy", shortSample(hostileCases(legacies, legacyRejects, true), shortHostile)},
	}
	for _, b := range slices.Sorted(func(yield func(string) bool) {
		for name := range s.Bombs {
			if !yield(name) {
				return
			}
		}
	}) {
		data := s.Bombs[b]
		k := 0
		if len(data) > 0 && data[0]>>5 == genrt.MajorMap {
			k = 1
		}
		kinds[k].cases = append(kinds[k].cases, hostile{b, data, nil})
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			if len(k.cases) < 100 {
				t.Errorf("only %d hostile inputs for the %s decoder", len(k.cases), k.name)
			}
			var worst hostile
			var most uint64
			for _, c := range k.cases {
				if n := checkHostile[T](t, c); n > 0 && (worst.data == nil || n*uint64(len(worst.data)) > most*uint64(len(c.data))) {
					worst, most = c, n
				}
				if t.Failed() {
					return // one clear failure beats thousands
				}
			}
			t.Logf("%d hostile inputs; the most memory per byte of those over %d bytes: %d bytes allocated for %d (%s)",
				len(k.cases), largeInput, most, len(worst.data), worst.name)
		})
	}
}

// checkHostile decodes c over a slice and over a one-byte stream, checks
// the error and the allocation bound, and returns what the decode over the
// slice allocated when the input has largeInput bytes or more (for smaller
// ones the fixed part of the bound dominates), else 0.
func checkHostile[T any](t *testing.T, c hostile) uint64 {
	t.Helper()
	bound := uint64(allocPerByte*len(c.data) + allocFixed)
	var large uint64
	for _, stream := range []bool{false, true} {
		path := "UnmarshalCBOR"
		if stream {
			path = "DecodeCBOR(one-byte reader)"
		}
		var err error
		var panicked any
		decode := func() {
			defer func() { panicked = recover() }()
			var v T
			if stream {
				err = any(&v).(Codec).DecodeCBOR(runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(c.data))))
			} else {
				err = any(&v).(Codec).UnmarshalCBOR(c.data)
			}
		}
		n := allocated(decode, bound)
		if !stream && len(c.data) >= largeInput {
			large = exactAllocated(decode, 1)
		}
		if panicked != nil {
			t.Errorf("%s: %s(%x) panicked: %v", c.name, path, c.data, panicked)
			continue
		}
		if n > bound {
			t.Errorf("%s: %s(%d bytes) allocated %d bytes, more than %d", c.name, path, len(c.data), n, bound)
		}
		if stream && len(c.data) == 0 {
			if err != io.EOF {
				t.Errorf("%s: %s(empty) = %v, want io.EOF", c.name, path, err)
			}
			continue
		}
		var rerr *runtime.Error
		switch {
		case err == nil:
			t.Errorf("%s: %s(%x) = nil, want an error", c.name, path, c.data)
		case !errors.As(err, &rerr):
			t.Errorf("%s: %s(%x) = %v (%T), not a *runtime.Error", c.name, path, c.data, err, err)
		case c.is != nil && !errors.Is(err, c.is):
			t.Errorf("%s: %s(%x) = %v, want %v", c.name, path, c.data, err, c.is)
		}
		if !stream {
			// runtime.Unmarshal is UnmarshalCBOR with options.
			var v T
			err2 := runtime.Unmarshal(c.data, any(&v).(Codec), runtime.Options{})
			if err2 == nil || err2.Error() != err.Error() {
				t.Errorf("%s: runtime.Unmarshal(%x) = %v, UnmarshalCBOR %v", c.name, c.data, err2, err)
			}
		}
	}
	return large
}

// allocated returns the bytes f allocates, or a number at most bound when
// that is what f allocates. The quick count (runtime/metrics, which sees
// small allocations a span at a time) decides when it is within the bound;
// otherwise ReadMemStats, which flushes the per-P caches, counts exactly,
// after a collection and up to three times, and the least count wins, so
// that allocations by other goroutines do not fail the check.
func allocated(f func(), bound uint64) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	n := sample[0].Value.Uint64() - before
	if n > bound {
		n = min(n, exactAllocated(f, 3))
	}
	return n
}

// exactAllocated returns the bytes f allocates, exactly: the least of
// runs, each but the first after a collection.
func exactAllocated(f func(), runs int) uint64 {
	least := ^uint64(0)
	for i := range runs {
		var before, after goruntime.MemStats
		if i > 0 {
			goruntime.GC()
		}
		goruntime.ReadMemStats(&before)
		f()
		goruntime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
