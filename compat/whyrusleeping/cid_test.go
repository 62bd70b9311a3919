package whyrusleeping

import (
	"math/rand/v2"
	"testing"

	cid "github.com/ipfs/go-cid"

	"github.com/cborgen/cborgen/runtime/cbgcompat"
)

// TestCheckCid: cbgcompat.CheckCid takes exactly the bytes go-cid's Cast
// takes (the check of CIDs in skipped values), on valid CIDs of both
// versions and their mutations.
func TestCheckCid(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	took, left := 0, 0
	for i := range rounds() * 10 {
		b := []byte(randomCid(r).KeyString())
		switch r.IntN(6) {
		case 0:
		case 1:
			b = b[:r.IntN(len(b)+1)]
		case 2:
			b = append(b, byte(r.IntN(256)))
		case 3:
			b[r.IntN(len(b))] = byte(r.IntN(256))
		case 4:
			b[r.IntN(min(4, len(b)))] |= 0x80
		case 5:
			b = make([]byte, r.IntN(12))
			for j := range b {
				b[j] = byte(r.IntN(256))
			}
		}
		_, want := cid.Cast(b)
		got := cbgcompat.CheckCid(b)
		if (want == nil) != (got == nil) {
			t.Fatalf("case %d: %x: go-cid %v, CheckCid %v", i, b, want, got)
		}
		if got == nil {
			took++
		} else {
			left++
		}
	}
	if took == 0 || left == 0 {
		t.Fatalf("took %d, refused %d: the table tests one side only", took, left)
	}
}
