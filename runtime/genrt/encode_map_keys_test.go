package genrt_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// TestPairsMatchFxamacker encodes random maps through StringPairs,
// IntegerPairs (int64 and uint64 keys) in both orders and compares with fxamacker/cbor.
// The text keys are drawn from three byte values and share long
// prefixes, so that the sort's packed windows tie and are refined; the
// sizes reach past the groups of 256 keys.
func TestPairsMatchFxamacker(t *testing.T) {
	det, _ := cbor.CoreDetEncOptions().EncMode()
	lfOpts := cbor.CoreDetEncOptions()
	lfOpts.Sort = cbor.SortLengthFirst
	lf, _ := lfOpts.EncMode()
	r := rand.New(rand.NewPCG(9, 10))
	rounds := 400
	if testing.Short() {
		rounds = 100
	}
	for round := 0; round < rounds; round++ {
		sm := map[string]string{}
		im := map[int64]int64{}
		um := map[uint64][]byte{}
		size := r.IntN(40)
		if round%20 == 0 {
			size = 300 + r.IntN(400)
		}
		prefix := string(bytes.Repeat([]byte{'p'}, r.IntN(30)))
		for i := size; i > 0; i-- {
			b := make([]byte, r.IntN(12)+r.IntN(2)*r.IntN(90))
			if round%40 == 0 {
				b = make([]byte, 12) // one group of more than 256 keys
			}
			for j := range b {
				b[j] = "\x00a\xff"[r.IntN(3)]
			}
			k := string(b)
			if r.IntN(2) == 0 {
				k = prefix + k
			}
			sm[k] = string(b[:r.IntN(len(b)+1)])
			v := r.Int64() >> r.IntN(64)
			im[v] = -v
			um[uint64(r.Int64())>>r.IntN(64)] = b
		}
		for _, order := range []genrt.KeyOrder{genrt.SortBytewise, genrt.SortLengthFirst} {
			em := det
			if order == genrt.SortLengthFirst {
				em = lf
			}
			want, _ := em.Marshal(sm)
			got := genrt.AppendMapHead([]byte{0x99}, len(sm))
			ps := genrt.GetStringPairs()
			for k, x := range sm {
				ps.Add(got, k)
				got = genrt.AppendString(genrt.AppendString(got, k), x)
			}
			got = ps.Finish(got)
			if got[0] != 0x99 || !bytes.Equal(got[1:], want) {
				t.Fatalf("string keys, order %d, %d keys:\n got %x\nwant 99%x", order, len(sm), got, want)
			}
			// Sorted before encoding, as generated code writes a map
			// with text keys.
			got = genrt.AppendMapHead(nil, len(sm))
			ps = genrt.GetStringPairs()
			vs := genrt.PairValues[string](ps)
			for k, x := range sm {
				ps.AddKey(k)
				vs = append(vs, x)
			}
			for _, i := range ps.Order() {
				got = genrt.AppendString(genrt.AppendString(got, ps.KeyAt(i)), vs[i])
			}
			genrt.ReleasePairs(ps, vs)
			if !bytes.Equal(got, want) {
				t.Fatalf("string keys sorted first, order %d, %d keys:\n got %x\nwant %x", order, len(sm), got, want)
			}

			want, _ = em.Marshal(im)
			got = genrt.AppendMapHead(nil, len(im))
			is := genrt.GetIntPairs()
			for k, x := range im {
				is.Add(got, k)
				got = genrt.AppendInt(genrt.AppendInt(got, k), x)
			}
			got = is.Finish(got, order)
			if !bytes.Equal(got, want) {
				t.Fatalf("int keys, order %d:\n got %x\nwant %x", order, got, want)
			}

			want, _ = em.Marshal(um)
			got = genrt.AppendMapHead(nil, len(um))
			us := genrt.GetUintPairs()
			for k, x := range um {
				us.Add(got, k)
				got = genrt.AppendBytes(genrt.AppendUint(got, k), x)
			}
			got = us.Finish(got, order)
			if !bytes.Equal(got, want) {
				t.Fatalf("uint keys, order %d:\n got %x\nwant %x", order, got, want)
			}
		}
	}
}

// TestPairsRecallOrder encodes maps again and again, as a program that
// writes the same metrics every few seconds does, so that StringPairs
// reuses the order it sorted before: the same map (its iteration starts
// anywhere), the map after a key was swapped for another (same size, so
// the kept order must be refused), maps of the same size in turn, and the
// same keys in copies that share no bytes. Every encoding is compared with
// fxamacker/cbor's.
func TestPairsRecallOrder(t *testing.T) {
	det, _ := cbor.CoreDetEncOptions().EncMode()
	check := func(what string, m map[string]int) {
		t.Helper()
		want, _ := det.Marshal(m)
		got := genrt.AppendMapHead(nil, len(m))
		ps := genrt.GetStringPairs()
		for k, x := range m {
			ps.Add(got, k)
			got = genrt.AppendInt(genrt.AppendString(got, k), int64(x))
		}
		got = ps.Finish(got)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %x\nwant %x", what, got, want)
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	newMap := func(n int) map[string]int {
		m := map[string]int{}
		for len(m) < n {
			m[fmt.Sprintf("metric.%d.%x", r.IntN(5), r.Uint32())] = r.IntN(1000)
		}
		return m
	}
	for _, n := range []int{9, 30, 100, 1500} {
		a, b := newMap(n), newMap(n)
		for i := 0; i < 20; i++ {
			check("the same map again", a)
		}
		for i := 0; i < 10; i++ {
			for k := range a {
				delete(a, k)
				break
			}
			a[fmt.Sprintf("new.%d", i)] = i
			check("a key swapped", a)
			check("the other map", b)
			check("the first map", a)
		}
		c := map[string]int{}
		for k, x := range a {
			c[string([]byte(k))] = x
		}
		check("copies of the keys", c)
		check("the first map after the copies", a)
	}
}

// TestPairsConcurrent encodes large maps (their pairs copied through the
// shared buffer) from several goroutines at once; run it with -race.
func TestPairsConcurrent(t *testing.T) {
	det, _ := cbor.CoreDetEncOptions().EncMode()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		m := map[string]string{}
		for i := 0; i < 2000; i++ {
			m[fmt.Sprintf("key-%d-%d", g, i)] = fmt.Sprintf("value %d of goroutine %d", i, g)
		}
		want, _ := det.Marshal(m)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 10; round++ {
				got := genrt.AppendMapHead(nil, len(m))
				ps := genrt.GetStringPairs()
				for k, x := range m {
					ps.Add(got, k)
					got = genrt.AppendString(genrt.AppendString(got, k), x)
				}
				if got = ps.Finish(got); !bytes.Equal(got, want) {
					t.Errorf("goroutine %d, round %d: the encoding differs from fxamacker's", g, round)
					return
				}
			}
		}()
	}
	wg.Wait()
}
