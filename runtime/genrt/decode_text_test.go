package genrt

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"
)

// textList decodes an array of text strings, through TryString and then
// ReadString as generated code reads a string field.
type textList []string

func (l *textList) DecodeCBOR(d *Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	*l = (*l)[:0]
	for range n {
		s, ok := d.TryString()
		if !ok {
			if s, err = d.ReadString(); err != nil {
				return err
			}
		}
		*l = append(*l, s)
	}
	d.Leave()
	return nil
}

// texts returns n strings of every length up to 70 (past blockText, so
// that some do not go to a block), a few with a non-ASCII letter, each
// telling by its bytes which batch and which string it is.
func texts(batch, n int) []string {
	out := make([]string, n)
	for i := range out {
		s := fmt.Sprintf("%d.%d:", batch, i)
		for len(s) < i%71 {
			s += string(rune('a' + (i+len(s))%26))
		}
		if i%13 == 0 {
			s += "é"
		}
		out[i] = s
	}
	return out
}

func encodeTexts(ss []string) []byte {
	b := AppendArrayHead(nil, len(ss))
	for _, s := range ss {
		b = append(AppendTextHead(b, len(s)), s...)
	}
	return b
}

// inBytes reports whether s's bytes lie within b.
func inBytes(s string, b []byte) bool {
	if len(s) == 0 || len(b) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&b[0]))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(b))
}

// TestTextBlocks checks the strings a decoder copies into its text
// blocks: each is what the input held, across many blocks, across Reset
// and across the reuse of Unmarshal's pooled decoder, and stays so after
// the input is overwritten and more is decoded (no block byte is written
// twice); the input is never written. Under ZeroCopy no string is copied:
// each is a view of the input.
func TestTextBlocks(t *testing.T) {
	type batch struct {
		want, got []string
	}
	var kept []batch
	check := func(when string) {
		t.Helper()
		for _, b := range kept {
			for i := range b.want {
				if b.got[i] != b.want[i] {
					t.Fatalf("%s: string %d is %q, want %q", when, i, b.got[i], b.want[i])
				}
			}
		}
	}
	// 600 strings are about 20 KB of text: several blocks.
	d := NewBytesDecoder(nil)
	for round := range 3 {
		want := texts(round, 600)
		in := encodeTexts(want)
		orig := bytes.Clone(in)
		d.Reset(in)
		var got textList
		if err := got.DecodeCBOR(d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(in, orig) {
			t.Fatalf("round %d: the decoder wrote into its input", round)
		}
		for i, s := range got {
			if inBytes(s, in) {
				t.Fatalf("round %d: string %d is a view of the input", round, i)
			}
		}
		kept = append(kept, batch{want, got})
		clear(in) // the strings are copies
		check(fmt.Sprintf("Reset, round %d", round))
	}
	for round := 3; round < 8; round++ {
		want := texts(round, 40+round*50)
		in := encodeTexts(want)
		var got textList
		if err := Unmarshal(in, &got, Options{}); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, batch{want, got})
		clear(in)
		check(fmt.Sprintf("Unmarshal, round %d", round))
	}
	// A block is not larger than what remains of the input.
	small := NewBytesDecoder(encodeTexts([]string{"ab", "cd"}))
	var got textList
	if err := got.DecodeCBOR(small); err != nil {
		t.Fatal(err)
	}
	if small.textLeft > 3 {
		t.Errorf("a 7-byte input left %d bytes of its text block free", small.textLeft)
	}
	check("at the end")

	want := texts(9, 300)
	in := encodeTexts(want)
	zc := NewBytesDecoder(in)
	zc.SetOptions(Options{ZeroCopy: true})
	if err := got.DecodeCBOR(zc); err != nil {
		t.Fatal(err)
	}
	for i, s := range got {
		if s != want[i] || len(s) > 0 && !inBytes(s, in) {
			t.Fatalf("ZeroCopy: string %d is %q, want %q in the input", i, s, want[i])
		}
	}
	if zc.text != nil {
		t.Error("ZeroCopy made a text block")
	}

	// One allocation for many strings: 600 strings, about 20 KB, take
	// a few blocks (and the longer strings one each).
	in = encodeTexts(texts(10, 600))
	allocs := testing.AllocsPerRun(10, func() {
		if err := got.DecodeCBOR(NewBytesDecoder(in)); err != nil {
			t.Fatal(err)
		}
	})
	long := 0
	for _, s := range texts(10, 600) {
		if len(s) > blockText {
			long++
		}
	}
	if allocs > float64(long+12) {
		t.Errorf("decoding 600 strings (%d of them longer than %d bytes) allocates %v times", long, blockText, allocs)
	}
}

// TestBytesInTextBlocks checks the short byte strings ReadBytes copies
// into the text blocks beside the strings: each holds what the input
// held and owns its length and its byte of room (a slice's holder may
// write them, and the next ReadBytes into it does) without touching any
// string or other slice, and is reused record after record.
func TestBytesInTextBlocks(t *testing.T) {
	const n = 400
	texts := texts(0, n)
	blobs := make([][]byte, n)
	for i := range blobs {
		blobs[i] = []byte(fmt.Sprintf("<%d>", i))
		for len(blobs[i]) < i%(blockText+8) {
			blobs[i] = append(blobs[i], byte(i+len(blobs[i])))
		}
		if i%17 == 0 {
			blobs[i] = blobs[i][:0]
		}
	}
	encode := func(blobs [][]byte) []byte {
		b := AppendArrayHead(nil, 2*n)
		for i := range n {
			b = append(AppendTextHead(b, len(texts[i])), texts[i]...)
			b = AppendBytes(b, blobs[i])
		}
		return b
	}
	in := encode(blobs)
	d := NewBytesDecoder(in)
	gotText := make([]string, n)
	gotBytes := make([][]byte, n)
	read := func() {
		t.Helper()
		if _, err := d.ReadArrayHead(); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			var err error
			if gotText[i], err = d.ReadString(); err != nil {
				t.Fatal(err)
			}
			if gotBytes[i], err = d.ReadBytes(gotBytes[i]); err != nil {
				t.Fatal(err)
			}
		}
		d.Leave()
	}
	read()
	type span struct{ lo, hi uintptr }
	var spans []span
	for i, b := range gotBytes {
		if !bytes.Equal(b, blobs[i]) {
			t.Fatalf("byte string %d is %x, want %x", i, b, blobs[i])
		}
		if len(b) > 0 {
			if cap(b) != len(b)+1 {
				t.Fatalf("byte string %d: cap %d, len %d: want one byte of room", i, cap(b), len(b))
			}
			lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
			spans = append(spans, span{lo, lo + uintptr(cap(b))})
		}
	}
	for i, s := range gotText {
		if len(s) > 0 {
			lo := uintptr(unsafe.Pointer(unsafe.StringData(s)))
			spans = append(spans, span{lo, lo + uintptr(len(s))})
		}
		if s != texts[i] {
			t.Fatalf("string %d is %q, want %q", i, s, texts[i])
		}
	}
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if a.lo < b.hi && b.lo < a.hi {
				t.Fatalf("two results share bytes: [%#x, %#x) and [%#x, %#x)", a.lo, a.hi, b.lo, b.hi)
			}
		}
	}
	// The holders write every byte they own; the strings stay.
	for _, b := range gotBytes {
		full := b[:cap(b)]
		for j := range full {
			full[j] = 0xAA
		}
	}
	for i, s := range gotText {
		if s != texts[i] {
			t.Fatalf("after the byte strings were written: string %d is %q, want %q", i, s, texts[i])
		}
	}
	// The next record, no longer, goes into the same arrays.
	arrays := make([]*byte, n)
	for i, b := range gotBytes {
		arrays[i] = unsafe.SliceData(b)
		blobs[i] = blobs[i][:len(blobs[i])/2]
	}
	d.Reset(encode(blobs))
	read()
	for i, b := range gotBytes {
		if !bytes.Equal(b, blobs[i]) {
			t.Fatalf("second record: byte string %d is %x, want %x", i, b, blobs[i])
		}
		if len(b) > 0 && unsafe.SliceData(b) != arrays[i] {
			t.Fatalf("second record: byte string %d is in a new array", i)
		}
	}
}
