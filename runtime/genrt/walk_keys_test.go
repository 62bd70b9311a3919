package genrt_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"hash/maphash"
	"math"
	"math/rand"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// The duplicate-key checks (genrt.Valid, Strict, a union's catch-all)
// must take time linear in the input however deeply keys nest: a key that
// holds maps is part of the key of every map around it, and reading it
// again for each of them took time depth x size (30 KB in 13 s at a depth
// limit of 65535). These shapes are the worst found; the tests bound the
// checks' work by the input's size, the benchmarks compare their time with
// Skip's over the same bytes.

// keyShape builds an item whose map keys nest n deep.
type keyShape struct {
	name  string
	make  func(n int) []byte
	indef bool // indefinite lengths: refused in strict mode
}

func repeatHex(h string, n int) string { return strings.Repeat(h, n) }

var keyShapes = []keyShape{
	// [{[{[... 0] : 0}] : 0}, []]: each map's key is an array holding
	// the next map.
	{name: "array-chain", make: func(n int) []byte {
		return mustHex("82" + repeatHex("a181", n) + "00" + repeatHex("00", n) + "80")
	}},
	// {{{... 0: 0} : 0} : 0}: each map's key is the next map.
	{name: "map-chain", make: func(n int) []byte {
		return mustHex(repeatHex("a1", n) + "00" + repeatHex("00", n))
	}},
	// {{{... 0: 0, 1: 0} : 0, 1: 0} : 0, 1: 0}: each map has two pairs,
	// so its keys are printed and compared, and its first key is the
	// next map: every level is printed.
	{name: "pair-chain", make: func(n int) []byte {
		return mustHex(repeatHex("a2", n) + "00" + repeatHex("000100", n))
	}},
	// The array chain with indefinite lengths, whose key forms once took a
	// copy per level.
	{name: "indefinite-chain", indef: true, make: func(n int) []byte {
		return mustHex("82" + repeatHex("bf9f", n) + "00" + repeatHex("ff00ff", n) + "80")
	}},
	// Each key a tagged array of 16 bytes of text and the next map: the
	// text is hashed once, not once per level.
	{name: "text-chain", make: func(n int) []byte {
		t := "70" + strings.Repeat("61", 16)
		return mustHex(repeatHex("a1c682"+t, n) + "00" + repeatHex("00", n))
	}},
	// One map of n keys, each an array of the same 256 bytes of text and
	// a number: keys with long common prefixes.
	{name: "wide-keys", make: func(n int) []byte { return wideKeys(n, 256, false) }},
	// The same keys in an order of no pattern: compared by their prints
	// (once keys in order are compared each with the one before, this is
	// the worst order).
	{name: "wide-keys-shuffled", make: func(n int) []byte {
		return wideKeys(n, 256, true)
	}},
	// One map of n keys of 9 bytes of text each, in order: many short
	// keys, each compared with the one before.
	{name: "short-keys", make: func(n int) []byte { return shortKeys(n, false) }},
	// The same keys in an order of no pattern, each printed.
	{name: "short-keys-shuffled", make: func(n int) []byte { return shortKeys(n, true) }},
	// The chain at the default depth limit, repeated in one array to
	// about the size of the deep one: 28 levels, n/14 times.
	{name: "default-depth", make: func(n int) []byte {
		c := repeatHex("a181", 14) + "00" + repeatHex("00", 14)
		k := max(n/14, 1)
		return mustHex(fmt.Sprintf("%x", genrt.AppendArrayHead(nil, k)) + repeatHex(c, k))
	}},
}

// keyOrder is 0 to n-1, in order or in an order of no pattern (the same
// for every n).
func keyOrder(n int, shuffled bool) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if shuffled {
		rng := mrand.New(mrand.NewPCG(uint64(n), 17))
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	return order
}

// wideKeys is a map of n keys, each an array of the same l bytes of text
// and a number (0 to n-1), values 0.
func wideKeys(n, l int, shuffled bool) []byte {
	var b []byte
	b = genrt.AppendMapHead(b, n)
	t := strings.Repeat("k", l)
	for _, i := range keyOrder(n, shuffled) {
		b = append(b, 0x82)
		b = genrt.AppendString(b, t)
		b = genrt.AppendUint(b, uint64(i))
		b = append(b, 0x00)
	}
	return b
}

// shortKeys is a map of n keys of 9 bytes of text, values 0.
func shortKeys(n int, shuffled bool) []byte {
	var b []byte
	b = genrt.AppendMapHead(b, n)
	for _, i := range keyOrder(n, shuffled) {
		b = genrt.AppendString(b, fmt.Sprintf("key%06d", i))
		b = append(b, 0x00)
	}
	return b
}

// deepOptions lift every limit a shape could meet, the depth to its most.
var deepOptions = genrt.Options{
	MaxDepth:         65535,
	MaxArrayElements: math.MaxInt32,
	MaxMapPairs:      math.MaxInt32,
	MaxStringLength:  math.MaxInt32,
}

// keyWorkBound is the most work the duplicate-key checks may do over an
// input of n bytes: about one step per byte (an item printed or a byte
// hashed), whatever the depth.
func keyWorkBound(n int) int { return 2*n + 64 }

// keyDepths are the depths of the shapes in the tests (the deepest only in
// the full run).
func keyDepths() []int {
	if testing.Short() {
		return []int{10, 300, 3000}
	}
	return []int{10, 300, 3000, 30000}
}

func TestDuplicateKeyChecksLinear(t *testing.T) {
	for _, s := range keyShapes {
		for _, n := range keyDepths() {
			data := s.make(n)
			t.Run(fmt.Sprintf("%s/%d", s.name, n), func(t *testing.T) {
				work, err := genrt.ValidWork(data, deepOptions)
				if err != nil {
					t.Fatalf("valid: %v", err)
				}
				if work > keyWorkBound(len(data)) {
					t.Errorf("valid: work %d over %d bytes", work, len(data))
				}
				for _, k := range decoderKinds {
					d := k.new(data)
					d.SetOptions(deepOptions)
					raw, err := d.ReadRawBytes(nil)
					if err != nil || !bytes.Equal(raw, data) {
						t.Fatalf("%s ReadRawBytes: %d bytes, %v", k.name, len(raw), err)
					}
					if w := genrt.KeyWork(d); w > keyWorkBound(len(data)) {
						t.Errorf("%s ReadRawBytes: work %d over %d bytes", k.name, w, len(data))
					}
					o := deepOptions
					o.Strict = true
					d = k.new(data)
					d.SetOptions(o)
					err = d.Skip()
					if s.indef != errors.Is(err, genrt.ErrStrict) || !s.indef && err != nil {
						t.Fatalf("%s strict Skip: %v", k.name, err)
					}
					if w := genrt.KeyWork(d); w > keyWorkBound(len(data)) {
						t.Errorf("%s strict Skip: work %d over %d bytes", k.name, w, len(data))
					}
				}
			})
		}
	}
}

// TestDuplicateKeysDeep: a repeated key is found at any depth, in any of
// its encodings, and named by the offset of its second appearance; keys
// that differ only deep inside are different.
func TestDuplicateKeysDeep(t *testing.T) {
	// Two keys, each a chain of n maps around 0 (values 0), written once
	// with definite and once with indefinite lengths (and a float for
	// the innermost 0 in the second: 0.0 is not 0).
	chain := func(n int, open, inner, closer string) string {
		return repeatHex(open, n) + inner + repeatHex(closer, n)
	}
	for _, n := range []int{1, 5, 100, 5000} {
		a := chain(n, "a1", "00", "00")
		b := chain(n, "bf", "00", "00ff")
		c := chain(n, "bf", "1800", "00ff") // 0 with a longer head: equal
		f := chain(n, "bf", "f90000", "00ff")
		for _, tc := range []struct {
			second string
			dup    bool
		}{{a, true}, {b, true}, {c, true}, {f, false}, {"d9d9f7" + b, true}, {"c6" + b, false}} {
			data := mustHex("a2" + a + "01" + tc.second + "02")
			second := int64(1 + len(a)/2 + 1)
			_, err := genrt.ValidWork(data, deepOptions)
			var e *genrt.Error
			if tc.dup {
				if !errors.Is(err, genrt.ErrDuplicateKey) || !errors.As(err, &e) || e.Offset != second {
					t.Errorf("n=%d, %.16s...: %v, want a duplicate key at offset %d", n, tc.second, err, second)
				}
			} else if err != nil {
				t.Errorf("n=%d, %.16s...: %v, want no error", n, tc.second, err)
			}
		}
	}
	// A duplicate in the innermost map of a deep chain.
	n := 1000
	data := mustHex("82" + repeatHex("a181", n) + "a20000 0000" + repeatHex("00", n) + "80")
	if _, err := genrt.ValidWork(data, deepOptions); !errors.Is(err, genrt.ErrDuplicateKey) {
		t.Errorf("innermost duplicate: %v", err)
	}
}

// FuzzKeyChecks runs the duplicate-key checks on any input at the deepest
// limit and holds their work to the input's size; while fuzzing it also
// reports the time per input byte and fails on one that takes far longer
// per byte than a walk should (a pathological shape the bound above
// misses: a plain `go test` run only checks the work).
func FuzzKeyChecks(f *testing.F) {
	for _, s := range keyShapes {
		f.Add(s.make(8))
	}
	f.Add(mustHex("a2 a1 00 00 01 bf 00 00 ff 02"))
	f.Add(mustHex("a2 d9d9f7 01 00 01 00"))
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		work, err := genrt.ValidWork(data, deepOptions)
		if work > keyWorkBound(len(data)) {
			t.Fatalf("work %d over %d bytes (%v)", work, len(data), err)
		}
		d := genrt.NewBytesDecoder(data)
		d.SetOptions(deepOptions)
		if _, rerr := d.ReadRawBytes(nil); (rerr == nil) != (err == nil) && !errors.Is(err, genrt.ErrTrailing) {
			t.Fatalf("ReadRawBytes %v, the walk %v", rerr, err)
		}
		if end := genrt.Checked(data, deepOptions, true); end >= 0 {
			if wend, werr := genrt.WalkChecks(data, deepOptions, true); werr != nil || wend != end {
				t.Fatalf("the checker accepts %d bytes, walk %d bytes, %v", end, wend, werr)
			}
		}
		elapsed := time.Since(start)
		if fuzzing && len(data) > 0 {
			// Against Skip over the same bytes, so that a loaded machine
			// slows both: only a shape that costs far more per byte than
			// a walk fails.
			start = time.Now()
			for range 8 {
				d := genrt.NewBytesDecoder(data)
				d.SetOptions(deepOptions)
				_ = d.Skip()
			}
			skip := time.Since(start)/8 + time.Microsecond
			perByte := elapsed / time.Duration(len(data))
			t.Logf("%d bytes: %v, %v per byte, %.0fx Skip", len(data), elapsed, perByte, float64(elapsed)/float64(skip))
			// A pause of the collector or the scheduler is no finding:
			// only the fastest of three more runs counts.
			for i := 0; i < 3 && elapsed > 50*time.Millisecond && elapsed > 500*skip; i++ {
				start = time.Now()
				genrt.ValidWork(data, deepOptions)
				elapsed = min(elapsed, time.Since(start))
			}
			if elapsed > 50*time.Millisecond && elapsed > 500*skip {
				t.Fatalf("%d bytes took %v (%v per byte), %v for Skip", len(data), elapsed, perByte, skip)
			}
		}
	})
}

var (
	hashSeed = maphash.MakeSeed()
	sinkHash uint64
)

// BenchmarkKeyChecks times the duplicate-key checks on the shapes above
// against Skip over the same bytes (docs/performance.md): valid is the
// checks of Valid by ReadRawBytes (a catch-all's read) into a new array
// each time, valid-buf the same into one array used again (as a
// catch-all that is decoded into again), strict a strict decoder's
// Skip, write a catch-all's AppendRaw to a new array, write-buf to one
// used again, copy the copy of the item alone (what the catch-all's
// read and write add to the checks); wellformed is fxamacker's
// Wellformed (no UTF-8, no keys) under the same limits; utf8, utf8+hash
// and skip+utf8, for the wide keys, the floors of any check (keyFloors).
func BenchmarkKeyChecks(b *testing.B) {
	fx, err := cbor.DecOptions{
		MaxNestedLevels:  65535,
		MaxArrayElements: math.MaxInt32,
		MaxMapPairs:      math.MaxInt32,
	}.DecMode()
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range keyShapes {
		for _, n := range []int{28, 1000, 30000} {
			data := s.make(n)
			ops := keyOps(data)
			ops = append(ops, keyOp{"wellformed", func() error { return fx.Wellformed(data) }})
			if strings.HasPrefix(s.name, "wide-keys") {
				ops = append(ops, keyFloors(data, n, 256)...)
			}
			for _, op := range ops {
				if op.name == "strict" && s.indef {
					continue
				}
				b.Run(fmt.Sprintf("shape=%s/depth=%d/op=%s", s.name, n, op.name), func(b *testing.B) {
					runKeyOp(b, data, op)
				})
			}
		}
	}
}

// BenchmarkWideKeyLengths times the checks of the wide keys against
// their floors as the keys' text grows: 1000 keys of l bytes of text and
// a number, in order and shuffled.
func BenchmarkWideKeyLengths(b *testing.B) {
	const n = 1000
	for _, l := range []int{16, 64, 256, 1024} {
		for _, shuffled := range []bool{false, true} {
			data := wideKeys(n, l, shuffled)
			name := "wide-keys"
			if shuffled {
				name += "-shuffled"
			}
			for _, op := range append(keyOps(data), keyFloors(data, n, l)...) {
				b.Run(fmt.Sprintf("shape=%s/len=%d/op=%s", name, l, op.name), func(b *testing.B) {
					runKeyOp(b, data, op)
				})
			}
		}
	}
}

// keyOp is an operation of the key benchmarks.
type keyOp struct {
	name string
	run  func() error
}

// keyOps are the checks and Skip over data, every limit lifted.
func keyOps(data []byte) []keyOp {
	strict := deepOptions
	strict.Strict = true
	var rbuf, wbuf, cbuf []byte
	return []keyOp{
		{"skip", func() error { d := genrt.NewBytesDecoder(data); d.SetOptions(deepOptions); return d.Skip() }},
		{"valid", func() error {
			d := genrt.NewBytesDecoder(data)
			d.SetOptions(deepOptions)
			_, err := d.ReadRawBytes(nil)
			return err
		}},
		{"valid-buf", func() error {
			d := genrt.NewBytesDecoder(data)
			d.SetOptions(deepOptions)
			var err error
			rbuf, err = d.ReadRawBytes(rbuf[:0])
			return err
		}},
		{"strict", func() error { d := genrt.NewBytesDecoder(data); d.SetOptions(strict); return d.Skip() }},
		{"write", func() error { _, err := genrt.AppendRaw(nil, data); return err }},
		{"write-buf", func() error {
			var err error
			wbuf, err = genrt.AppendRaw(wbuf[:0], data)
			return err
		}},
		// The copy of the item alone, which the catch-all's read and write
		// make after the checks.
		{"copy", func() error { cbuf = append(cbuf[:0], data...); return nil }},
	}
}

// keyFloors are the floors of a check of n wide keys of l bytes of text:
// each key's text read for UTF-8 (utf8), then also hashed (utf8+hash,
// maphash, as the prints of keys out of order are), which Skip and
// Wellformed jump over; and Skip with the UTF-8 check (skip+utf8), the
// least a check that owes that UTF-8 check can cost.
func keyFloors(data []byte, n, l int) []keyOp {
	key := []byte(strings.Repeat("k", l))
	utf := func() error {
		for range n {
			if !utf8.Valid(key) {
				return errors.New("not UTF-8")
			}
		}
		return nil
	}
	return []keyOp{
		{"utf8", utf},
		{"utf8+hash", func() error {
			for range n {
				if !utf8.Valid(key) {
					return errors.New("not UTF-8")
				}
				sinkHash += maphash.Bytes(hashSeed, key)
			}
			return nil
		}},
		{"skip+utf8", func() error {
			d := genrt.NewBytesDecoder(data)
			d.SetOptions(deepOptions)
			if err := d.Skip(); err != nil {
				return err
			}
			return utf()
		}},
	}
}

func runKeyOp(b *testing.B, data []byte, op keyOp) {
	genrt.SetDefaultOptions(deepOptions)
	defer genrt.SetDefaultOptions(genrt.Options{})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := op.run(); err != nil {
			b.Fatal(err)
		}
	}
}

// keyNode is a random CBOR value for the key tests: an integer (major 0
// or 1), a string (2 or 3), an array (4), a map (5), a tag (6) or a
// float (7).
type keyNode struct {
	major byte
	arg   uint64 // integer, tag number, float64 bits
	str   []byte
	items []keyNode // array elements, map keys and values in turn, tag content
}

func randomKeyNode(rng *mrand.Rand, depth int) keyNode {
	k := rng.IntN(8)
	if depth <= 0 && k >= 4 && k <= 6 {
		k = rng.IntN(4)
	}
	n := keyNode{major: byte(k)}
	switch k {
	case 0, 1:
		n.arg = []uint64{0, 1, 23, 24, 255, 256, 65535, 1 << 20, 1 << 40, math.MaxUint64}[rng.IntN(10)] - uint64(rng.IntN(2))
	case 2, 3:
		n.str = []byte("abcdefghijklmnopqrstuvwxyz0123456789"[:rng.IntN(30)])
	case 4, 5:
		m := rng.IntN(4)
		if k == 5 {
			m *= 2
		}
		for range m {
			n.items = append(n.items, randomKeyNode(rng, depth-1))
		}
		if k == 5 {
			// Keys of a map in a valid item differ: number them.
			for i := 0; i < m; i += 2 {
				n.items[i] = keyNode{major: 0, arg: uint64(i)}
			}
		}
	case 6:
		n.arg = []uint64{6, 24, 100, 55799, 1 << 20}[rng.IntN(5)]
		n.items = []keyNode{randomKeyNode(rng, depth-1)}
	case 7:
		n.arg = math.Float64bits([]float64{0, math.Copysign(0, -1), 1.5, 65504, 1e300, 0.1, math.Inf(1), math.NaN()}[rng.IntN(8)])
	}
	return n
}

// encodeKeyNode writes n; with rng, in a random one of its encodings
// (longer heads, indefinite lengths and chunks, wider floats, tags 55799
// where they are no part of the value), else in the shortest.
func encodeKeyNode(dst []byte, n keyNode, rng *mrand.Rand, inTag bool) []byte {
	head := func(dst []byte, major byte, arg uint64) []byte {
		if rng == nil || rng.IntN(3) > 0 {
			return genrt.AppendHead(dst, major, arg)
		}
		w := max(genrt.SizeHead(arg)-1, []int{1, 2, 4, 8}[rng.IntN(4)])
		if arg < 24 && w == 0 {
			w = 1
		}
		ai := map[int]byte{1: 24, 2: 25, 4: 26, 8: 27}[w]
		dst = append(dst, major<<5|ai)
		for i := w - 1; i >= 0; i-- {
			dst = append(dst, byte(arg>>(8*i)))
		}
		return dst
	}
	if rng != nil && !inTag && rng.IntN(8) == 0 {
		dst = append(dst, 0xd9, 0xd9, 0xf7)
	}
	switch n.major {
	case 0, 1:
		return head(dst, n.major, n.arg)
	case 2, 3:
		if rng != nil && rng.IntN(3) == 0 {
			dst = append(dst, n.major<<5|31)
			for s := n.str; ; {
				c := min(len(s), rng.IntN(5))
				dst = append(head(dst, n.major, uint64(c)), s[:c]...)
				if s = s[c:]; len(s) == 0 {
					return append(dst, 0xff)
				}
			}
		}
		return append(head(dst, n.major, uint64(len(n.str))), n.str...)
	case 4, 5:
		count := uint64(len(n.items))
		if n.major == 5 {
			count /= 2
		}
		indef := rng != nil && rng.IntN(3) == 0
		if indef {
			dst = append(dst, n.major<<5|31)
		} else {
			dst = head(dst, n.major, count)
		}
		for _, it := range n.items {
			dst = encodeKeyNode(dst, it, rng, false)
		}
		if indef {
			dst = append(dst, 0xff)
		}
		return dst
	case 6:
		return encodeKeyNode(head(dst, 6, n.arg), n.items[0], rng, true)
	}
	f := math.Float64frombits(n.arg)
	if rng != nil && f == f {
		switch rng.IntN(3) {
		case 0:
			b := math.Float64bits(f)
			return append(dst, 0xfb, byte(b>>56), byte(b>>48), byte(b>>40), byte(b>>32), byte(b>>24), byte(b>>16), byte(b>>8), byte(b))
		case 1:
			if f32 := float32(f); float64(f32) == f {
				b := math.Float32bits(f32)
				return append(dst, 0xfa, byte(b>>24), byte(b>>16), byte(b>>8), byte(b))
			}
		}
	}
	return genrt.AppendFloat64(dst, f)
}

// TestDuplicateKeysByValue: two random keys in any two of their
// encodings are found equal exactly when their key forms are, at any
// depth of a key, so the prints and the comparison agree.
func TestDuplicateKeysByValue(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(7, 11))
	rounds := 20000
	if testing.Short() {
		rounds = 2000
	}
	dups, different := 0, 0
	for range rounds {
		a := randomKeyNode(rng, 3)
		b := a
		if rng.IntN(2) == 0 {
			b = randomKeyNode(rng, 3)
		}
		ka, kb := encodeKeyNode(nil, a, rng, false), encodeKeyNode(nil, b, rng, false)
		fa, _ := genrt.KeyForm(nil, ka)
		fb, _ := genrt.KeyForm(nil, kb)
		same := bytes.Equal(fa, fb)
		// The two keys in one map, and the map as the key of another,
		// twice, so that the prints of whole maps are compared too.
		inner := append(append(append([]byte{0xa2}, ka...), 0x01), append(kb, 0x02)...)
		for _, data := range [][]byte{
			inner,
			append(append(append([]byte{0xa2, 0x81, 0xa1}, ka...), 0x00, 0x00, 0x81, 0xa1), append(kb, 0x00, 0x00)...),
		} {
			_, err := genrt.ValidWork(data, deepOptions)
			if same != errors.Is(err, genrt.ErrDuplicateKey) {
				t.Fatalf("%x: key forms equal %v, walk %v", data, same, err)
			}
			if !same && err != nil {
				t.Fatalf("%x: %v", data, err)
			}
		}
		if same {
			dups++
		} else {
			different++
		}
	}
	if dups < rounds/3 || different < rounds/3 {
		t.Fatalf("%d equal and %d different pairs of keys", dups, different)
	}
}

// TestCheckerAgrees: whatever the checker accepts, walk accepts too and
// ends at the same byte, under the options of Valid, of a strict
// decoder's check and with every limit lifted; and the checker takes
// most of what walk accepts (all but what it leaves to walk on purpose).
func TestCheckerAgrees(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	krng := mrand.New(mrand.NewPCG(5, 9))
	seeds := walkerSeeds(t, rng)
	for _, s := range keyShapes {
		seeds = append(seeds, s.make(40))
	}
	for range 300 {
		n := randomKeyNode(krng, 4)
		seeds = append(seeds, encodeKeyNode(nil, n, nil, false), encodeKeyNode(nil, n, krng, false))
		// As a key twice, and beside another key.
		k := encodeKeyNode(nil, n, krng, false)
		seeds = append(seeds, slices.Concat([]byte{0xa2}, k, []byte{0}, encodeKeyNode(nil, n, krng, false), []byte{1}),
			slices.Concat([]byte{0xa2}, k, []byte{0}, encodeKeyNode(nil, randomKeyNode(krng, 3), nil, false), []byte{1}))
	}
	strict := genrt.DefaultOptions()
	strict.Strict = true
	modes := []struct {
		name string
		o    genrt.Options
		tags bool
	}{{"valid", genrt.DefaultOptions(), true}, {"strict", strict, false}, {"deep", deepOptions, true}}
	rounds := 20
	if testing.Short() {
		rounds = 4
	}
	accepted, both := 0, 0
	check := func(data []byte) {
		for _, m := range modes {
			end := genrt.Checked(data, m.o, m.tags)
			wend, err := genrt.WalkChecks(data, m.o, m.tags)
			if end >= 0 && (err != nil || wend != end) {
				t.Fatalf("%s: %x: the checker accepts %d bytes, walk %d bytes, %v", m.name, data, end, wend, err)
			}
			if err == nil {
				accepted++
				if end >= 0 {
					both++
				}
			}
		}
	}
	for _, s := range seeds {
		check(s)
		for range rounds {
			check(mutate(rng, slices.Clone(s)))
		}
	}
	if both < accepted/2 {
		t.Fatalf("the checker took %d of the %d items walk accepts", both, accepted)
	}
	t.Logf("%d inputs walk accepts, %d of them taken by the checker", accepted, both)
}

// TestManyEqualKeys: a map of many equal keys is one duplicate, found
// with one comparison of two keys, not one per pair.
func TestManyEqualKeys(t *testing.T) {
	for _, n := range []int{3, 8, 9, 1000} {
		var b []byte
		b = genrt.AppendMapHead(b, n)
		key := genrt.AppendString(nil, strings.Repeat("k", 100))
		second := int64(0)
		for i := range n {
			if i == 1 {
				second = int64(len(b))
			}
			b = append(append(b, key...), 0x00)
		}
		work, err := genrt.ValidWork(b, deepOptions)
		var e *genrt.Error
		if !errors.Is(err, genrt.ErrDuplicateKey) || !errors.As(err, &e) || e.Offset != second {
			t.Errorf("%d equal keys: %v, want a duplicate at offset %d", n, err, second)
		}
		if work > keyWorkBound(len(b)) {
			t.Errorf("%d equal keys: work %d over %d bytes", n, work, len(b))
		}
	}
}

// TestCheckerDistinct: the checker finds a key twice among the keys of
// maps of every size it treats apart (pairwise up to 8, a table on its
// stack up to 32, a pooled table beyond), wherever the two are, and takes
// maps of different keys; each verdict is the general walker's.
func TestCheckerDistinct(t *testing.T) {
	for _, n := range []int{2, 8, 9, 32, 33, 100, 3000} {
		mapOf := func(dupA, dupB int) []byte {
			b := genrt.AppendMapHead(nil, n)
			for i := range n {
				k := i
				if i == dupB {
					k = dupA
				}
				b = append(b, 0x81) // a key the checker prints: [k]
				b = genrt.AppendUint(b, uint64(k)*1000003)
				b = append(b, 0x00)
			}
			return b
		}
		check := func(data []byte, dup bool) {
			t.Helper()
			end := genrt.Checked(data, genrt.Options{}, true)
			_, werr := genrt.WalkChecks(data, genrt.Options{}, true)
			if dup != errors.Is(werr, genrt.ErrDuplicateKey) {
				t.Fatalf("%d pairs: the walk says %v, want a duplicate: %v", n, werr, dup)
			}
			if dup && end >= 0 || !dup && end != len(data) {
				t.Fatalf("%d pairs: the checker accepts %d bytes of %d (duplicate: %v)", n, end, len(data), dup)
			}
		}
		check(mapOf(-1, -1), false)
		for _, ab := range [][2]int{{0, 1}, {0, n - 1}, {n / 2, n - 1}, {n - 2, n - 1}} {
			if ab[0] != ab[1] && ab[1] < n {
				check(mapOf(ab[0], ab[1]), true)
			}
		}
	}
}

// TestKeysInOrder: the checker takes a map whose keys come in increasing
// order of their bytes by comparing each key with the one before, and
// leaves that path at the first key out of order or not in the one form
// of its value (a longer head, a float, a map, a tag): every duplicate
// is still found, whichever path the keys before it took, and named at
// the offset of its second appearance; maps of different keys are taken.
func TestKeysInOrder(t *testing.T) {
	text := func(s string) string { return fmt.Sprintf("%x", genrt.AppendString(nil, s)) }
	long := strings.Repeat("k", 40)
	cases := []struct {
		name  string
		keys  []string // hex, in the map's order
		dup   int      // the index of the first key that repeats one before, -1 for none
		indef bool
	}{
		{"short text in order", []string{text("a"), text("b"), text("ba"), text("key1")}, -1, false},
		{"short text repeated", []string{text("a"), text("b"), text("b")}, 2, false},
		{"short text out of order", []string{text("b"), text("a"), text("c")}, -1, false},
		{"a repeat after the order ends", []string{text("a"), text("c"), text("b"), text("c")}, 3, false},
		{"a repeat of the first key after the order ends", []string{text("a"), text("c"), text("b"), text("a")}, 3, false},
		{"long text in order", []string{text(long + "a"), text(long + "b"), text(long + "c")}, -1, false},
		{"long text repeated", []string{text(long + "a"), text(long + "b"), text(long + "b")}, 2, false},
		{"long then short", []string{text(long), text("z"), text(long)}, 2, false},
		{"short then long", []string{text("a"), text(long), text(long + "a")}, -1, false},
		{"non-ASCII text in order", []string{text("é"), text("ë"), text("日本")}, -1, false},
		{"non-ASCII text repeated", []string{text("é"), text("日本"), text("日本")}, 2, false},
		{"integers in order", []string{"00", "17", "1818", "190100", "1a00010000", "20", "3818"}, -1, false},
		{"an integer with a longer head", []string{"01", "1801"}, 1, false},
		{"an integer with a longer head, in order", []string{"00", "1818", "190018"}, 2, false},
		{"a string with a longer head", []string{text("a"), "7801" + "61"}, 1, false},
		{"bytes and text of one content", []string{"4161", "6161"}, -1, false},
		{"arrays of scalars in order", []string{"820001", "820002", "82" + text(long) + "00", "82" + text(long) + "01"}, -1, false},
		{"arrays of scalars repeated", []string{"820001", "82" + text(long) + "00", "82" + text(long) + "00"}, 2, false},
		{"an array with a longer head inside", []string{"820001", "82001801"}, 1, false},
		{"a float after integers", []string{"00", "01", "f93c00"}, -1, false},
		{"a float equal to a float", []string{"00", "f93c00", "fa3f800000"}, 2, false},
		{"a map key", []string{"00", "a10000", "a10000"}, 2, false},
		{"a tag 55799 key", []string{"00", "01", "d9d9f701"}, 2, false},
		{"indefinite in order", []string{text("a"), text("b"), text("c")}, -1, true},
		{"indefinite repeated", []string{text("a"), text("b"), text("b")}, 2, true},
		{"indefinite out of order, then repeated", []string{text("b"), text("a"), text("b")}, 2, true},
		{"an indefinite string key equal to one before", []string{text("ab"), "7f61616162ff"}, 1, false},
	}
	values := []string{"00", "f6", "6161", "8100", "a0"} // of one byte, read with the keys, and not
	for _, tc := range cases {
		for _, pad := range []int{0, 7, 40} { // maps of every size the checker treats apart
			for _, v := range values {
				var h string
				if tc.indef {
					h = "bf"
				} else {
					h = fmt.Sprintf("%x", genrt.AppendMapHead(nil, pad+len(tc.keys)))
				}
				data := mustHex(h)
				// Keys that sort before every key of the case.
				for i := range pad {
					data = append(data, 0x40|byte(min(i, 23)))
					data = append(data, bytes.Repeat([]byte{1}, min(i, 23))...)
					if i >= 23 {
						data[len(data)-1] = byte(i)
					}
					data = append(data, mustHex(v)...)
				}
				second := int64(-1)
				for i, k := range tc.keys {
					if i == tc.dup {
						second = int64(len(data))
					}
					data = append(data, mustHex(k)...)
					data = append(data, mustHex(v)...)
				}
				if tc.indef {
					data = append(data, 0xff)
				}
				name := fmt.Sprintf("%s/pad=%d/value=%s", tc.name, pad, v)
				for _, m := range []struct {
					o    genrt.Options
					tags bool
				}{{genrt.Options{}, true}, {deepOptions, true}, {genrt.Options{Strict: true}, false}} {
					_, werr := genrt.WalkChecks(data, m.o, m.tags)
					end := genrt.Checked(data, m.o, m.tags)
					var e *genrt.Error
					switch {
					case m.o.Strict && werr != nil && !errors.Is(werr, genrt.ErrDuplicateKey):
						// Strict refuses the longer heads and indefinite
						// lengths first.
						if end >= 0 {
							t.Fatalf("%s strict: the checker accepts %d bytes, walk %v", name, end, werr)
						}
					case tc.dup >= 0:
						if !errors.Is(werr, genrt.ErrDuplicateKey) || !errors.As(werr, &e) || e.Offset != second {
							t.Fatalf("%s: walk %v, want a duplicate at %d", name, werr, second)
						}
						if end >= 0 {
							t.Fatalf("%s: the checker accepts a duplicate key (%d bytes)", name, end)
						}
					default:
						if werr != nil {
							t.Fatalf("%s: walk %v", name, werr)
						}
						if end != len(data) {
							t.Fatalf("%s: the checker accepts %d bytes of %d", name, end, len(data))
						}
					}
				}
			}
		}
	}
}
