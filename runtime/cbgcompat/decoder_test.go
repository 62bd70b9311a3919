package cbgcompat

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readers gives data to a decoder the ways UnmarshalCBOR meets it.
func readers(data []byte) map[string]func() (*Decoder, bool) {
	return map[string]func() (*Decoder, bool){
		"bytes":        func() (*Decoder, bool) { return NewBytesDecoder(data), true },
		"bytes.Reader": func() (*Decoder, bool) { return NewDecoder(bytes.NewReader(data)) },
		"bytes.Buffer": func() (*Decoder, bool) { return NewDecoder(bytes.NewBuffer(data)) },
		"reader":       func() (*Decoder, bool) { return NewDecoder(io.MultiReader(bytes.NewReader(data))) },
		"one byte":     func() (*Decoder, bool) { return NewDecoder(iotest.OneByteReader(bytes.NewReader(data))) },
	}
}

// TestReadHeader: shortest heads only, no indefinite lengths or reserved
// additional information, over a buffer and over readers.
func TestReadHeader(t *testing.T) {
	for _, c := range []struct {
		in    string
		maj   byte
		extra uint64
		err   string
	}{
		{"17", 0, 23, ""},
		{"1818", 0, 24, ""},
		{"1817", 0, 0, "not canonical"},
		{"190100", 0, 256, ""},
		{"1900ff", 0, 0, "not canonical"},
		{"1a00010000", 0, 65536, ""},
		{"1a0000ffff", 0, 0, "not canonical"},
		{"1b0000000100000000", 0, 1 << 32, ""},
		{"1b00000000ffffffff", 0, 0, "not canonical"},
		{"9f", 0, 0, "invalid header"},
		{"1c", 0, 0, "invalid header"},
		{"f97e00", 7, 0x7e00, ""},
		{"f900ff", 0, 0, "not canonical"},
		{"19", 0, 0, "unexpected EOF"},
		{"", 0, 0, "EOF"},
	} {
		in := unhex(t, c.in)
		for _, pad := range []int{0, 8} {
			if pad > 0 && strings.Contains(c.err, "EOF") {
				continue
			}
			// Followed by more bytes, the head is read where a buffer
			// holds the longest one.
			data := append(append([]byte(nil), in...), make([]byte, pad)...)
			for name, mk := range readers(data) {
				d, _ := mk()
				maj, extra, err := d.ReadHeader()
				switch {
				case c.err == "" && (err != nil || maj != c.maj || extra != c.extra):
					t.Errorf("%s %s+%d: %d %d %v; want %d %d", name, c.in, pad, maj, extra, err, c.maj, c.extra)
				case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
					t.Errorf("%s %s+%d: %v; want an error with %q", name, c.in, pad, err, c.err)
				case c.err == "" && d.Pos() != len(in):
					t.Errorf("%s %s+%d: read %d bytes, want %d", name, c.in, pad, d.Pos(), len(in))
				}
				d.Release(nil)
			}
		}
	}
}

// TestSkip: any depth, CIDs checked, the counts added in uint64 as
// whyrusleeping/cbor-gen's ScanForLinks adds them.
func TestSkip(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"83 01 a1 61 61 80 c1 00", true},
		{"d82a 45 00 01 55 00 00", true},          // a CID: version 1, raw, identity of nothing
		{"d82a 44 00 01 55 00", false},            // cut inside its multihash
		{"d82a 40", false},                        // empty
		{"bb 8000000000000000", true},             // 2^63 pairs: counted twice, 0 in uint64
		{"9f ff", false},                          // indefinite
		{strings.Repeat("81", 2000) + "00", true}, // deep
		{"82 00", false},                          // cut short
	} {
		d := NewBytesDecoder(unhex(t, c.in))
		err := d.Skip()
		if (err == nil) != c.ok {
			t.Errorf("%s: %v; want ok %v", c.in, err, c.ok)
		}
		d.Release(nil)
	}
}

// TestLongHeadShortInput: a head that promises a long string over a
// short input, read from a reader that is not read in place (an
// io.TeeReader, a network stream), is refused with
// io.ErrUnexpectedEOF, having allocated about what the input holds, not
// what the head promises; a long string that is there is read whole.
func TestLongHeadShortInput(t *testing.T) {
	head := func(n int) []byte { return []byte{0x7a, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)} }
	for _, c := range []struct {
		name  string
		claim int
		read  func(*Decoder) error
	}{
		{"Skip", 64 << 20, (*Decoder).Skip},
		{"Deferred", deferredMaxBytes, func(d *Decoder) error { _, err := d.Deferred(); return err }},
	} {
		short := append(head(c.claim), "a few bytes"...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d, _ := NewDecoder(io.MultiReader(bytes.NewReader(short)))
		err := c.read(d)
		d.Release(nil)
		runtime.ReadMemStats(&after)
		if err != io.ErrUnexpectedEOF {
			t.Errorf("%s: %v; want io.ErrUnexpectedEOF", c.name, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
			t.Errorf("%s of a %d-byte input: %d bytes allocated", c.name, len(short), n)
		}

		long := append(head(c.claim), bytes.Repeat([]byte{'s'}, c.claim)...)
		d, _ = NewDecoder(iotest.HalfReader(bytes.NewReader(long)))
		if err := c.read(d); err != nil || d.Pos() != len(long) {
			t.Errorf("%s of a %d-byte string: %v at %d", c.name, c.claim, err, d.Pos())
		}
		d.Release(nil)
	}
}

// TestDeferred: a raw item of at most 8,192 elements and 2 MiB strings,
// copied.
func TestDeferred(t *testing.T) {
	in := unhex(t, "82 d82a 45 00 01 55 00 00 63 616263 00")
	d := NewBytesDecoder(in)
	raw, err := d.Deferred()
	if err != nil || !bytes.Equal(raw, in[:len(in)-1]) {
		t.Fatalf("%x, %v", raw, err)
	}
	in[1] = 0
	if raw[1] == 0 {
		t.Error("the raw item shares the input")
	}
	d.Release(nil)
	for _, bad := range []string{"99 2001", "5a 00200001"} {
		d := NewBytesDecoder(unhex(t, bad))
		if _, err := d.Deferred(); err == nil || !strings.Contains(err.Error(), "maximum") {
			t.Errorf("%s: %v", bad, err)
		}
		d.Release(nil)
	}
}

// TestReaderPosition: a decoder over a *bytes.Reader or a *bytes.Buffer
// reads it in place and moves it past what it used; over another reader
// it reads no byte past the item.
func TestReaderPosition(t *testing.T) {
	data := unhex(t, "82 01 61 61 82 02 60")
	br := bytes.NewReader(data)
	br.ReadByte()
	br.UnreadByte()
	d, owned := NewDecoder(br)
	if br.Len() != len(data) {
		t.Fatalf("NewDecoder moved the reader: %d bytes left", br.Len())
	}
	if err := d.Skip(); err != nil || !owned {
		t.Fatal(err)
	}
	if err := d.Release(nil); err != nil || br.Len() != 3 {
		t.Fatalf("%v, %d bytes left, want 3", err, br.Len())
	}
	d, _ = NewDecoder(br)
	if err := d.Skip(); err != nil {
		t.Fatal(err)
	}
	if err := d.Release(nil); err != nil || br.Len() != 0 {
		t.Fatalf("the second item: %v, %d bytes left", err, br.Len())
	}
	d, _ = NewDecoder(br)
	if _, _, err := d.ReadHeader(); err != io.EOF {
		t.Fatalf("after the last item: %v, want io.EOF", err)
	}
	d.Release(nil)
	if b, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("the reader after the end: %x %v", b, err)
	}
	buf := bytes.NewBuffer(data)
	d, _ = NewDecoder(buf)
	d.Skip()
	d.Release(nil)
	if buf.Len() != 3 {
		t.Fatalf("bytes.Buffer: %d bytes left, want 3", buf.Len())
	}
	lr := &io.LimitedReader{R: bytes.NewReader(data), N: 100}
	d, _ = NewDecoder(lr)
	d.Skip()
	d.Release(nil)
	if lr.N != 96 {
		t.Fatalf("a plain reader: %d bytes read, want 4", 100-lr.N)
	}
	// A field's own UnmarshalCBOR reads through the decoder.
	d = NewBytesDecoder(data)
	if _, owned := NewDecoder(d); owned {
		t.Error("a Decoder handed to NewDecoder is owned anew")
	}
	var two [2]byte
	if n, err := io.ReadFull(d, two[:]); n != 2 || err != nil || two != [2]byte{0x82, 0x01} {
		t.Errorf("Read: %x %v", two, err)
	}
	if err := d.UnreadByte(); err != nil {
		t.Error(err)
	}
	if b, _ := d.ReadByte(); b != 0x01 {
		t.Errorf("after UnreadByte: %x", b)
	}
	d.Release(nil)
}

// TestEndEOF: io.EOF only when the item had no byte.
func TestEndEOF(t *testing.T) {
	d, owned := NewDecoder(bytes.NewReader(nil))
	_, _, err := d.ReadHeader()
	if err := d.End(owned, 0, err); err != io.EOF {
		t.Errorf("no byte: %v", err)
	}
	d, owned = NewDecoder(bytes.NewReader([]byte{0x82}))
	d.ReadHeader()
	_, _, err = d.ReadHeader()
	if err := d.End(owned, 0, err); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut after a byte: %v", err)
	}
}

// TestAvail: over a buffer, a count the bytes left cannot hold is refused
// before anything is made for it.
func TestAvail(t *testing.T) {
	d := NewBytesDecoder([]byte{1, 2, 3})
	if d.Avail(3) != nil || d.Avail(4) == nil {
		t.Error("Avail over a buffer")
	}
	d.Release(nil)
	d, _ = NewDecoder(bytes.NewReader([]byte{9, 1, 2, 3}))
	d.ReadByte()
	if d.Avail(3) != nil || d.Avail(4) == nil {
		t.Error("Avail over a *bytes.Reader, which holds all there is")
	}
	d.Release(nil)
	d, _ = NewDecoder(io.MultiReader(bytes.NewReader(nil)))
	if d.Avail(1<<20) != nil {
		t.Error("Avail over a reader refuses what the reader may still hold")
	}
	d.Release(nil)
}

// TestStrings: short strings share blocks without sharing bytes with the
// input or with each other.
func TestStrings(t *testing.T) {
	in := unhex(t, "63 616263 63 646566 78 41 "+strings.Repeat("7a", 65))
	d := NewBytesDecoder(in)
	a, _ := d.ReadString(100)
	b, _ := d.ReadString(100)
	c, err := d.ReadString(100)
	if a != "abc" || b != "def" || len(c) != 65 || err != nil {
		t.Fatalf("%q %q %q %v", a, b, c, err)
	}
	for i := range in {
		in[i] = 0
	}
	if a != "abc" || b != "def" || c != strings.Repeat("z", 65) {
		t.Fatalf("the strings share the input: %q %q %q", a, b, c)
	}
	d.Release(nil)
	d = NewBytesDecoder(unhex(t, "63 616263"))
	if _, err := d.ReadString(2); err == nil {
		t.Error("a string past its limit")
	}
	d.Release(nil)
	d = NewBytesDecoder(unhex(t, "63 616263 63 616264"))
	if s, err := d.ReadConst(10, "abc"); s != "abc" || err != nil {
		t.Errorf("ReadConst: %q %v", s, err)
	}
	if s, err := d.ReadConst(10, "abc"); s != "abd" || err != nil {
		t.Errorf("ReadConst of another value: %q %v", s, err)
	}
	d.Release(nil)
}

// TestAppend: the heads and the CID form the writers of
// whyrusleeping/cbor-gen write.
func TestAppend(t *testing.T) {
	var b []byte
	b = AppendHeader(b, MajArray, 24)
	b = AppendInt64(b, -500)
	b = AppendString(b, "a")
	b = AppendBytes(b, []byte{1})
	b = AppendBool(b, true)
	b, err := AppendCid(b, "\x01\x55\x00\x00")
	if want := unhex(t, "9818 3901f3 6161 4101 f5 d82a 45 0001550000"); err != nil || !bytes.Equal(b, want) {
		t.Fatalf("%x, %v; want %x", b, err, want)
	}
	if _, err := AppendCid(nil, ""); !errors.Is(err, ErrUndefinedCid) {
		t.Errorf("cid.Undef: %v", err)
	}
}

// TestReaderInPlace: bytes.Reader is laid out as readerFields on this Go
// (else the window goes through WriteTo and Seek, correct and slower),
// and both ways leave a reader as reading the same bytes would: the
// same bytes left, UnreadRune refused, the next reads the same.
func TestReaderInPlace(t *testing.T) {
	if !readerInPlace {
		t.Errorf("bytes.Reader is not laid out as readerFields: the Decoder reads it through WriteTo and Seek")
	}
	defer func(v bool) { readerInPlace = v }(readerInPlace)
	// A byte before the items, read by each pre in its own way.
	data := unhex(t, "41 82 01 61 61 62 c3 a9 82 02 60")
	for _, inPlace := range []bool{false, readerInPlace} {
		readerInPlace = inPlace
		for _, pre := range []func(r *bytes.Reader){
			func(r *bytes.Reader) { r.ReadByte() },
			func(r *bytes.Reader) { r.ReadByte(); r.ReadByte(); r.UnreadByte() },
			func(r *bytes.Reader) { r.ReadRune() }, // UnreadRune would take it back
			func(r *bytes.Reader) { r.Seek(6, io.SeekStart); r.ReadRune(); r.Seek(1, io.SeekStart) },
		} {
			br, want := bytes.NewReader(data), bytes.NewReader(data)
			pre(br)
			pre(want)
			for _, n := range []int{4, 3, 3} {
				d, _ := NewDecoder(br)
				if err := d.Skip(); err != nil {
					t.Fatal(err)
				}
				if err := d.Release(nil); err != nil {
					t.Fatal(err)
				}
				io.ReadFull(want, make([]byte, n))
				if br.Len() != want.Len() || br.Size() != want.Size() || (br.UnreadRune() == nil) != (want.UnreadRune() == nil) {
					t.Fatalf("in place %v: %d bytes left, want %d", inPlace, br.Len(), want.Len())
				}
			}
			got, _ := io.ReadAll(br)
			rest, _ := io.ReadAll(want)
			if !bytes.Equal(got, rest) {
				t.Fatalf("in place %v: %x left, want %x", inPlace, got, rest)
			}
		}
	}
}

// TestBlockSize: a block of short strings made over a buffer takes no
// more memory than an allocation of the buffer's length (classFloor is
// never past the size class Go rounds such an allocation up to), and
// where that rounding leaves room for two strings, two share it, each
// with no room to grow into the other.
func TestBlockSize(t *testing.T) {
	for n := 1; n <= 2*stringBlock; n++ {
		if class := cap(append([]byte(nil), make([]byte, n)...)); classFloor(n) < n || classFloor(n) > class {
			t.Fatalf("classFloor(%d) = %d, outside [%d, %d]", n, classFloor(n), n, class)
		}
	}
	cid := bytes.Repeat([]byte{7}, 36)
	// 66 bytes, as verifreg.Allocation's: 80 with the rounding, room
	// for two CIDs of 36 bytes.
	d := NewBytesDecoder(make([]byte, 66))
	d.strs = nil
	a := d.blockBytes(cid)
	b := d.blockBytes(cid)
	if cap(d.strs) != 80 || len(d.strs) != 72 {
		t.Errorf("a block of %d bytes, %d used, over 66", cap(d.strs), len(d.strs))
	}
	if cap(a) != 36 || cap(b) != 36 || &a[0] != &d.strs[0] || &b[0] != &d.strs[36] {
		t.Errorf("the two strings are not the block's, one after the other")
	}
	d.Release(nil)
	// Over 60 bytes (64 with the rounding), each is copied on its own.
	d = NewBytesDecoder(make([]byte, 60))
	d.strs = nil
	a = d.blockBytes(cid)
	if d.strs != nil || cap(a) != 36 {
		t.Errorf("a block of %d bytes over 60, for a string of 36", cap(d.strs))
	}
	d.Release(nil)
}

// TestHead: Head moves past the byte it is given and nothing else; a
// decoder with no byte held, or another byte, stays where it was.
func TestHead(t *testing.T) {
	d := NewBytesDecoder([]byte{0x83, 0x01})
	if d.Head(0x82) || d.Pos() != 0 {
		t.Fatalf("another byte taken: at %d", d.Pos())
	}
	if !d.Head(0x83) || d.Pos() != 1 {
		t.Fatalf("its byte not taken: at %d", d.Pos())
	}
	if !d.Head(0x01) || d.Head(0x01) || d.Pos() != 2 {
		t.Fatalf("past the end: at %d", d.Pos())
	}
	if e := NewBytesDecoder(nil); e.Head(0) || e.Pos() != 0 {
		t.Fatal("an empty decoder took a byte")
	}
}
