package runtime

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
