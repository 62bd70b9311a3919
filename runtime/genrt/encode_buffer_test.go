package genrt

import (
	"bytes"
	"errors"
	"testing"
)

// TestBufferFinish: Finish returns the encoding at its exact length in a
// slice of its own, which later uses of the pool never write into; an
// error returns nil; a buffer past the pool's bound is not kept.
func TestBufferFinish(t *testing.T) {
	var outs [][]byte
	for i := 0; i < 50; i++ {
		b := GetBuffer()
		enc := b.B
		for j := 0; j <= i*37; j++ {
			enc = AppendUint(enc, uint64(i*j))
		}
		want := bytes.Clone(enc)
		out, err := b.Finish(enc, nil)
		if err != nil || !bytes.Equal(out, want) || cap(out) > 2*len(out)+16 {
			t.Fatalf("round %d: Finish = %d bytes (cap %d), %v; want the %d bytes appended", i, len(out), cap(out), err, len(want))
		}
		if len(out) > 0 && &out[0] == &enc[0] {
			t.Fatalf("round %d: Finish returned the pooled buffer", i)
		}
		outs = append(outs, out)
		defer func(i int, out, want []byte) {
			if !bytes.Equal(out, want) {
				t.Errorf("round %d: the result changed after the buffer went back to the pool", i)
			}
		}(i, out, want)
	}
	boom := errors.New("boom")
	b := GetBuffer()
	if out, err := b.Finish(AppendUint(b.B, 7), boom); out != nil || err != boom {
		t.Errorf("Finish with an error = %x, %v; want nil, the error", out, err)
	}
	b = GetBuffer()
	big := make([]byte, 0, maxPooledBuffer+1)
	if _, err := b.Finish(append(big, 1), nil); err != nil || b.B != nil {
		t.Errorf("a buffer past the bound was kept (cap %d)", cap(b.B))
	}
}

// TestBufferSizeAfterEmptyPool: when the pool has no buffer (after a
// collection, say), GetBuffer makes one with room for an encoding of the
// length Finish copied out lately, within a factor of two and the pool's
// bound; a change of scale moves it.
func TestBufferSizeAfterEmptyPool(t *testing.T) {
	drain := func() {
		for bufferPool.Get() != nil {
		}
	}
	finish := func(n int) {
		b := GetBuffer()
		if _, err := b.Finish(append(b.B, make([]byte, n)...), nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []int{100 << 10, 10, 3 << 20, 5 << 10, maxPooledBuffer + 1, 0} {
		finish(n)
		drain()
		b := GetBuffer()
		want := min(n, maxPooledBuffer)
		if c := cap(b.B); c < want || c > 2*want+64 {
			t.Errorf("after an encoding of %d bytes and an empty pool: a buffer of capacity %d, want %d to %d", n, c, want, 2*want+64)
		}
		if len(b.B) != 0 {
			t.Errorf("a new buffer holds %d bytes", len(b.B))
		}
		b.Finish(b.B, nil)
	}
	// Within a factor of two, the size stays: no store on every Finish.
	finish(64 << 10)
	for _, n := range []int{40 << 10, 100 << 10, 64 << 10} {
		finish(n)
	}
	drain()
	if c := cap(GetBuffer().B); c < 64<<10 || c > 128<<10 {
		t.Errorf("after encodings of 40-100 KB: capacity %d, want 64 KB to 128 KB", c)
	}
}
