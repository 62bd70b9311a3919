package cbgcompat

import (
	"bytes"
	"math/big"
	"testing"
)

// filIntValue is laid out as go-state-types' big.Int, to which the
// generated code converts a *FilIntBox.
type filIntValue struct{ *big.Int }

// TestFilIntPtr: the boxes of pointer fields hold what FilInt reads,
// each its own (a value set through one leaves the others, of this
// decode and of the next, alone), from blocks sized by the input that
// grow to at most maxBoxBlock; errors are FilInt's, and take no box.
func TestFilIntPtr(t *testing.T) {
	in := unhex(t, "40 42 0007 43 01 0102 40")
	want := []string{"0", "7", "-258", "0"}
	var got []*filIntValue
	var boxes []int
	for round := range 200 {
		d := NewBytesDecoder(in)
		if round == 0 {
			d.boxes, d.nboxes = nil, 0 // not the block of an earlier decode
		}
		for i, w := range want {
			p, err := d.FilIntPtr()
			if err != nil {
				t.Fatal(err)
			}
			v := (*filIntValue)(p)
			if v.Int == nil || v.String() != w {
				t.Fatalf("value %d: %v, want %s", i, v.Int, w)
			}
			got = append(got, v)
		}
		if k := len(boxes); k == 0 || boxes[k-1] != len(d.boxes) {
			boxes = append(boxes, len(d.boxes))
		}
		if err := d.Done(nil); err != nil {
			t.Fatal(err)
		}
	}
	// Over 9 bytes: a first block of 9 boxes, then 18, 36, ... 256.
	if boxes[0] != len(in) || boxes[len(boxes)-1] != maxBoxBlock {
		t.Errorf("blocks of %v boxes, want %d first and %d last", boxes, len(in), maxBoxBlock)
	}
	for i := 1; i < len(boxes); i++ {
		if boxes[i] != min(2*boxes[i-1], maxBoxBlock) {
			t.Errorf("blocks of %v boxes: each should be twice the one before", boxes)
			break
		}
	}
	seen := map[*filIntValue]bool{}
	ints := map[*big.Int]bool{}
	for _, v := range got {
		if seen[v] || ints[v.Int] {
			t.Fatalf("a box or its big.Int handed out twice")
		}
		seen[v], ints[v.Int] = true, true
	}
	// Through the first value of the first decode: every other stays.
	got[0].Int = big.NewInt(99)
	*got[1].Int = *big.NewInt(-5)
	for i, v := range got[2:] {
		if w := want[(i+2)%len(want)]; v.String() != w {
			t.Fatalf("value %d: %v after the first two were set, want %s", i+2, v.Int, w)
		}
	}

	for _, bad := range []string{"41 02", "60", "58 81 00", "43 00 01"} {
		d := NewBytesDecoder(unhex(t, bad))
		n := d.nboxes
		p, err := d.FilIntPtr()
		if _, ferr := NewBytesDecoder(unhex(t, bad)).FilInt(); err == nil || ferr == nil || err.Error() != ferr.Error() || p != nil {
			t.Errorf("%s: %v, %v; FilInt's error %v", bad, p, err, ferr)
		}
		if d.nboxes != n {
			t.Errorf("%s: a box taken for an error", bad)
		}
		d.Release(nil)
	}
}

// TestMakePtr: a string-shaped value that a field points to is made as
// Make makes it, into a value of its own of d's block of refs; bytes
// the check refuses, or a StringValues whose test failed, make none.
func TestMakePtr(t *testing.T) {
	values := NewStringValues(castCid, cidKey, ValidCid, CidProbes)
	if !values.OK() {
		t.Fatal("the check failed")
	}
	c1 := []byte(CidProbes[0])
	c2 := []byte(CidProbes[1])
	in := bytes.Repeat([]byte{0}, 40) // the input's length sizes the first block
	var got []*cidBytes
	var refs []int
	for round := range 100 {
		d := NewBytesDecoder(in)
		if round == 0 {
			d.refs, d.nrefs = nil, 0
		}
		for _, b := range [][]byte{c1, c2} {
			p, ok := values.MakePtr(d, b)
			if !ok || p.s != string(b) {
				t.Fatalf("%x: %v %v", b, p, ok)
			}
			v, _ := values.Make(d, b)
			if *p != v {
				t.Fatalf("%x: MakePtr %x, Make %x", b, p.s, v.s)
			}
			got = append(got, p)
		}
		if k := len(refs); k == 0 || refs[k-1] != len(d.refs) {
			refs = append(refs, len(d.refs))
		}
		if p, ok := values.MakePtr(d, []byte("\x02\x55\x00\x00")); ok || p != nil {
			t.Fatalf("a CID the check refuses made: %v", p)
		}
		d.Release(nil)
	}
	if refs[0] != refBlock || refs[len(refs)-1] != maxRefBlock {
		t.Errorf("blocks of %v refs, want %d first and %d last", refs, refBlock, maxRefBlock)
	}
	seen := map[*cidBytes]bool{}
	for _, p := range got {
		if seen[p] {
			t.Fatal("a ref handed out twice")
		}
		seen[p] = true
	}
	*got[0] = cidBytes{"x"}
	if got[1].s != string(c2) || got[2].s != string(c1) {
		t.Fatalf("values changed with the first: %x %x", got[1].s, got[2].s)
	}

	// A StringValues whose test failed (a constructor that disagrees
	// with the check) makes nothing.
	var none StringValues[cidBytes]
	d := NewBytesDecoder(in)
	defer d.Release(nil)
	if p, ok := none.MakePtr(d, c1); ok || p != nil {
		t.Fatalf("made without the check: %v", p)
	}
}
