package genrt_test

import (
	"bytes"
	"fmt"
	"math/big"
	"runtime/debug"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// Zero-copy decoding and decoding into a used value: what a zero-copy
// decode returns aliases its input, and a later decode into the same value
// must never write through it (the input may be another buffer of the
// program's, a string's bytes or a file mapped read-only). These types
// decode as generated code does: a byte slice field is read with
// ReadBytes(v.Data), handed the field as it is.

// zcRecord is [bytes, text].
type zcRecord struct {
	Data []byte
	Text string
}

func (v *zcRecord) DecodeCBOR(d *genrt.Decoder) error {
	if !d.TryArrayHead(2) {
		if n, err := d.ReadArrayHead(); err != nil {
			return err
		} else if n != 2 {
			return fmt.Errorf("array of %d", n)
		}
	}
	var err error
	if v.Data, err = d.ReadBytes(v.Data); err != nil {
		return err
	}
	if v.Text, err = d.ReadString(); err != nil {
		return err
	}
	d.Leave()
	return nil
}

// zcFirst is the first record every scenario decodes with ZeroCopy: its
// byte string and its text alias it.
const zcFirst = "82 48 4141414141414141 68 5454545454545454"

// zcSeconds are the records decoded next into the same value: shorter than
// the first (they fit in the array of its byte slice), as long, and of
// indefinite length, whose chunks are joined.
var zcSeconds = []struct {
	name, hex  string
	data, text string
}{
	{"definite shorter", "82 44 62626262 64 74747474", "bbbb", "tttt"},
	{"definite same length", "82 48 6262626262626262 68 7474747474747474", "bbbbbbbb", "tttttttt"},
	{"definite empty", "82 40 60", "", ""},
	{"indefinite", "82 5f 426262 426262 ff 7f 627474 627474 ff", "bbbb", "tttt"},
	{"indefinite same length", "82 5f 4462626262 4462626262 ff 7f 6474747474 6474747474 ff", "bbbbbbbb", "tttttttt"},
	{"indefinite one chunk", "82 5f 4162 ff 7f 6174 ff", "b", "t"},
}

// zcDecoders are the ways the later records are decoded into the value.
var zcDecoders = []struct {
	name   string
	decode func(data []byte, v *zcRecord) error
}{
	{"bytes decoder", func(data []byte, v *zcRecord) error { return v.DecodeCBOR(genrt.NewBytesDecoder(data)) }},
	{"stream decoder", func(data []byte, v *zcRecord) error { return v.DecodeCBOR(genrt.NewDecoder(bytes.NewReader(data))) }},
	{"Unmarshal", func(data []byte, v *zcRecord) error { return genrt.Unmarshal(data, v, genrt.Options{}) }},
	{"Unmarshal zero-copy", func(data []byte, v *zcRecord) error {
		return genrt.Unmarshal(data, v, genrt.Options{ZeroCopy: true})
	}},
}

// zcReuse decodes first (with ZeroCopy), then each second record in each
// way, then a third record (copied), all into one value, and reports
// whether first or a second record read with ZeroCopy changed. It
// returns what the decodes returned where they differ from what is
// expected.
func zcReuse(t *testing.T, first []byte) {
	t.Helper()
	keep := bytes.Clone(first)
	for _, sc := range zcSeconds {
		for _, dec := range zcDecoders {
			var v zcRecord
			if err := genrt.Unmarshal(first, &v, genrt.Options{ZeroCopy: true}); err != nil {
				t.Fatalf("first: %v", err)
			}
			if len(v.Data) == 0 || &v.Data[0] != &first[2] {
				t.Fatalf("first: a zero-copy decode did not alias its input")
			}
			second := mustHex(sc.hex)
			keepSecond := bytes.Clone(second)
			if err := dec.decode(second, &v); err != nil {
				t.Fatalf("%s, %s: %v", sc.name, dec.name, err)
			}
			if string(v.Data) != sc.data || v.Text != sc.text || v.Data == nil {
				t.Errorf("%s, %s: decoded %q %q, want %q %q", sc.name, dec.name, v.Data, v.Text, sc.data, sc.text)
			}
			if !bytes.Equal(first, keep) {
				t.Errorf("%s, %s: the first input changed: %x, was %x", sc.name, dec.name, first, keep)
				copy(first, keep)
			}
			third := mustHex("82 42 6363 62 7575")
			if err := v.DecodeCBOR(genrt.NewBytesDecoder(third)); err != nil || string(v.Data) != "cc" || v.Text != "uu" {
				t.Errorf("%s, %s, then a third record: %q %q, %v", sc.name, dec.name, v.Data, v.Text, err)
			}
			if !bytes.Equal(first, keep) {
				t.Errorf("%s, %s, then a third record: the first input changed: %x, was %x", sc.name, dec.name, first, keep)
				copy(first, keep)
			}
			if !bytes.Equal(second, keepSecond) {
				t.Errorf("%s, %s, then a third record: the second input changed: %x, was %x", sc.name, dec.name, second, keepSecond)
			}
		}
	}
}

// TestZeroCopyReuseKeepsInput: after a zero-copy decode, decoding into the
// same value, in any mode, leaves the first input byte for byte as it was.
func TestZeroCopyReuseKeepsInput(t *testing.T) {
	zcReuse(t, mustHex(zcFirst))
}

// TestZeroCopyReuseReadOnly: the first input is read-only memory (a file
// mapped read-only, a string's bytes): a write into it would be a fault
// that kills the program; with SetPanicOnFault it is a panic, and a
// failure here.
func TestZeroCopyReuseReadOnly(t *testing.T) {
	first := readOnly(t, mustHex(zcFirst))
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("a decode wrote into the read-only first input: %v", r)
		}
	}()
	zcReuse(t, first)
}

// TestReadBytesReuse: ReadBytes writes into the array of buf only when buf
// has room beyond its length (len < cap) for the string: a slice the
// decoder made has, and one that a zero-copy decode returned (capped at
// its length) never has. A reused result keeps its spare room, so that
// the next record reuses it again.
func TestReadBytesReuse(t *testing.T) {
	for _, k := range decoderKinds {
		for _, h := range []string{"4401020304", "5f420102420304ff"} {
			// Made by the decoder: reused as long as the string fits.
			b, err := k.new(mustHex(h)).ReadBytes(nil)
			if err != nil || len(b) >= cap(b) {
				t.Fatalf("%s ReadBytes(%s) = %x (cap %d), %v: no room past its length", k.name, h, b, cap(b), err)
			}
			b2, err := k.new(mustHex("43050607")).ReadBytes(b)
			if err != nil || !bytes.Equal(b2, []byte{5, 6, 7}) || &b2[0] != &b[0] || len(b2) >= cap(b2) {
				t.Errorf("%s ReadBytes(43050607) into a decoded slice = %x (cap %d), %v: not reused", k.name, b2, cap(b2), err)
			}
			// A slice with no room past its length: never written.
			for _, held := range [][]byte{{9, 9, 9, 9, 9}, {9, 9, 9, 9}, make([]byte, 0), make([]byte, 4, 5)[:5]} {
				keep := bytes.Clone(held)
				b, err := k.new(mustHex(h)).ReadBytes(held)
				if err != nil || !bytes.Equal(b, []byte{1, 2, 3, 4}) {
					t.Errorf("%s ReadBytes(%s) = %x, %v", k.name, h, b, err)
				}
				if !bytes.Equal(held, keep) {
					t.Errorf("%s ReadBytes(%s) wrote into a slice of length %d, capacity %d: % x", k.name, h, len(keep), cap(held), held)
				}
			}
		}
	}
}

// TestReadRawBytesReuse: a union's catch-all keeps the bytes of an item in
// a slice ReadRawBytes made; one that holds a slice of something else
// (without room past its length) is never written.
func TestReadRawBytesReuse(t *testing.T) {
	for _, k := range decoderKinds {
		raw, err := k.new(mustHex("83010203")).ReadRawBytes(nil)
		if err != nil || len(raw) >= cap(raw) {
			t.Fatalf("%s ReadRawBytes = %x (cap %d), %v: no room past its length", k.name, raw, cap(raw), err)
		}
		raw2, err := k.new(mustHex("820405")).ReadRawBytes(raw)
		if err != nil || !bytes.Equal(raw2, mustHex("820405")) || &raw2[0] != &raw[0] {
			t.Errorf("%s ReadRawBytes(820405) into a kept item = %x, %v: not reused", k.name, raw2, err)
		}
		held := mustHex("8301020304")[:4:4]
		keep := bytes.Clone(held)
		if raw, err := k.new(mustHex("820405")).ReadRawBytes(held); err != nil || !bytes.Equal(raw, mustHex("820405")) {
			t.Errorf("%s ReadRawBytes(820405) = %x, %v", k.name, raw, err)
		}
		if !bytes.Equal(held, keep) {
			t.Errorf("%s ReadRawBytes wrote into a full slice: %x, was %x", k.name, held, keep)
		}
	}
}

// zcBignum is [bignum, text]: the bignum's bytes are read into the
// decoder's scratch buffer, which an indefinite-length text string then
// fills.
type zcBignum struct {
	Big  big.Int
	Text string
}

func (v *zcBignum) DecodeCBOR(d *genrt.Decoder) error {
	if n, err := d.ReadArrayHead(); err != nil {
		return err
	} else if n != 2 {
		return fmt.Errorf("array of %d", n)
	}
	if err := d.ReadBigInt(&v.Big); err != nil {
		return err
	}
	var err error
	if v.Text, err = d.ReadString(); err != nil {
		return err
	}
	d.Leave()
	return nil
}

// TestZeroCopyBignumKeepsInput: a bignum read in zero-copy mode, then an
// indefinite-length string in the same input or in the next one decoded
// by the same pooled decoder, leaves the input as it was.
func TestZeroCopyBignumKeepsInput(t *testing.T) {
	zc := genrt.Options{ZeroCopy: true}
	data := mustHex("82 c2 44 01020304 7f 626162 626364 ff")
	keep := bytes.Clone(data)
	var v zcBignum
	if err := genrt.Unmarshal(data, &v, zc); err != nil || v.Big.Int64() != 0x01020304 || v.Text != "abcd" {
		t.Fatalf("Unmarshal = %v %q, %v", &v.Big, v.Text, err)
	}
	if !bytes.Equal(data, keep) {
		t.Errorf("the input changed: %x, was %x", data, keep)
	}
	for i := range 10 {
		first := mustHex("82 c2 44 01020304 60")
		keepFirst := bytes.Clone(first)
		if err := genrt.Unmarshal(first, &v, zc); err != nil {
			t.Fatal(err)
		}
		if err := genrt.Unmarshal(mustHex("82 00 7f 626162 626364 ff"), &v, zc); err != nil || v.Text != "abcd" {
			t.Fatalf("Unmarshal = %q, %v", v.Text, err)
		}
		if !bytes.Equal(first, keepFirst) {
			t.Fatalf("run %d: the first input changed: %x, was %x", i, first, keepFirst)
		}
	}
}

// TestReadBytesRoomHoldsNoOtherInput: the byte of room past a new byte
// slice's length is the input byte after the string or zero, never a
// byte of another input (the pooled decoder's scratch buffer keeps the
// chunks of an indefinite-length string from an earlier call).
func TestReadBytesRoomHoldsNoOtherInput(t *testing.T) {
	for range 10 {
		var v zcRecord
		if err := genrt.Unmarshal(mustHex("82 5f 44aaaaaaaa 44aaaaaaaa ff 60"), &v, genrt.Options{}); err != nil {
			t.Fatal(err)
		}
		var w zcRecord
		if err := genrt.Unmarshal(mustHex("82 5f 41bb ff 60"), &w, genrt.Options{}); err != nil {
			t.Fatal(err)
		}
		if string(w.Data) != "\xbb" || cap(w.Data) < 2 {
			t.Fatalf("decoded %x (cap %d)", w.Data, cap(w.Data))
		}
		if room := w.Data[:2][1]; room == 0xaa {
			t.Fatalf("the room past the byte slice holds %x, a byte of the earlier input", room)
		}
	}
}
