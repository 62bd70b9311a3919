package genrt_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// The walkers of one item all promise what the general walker (walk, the
// specification) does. This harness runs each of them against it on one
// corpus: the RFC 8949 vectors, the hostile inputs, the fuzz corpora, maps
// with and without duplicate keys, and random mutations of them all. A new
// walker, or a new limit, is one more entry in walkers.

// walkers are the fast walkers and how each is held to walk.
var walkers = []struct {
	name  string
	check func(t *testing.T, data []byte, seed int64)
}{
	{"Skip", checkSkipAgrees},
	{"Valid", func(t *testing.T, data []byte, _ int64) { checkValidAgrees(t, data) }},
	{"count", func(t *testing.T, data []byte, _ int64) { checkCountAgrees(t, data) }},
	{"canonical", func(t *testing.T, data []byte, _ int64) { checkCanonicalAgrees(t, data) }},
}

// checkWalkersAgree runs every walker against walk on data.
func checkWalkersAgree(t *testing.T, data []byte, seed int64) {
	t.Helper()
	for _, w := range walkers {
		w.check(t, data, seed)
	}
}

// checkSkipAgrees compares Skip with the general walker on data over a
// slice and over streams with various read sizes, with each option set:
// the same items, offsets, errors and messages.
func checkSkipAgrees(t *testing.T, data []byte, seed int64) {
	t.Helper()
	for _, o := range skipOptions {
		kinds := []func() *genrt.Decoder{
			func() *genrt.Decoder { return genrt.NewBytesDecoder(data) },
			func() *genrt.Decoder {
				return genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(bytes.Clone(data))))
			},
			func() *genrt.Decoder {
				return genrt.NewDecoder(&chunkReader{data: bytes.Clone(data), rng: rand.New(rand.NewSource(seed))})
			},
			func() *genrt.Decoder { return genrt.NewDecoder(bytes.NewReader(bytes.Clone(data))) },
		}
		for k, mk := range kinds {
			d := mk()
			d.SetOptions(o)
			got := traceWith(d, len(data), (*genrt.Decoder).Skip)
			d = mk()
			d.SetOptions(o)
			want := traceWith(d, len(data), genrt.WalkSkip)
			if got != want {
				t.Fatalf("options %+v, decoder %d, input %x:\nSkip: %s\nwalk: %s", o, k, data, got, want)
			}
		}
	}
}

// checkValidAgrees compares Valid with the general walker: the same
// verdict, message and offset.
func checkValidAgrees(t *testing.T, data []byte) {
	t.Helper()
	got, want := fmt.Sprint(genrt.Valid(data)), fmt.Sprint(genrt.ValidSlow(data))
	if got != want {
		t.Fatalf("input %x:\nValid: %s\nwalk:  %s", data, got, want)
	}
}

// unlimited are the options under which the indefinite-length counter is
// walk: it checks nesting depth only, and leaves the lengths to the
// decode it counts for.
func unlimited(depth int) genrt.Options {
	return genrt.Options{MaxDepth: depth, MaxStringLength: math.MaxInt, MaxArrayElements: math.MaxInt, MaxMapPairs: math.MaxInt}
}

// checkCountAgrees: the counter accepts the first item of data exactly
// when walk does (with no length limits), and ends where walk ends.
func checkCountAgrees(t *testing.T, data []byte) {
	t.Helper()
	for _, depth := range []int{2, genrt.DefaultMaxDepth} {
		o := unlimited(depth)
		end, ok := genrt.CountItem(data, o)
		d := genrt.NewBytesDecoder(data)
		d.SetOptions(o)
		err := genrt.WalkSkip(d)
		if ok != (err == nil) || ok && int64(end) != d.Offset() {
			t.Fatalf("depth %d, input %x: counter (%d, %v), walk (%d, %v)", depth, data, end, ok, d.Offset(), err)
		}
	}
}

// checkCanonicalAgrees: for an item walk accepts, keyForm (the form in
// which two map keys are compared) consumes the same bytes and writes one
// item that walk accepts and that is its own key form (keyForm is only for
// well-formed items).
func checkCanonicalAgrees(t *testing.T, data []byte) {
	t.Helper()
	d := genrt.NewBytesDecoder(data)
	d.SetOptions(unlimited(genrt.DefaultMaxDepth))
	if genrt.WalkSkip(d) != nil {
		return
	}
	out, rest := genrt.KeyForm(nil, data)
	end := int(d.Offset())
	if len(rest) != len(data)-end {
		t.Fatalf("input %x: key form left %d bytes, walk %d", data, len(rest), len(data)-end)
	}
	d = genrt.NewBytesDecoder(out)
	d.SetOptions(unlimited(genrt.DefaultMaxDepth))
	if err := genrt.WalkSkip(d); err != nil || int(d.Offset()) != len(out) {
		t.Fatalf("input %x: key form %x is not one item: %v", data, out, err)
	}
	if again, _ := genrt.KeyForm(nil, out); !bytes.Equal(again, out) {
		t.Fatalf("input %x: key form %x is not its own key form: %x", data, out, again)
	}
}

// walkerSeeds is the corpus of the harness.
func walkerSeeds(t *testing.T, rng *rand.Rand) [][]byte {
	seeds := skipSeeds(t)
	seeds = append(seeds, keyMaps(rng)...)
	for _, c := range validityCases {
		seeds = append(seeds, mustHex(c.hex))
	}
	return seeds
}

// mutate changes one to three bytes of s: a new byte, a cut, an inserted
// byte or a flipped bit.
func mutate(rng *rand.Rand, s []byte) []byte {
	for m := 1 + rng.Intn(3); m > 0 && len(s) > 0; m-- {
		p := rng.Intn(len(s))
		switch rng.Intn(4) {
		case 0:
			s[p] = byte(rng.Intn(256))
		case 1:
			s = s[:p]
		case 2:
			s = append(s[:p], append([]byte{byte(rng.Intn(256))}, s[p:]...)...)
		default:
			s[p] ^= 1 << rng.Intn(8)
		}
	}
	return s
}

// TestWalkersAgree runs every walker against walk on the corpus, on
// several items in a row and a truncated copy of each seed, and on random
// mutations.
func TestWalkersAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	seeds := walkerSeeds(t, rng)
	for i, s := range seeds {
		checkWalkersAgree(t, s, int64(i))
		checkWalkersAgree(t, append(append(bytes.Clone(s), s...), 0x18), int64(i))
	}
	n := 30000
	if testing.Short() {
		n = 5000
	}
	for i := 0; i < n; i++ {
		checkWalkersAgree(t, mutate(rng, bytes.Clone(seeds[rng.Intn(len(seeds))])), int64(i))
	}
}

// FuzzWalkers runs every walker against walk.
func FuzzWalkers(f *testing.F) {
	for _, ex := range appendixA {
		f.Add(mustHex(ex.hex))
	}
	f.Add(nestedItem)
	f.Fuzz(func(t *testing.T, data []byte) { checkWalkersAgree(t, data, int64(len(data))) })
}
