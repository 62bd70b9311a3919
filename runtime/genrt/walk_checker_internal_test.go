package genrt

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestWords16: the words of a short string are its bytes, zero-filled,
// at every length up to 16, so that two strings of one length have one
// print exactly when they are equal.
func TestWords16(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 16; n++ {
		for range 200 {
			b := make([]byte, n, 32)
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			var padded [16]byte
			copy(padded[:], b)
			w0, w1 := words16(b)
			if w0 != binary.LittleEndian.Uint64(padded[:]) || w1 != binary.LittleEndian.Uint64(padded[8:]) {
				t.Fatalf("%x: words %x %x", b, w0, w1)
			}
			if n == 0 {
				continue
			}
			c := append([]byte(nil), b...)
			c[rng.IntN(n)] ^= byte(1 + rng.IntN(255))
			if stringPrintOf(MajorText, b) == stringPrintOf(MajorText, c) {
				t.Fatalf("%x and %x: one print", b, c)
			}
			if stringPrintOf(MajorText, b) == stringPrintOf(MajorBytes, b) {
				t.Fatalf("%x: text and bytes, one print", b)
			}
		}
	}
	if stringPrintOf(MajorText, []byte("a")) == stringPrintOf(MajorText, []byte("a\x00")) {
		t.Fatal("a and a\\x00: one print")
	}
}
