package generator_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/raw"
)

func randomBody(r *rand.Rand, memo int) raw.Body {
	b := raw.Body{Fee: r.Uint64() >> r.IntN(64), Memo: strings.Repeat("m", memo)}
	if r.IntN(4) != 0 {
		b.Inputs = make([]uint64, r.IntN(4))
		for i := range b.Inputs {
			b.Inputs[i] = r.Uint64() >> r.IntN(64)
		}
	}
	return b
}

func randomBlock(r *rand.Rand, memo int) raw.Block {
	b := raw.Block{Height: r.Uint64() >> r.IntN(64)}
	for range r.IntN(4) {
		b.Bodies = append(b.Bodies, randomBody(r, r.IntN(memo+1)))
	}
	if r.IntN(2) == 0 {
		p := randomBody(r, r.IntN(memo+1))
		b.Prev = &p
	}
	return b
}

// bodySpans is the reference, worked out by hand from the layout of a
// Block's encoding: where each body's bytes lie in enc, the encoding of
// b (tag 1300 in three bytes, the array head of three, the height, the
// head of the bodies, each body, then Prev or null).
func bodySpans(t *testing.T, b *raw.Block) [][2]int {
	t.Helper()
	off := 3 + 1 + genrt.SizeHead(b.Height) + genrt.SizeHead(uint64(len(b.Bodies)))
	var spans [][2]int
	bodies := append([]raw.Body(nil), b.Bodies...)
	if b.Prev != nil {
		bodies = append(bodies, *b.Prev)
	}
	for _, x := range bodies {
		enc, err := x.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		spans = append(spans, [2]int{off, off + len(enc)})
		off += len(enc)
	}
	return spans
}

// checkRaw checks that a decoded Block and its bodies hold the bytes of
// enc that the reference says they were read from.
func checkRaw(t *testing.T, enc []byte, want *raw.Block, got *raw.Block) {
	t.Helper()
	if !bytes.Equal(got.Bytes(), enc) {
		t.Fatalf("block bytes %x, want %x", got.Bytes(), enc)
	}
	bodies := append([]raw.Body(nil), got.Bodies...)
	if got.Prev != nil {
		bodies = append(bodies, *got.Prev)
	}
	for i, sp := range bodySpans(t, want) {
		if !bytes.Equal(bodies[i].Raw, enc[sp[0]:sp[1]]) {
			t.Fatalf("%x: body %d holds %x, want %x", enc, i, bodies[i].Raw, enc[sp[0]:sp[1]])
		}
	}
}

// withoutRaw is b with every raw field cleared, for comparing values.
func withoutRaw(b raw.Block) raw.Block {
	var c raw.Block
	c.Height = b.Height
	for _, x := range b.Bodies {
		x.Raw = nil
		c.Bodies = append(c.Bodies, x)
	}
	if b.Prev != nil {
		p := *b.Prev
		p.Raw = nil
		c.Prev = &p
	}
	return c
}

// TestRawBytes: after decoding, a //cborgen:raw field holds exactly the
// bytes its value was read from, at any depth, over a slice (a copy; a
// view of the input under ZeroCopy) and over a stream; encoding leaves it
// out.
func TestRawBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 4))
	n := 1000
	if testing.Short() {
		n = 100
	}
	for range n {
		v := randomBlock(r, 40)
		enc, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if v.SizeCBOR() != len(enc) {
			t.Fatalf("SizeCBOR %d, encoding %d bytes", v.SizeCBOR(), len(enc))
		}
		var got raw.Block
		if err := got.UnmarshalCBOR(enc); err != nil {
			t.Fatal(err)
		}
		checkRaw(t, enc, &v, &got)
		if !reflect.DeepEqual(withoutRaw(got), withoutRaw(v)) {
			t.Fatalf("decoded %+v, want %+v", got, v)
		}
		if &got.Bytes()[0] == &enc[0] {
			t.Fatal("the raw bytes alias the input without ZeroCopy")
		}
		// The raw field is not encoded.
		again, _ := got.MarshalCBOR()
		if !bytes.Equal(again, enc) {
			t.Fatalf("re-encoded %x, want %x", again, enc)
		}

		// Zero-copy: views of the input, capped at their length.
		d := genrt.NewBytesDecoder(enc)
		d.SetOptions(genrt.Options{ZeroCopy: true})
		var zc raw.Block
		if err := zc.DecodeCBOR(d); err != nil {
			t.Fatal(err)
		}
		checkRaw(t, enc, &v, &zc)
		if &zc.Bytes()[0] != &enc[0] || cap(zc.Bytes()) != len(zc.Bytes()) {
			t.Fatal("under ZeroCopy the raw bytes are not a capped view of the input")
		}

		// Over a one-byte stream, two items in a row.
		s := genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(append(bytes.Clone(enc), enc...))))
		for range 2 {
			var st raw.Block
			if err := st.DecodeCBOR(s); err != nil {
				t.Fatal(err)
			}
			checkRaw(t, enc, &v, &st)
		}
	}
}

// TestRawAsRead: the bytes are those of the input, not the value's
// encoding: indefinite lengths, long heads and the legacy map are kept as
// they came.
func TestRawAsRead(t *testing.T) {
	for _, in := range []string{
		"9f9f01ff18007fffff",                            // indefinite array and inputs, a long head for Fee, an empty indefinite text
		"83f61b00000000000000056161",                    // null inputs, Fee in eight bytes
		"a363466565056" + "44d656d6f6161654f74686572f5", // legacy map; an unknown key, skipped
		"a2644d656d6f7f6161ff66496e707574738107",        // legacy map, an indefinite text
	} {
		var b raw.Body
		data := mustHex(t, in)
		if err := b.UnmarshalCBOR(data); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if !bytes.Equal(b.Raw, data) {
			t.Errorf("%s: raw %x", in, b.Raw)
		}
		if enc, _ := b.MarshalCBOR(); bytes.Equal(enc, data) {
			t.Errorf("%s: the test input is the encoding itself", in)
		}
	}
	// In a block: the tagged block's bytes from its tag, the body's own.
	var b raw.Block
	in := mustHex(t, "d9051483"+"01"+"81"+"9f800060ff"+"f6")
	if err := b.UnmarshalCBOR(in); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), in) || !bytes.Equal(b.Bodies[0].Raw, mustHex(t, "9f800060ff")) {
		t.Errorf("block %x, body %x", b.Bytes(), b.Bodies[0].Raw)
	}
}

// TestRawLargeStream: a body of a large memo (within the limits: 100 MB
// in the full run, 3 MiB under -short) read from a stream keeps all its
// bytes while the buffer is refilled and moved, and the next item
// decodes after it.
func TestRawLargeStream(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 5))
	v := randomBlock(r, 0)
	size := 100_000_000
	if testing.Short() {
		size = 3 << 20
	}
	v.Bodies = []raw.Body{randomBody(r, size), randomBody(r, 10)}
	enc, err := v.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range []func() io.Reader{
		func() io.Reader { return bytes.NewReader(append(bytes.Clone(enc), enc...)) },
		func() io.Reader { return iotest.HalfReader(bytes.NewReader(append(bytes.Clone(enc), enc...))) },
	} {
		d := genrt.NewDecoder(rd())
		d.SetOptions(genrt.Options{MaxStringLength: 1 << 30}) // the memo is above the default 64 MiB
		for range 2 {
			var got raw.Block
			if err := got.DecodeCBOR(d); err != nil {
				t.Fatal(err)
			}
			checkRaw(t, enc, &v, &got)
		}
		if d.More() {
			t.Fatal("bytes left")
		}
	}
	// Past the string limit: refused, not kept.
	d := genrt.NewDecoder(bytes.NewReader(enc))
	d.SetOptions(genrt.Options{MaxStringLength: 1 << 20})
	var got raw.Block
	if err := got.DecodeCBOR(d); !errors.Is(err, genrt.ErrLimit) {
		t.Fatalf("%v, want ErrLimit", err)
	}
}

// TestRawMutated: every mutated encoding decodes or fails without a panic,
// over a slice and a one-byte stream alike; what decodes holds the bytes
// it was read from, each body bytes that decode to the body alone.
func TestRawMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 6))
	n := 200
	if testing.Short() {
		n = 30
	}
	for range n {
		v := randomBlock(r, 5)
		enc, _ := v.MarshalCBOR()
		for cut := range len(enc) {
			var x raw.Block
			if err := x.UnmarshalCBOR(enc[:cut]); err == nil {
				t.Fatalf("%x cut at %d decoded", enc, cut)
			}
		}
		for i := range enc {
			m := bytes.Clone(enc)
			m[i] ^= byte(1 << r.IntN(8))
			var a, b raw.Block
			errA := a.UnmarshalCBOR(m)
			errB := b.DecodeCBOR(genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(m))))
			if errA != nil {
				continue
			}
			if errB != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("%x: slice %+v, stream %+v, %v", m, a, b, errB)
			}
			if !bytes.Equal(a.Bytes(), m) {
				t.Fatalf("%x: block bytes %x", m, a.Bytes())
			}
			for _, body := range a.Bodies {
				var alone raw.Body
				if !bytes.Contains(m, body.Raw) || alone.UnmarshalCBOR(body.Raw) != nil || !reflect.DeepEqual(alone, body) {
					t.Fatalf("%x: body bytes %x decode to %+v, want %+v", m, body.Raw, alone, body)
				}
			}
		}
	}
}
