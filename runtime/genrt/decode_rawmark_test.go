package genrt_test

import (
	"bytes"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// RawStart and RawBytes give the bytes an item was read from: the whole
// item over a slice (an alias under ZeroCopy) and over a stream (a copy,
// the item pinned while it is read, through refills and skips), nested
// marks each with their own bytes.
func TestRawMarks(t *testing.T) {
	big := bytes.Repeat([]byte{0xab}, 100000) // far past a refill's 4096 bytes
	inner := append([]byte{0xd9, 0x04, 0xb0, 0x82, 0x01, 0x5a, 0x00, 0x01, 0x86, 0xa0}, big...)
	outer := append([]byte{0x83, 0x63, 'a', 'b', 'c'}, inner...)
	outer = append(outer, 0xf5)
	input := append(append([]byte(nil), outer...), 0x07) // a second item after it

	read := func(t *testing.T, d *genrt.Decoder) (o, i []byte) {
		t.Helper()
		start := d.RawStart()
		if n, err := d.ReadArrayHead(); err != nil || n != 3 {
			t.Fatalf("head: %d, %v", n, err)
		}
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		istart := d.RawStart()
		if err := d.Skip(); err != nil { // the tagged inner item, skipped whole
			t.Fatal(err)
		}
		i = d.RawBytes(istart, nil)
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		o = d.RawBytes(start, nil)
		if n, err := d.ReadUint(); err != nil || n != 7 {
			t.Fatalf("the next item: %d, %v", n, err)
		}
		return o, i
	}
	for _, tc := range []struct {
		name     string
		d        *genrt.Decoder
		zeroCopy bool
	}{
		{"slice", genrt.NewBytesDecoder(input), false},
		{"slice zero-copy", genrt.NewBytesDecoder(input), true},
		{"stream", genrt.NewDecoder(bytes.NewReader(input)), false},
		{"one-byte stream", genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(input))), false},
		{"one-byte stream zero-copy", genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(input))), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.zeroCopy {
				tc.d.SetOptions(genrt.Options{ZeroCopy: true})
			}
			o, i := read(t, tc.d)
			if !bytes.Equal(o, outer) || !bytes.Equal(i, inner) {
				t.Fatalf("outer %d bytes (want %d), inner %d bytes (want %d), equal: %v %v",
					len(o), len(outer), len(i), len(inner), bytes.Equal(o, outer), bytes.Equal(i, inner))
			}
			aliases := &o[0] == &input[0]
			if aliases != (tc.zeroCopy && tc.name == "slice zero-copy") {
				t.Errorf("aliases the input: %v", aliases)
			}
			if cap(o) != len(o) && aliases {
				t.Errorf("an alias of capacity %d past its length %d", cap(o), len(o))
			}
		})
	}
}

// RawBytes copies into buf's array when it has room (as ReadBytes does),
// and allocates once otherwise.
func TestRawBytesReuse(t *testing.T) {
	input := []byte{0x82, 0x01, 0x02}
	buf := make([]byte, 0, 16)
	d := genrt.NewBytesDecoder(input)
	start := d.RawStart()
	if err := d.Skip(); err != nil {
		t.Fatal(err)
	}
	got := d.RawBytes(start, buf[:1])
	if !bytes.Equal(got, input) || &got[0] != &buf[:1][0] {
		t.Errorf("got %x in its own array: %v", got, &got[0] != &buf[:1][0])
	}
	allocs := testing.AllocsPerRun(100, func() {
		d := genrt.NewBytesDecoder(input)
		start := d.RawStart()
		_ = d.Skip()
		_ = d.RawBytes(start, nil)
	})
	if allocs > 2 { // the decoder and the copy
		t.Errorf("%v allocations", allocs)
	}
}
