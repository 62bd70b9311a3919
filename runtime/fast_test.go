package runtime

import (
	"bytes"
	"testing"
)

// tryInputs returns every input of one and two bytes, and strings and
// arrays of every short length followed by filler.
func tryInputs() [][]byte {
	var in [][]byte
	for a := 0; a < 256; a++ {
		in = append(in, []byte{byte(a)})
		for b := 0; b < 256; b++ {
			in = append(in, []byte{byte(a), byte(b)}, []byte{byte(a), byte(b), 0})
		}
	}
	for n := 0; n < 26; n++ {
		ascii := append([]byte{0x60 + byte(n)}, bytes.Repeat([]byte{'a'}, n)...)
		in = append(in, ascii, ascii[:len(ascii)/2])
		if n > 0 {
			bad := bytes.Clone(ascii)
			bad[n] = 0xc3 // a lead byte: invalid as the last byte
			in = append(in, bad)
			two := bytes.Clone(ascii)
			two[n-1], two[n] = 0xc3, 0xa9 // é: valid, not ASCII
			in = append(in, two)
		}
		arr := append([]byte{0x80 + byte(n)}, bytes.Repeat([]byte{0}, n)...)
		in = append(in, arr, arr[:len(arr)/2])
	}
	return in
}

// TestTryAgreesWithRead checks that every Try method accepts only what its
// Read method accepts, returns the same value and consumes the same bytes,
// under the default options, strict mode and tight limits.
func TestTryAgreesWithRead(t *testing.T) {
	opts := []Options{
		DefaultOptions(),
		{Strict: true},
		{MaxStringLength: 3, MaxArrayElements: 3, MaxDepth: 1},
	}
	for _, o := range opts {
		for _, in := range tryInputs() {
			mk := func() *Decoder {
				d := NewBytesDecoder(in)
				d.SetOptions(o)
				return d
			}
			check := func(name string, ok bool, got any, d *Decoder, read func(*Decoder) (any, error)) {
				t.Helper()
				if !ok {
					if d.off != 0 || d.depth != 0 {
						t.Fatalf("%s(% x) %+v: failed but consumed", name, in, o)
					}
					return
				}
				r := mk()
				want, err := read(r)
				if err != nil || want != got || r.off != d.off || r.depth != d.depth {
					t.Fatalf("%s(% x) %+v = %v at %d (depth %d); Read: %v, %v at %d (depth %d)",
						name, in, o, got, d.off, d.depth, want, err, r.off, r.depth)
				}
			}
			d := mk()
			u, ok := d.TryUint()
			check("TryUint", ok, uint8(u), d, func(r *Decoder) (any, error) { return r.ReadUint8() })
			d = mk()
			u, ok = d.TryUint()
			check("TryUint", ok, u, d, func(r *Decoder) (any, error) { return r.ReadUint64() })
			d = mk()
			i, ok := d.TryInt()
			check("TryInt", ok, int8(i), d, func(r *Decoder) (any, error) { return r.ReadInt8() })
			d = mk()
			i, ok = d.TryInt()
			check("TryInt", ok, i, d, func(r *Decoder) (any, error) { return r.ReadInt64() })
			d = mk()
			b, ok := d.TryBool()
			check("TryBool", ok, b, d, func(r *Decoder) (any, error) { return r.ReadBool() })
			d = mk()
			null, ok := d.TryNull()
			check("TryNull", ok, null, d, func(r *Decoder) (any, error) { return r.ReadNull() })
			d = mk()
			s, ok := d.TryString()
			check("TryString", ok, s, d, func(r *Decoder) (any, error) { return r.ReadString() })
			for n := 0; n < 24; n++ {
				d = mk()
				ok = d.TryArrayHead(n)
				check("TryArrayHead", ok, n, d, func(r *Decoder) (any, error) { return r.ReadArrayHead() })
			}
			if d := mk(); d.NextIsArray() != (len(in) > 0 && in[0]>>5 == MajorArray) {
				t.Fatalf("NextIsArray(% x) wrong", in)
			}
		}
	}
}

// TestTryOnStream checks that the Try methods fall back (consume nothing)
// on a stream whose bytes have not arrived yet.
func TestTryOnStream(t *testing.T) {
	d := NewDecoder(bytes.NewReader([]byte{0x01, 0xf5, 0xf6, 0x61, 'a', 0x80}))
	if _, ok := d.TryUint(); ok {
		t.Fatal("TryUint read from an empty buffer")
	}
	if _, ok := d.TryNull(); ok {
		t.Fatal("TryNull answered from an empty buffer")
	}
	if d.TryArrayHead(0) || d.NextIsArray() {
		t.Fatal("TryArrayHead read from an empty buffer")
	}
	if _, ok := d.TryString(); ok {
		t.Fatal("TryString read from an empty buffer")
	}
}

func TestTryAllocs(t *testing.T) {
	data := []byte{0x84, 0x01, 0x20, 0xf5, 0xf6}
	d := NewBytesDecoder(data)
	if n := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		d.TryArrayHead(4)
		d.TryUint()
		d.TryInt()
		d.TryBool()
		d.TryNull()
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
