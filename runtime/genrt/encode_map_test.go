package genrt_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// encodeMap writes m as generated code does, with the given key order.
func encodeMap[K comparable, V any](dst []byte, m map[K]V, order genrt.KeyOrder,
	appendKey func([]byte, K) []byte, appendVal func([]byte, V) []byte) []byte {
	if m == nil {
		return genrt.AppendNull(dst)
	}
	dst = genrt.AppendMapHead(dst, len(m))
	s := genrt.GetMapSorter()
	for k, v := range m {
		s.Key(dst)
		dst = appendKey(dst, k)
		s.Value(dst)
		dst = appendVal(dst, v)
	}
	return s.Finish(dst, order)
}

func appendInt64(dst []byte, v int64) []byte { return genrt.AppendInt(dst, v) }
func appendU8(dst []byte, v uint8) []byte    { return genrt.AppendUint(dst, uint64(v)) }

func randString(r *rand.Rand, max int) string {
	const alphabet = "abcxyz\u00fc\u6c34\U00010151 0"
	runes := []rune(alphabet)
	n := r.IntN(max + 1)
	s := make([]rune, n)
	for i := range s {
		s[i] = runes[r.IntN(len(runes))]
	}
	return string(s)
}

func TestMapSorterMatchesFxamacker(t *testing.T) {
	r := rand.New(rand.NewPCG(8949, 7049))
	orders := []struct {
		order genrt.KeyOrder
		em    cbor.EncMode
	}{{genrt.SortBytewise, fxEnc}, {genrt.SortLengthFirst, fxEncLengthFirst}}
	check := func(name string, got []byte, v any, em cbor.EncMode) {
		t.Helper()
		want, err := em.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: runtime %x\nfxamacker %x\nvalue %v", name, got, want, v)
		}
	}
	for iter := 0; iter < 300; iter++ {
		n := r.IntN(40)
		ms := map[string]int64{}
		mi := map[int64]string{}
		mb := map[bool]float64{}
		mu := map[uint8][]byte{}
		for i := 0; i < n; i++ {
			ms[randString(r, 30)] = r.Int64() >> r.IntN(64)
			mi[r.Int64()>>r.IntN(64)] = randString(r, 5)
			mb[r.IntN(2) == 0] = float64(r.IntN(100)) / 4
			b := make([]byte, r.IntN(4))
			mu[uint8(r.UintN(256))] = b
		}
		for _, o := range orders {
			name := fmt.Sprintf("iter %d order %d", iter, o.order)
			check(name+" map[string]int64", encodeMap(nil, ms, o.order, genrt.AppendString, appendInt64), ms, o.em)
			check(name+" map[int64]string", encodeMap(nil, mi, o.order, appendInt64, genrt.AppendString), mi, o.em)
			check(name+" map[bool]float64", encodeMap(nil, mb, o.order, genrt.AppendBool, genrt.AppendFloat64), mb, o.em)
			check(name+" map[uint8][]byte", encodeMap(nil, mu, o.order, appendU8, genrt.AppendBytes), mu, o.em)
		}
	}
	// nil maps are null; empty maps are a0.
	var nilMap map[string]int64
	check("nil", encodeMap(nil, nilMap, genrt.SortBytewise, genrt.AppendString, appendInt64), nilMap, fxEnc)
	check("empty", encodeMap(nil, map[string]int64{}, genrt.SortBytewise, genrt.AppendString, appendInt64), map[string]int64{}, fxEnc)
}

// TestMapSorterOrders pins both orders on keys where they differ:
// bytewise puts 0x61 "a"... by first byte, length-first puts short keys
// first whatever their bytes.
func TestMapSorterOrders(t *testing.T) {
	m := map[int64]bool{-1: true, 10: true, 100: true, 1000: true, -1000: true, 0: true}
	// Encoded keys: 00, 0a, 1864, 1903e8, 20, 3903e7.
	want := map[genrt.KeyOrder]string{
		genrt.SortBytewise:    "a6 00f5 0af5 1864f5 1903e8f5 20f5 3903e7f5",
		genrt.SortLengthFirst: "a6 00f5 0af5 20f5 1864f5 1903e8f5 3903e7f5",
	}
	for order, w := range want {
		for i := 0; i < 20; i++ { // map iteration order varies from run to run
			got := encodeMap(nil, m, order, appendInt64, genrt.AppendBool)
			if !bytes.Equal(got, mustHex(w)) {
				t.Fatalf("order %d: %x, want %s", order, got, w)
			}
		}
	}
	// SortNone keeps the order the pairs were appended in.
	keys := []string{"zz", "a", "m", "bbb"}
	dst := genrt.AppendMapHead(nil, len(keys))
	s := genrt.GetMapSorter()
	for i, k := range keys {
		s.Key(dst)
		dst = genrt.AppendString(dst, k)
		s.Value(dst)
		dst = genrt.AppendInt(dst, int64(i))
	}
	dst = s.Finish(dst, genrt.SortNone)
	if want := "a4 627a7a00 616101 616d02 6362626203"; !bytes.Equal(dst, mustHex(want)) {
		t.Errorf("SortNone: %x, want %s", dst, want)
	}
}

// TestMapSorterInsideOutput: a map in the middle of a larger buffer, and
// maps nested in map values, each with their own sorter.
func TestMapSorterInsideOutput(t *testing.T) {
	outer := map[string]map[string]int64{
		"b": {"y": 1, "x": 2},
		"a": {"q": 3, "p": 4, "": 5},
	}
	prefix := []byte{0x82, 0x01} // [1, {...}]
	dst := append([]byte(nil), prefix...)
	dst = encodeMap(dst, outer, genrt.SortBytewise, genrt.AppendString,
		func(d []byte, v map[string]int64) []byte {
			return encodeMap(d, v, genrt.SortBytewise, genrt.AppendString, appendInt64)
		})
	want, _ := fxEnc.Marshal([]any{1, outer})
	if !bytes.Equal(dst, want) {
		t.Errorf("got  %x\nwant %x", dst, want)
	}
}

func TestMapSorterNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	m := make(map[string]int64, 100)
	for i := 0; i < 100; i++ {
		m[fmt.Sprintf("key-%03d", (i*37)%100)] = int64(i * i)
	}
	buf := make([]byte, 0, 4096)
	for _, order := range []genrt.KeyOrder{genrt.SortBytewise, genrt.SortLengthFirst, genrt.SortNone} {
		encodeMap(buf, m, order, genrt.AppendString, appendInt64) // warm the pool
		if n := testing.AllocsPerRun(200, func() {
			buf = encodeMap(buf[:0], m, order, genrt.AppendString, appendInt64)
		}); n != 0 {
			t.Errorf("order %d: %v allocations per map", order, n)
		}
	}
}
