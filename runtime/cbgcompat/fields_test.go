package cbgcompat

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// filIntBytes is go-state-types' big.Int.Bytes: empty for zero, else a
// sign byte and the magnitude.
func filIntBytes(x *big.Int) []byte {
	switch x.Sign() {
	case 0:
		return []byte{}
	case 1:
		return append([]byte{0}, x.Bytes()...)
	}
	return append([]byte{1}, x.Bytes()...)
}

// paddedReaders is readers, and beside them the buffer with 8 bytes
// before data, read from data's start: FilInt reads a short value with
// a load of 8 bytes that takes some before it where the buffer has them.
func paddedReaders(data []byte) map[string]func() (*Decoder, bool) {
	rs := readers(data)
	rs["bytes after 8"] = func() (*Decoder, bool) {
		d := NewBytesDecoder(append(bytes.Repeat([]byte{0xa5}, 8), data...))
		d.pos = 8
		return d, true
	}
	return rs
}

// TestFilInt: AppendFilInt writes a byte string of filIntBytes, refused
// past FilIntMax bytes, and FilInt reads back the same value, over a
// buffer and over readers.
func TestFilInt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	values := []*big.Int{nil, new(big.Int), big.NewInt(1), big.NewInt(-1), big.NewInt(255), big.NewInt(-256)}
	for bits := range 1030 {
		x := new(big.Int).Lsh(big.NewInt(1), uint(bits))
		values = append(values, x, new(big.Int).Sub(x, big.NewInt(1)), new(big.Int).Neg(x))
	}
	for range 2000 {
		buf := make([]byte, r.IntN(140))
		for i := range buf {
			buf[i] = byte(r.Uint32())
		}
		x := new(big.Int).SetBytes(buf)
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		values = append(values, x)
	}
	for _, x := range values {
		var want []byte
		if x != nil {
			want = filIntBytes(x)
		}
		got, err := AppendFilInt([]byte{0xee}, x)
		if len(want) > FilIntMax {
			if err == nil || !strings.Contains(err.Error(), "too long") || len(got) != 1 {
				t.Fatalf("%v: %x, %v; want it refused", x, got, err)
			}
			continue
		}
		if err != nil || got[0] != 0xee || !bytes.Equal(got[1:], AppendBytes(nil, want)) {
			t.Fatalf("%v: %x, %v; want ee%x", x, got, err, AppendBytes(nil, want))
		}
		for name, mk := range paddedReaders(got[1:]) {
			d, _ := mk()
			back, err := d.FilInt()
			if err != nil || back == nil || (x == nil && back.Sign() != 0) || (x != nil && back.Cmp(x) != 0) {
				t.Fatalf("%s: %x read as %v, %v; want %v", name, got[1:], back, err, x)
			}
			d.Release(nil)
		}
	}
}

// TestFilIntRefusals: what go-state-types' UnmarshalCBOR refuses.
func TestFilIntRefusals(t *testing.T) {
	long := func(n int, sign byte) string {
		return "58" + strings.Repeat("0", 2-len(big.NewInt(int64(n)).Text(16))) + big.NewInt(int64(n)).Text(16) + "0" + string('0'+sign) + strings.Repeat("a5", n-1)
	}
	for _, c := range []struct{ in, err, want string }{
		{"40", "", "0"},
		{"4100", "", "0"},
		{"4101", "", "0"},
		{"43000001", "", "1"},
		{"43010102", "", "-258"},
		{long(128, 0), "", ""},
		{long(128, 1), "", ""},
		{long(129, 0), "too long", ""},
		{"4202ff", "prefix should be either 0 or 1, got 2", ""},
		{"6100", "not a byte string (3)", ""},
		{"f6", "not a byte string (7)", ""},
		{"5f4100ff", "invalid header", ""},
		{"581700", "not canonical", ""},
		{"4300", "unexpected EOF", ""},
		{"", "EOF", ""},
	} {
		for name, mk := range paddedReaders(unhex(t, c.in)) {
			d, _ := mk()
			x, err := d.FilInt()
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("%s %s: %v, %v; want an error with %q", name, c.in, x, err, c.err)
			case c.err == "" && err != nil:
				t.Errorf("%s %s: %v", name, c.in, err)
			case c.want != "" && x.String() != c.want:
				t.Errorf("%s %s: %v, want %s", name, c.in, x, c.want)
			}
			d.Release(nil)
		}
	}
}

// TestFilIntWords: a value read into the words of its own allocation is
// a big.Int like any other: arithmetic on it leaves other values alone.
func TestFilIntWords(t *testing.T) {
	d := NewBytesDecoder(unhex(t, "49 00 ffffffffffffffff 49 00 0000000000000001"))
	d.ints, d.words, d.nints, d.nwords = nil, nil, 0, 0 // not the blocks of an earlier decode
	a, err := d.FilInt()
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.FilInt()
	if err != nil {
		t.Fatal(err)
	}
	if made := len(d.ints); made != intBlock || d.nints != 2 {
		t.Errorf("a block of %d big.Ints made over 20 bytes, %d taken", made, d.nints)
	}
	// 2 words and 20/2 more, 88 bytes: the allocation's size class (96
	// bytes) gives one more.
	if made := len(d.words); made != 12 || d.nwords != 2 {
		t.Errorf("a block of %d words made over 20 bytes, %d taken", made, d.nwords)
	}
	d.Release(nil)
	a.Add(a, big.NewInt(1))
	a.Lsh(a, 300)
	if b.String() != "1" || a.Cmp(new(big.Int).Lsh(big.NewInt(1), 364)) != 0 {
		t.Fatalf("a %v, b %v", a, b)
	}
}

// TestFilIntZeros: zeros come from the block too, as many as the input
// can hold, each a big.Int of its own.
func TestFilIntZeros(t *testing.T) {
	d := NewBytesDecoder(unhex(t, "40 40 4100"))
	d.ints, d.words, d.nints, d.nwords = nil, nil, 0, 0
	var xs []*big.Int
	for range 3 {
		x, err := d.FilInt()
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, x)
	}
	if len(d.ints)-d.nints != 1 || len(d.words) != 0 {
		t.Errorf("blocks of %d big.Ints and %d words left over 4 bytes", len(d.ints)-d.nints, len(d.words))
	}
	d.Release(nil)
	xs[0].SetInt64(7)
	xs[1].SetInt64(-9)
	if xs[0].String() != "7" || xs[1].String() != "-9" || xs[2].Sign() != 0 {
		t.Fatalf("%v", xs)
	}
}

// TestScalars: the scalar reads, their refusals and messages.
func TestScalars(t *testing.T) {
	d := NewBytesDecoder(unhex(t, "1bffffffffffffffff 18ff 3b7fffffffffffffff f5 f4 1901 00"))
	if v, err := d.Uint64(); v != 1<<64-1 || err != nil {
		t.Errorf("Uint64: %d %v", v, err)
	}
	if v, err := d.Uint8(); v != 255 || err != nil {
		t.Errorf("Uint8: %d %v", v, err)
	}
	if v, err := d.Int64(); v != -1<<63 || err != nil {
		t.Errorf("Int64: %d %v", v, err)
	}
	if v, err := d.Bool(); !v || err != nil {
		t.Errorf("Bool: %v %v", v, err)
	}
	if v, err := d.Bool(); v || err != nil {
		t.Errorf("Bool: %v %v", v, err)
	}
	if _, err := d.Uint8(); err == nil || !strings.Contains(err.Error(), "too large for uint8") {
		t.Errorf("Uint8 of 256: %v", err)
	}
	d.Release(nil)
	for _, c := range []struct {
		in, err string
		read    func(d *Decoder) error
	}{
		{"20", "wrong type for uint64 field", func(d *Decoder) error { _, err := d.Uint64(); return err }},
		{"20", "wrong type for uint8 field", func(d *Decoder) error { _, err := d.Uint8(); return err }},
		{"1b8000000000000000", "int64 positive overflow", func(d *Decoder) error { _, err := d.Int64(); return err }},
		{"3b8000000000000000", "int64 negative overflow", func(d *Decoder) error { _, err := d.Int64(); return err }},
		{"40", "wrong type for int64 field: 2", func(d *Decoder) error { _, err := d.Int64(); return err }},
		{"f6", "value 20 or 21 (got 22)", func(d *Decoder) error { _, err := d.Bool(); return err }},
		{"01", "booleans must be major type 7", func(d *Decoder) error { _, err := d.Bool(); return err }},
		{"6100", "address unmarshal was not byte string", func(d *Decoder) error { _, err := d.AddressBytes(); return err }},
		{"5841" + strings.Repeat("00", 65), "too many bytes", func(d *Decoder) error { _, err := d.AddressBytes(); return err }},
		{"", "EOF", func(d *Decoder) error { _, err := d.Uint64(); return err }},
	} {
		d := NewBytesDecoder(unhex(t, c.in))
		if err := c.read(d); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.in, err, c.err)
		}
		d.Release(nil)
	}
	if b, err := AppendAddress(nil, nil); err != ErrUndefinedAddress || len(b) != 0 {
		t.Errorf("AppendAddress of Undef: %x %v", b, err)
	}
	if b, _ := AppendAddress(nil, []byte{0, 1}); !bytes.Equal(b, []byte{0x42, 0, 1}) {
		t.Errorf("AppendAddress: %x", b)
	}
}

// TestTextOrBytes: what it takes (short heads in their shortest form, at
// most max bytes, valid UTF-8 for text) and that it reads nothing of
// what it leaves.
func TestTextOrBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		text bool
		want string
	}{
		{"60", true, true, ""},
		{"40", true, false, ""},
		{"6161", true, true, "a"},
		{"62c3a9", true, true, "é"},
		{"4200ff", true, false, "\x00\xff"},
		{"7818" + strings.Repeat("61", 24), true, true, strings.Repeat("a", 24)},
		{"5818" + strings.Repeat("00", 24), true, false, strings.Repeat("\x00", 24)},
		{"62c328", false, false, ""},        // not UTF-8
		{"7801" + "61", false, false, ""},   // not shortest
		{"790018" + "61", false, false, ""}, // a head of three bytes
		{"7f6161ff", false, false, ""},      // indefinite
		{"6261", false, false, ""},          // not all there
		{"01", false, false, ""},
		{"f6", false, false, ""},
		{"", false, false, ""},
		{"7821" + strings.Repeat("61", 33), false, false, ""}, // over max
	} {
		in := unhex(t, c.in)
		d := NewBytesDecoder(in)
		b, text, ok := d.TextOrBytes(32)
		switch {
		case ok != c.ok || text != c.text:
			t.Errorf("%s: ok %v text %v, want %v %v", c.in, ok, text, c.ok, c.text)
		case !ok && d.Pos() != 0:
			t.Errorf("%s: left but read %d bytes", c.in, d.Pos())
		case ok && d.Pos() != len(in):
			t.Errorf("%s: read %d bytes of %d", c.in, d.Pos(), len(in))
		case ok && (string(b) != c.want || b == nil):
			t.Errorf("%s: %q, want %q", c.in, b, c.want)
		}
		if ok && len(b) > 0 && &b[0] == &in[len(in)-len(b)] {
			t.Errorf("%s: the bytes are the input's, not a copy", c.in)
		}
		if ok && cap(b) != len(b) {
			t.Errorf("%s: room for %d bytes more, into what is not its own", c.in, cap(b)-len(b))
		}
		d.Release(nil)
	}
}

// TestIntsAgree: Uint64 and Int64, with their paths for short heads,
// for buffers that hold the longest head and for heads near the
// buffer's end, read what ReadHeader reads and refuse what it refuses
// (heads not in their shortest form, cut short, out of range), on every
// head length about its limits.
func TestIntsAgree(t *testing.T) {
	var ins [][]byte
	for _, maj := range []byte{0, 1, 2, 7} {
		for _, v := range []uint64{0, 23, 24, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, 1<<63 - 1, 1 << 63, 1<<64 - 1} {
			for _, w := range []int{0, 1, 2, 4, 8} {
				h := []byte{maj<<5 | map[int]byte{0: byte(v), 1: 24, 2: 25, 4: 26, 8: 27}[w]}
				if w == 0 && v >= 24 {
					continue
				}
				for i := w - 1; i >= 0; i-- {
					h = append(h, byte(v>>(8*i)))
				}
				for cut := 0; cut <= len(h); cut++ {
					// Cut, followed by a byte, and followed by nine more
					// (the longest head held).
					ins = append(ins, h[:cut], append(append([]byte(nil), h[:cut]...), 0x01),
						append(append([]byte(nil), h[:cut]...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))
				}
			}
		}
	}
	// Each input also after 1 to 9 bytes of others, read from there: a
	// head that ends the buffer with eight bytes or more before its end.
	n := len(ins)
	for pre := 1; pre <= 9; pre++ {
		for _, in := range ins[:n] {
			ins = append(ins, append(bytes.Repeat([]byte{0xa5}, pre), in...))
		}
	}
	for j, in := range ins {
		from := 0
		if j >= n {
			from = (j-n)/n + 1
		}
		ref := NewBytesDecoder(in)
		ref.MoveTo(from)
		maj, extra, herr := ref.ReadHeader()
		refPos := ref.Pos()
		ref.Release(nil)

		d := NewBytesDecoder(in)
		d.MoveTo(from)
		u, err := d.Uint64()
		if wantOK := herr == nil && maj == MajUnsignedInt; (err == nil) != wantOK || (wantOK && (u != extra || d.Pos() != refPos)) {
			t.Errorf("Uint64 %x: %d %v at %d; ReadHeader %d %d %v at %d", in, u, err, d.Pos(), maj, extra, herr, refPos)
		}
		d.Release(nil)

		d = NewBytesDecoder(in)
		d.MoveTo(from)
		i, err := d.Int64()
		wantOK := herr == nil && (maj == MajUnsignedInt || maj == MajNegativeInt) && extra <= 1<<63-1
		want := int64(extra)
		if maj == MajNegativeInt {
			want = -1 - int64(extra)
		}
		if (err == nil) != wantOK || (wantOK && (i != want || d.Pos() != refPos)) {
			t.Errorf("Int64 %x: %d %v at %d; ReadHeader %d %d %v at %d", in, i, err, d.Pos(), maj, extra, herr, refPos)
		}
		d.Release(nil)
	}
}

// TestBlocksGrow: a Decoder's first blocks of big.Ints, words and short
// strings are sized by its input; each later one is twice the one before,
// up to the most, so that a Decoder kept for item after item allocates
// seldom; the values read are those of the input all along.
func TestBlocksGrow(t *testing.T) {
	want := new(big.Int).SetBytes(claimLike[9:47])
	d := &Decoder{buf: claimLike}
	var ints, words, strs []int
	note := func(sizes *[]int, n int) {
		if k := len(*sizes); k == 0 || (*sizes)[k-1] != n {
			*sizes = append(*sizes, n)
		}
	}
	text := bytes.Repeat([]byte{7}, 20)
	for range 1000 {
		d.pos = 0
		if _, n, err := d.ReadHeader(); err != nil || n != 3 {
			t.Fatal(n, err)
		}
		if _, err := d.Int64(); err != nil {
			t.Fatal(err)
		}
		raw, err := d.FilInt()
		if err != nil || raw.Cmp(want) != 0 {
			t.Fatalf("%v, %v; want %v", raw, err, want)
		}
		adj, err := d.FilInt()
		if err != nil || adj.Sign() != 0 {
			t.Fatalf("%v, %v; want 0", adj, err)
		}
		if s := d.str(text); s != string(text) {
			t.Fatalf("%q", s)
		}
		note(&ints, len(d.ints))
		note(&words, len(d.words))
		note(&strs, cap(d.strs))
	}
	// Over 48 bytes: 17 big.Ints (the most of a first block), 5 words
	// and 24 more (240 bytes, a size class), 48 bytes of strings.
	for _, c := range []struct {
		name        string
		sizes       []int
		first, most int
	}{
		{"big.Ints", ints, intBlock, maxIntBlock},
		{"words", words, 30, maxWordBlock},
		{"string bytes", strs, 48, grownStringBlock},
	} {
		if c.sizes[0] != c.first || c.sizes[len(c.sizes)-1] != c.most {
			t.Errorf("blocks of %v %s, want %d first and %d last", c.sizes, c.name, c.first, c.most)
		}
		for i := 1; i < len(c.sizes); i++ {
			if c.sizes[i] != min(2*c.sizes[i-1], c.most) {
				t.Errorf("blocks of %v %s: each should be twice the one before, up to %d", c.sizes, c.name, c.most)
				break
			}
		}
	}
}

// TestFilIntLeadingZeros: a magnitude with leading zero bytes, which
// go-state-types' UnmarshalCBOR takes (big.Int.SetBytes), gives the
// value without them, every length and count of zeros, over a buffer
// and over readers; arithmetic on one leaves the next alone.
func TestFilIntLeadingZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for m := 1; m <= 40; m++ {
		for zeros := 0; zeros <= m; zeros++ {
			mag := make([]byte, m)
			for i := zeros; i < m; i++ {
				mag[i] = byte(r.Uint32())
			}
			if zeros < m && mag[zeros] == 0 {
				mag[zeros] = 1
			}
			want := new(big.Int).SetBytes(mag)
			sign := byte(r.IntN(2))
			if sign == 1 {
				want.Neg(want)
			}
			in := append(AppendHeader(nil, MajByteString, uint64(m+1)), sign)
			in = append(append(in, mag...), 0x42, 0x00, 0x01) // and a 1 after it
			for name, mk := range paddedReaders(in) {
				d, _ := mk()
				x, err := d.FilInt()
				if err != nil || x.Cmp(want) != 0 {
					t.Fatalf("%s % x: %v, %v; want %v", name, in, x, err, want)
				}
				y, err := d.FilInt()
				if err != nil || y.Cmp(big.NewInt(1)) != 0 {
					t.Fatalf("%s % x: then %v, %v; want 1", name, in, y, err)
				}
				x.Add(x, big.NewInt(1))
				x.Lsh(x, 200)
				if y.Cmp(big.NewInt(1)) != 0 {
					t.Fatalf("%s % x: the next value changed with the first: %v", name, in, y)
				}
				d.Release(nil)
			}
		}
	}
}
