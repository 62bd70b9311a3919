package runtime

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
