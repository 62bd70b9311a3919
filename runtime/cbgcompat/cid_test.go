package cbgcompat

import (
	"math/rand"
	"testing"
)

// TestCidV1Short: the short path of CheckCid takes only what checkCid
// takes, and takes the common forms: over every CID of CidProbes and
// random bytes shaped like version 1 CIDs (varints of one to four bytes,
// minimal or not, lengths that match or miss by one), both agree.
func TestCidV1Short(t *testing.T) {
	for _, p := range CidProbes {
		if got, want := CheckCid([]byte(p)), checkCid([]byte(p)); (got == nil) != (want == nil) {
			t.Fatalf("%x: CheckCid %v, checkCid %v", p, got, want)
		}
	}
	for _, c := range [][]byte{
		append([]byte{1, 0x71, 0xa0, 0xe4, 0x02, 0x20}, digest32...),
		append([]byte{1, 0x55, 0x12, 0x20}, digest32...),
		{1, 0, 0, 1, 7},
	} {
		if !cidV1Short(c) || checkCid(c) != nil {
			t.Fatalf("%x: the short path %v, checkCid %v", c, cidV1Short(c), checkCid(c))
		}
	}
	rng := rand.New(rand.NewSource(1))
	varint := func(b []byte) []byte {
		n := 1 + rng.Intn(4)
		for i := 0; i < n-1; i++ {
			b = append(b, byte(rng.Intn(256))|0x80)
		}
		last := byte(rng.Intn(128))
		if rng.Intn(4) == 0 {
			last = 0 // not minimal after others
		}
		return append(b, last)
	}
	rounds := 200000
	if testing.Short() {
		rounds = 20000
	}
	took := 0
	for i := 0; i < rounds; i++ {
		b := []byte{1}
		if rng.Intn(8) == 0 {
			b[0] = byte(rng.Intn(256))
		}
		b = varint(b)
		b = varint(b)
		digest := rng.Intn(40)
		if rng.Intn(3) == 0 {
			b = append(b, byte(digest))
		} else {
			b = varint(b)
			digest = int(b[len(b)-1])
		}
		digest += rng.Intn(3) - 1
		for ; digest > 0; digest-- {
			b = append(b, byte(rng.Intn(256)))
		}
		short := cidV1Short(b)
		want := checkCid(b)
		if short && want != nil {
			t.Fatalf("%x: the short path takes it, checkCid refuses it: %v", b, want)
		}
		if (CheckCid(b) == nil) != (want == nil) {
			t.Fatalf("%x: CheckCid and checkCid disagree", b)
		}
		if short {
			took++
		}
	}
	if took < rounds/100 {
		t.Fatalf("the short path took %d of %d", took, rounds)
	}
}
