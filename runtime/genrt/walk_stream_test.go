package genrt_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// chunkReader hands out the data in reads of 1 to 7 bytes, so that heads
// and strings straddle refills in every way.
type chunkReader struct {
	data []byte
	rng  *rand.Rand
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(1+r.rng.Intn(7), len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// skipOptions are the option sets the differential tests run under: the
// defaults and limits small enough for the inputs to reach them.
var skipOptions = []genrt.Options{
	{},
	{MaxDepth: 2},
	{MaxDepth: 3, MaxArrayElements: 3, MaxMapPairs: 2, MaxStringLength: 5},
}

// traceWith skips items until an error or the end, with skip.
func traceWith(d *genrt.Decoder, n int, skip func(*genrt.Decoder) error) string {
	var b strings.Builder
	for i := 0; i < 64; i++ {
		if d.Offset() == int64(n) {
			break
		}
		if err := skip(d); err != nil {
			fmt.Fprintf(&b, "error %q (%T)", err.Error(), err)
			return b.String()
		}
		fmt.Fprintf(&b, "%d ", d.Offset())
	}
	return b.String()
}

// corpusInputs reads the []byte values of the seed corpora of the fuzz
// targets.
func corpusInputs(t *testing.T) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if !strings.HasPrefix(line, "[]byte(") {
				continue
			}
			s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(line, "[]byte("), ")"))
			if err == nil {
				out = append(out, []byte(s))
			}
		}
	}
	return out
}

func skipSeeds(t *testing.T) [][]byte {
	seeds := [][]byte{nestedItem}
	for _, ex := range appendixA {
		seeds = append(seeds, mustHex(ex.hex))
	}
	for _, h := range allAppendixF() {
		seeds = append(seeds, mustHex(h))
	}
	for _, h := range forgedHeads() {
		seeds = append(seeds, mustHex(h))
	}
	seeds = append(seeds, corpusInputs(t)...)
	seeds = append(seeds,
		nested("81", 40, "00"), nested("a1 00", 40, "00"), nested("c1", 40, "00"),
		nested("9f", 5, "ff"), mustHex("d9 d9f7 d9 d9f7 83 01 02 03"),
		mustHex("c1 c2 c3 81 00"), mustHex("7f 61 61 60 ff"), mustHex("f8 1f"), mustHex("f8 20"),
		mustHex("5a 00 00 00 10 00"), mustHex("7f 79 00"), mustHex("5f 5b 00 00"), mustHex("7f 61 61 7f ff ff"),
		mustHex("bf 61 61 01 ff"), mustHex("bf 61 61 ff"), mustHex("9f 9f 9f ff ff ff"), mustHex("9b ff ff ff ff ff ff ff ff"),
	)
	return seeds
}

func BenchmarkSkipLarge(b *testing.B) {
	var doc []byte
	doc = genrt.AppendArrayHead(doc, 200)
	for i := 0; i < 200; i++ {
		doc = append(doc, nestedItem...)
	}
	b.Run("bytes", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if err := genrt.NewBytesDecoder(doc).Skip(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reader", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		d := streamOf(doc)
		for b.Loop() {
			if err := d.Skip(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("valid", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if err := genrt.Valid(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// randomDoc appends a random item of nested arrays, maps, tags, numbers
// and strings of many lengths, the containers up to depth levels deep.
func randomDoc(dst []byte, rng *rand.Rand, depth int) []byte {
	k := rng.Intn(10)
	if depth == 0 && k >= 6 {
		k = rng.Intn(6)
	}
	switch k {
	case 0:
		return genrt.AppendUint(dst, uint64(rng.Int63n(1<<uint(rng.Intn(40)+1))))
	case 1:
		return genrt.AppendInt(dst, -1-rng.Int63n(300))
	case 2, 3:
		return genrt.AppendString(dst, strings.Repeat("é", rng.Intn(3))+strings.Repeat("a", rng.Intn(40)))
	case 4:
		return genrt.AppendBytes(dst, make([]byte, rng.Intn(600)))
	case 5:
		return append(dst, 0xf4+byte(rng.Intn(4)))
	case 6, 7:
		n := rng.Intn(30)
		dst = genrt.AppendArrayHead(dst, n)
		for range n {
			dst = randomDoc(dst, rng, depth-1)
		}
		return dst
	case 8:
		n := rng.Intn(12)
		dst = genrt.AppendMapHead(dst, n)
		for i := range n {
			dst = genrt.AppendUint(dst, uint64(i))
			dst = randomDoc(dst, rng, depth-1)
		}
		return dst
	}
	return randomDoc(genrt.AppendTag(dst, uint64(rng.Intn(300)+4)), rng, depth-1)
}

// sizedReader hands out the data in reads of size bytes.
type sizedReader struct {
	data []byte
	size int
}

func (r *sizedReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(r.size, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// TestSkipStreamLarge: over a stream, Skip hands the containers that lie
// in the buffer to the slice skipper and goes on head by head where they
// cross its end; on documents many times the buffer's size, read in
// pieces of every size, whole or spoiled near any place (a byte changed,
// the end cut off), it agrees with walk: the same items, offsets and
// errors.
func TestSkipStreamLarge(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	docs := 12
	if testing.Short() {
		docs = 4
	}
	for i := range docs {
		var doc []byte
		for len(doc) < 20_000 {
			doc = randomDoc(doc, rng, 2+rng.Intn(6))
		}
		inputs := [][]byte{doc, doc[:len(doc)-1-rng.Intn(len(doc)/2)]}
		for range 4 {
			spoiled := bytes.Clone(doc)
			spoiled[len(doc)/4+rng.Intn(3*len(doc)/4)] = byte(rng.Intn(256))
			inputs = append(inputs, spoiled)
		}
		for j, data := range inputs {
			for _, o := range skipOptions[:2] {
				for _, size := range []int{1, 7, 1000, 4095, 4096, 5000, 1 << 20} {
					d := genrt.NewDecoder(&sizedReader{data: data, size: size})
					d.SetOptions(o)
					got := traceWith(d, len(data), (*genrt.Decoder).Skip)
					d = genrt.NewDecoder(&sizedReader{data: data, size: size})
					d.SetOptions(o)
					want := traceWith(d, len(data), genrt.WalkSkip)
					if got != want {
						t.Fatalf("doc %d input %d, options %+v, reads of %d:\nSkip: %s\nwalk: %s", i, j, o, size, got, want)
					}
				}
			}
		}
	}
}
