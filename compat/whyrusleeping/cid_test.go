package whyrusleeping

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	address "github.com/filecoin-project/go-address"
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

// TestStringValues: the check of cbgcompat.NewStringValues holds for
// go-cid's Cid and go-address's Address as this module has them (so the
// generated code makes them from their bytes), fails for a type that is
// not a string alone or a check that disagrees with the constructor,
// and Make gives the constructor's value for every input it takes and
// refuses every input the constructor refuses.
func TestStringValues(t *testing.T) {
	cids := cbgcompat.NewStringValues(cid.Cast, cid.Cid.KeyString, cbgcompat.ValidCid, cbgcompat.CidProbes)
	if !cids.OK() {
		t.Fatal("cid.Cid: the check failed")
	}
	addrs := cbgcompat.NewStringValues(address.NewFromBytes, nil, cbgcompat.CheckAddress, cbgcompat.AddressProbes)
	if !addrs.OK() {
		t.Fatal("address.Address: the check failed")
	}

	// Not a string alone: two words whose second is not a length.
	type notString struct {
		n int
		p *byte
	}
	parse := func(b []byte) (notString, error) { return notString{n: len(b)}, nil }
	if cbgcompat.NewStringValues(parse, nil, func([]byte) bool { return true }, []string{"ab"}).OK() {
		t.Error("a struct of an int and a pointer passed the check")
	}
	// A check that takes what the constructor refuses.
	if cbgcompat.NewStringValues(cid.Cast, cid.Cid.KeyString, func([]byte) bool { return true }, cbgcompat.CidProbes).OK() {
		t.Error("a check that takes every probe passed")
	}
	// A key that copies.
	if cbgcompat.NewStringValues(cid.Cast, func(c cid.Cid) string { return string([]byte(c.KeyString())) }, cbgcompat.ValidCid, cbgcompat.CidProbes).OK() {
		t.Error("a key that copies the string passed")
	}
	// No probe taken.
	if cbgcompat.NewStringValues(cid.Cast, cid.Cid.KeyString, cbgcompat.ValidCid, []string{"", "\x01"}).OK() {
		t.Error("probes that the constructor refuses all passed")
	}

	d := cbgcompat.NewBytesDecoder(nil)
	defer d.Release(nil)
	r := rand.New(rand.NewPCG(8, 8))
	for i := range rounds() * 10 {
		b := []byte(randomCid(r).KeyString())
		if i%2 == 1 {
			b = mutate(r, b)
		}
		want, err := cid.Cast(b)
		got, ok := cids.Make(d, b)
		if ok != (err == nil) || got != want {
			t.Fatalf("cid %x: Cast %v %v, Make %v %v", b, want, err, got, ok)
		}
		if ok && got.KeyString() != string(b) {
			t.Fatalf("cid %x: KeyString %x", b, got.KeyString())
		}
	}
	for _, b := range addressEdges(r) {
		want, err := address.NewFromBytes(b)
		got, ok := addrs.Make(d, b)
		if ok != (err == nil && want != address.Undef) || got != want {
			t.Fatalf("address %x: NewFromBytes %v %v, Make %v %v", b, want, err, got, ok)
		}
		if ok && (!bytes.Equal(got.Bytes(), b) || got.String() != want.String()) {
			t.Fatalf("address %x: Bytes %x, String %s", b, got.Bytes(), got)
		}
	}
}

// TestCheckAddress: cbgcompat.CheckAddress takes exactly the bytes
// go-address's NewFromBytes takes and does not make Undef of, on every
// protocol byte and every length up to 70 (beyond the 64 bytes an
// address field may hold), with payloads of random bytes, of varints at
// their edges, and of their mutations.
func TestCheckAddress(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	took := map[byte]int{}
	for _, b := range addressEdges(r) {
		a, err := address.NewFromBytes(b)
		want := err == nil && a != address.Undef
		if got := cbgcompat.CheckAddress(b); got != want {
			t.Fatalf("%x: NewFromBytes %v (%v), CheckAddress %v", b, a, err, got)
		}
		if want {
			took[b[0]]++
		}
	}
	for p := range byte(5) {
		if took[p] == 0 {
			t.Errorf("protocol %d: no address taken, the table tests one side only", p)
		}
	}
}

// addressEdges are inputs for go-address's NewFromBytes: each protocol
// byte with every payload length up to 69 (random bytes, and varints
// of every length up to 10 bytes, minimal or not, followed by bytes or
// not), then mutations of addresses of each protocol.
func addressEdges(r *rand.Rand) [][]byte {
	var out [][]byte
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	out = append(out, nil, []byte{})
	for p := range 256 {
		if p > 8 && p < 250 && p%17 != 0 {
			continue
		}
		for n := range 70 {
			out = append(out, append([]byte{byte(p)}, random(n)...))
		}
	}
	varints := [][]byte{{0}, {0x7f}, {0x80, 0x01}, {0x80, 0x00}, {0xff, 0x7f}, {0x80, 0x80, 0x00}}
	for n := 1; n <= 10; n++ {
		v := make([]byte, n)
		for i := range v {
			v[i] = 0xff
		}
		v[n-1] = 0x7f
		varints = append(varints, v)
		w := append([]byte(nil), v...)
		w[n-1] = 0x01
		varints = append(varints, w)
		z := append([]byte(nil), v...)
		z[n-1] = 0x00
		varints = append(varints, z, v[:n-1])
	}
	for p := range byte(6) {
		for _, v := range varints {
			for _, tail := range []int{0, 1, 20, 53, 54, 55, 56} {
				out = append(out, append(append([]byte{p}, v...), random(tail)...))
			}
		}
	}
	for range rounds() * 10 {
		var b []byte
		switch p := byte(r.IntN(5)); p {
		case 0:
			b = append([]byte{0}, binary.AppendUvarint(nil, r.Uint64()>>r.IntN(64))...)
		case 1, 2:
			b = append([]byte{p}, random(20)...)
		case 3:
			b = append([]byte{p}, random(48)...)
		case 4:
			b = append(append([]byte{p}, binary.AppendUvarint(nil, r.Uint64()>>r.IntN(64))...), random(r.IntN(60))...)
		}
		if r.IntN(2) == 0 {
			b = mutate(r, b)
		}
		out = append(out, b)
	}
	return out
}

// mutate changes b in one of the ways of TestCheckCid: cut, lengthened,
// a byte changed, a continuation bit set near the start, or replaced.
func mutate(r *rand.Rand, b []byte) []byte {
	b = append([]byte(nil), b...)
	switch r.IntN(5) {
	case 0:
		return b[:r.IntN(len(b)+1)]
	case 1:
		return append(b, byte(r.IntN(256)))
	case 2:
		if len(b) > 0 {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
	case 3:
		if len(b) > 0 {
			b[r.IntN(min(4, len(b)))] |= 0x80
		}
	default:
		return make([]byte, r.IntN(12))
	}
	return b
}
