package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// textContexts place a text item where Valid's fast paths read it: as an
// array's element, as the value of an integer-keyed map, of a small and
// of a larger text-keyed map (the hashed and the ordered checks), each
// with and without bytes after it (the windows the fast paths read need
// 24 bytes from the head; nearer the end the general path reads it).
var textContexts = []struct {
	name string
	wrap func(text []byte) []byte
}{
	{"array element", func(s []byte) []byte { return append(append([]byte{0x83, 0x01}, s...), 0x02) }},
	{"last array element", func(s []byte) []byte { return append([]byte{0x82, 0x01}, s...) }},
	{"int map value", func(s []byte) []byte { return append(append([]byte{0xa2, 0x01}, s...), 0x02, 0x03) }},
	{"text map value", func(s []byte) []byte { return textMap(3, s) }},
	{"ordered map value", func(s []byte) []byte { return textMap(20, s) }},
	{"large map value", func(s []byte) []byte { return textMap(40, s) }},
}

// textMap returns a map of n pairs with sorted short text keys, whose
// values are small integers but the middle one, s.
func textMap(n int, s []byte) []byte {
	b := genrt.AppendMapHead(nil, n)
	for i := range n {
		b = genrt.AppendString(b, fmt.Sprintf("k%02d", i))
		if i == n/2 {
			b = append(b, s...)
		} else {
			b = genrt.AppendUint(b, uint64(i))
		}
	}
	return b
}

// TestValidTextEveryByte: text of every length up to 64 bytes, in every
// context, is accepted when it is ASCII or holds a whole two-byte rune,
// and refused with ErrUTF8 when any one of its bytes is a continuation
// byte alone or the first byte of a rune cut short; Valid says what the
// general walker says, with and without padding after the item, and
// accepts valid text without it.
func TestValidTextEveryByte(t *testing.T) {
	for _, c := range textContexts {
		for n := 0; n <= 64; n++ {
			ascii := bytes.Repeat([]byte{'a'}, n)
			var bad [][]byte
			for i := range n {
				for _, b := range []byte{0x80, 0xc3, 0xff} {
					s := bytes.Clone(ascii)
					s[i] = b
					bad = append(bad, s)
				}
			}
			good := [][]byte{ascii}
			if n >= 2 {
				good = append(good, append(bytes.Repeat([]byte{'a'}, n-2), "é"...))
			}
			for _, pad := range []int{0, 30} {
				check := func(s []byte, valid bool) {
					data := append(c.wrap(genrt.AppendString(nil, string(s))), make([]byte, pad)...)
					if pad > 0 {
						// Padding makes the input two or more items: wrap
						// both in an array so that the text is not at the end.
						data = append(genrt.AppendArrayHead(nil, 1+pad), data...)
					}
					err := genrt.Valid(data)
					if valid && err != nil {
						t.Fatalf("%s, %d bytes, padding %d: Valid(%x) = %v, want nil", c.name, n, pad, data, err)
					} else if valid && !genrt.ValidFast(data) {
						t.Fatalf("%s, %d bytes, padding %d: %x is valid, but only the general walker accepts it", c.name, n, pad, data)
					} else if !valid && !errors.Is(err, genrt.ErrUTF8) {
						t.Fatalf("%s, %d bytes, padding %d: Valid(%x) = %v, want %v", c.name, n, pad, data, err, genrt.ErrUTF8)
					}
					checkValidAgrees(t, data)
				}
				for _, s := range good {
					check(s, true)
				}
				for _, s := range bad {
					check(s, false)
				}
			}
		}
	}
}
