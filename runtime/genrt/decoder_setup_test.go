package genrt

import (
	"bytes"
	"errors"
	"testing"
	"unsafe"
)

// Every generated UnmarshalCBOR builds a Decoder in its frame; from 192
// bytes on the compiler clears it with a loop, which costs a small
// decode a few per cent of its time.
func TestDecoderSize(t *testing.T) {
	if n := unsafe.Sizeof(Decoder{}); n >= 192 {
		t.Fatalf("Decoder is %d bytes, want under 192", n)
	}
}

// nested is an array of n nested arrays, the innermost empty.
func nested(n int) []byte {
	return append(bytes.Repeat([]byte{0x81}, n-1), 0x80)
}

// depthOK reports whether d reads nested(n) whole.
func depthOK(d *Decoder, n int) bool {
	d.Reset(nested(n))
	return d.Skip() == nil
}

// SetOptions on one decoder writes its own copy of the options, never
// the defaults that other decoders share.
func TestSetOptionsOwnCopy(t *testing.T) {
	a, b := NewBytesDecoder(nil), NewBytesDecoder(nil)
	a.SetOptions(Options{MaxDepth: 3})
	if !depthOK(a, 3) || depthOK(a, 4) {
		t.Fatal("MaxDepth 3 not in force after SetOptions")
	}
	if !depthOK(b, 32) || depthOK(b, 33) {
		t.Fatal("another decoder's SetOptions changed this one's limits")
	}
	if c := NewBytesDecoder(nil); c.Options() != DefaultOptions() {
		t.Fatalf("a new decoder has %+v, want the defaults", c.Options())
	}
	a.SetOptions(Options{MaxDepth: 5, Strict: true}) // in place, the same copy
	if got := a.Options(); got.MaxDepth != 5 || !got.Strict {
		t.Fatalf("second SetOptions: %+v", got)
	}
	if !depthOK(a, 5) || depthOK(a, 6) {
		t.Fatal("MaxDepth 5 not in force after the second SetOptions")
	}

	SetDefaultOptions(Options{MaxDepth: 7})
	defer SetDefaultOptions(Options{})
	p, q := NewBytesDecoder(nil), NewBytesDecoder(nil)
	p.SetOptions(Options{MaxDepth: 2})
	if !depthOK(q, 7) || depthOK(q, 8) || ProcessOptions().MaxDepth != 7 {
		t.Fatal("SetOptions on a decoder with the process defaults changed them")
	}
	if depthOK(p, 3) {
		t.Fatal("MaxDepth 2 not in force over the process defaults")
	}
}

// Unmarshal's pooled decoders go from the options of one call to those
// of the next, defaults and others in turn, each call with its own.
func TestUnmarshalOptionsInTurn(t *testing.T) {
	in := nested(6)
	for i := range 20 {
		var v skipAll
		err := Unmarshal(in, &v, Options{MaxDepth: 5})
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("call %d, MaxDepth 5: %v, want ErrLimit", i, err)
		}
		if err := Unmarshal(in, &v, Options{}); err != nil {
			t.Fatalf("call %d, defaults: %v", i, err)
		}
		if err := Unmarshal(in, &v, Options{Strict: true}); err != nil {
			t.Fatalf("call %d, Strict: %v", i, err)
		}
		if err := Unmarshal([]byte{0x9f, 0xff}, &v, Options{Strict: true}); err == nil {
			t.Fatalf("call %d, Strict: an indefinite-length array accepted", i)
		}
		if err := Unmarshal([]byte{0x9f, 0xff}, &v, Options{}); err != nil {
			t.Fatalf("call %d, defaults after Strict: %v", i, err)
		}
	}
}

// skipAll is a generated type's stand-in: its DecodeCBOR skips one item.
type skipAll struct{}

func (skipAll) DecodeCBOR(d *Decoder) error { return d.Skip() }

// A zero Decoder made a decoder over a slice by Reset has the default
// options, as one from NewBytesDecoder.
func TestZeroDecoderReset(t *testing.T) {
	var d Decoder
	if d.Options() != (Options{}) {
		t.Fatalf("a zero Decoder's options: %+v", d.Options())
	}
	if !depthOK(&d, 32) || depthOK(&d, 33) {
		t.Fatal("a zero Decoder after Reset: not the default depth")
	}
	if d.Options() != DefaultOptions() {
		t.Fatalf("a zero Decoder after Reset has %+v", d.Options())
	}
}

// A stream decoder reset to a slice reads the slice; a stream read after
// the reader's error keeps returning it.
func TestStreamStateReset(t *testing.T) {
	d := NewDecoder(bytes.NewReader([]byte{0x01, 0x02}))
	for _, want := range []uint{1, 2} {
		if n, err := d.ReadUint(); err != nil || n != want {
			t.Fatalf("stream: %d, %v, want %d", n, err, want)
		}
	}
	if d.More() {
		t.Fatal("More after the stream's end")
	}
	d.Reset([]byte{0x03})
	if n, err := d.ReadUint(); err != nil || n != 3 {
		t.Fatalf("after Reset: %d, %v", n, err)
	}
	if _, err := d.ReadUint(); err == nil {
		t.Fatal("a read past the slice's end succeeded")
	}
}
