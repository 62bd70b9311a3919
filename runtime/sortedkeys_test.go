package runtime_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/cborgen/cborgen/runtime"
	"github.com/fxamacker/cbor/v2"
)

// TestSortedKeysMatchFxamacker encodes random maps through StringKeys,
// IntKeys and UintKeys in both orders and compares with fxamacker/cbor.
func TestSortedKeysMatchFxamacker(t *testing.T) {
	det, _ := cbor.CoreDetEncOptions().EncMode()
	lfOpts := cbor.CoreDetEncOptions()
	lfOpts.Sort = cbor.SortLengthFirst
	lf, _ := lfOpts.EncMode()
	r := rand.New(rand.NewPCG(7, 8))
	for round := 0; round < 300; round++ {
		sm := map[string]int64{}
		im := map[int64]bool{}
		um := map[uint64]bool{}
		for i := r.IntN(40); i > 0; i-- {
			b := make([]byte, r.IntN(30))
			for j := range b {
				b[j] = byte('a' + r.IntN(26))
			}
			sm[string(b)] = r.Int64()
			v := r.Int64() >> r.IntN(64)
			im[v] = v&1 == 0
			um[uint64(r.Int64())>>r.IntN(64)] = true
		}
		for _, order := range []runtime.KeyOrder{runtime.SortBytewise, runtime.SortLengthFirst} {
			em := det
			if order == runtime.SortLengthFirst {
				em = lf
			}
			want, _ := em.Marshal(sm)
			ks := runtime.GetStringKeys()
			for k := range sm {
				ks.Keys = append(ks.Keys, k)
			}
			ks.Sort()
			got := runtime.AppendMapHead(nil, len(sm))
			for _, k := range ks.Keys {
				got = runtime.AppendInt(runtime.AppendString(got, k), sm[k])
			}
			ks.Release()
			if !bytes.Equal(got, want) {
				t.Fatalf("string keys, order %d:\n got %x\nwant %x", order, got, want)
			}

			want, _ = em.Marshal(im)
			is := runtime.GetIntKeys()
			for k := range im {
				is.Keys = append(is.Keys, k)
			}
			is.Sort(order)
			got = runtime.AppendMapHead(nil, len(im))
			for _, k := range is.Keys {
				got = runtime.AppendBool(runtime.AppendInt(got, k), im[k])
			}
			is.Release()
			if !bytes.Equal(got, want) {
				t.Fatalf("int keys, order %d:\n got %x\nwant %x", order, got, want)
			}

			want, _ = em.Marshal(um)
			us := runtime.GetUintKeys()
			for k := range um {
				us.Keys = append(us.Keys, k)
			}
			us.Sort()
			got = runtime.AppendMapHead(nil, len(um))
			for _, k := range us.Keys {
				got = runtime.AppendBool(runtime.AppendUint(got, k), um[k])
			}
			us.Release()
			if !bytes.Equal(got, want) {
				t.Fatalf("uint keys, order %d:\n got %x\nwant %x", order, got, want)
			}
		}
	}
}
