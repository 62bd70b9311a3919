package genrt

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// tryInputs returns every input of one and two bytes, and strings and
// arrays of every short length followed by filler.
func tryInputs() [][]byte {
	var in [][]byte
	filler := bytes.Repeat([]byte{0xff}, 9)
	for a := 0; a < 256; a++ {
		in = append(in, []byte{byte(a)})
		for b := 0; b < 256; b++ {
			in = append(in, []byte{byte(a), byte(b)}, []byte{byte(a), byte(b), 0})
		}
	}
	in = append(in, numberInputs()...)
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
			// With non-ASCII bytes after them, which the word-at-a-time
			// checks load and must mask off.
			in = append(in, append(bytes.Clone(bad), filler...), append(bytes.Clone(two), filler...))
		}
		in = append(in, append(bytes.Clone(ascii), filler...))
		// Byte strings, with the short head and the one-byte length.
		bs := append([]byte{0x40 + byte(n)}, bytes.Repeat([]byte{0xff}, n)...)
		in = append(in, bs, bs[:len(bs)/2], append([]byte{0x58, byte(n)}, bs[1:]...))
		arr := append([]byte{0x80 + byte(n)}, bytes.Repeat([]byte{0}, n)...)
		in = append(in, arr, arr[:len(arr)/2])
		// Maps of n pairs, whole, cut short, and with a two-byte head.
		m := append([]byte{0xa0 + byte(n)}, bytes.Repeat([]byte{0}, 2*n)...)
		in = append(in, m, m[:len(m)/2], append([]byte{0xb8, byte(n)}, m[1:]...))
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
		{MaxMapPairs: 2},
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
			checkInts(t, in, mk, check)
			d := mk()
			f, ok := d.TryFloat64()
			check("TryFloat64", ok, math.Float64bits(f), d, func(r *Decoder) (any, error) {
				f, err := r.ReadFloat64()
				return math.Float64bits(f), err
			})
			d = mk()
			f32, ok := d.TryFloat32()
			check("TryFloat32", ok, math.Float32bits(f32), d, func(r *Decoder) (any, error) {
				f, err := r.ReadFloat32()
				return math.Float32bits(f), err
			})
			d = mk()
			b, ok := d.TryBool()
			check("TryBool", ok, b, d, func(r *Decoder) (any, error) { return r.ReadBool() })
			d = mk()
			null, ok := d.TryNull()
			check("TryNull", ok, null, d, func(r *Decoder) (any, error) { return r.ReadNull() })
			d = mk()
			s, ok := d.TryString()
			check("TryString", ok, s, d, func(r *Decoder) (any, error) { return r.ReadString() })
			d = mk()
			pairs, ok := d.TryMapHead()
			check("TryMapHead", ok, pairs, d, func(r *Decoder) (any, error) { return r.ReadMapHead() })
			for n := 0; n < 24; n++ {
				d = mk()
				ok = d.TryArrayHead(n)
				check("TryArrayHead", ok, n, d, func(r *Decoder) (any, error) { return r.ReadArrayHead() })
			}
			for n := 0; n < 4; n++ {
				dst := make([]byte, n)
				d = mk()
				ok = d.TryByteArray(dst)
				check("TryByteArray", ok, string(dst), d, func(r *Decoder) (any, error) {
					got := make([]byte, n)
					err := r.ReadByteArray(got)
					return string(got), err
				})
			}
			checkKind(t, in, o)
			if d := mk(); d.PeekIsArray() != (len(in) > 0 && in[0]>>5 == MajorArray) {
				t.Fatalf("PeekIsArray(% x) wrong", in)
			}
			if d := mk(); d.PeekIsMap() != (len(in) > 0 && in[0]>>5 == MajorMap) || d.Offset() != 0 {
				t.Fatalf("PeekIsMap(% x) wrong", in)
			}
		}
	}
}

// checkKind checks that TryKind, on in and on in followed by eight zero
// bytes (TryKind wants nine buffered), consumes nothing and, when it
// reports ok, returns what PeekKind returns.
func checkKind(t *testing.T, in []byte, o Options) {
	t.Helper()
	for _, b := range [][]byte{in, append(bytes.Clone(in), make([]byte, 8)...)} {
		d := NewBytesDecoder(b)
		d.SetOptions(o)
		k, ok := d.TryKind()
		if d.off != 0 {
			t.Fatalf("TryKind(% x) consumed %d bytes", b, d.off)
		}
		if !ok {
			continue
		}
		r := NewBytesDecoder(b)
		r.SetOptions(o)
		if want, err := r.PeekKind(); err != nil || want != k {
			t.Fatalf("TryKind(% x) = %+v; PeekKind: %+v, %v", b, k, want, err)
		}
	}
}

// checkInts checks TryUint and TryNeg, with the bound of every integer
// type, against the Read method of that type: the generated code converts
// what they return without a check.
func checkInts(t *testing.T, in []byte, mk func() *Decoder, check func(string, bool, any, *Decoder, func(*Decoder) (any, error))) {
	t.Helper()
	type intType struct {
		max  uint64
		conv func(x uint64, neg bool) any // the value as the Go type
		read func(*Decoder) (any, error)
	}
	for _, it := range []intType{
		{math.MaxUint8, func(x uint64, _ bool) any { return uint8(x) }, func(r *Decoder) (any, error) { return r.ReadUint8() }},
		{math.MaxUint16, func(x uint64, _ bool) any { return uint16(x) }, func(r *Decoder) (any, error) { return r.ReadUint16() }},
		{math.MaxUint32, func(x uint64, _ bool) any { return uint32(x) }, func(r *Decoder) (any, error) { return r.ReadUint32() }},
		{math.MaxUint64, func(x uint64, _ bool) any { return x }, func(r *Decoder) (any, error) { return r.ReadUint64() }},
		{math.MaxUint, func(x uint64, _ bool) any { return uint(x) }, func(r *Decoder) (any, error) { return r.ReadUint() }},
	} {
		d := mk()
		x, ok := d.TryUint(it.max)
		check("TryUint", ok, it.conv(x, false), d, it.read)
	}
	for _, it := range []intType{
		{math.MaxInt8, func(x uint64, neg bool) any {
			if neg {
				return -1 - int8(x)
			}
			return int8(x)
		}, func(r *Decoder) (any, error) { return r.ReadInt8() }},
		{math.MaxInt16, func(x uint64, neg bool) any {
			if neg {
				return -1 - int16(x)
			}
			return int16(x)
		}, func(r *Decoder) (any, error) { return r.ReadInt16() }},
		{math.MaxInt32, func(x uint64, neg bool) any {
			if neg {
				return -1 - int32(x)
			}
			return int32(x)
		}, func(r *Decoder) (any, error) { return r.ReadInt32() }},
		{math.MaxInt64, func(x uint64, neg bool) any {
			if neg {
				return -1 - int64(x)
			}
			return int64(x)
		}, func(r *Decoder) (any, error) { return r.ReadInt64() }},
		{math.MaxInt, func(x uint64, neg bool) any {
			if neg {
				return -1 - int(x)
			}
			return int(x)
		}, func(r *Decoder) (any, error) { return r.ReadInt() }},
	} {
		d := mk()
		x, ok := d.TryUint(it.max)
		check("TryUint(signed)", ok, it.conv(x, false), d, it.read)
		d = mk()
		x, ok = d.TryNeg(it.max)
		check("TryNeg", ok, it.conv(x, true), d, it.read)
	}
}

// numberInputs returns integer and float heads of every width with
// arguments at and around the edges of every integer type, alone (fewer
// than 9 bytes) and followed by filler.
func numberInputs() [][]byte {
	var in [][]byte
	edges := []uint64{0, 1, 23, 24, 25, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
		math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64}
	for _, major := range []byte{MajorUint, MajorNeg} {
		for _, x := range edges {
			for _, ai := range []byte{24, 25, 26, 27} { // every width that holds x, shortest or not
				w := 1 << (ai - 24)
				if w < 8 && x>>(8*w) != 0 {
					continue
				}
				h := []byte{major<<5 | ai}
				for i := w - 1; i >= 0; i-- {
					h = append(h, byte(x>>(8*i)))
				}
				in = append(in, h, append(bytes.Clone(h), make([]byte, 9)...))
			}
			if x < 24 {
				in = append(in, append([]byte{major<<5 | byte(x)}, make([]byte, 9)...))
			}
		}
	}
	for _, f := range []uint64{0, 0x3ff0000000000000, 0x7ff0000000000000, 0x7ff8000000000001, 0xfff4000000000000, 0x47efffffe0000000, 0x47f0000000000000} {
		h := binary.BigEndian.AppendUint64([]byte{byteFloat64}, f)
		in = append(in, h, append(h, 0))
	}
	for _, f := range []uint32{0, 0x3f800000, 0x7f800000, 0x7fc00001, 0x7fa00000, 0xff7fffff} {
		h := binary.BigEndian.AppendUint32([]byte{byteFloat32}, f)
		in = append(in, h, append(h, make([]byte, 4)...), h[:3])
	}
	return in
}

// TestTryOnStream checks that the Try methods fall back (consume nothing)
// on a stream whose bytes have not arrived yet.
func TestTryOnStream(t *testing.T) {
	d := NewDecoder(bytes.NewReader([]byte{0x01, 0xf5, 0xf6, 0x61, 'a', 0x80}))
	if _, ok := d.TryUint(math.MaxUint64); ok {
		t.Fatal("TryUint read from an empty buffer")
	}
	if _, ok := d.TryNull(); ok {
		t.Fatal("TryNull answered from an empty buffer")
	}
	if _, ok := d.TryMapHead(); ok || d.TryArrayHead(0) || d.PeekIsArray() || d.PeekIsMap() {
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
		d.TryUint(math.MaxUint64)
		d.TryNeg(math.MaxInt64)
		d.TryBool()
		d.TryNull()
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

// TestTryWide checks that the integer and float fast paths do take heads
// of every width when 9 bytes are buffered (TestTryAgreesWithRead checks
// only that what they take is right).
func TestTryWide(t *testing.T) {
	pad := make([]byte, 8)
	for _, c := range []struct {
		in   []byte
		neg  bool
		want uint64
	}{
		{[]byte{0x17}, false, 23},
		{[]byte{0x18, 0xff}, false, 255},
		{[]byte{0x19, 0x12, 0x34}, false, 0x1234},
		{[]byte{0x1a, 0x12, 0x34, 0x56, 0x78}, false, 0x12345678},
		{[]byte{0x1b, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0}, false, 0x123456789abcdef0},
		{[]byte{0x3a, 0x00, 0x01, 0x86, 0x9f}, true, 99999},
	} {
		d := NewBytesDecoder(append(bytes.Clone(c.in), pad...))
		try := d.TryUint
		if c.neg {
			try = d.TryNeg
		}
		if x, ok := try(math.MaxUint64); !ok || x != c.want || d.off != len(c.in) {
			t.Errorf("% x: %d, %v at %d", c.in, x, ok, d.off)
		}
	}
	d := NewBytesDecoder(append([]byte{byteFloat64, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0}, pad...))
	if f, ok := d.TryFloat64(); !ok || f != 1.5 || d.off != 9 {
		t.Errorf("TryFloat64: %v, %v", f, ok)
	}
	d = NewBytesDecoder([]byte{byteFloat32, 0x3f, 0xc0, 0, 0})
	if f, ok := d.TryFloat32(); !ok || f != 1.5 || d.off != 5 {
		t.Errorf("TryFloat32: %v, %v", f, ok)
	}
}

// TestTryInlinable checks that the compiler inlines every Try method: one
// that grew past the inliner's budget would become a call, and the
// generated decoders would lose what the Try methods are for. It checks
// definiteString too, the fast path inlined into the string reads.
func TestTryInlinable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "build", "-gcflags=-m", "-o", os.DevNull, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range []string{"TryUint", "TryNeg", "TryFloat64", "TryFloat32", "TryBool", "TryNull", "TryString", "TryByteArray", "TryArrayHead", "TryMapHead", "TryKind", "PeekIsArray", "PeekIsMap", "NextIsArray", "NextIsMap", "definiteString"} {
		if !regexp.MustCompile(`can inline \(\*Decoder\)\.` + name + `\b`).Match(out) {
			t.Errorf("(*Decoder).%s is not inlinable", name)
		}
	}
}

// TestStringFastPaths checks that the fast paths of ReadString, ReadBytes
// and ReadByteArray (definiteString and validUTF8) accept only what their
// general paths accept, with the same value and offset, on every input of
// TestTryAgreesWithRead under the same options.
func TestStringFastPaths(t *testing.T) {
	opts := []Options{
		DefaultOptions(),
		{Strict: true},
		{MaxStringLength: 3, MaxArrayElements: 3, MaxDepth: 1},
		{MaxMapPairs: 2},
	}
	for _, o := range opts {
		for _, in := range tryInputs() {
			mk := func() *Decoder {
				d := NewBytesDecoder(in)
				d.SetOptions(o)
				return d
			}
			d, slow := mk(), mk()
			s, err := d.ReadString()
			want, werr := slow.readStringSlow("")
			if (err == nil) != (werr == nil) || s != want || d.off != slow.off {
				t.Fatalf("ReadString(% x) %+v = %q, %v at %d; general path: %q, %v at %d", in, o, s, err, d.off, want, werr, slow.off)
			}
			d, slow = mk(), mk()
			b, err := d.ReadBytes(nil)
			wb, werr := slow.readBytesSlow(nil)
			if (err == nil) != (werr == nil) || !bytes.Equal(b, wb) || d.off != slow.off {
				t.Fatalf("ReadBytes(% x) %+v = % x, %v at %d; general path: % x, %v at %d", in, o, b, err, d.off, wb, werr, slow.off)
			}
			if len(in) > 1 && in[0]>>5 == MajorBytes {
				// Whatever ReadByteArray takes, ReadBytes's general path
				// takes too, with the same bytes and offset.
				for _, n := range []int{int(in[0] & 0x1f), int(in[1])} {
					dst, d, r := make([]byte, n), mk(), mk()
					if d.ReadByteArray(dst) != nil {
						continue
					}
					wb, err := r.readBytesSlow(nil)
					want := make([]byte, n) // another length: cut or zero-filled
					copy(want, wb)
					if err != nil || !bytes.Equal(dst, want) || r.off != d.off {
						t.Fatalf("ReadByteArray(% x) %+v = % x at %d; general path: % x, %v at %d", in, o, dst, d.off, wb, err, r.off)
					}
				}
			}
		}
	}
}

// TestValidUTF8 checks the word-at-a-time ASCII check against utf8.Valid
// on strings of every length to 40 with one byte of every value at every
// position.
func TestValidUTF8(t *testing.T) {
	for n := 0; n <= 40; n++ {
		b := bytes.Repeat([]byte{'a'}, n)
		if !validUTF8(b) {
			t.Fatalf("validUTF8(%q) = false", b)
		}
		for i := 0; i < n; i++ {
			for c := 0x80; c < 0x100; c++ {
				b[i] = byte(c)
				if validUTF8(b) != utf8.Valid(b) {
					t.Fatalf("validUTF8(% x) = %v", b, !utf8.Valid(b))
				}
				if i+1 < n {
					b[i+1] = 0xa9
					if validUTF8(b) != utf8.Valid(b) {
						t.Fatalf("validUTF8(% x) = %v", b, !utf8.Valid(b))
					}
					b[i+1] = 'a'
				}
			}
			b[i] = 'a'
		}
	}
}

// TestTryStringEveryByteChecked puts a byte that is not ASCII at every
// position of texts of 0-26 bytes, followed by 0-20 bytes of padding
// (ASCII or not), and checks that TryString takes only what ReadString
// takes, with the same value and offset, under options that bound or
// turn off its fast path, and that it takes every ASCII text of up to 23
// bytes (a one-byte head) when 17 bytes are buffered and the text is
// whole. Inputs cut inside the text are TestTryStringCut's.
func TestTryStringEveryByteChecked(t *testing.T) {
	opts := []Options{DefaultOptions(), {MaxStringLength: 3}, {MaxStringLength: 10}, {ZeroCopy: true}}
	for _, o := range opts {
		for n := 0; n <= 26; n++ {
			for bad := -1; bad < n; bad++ {
				for pad := 0; pad <= 20; pad++ {
					for _, fill := range []byte{'a', 0x80, 0xff} {
						in := textWithBadByte(n, bad, pad, fill)
						d, r := NewBytesDecoder(in), NewBytesDecoder(in)
						d.SetOptions(o)
						r.SetOptions(o)
						s, ok := d.TryString()
						want, err := r.ReadString()
						if ok && (err != nil || s != want || d.off != r.off) {
							t.Fatalf("%+v: TryString(% x) = %q at %d; ReadString: %q, %v at %d", o, in, s, d.off, want, err, r.off)
						}
						if !ok && d.off != 0 {
							t.Fatalf("%+v: TryString(% x) failed and consumed %d bytes", o, in, d.off)
						}
						fast := bad < 0 && n <= 23 && len(in) >= 17 && n <= o.withDefaults().MaxStringLength && !o.ZeroCopy
						if fast != ok {
							t.Fatalf("%+v: TryString(% x): took it %v, want %v", o, in, ok, fast)
						}
					}
				}
			}
		}
	}
}

// TestTryTextEveryByteChecked is TestTryStringEveryByteChecked for
// TryText, which also takes short ASCII text under ZeroCopy, as a view of
// the input; over a stream, ZeroCopy or not, it copies as TryString does.
// It needs 25 bytes buffered: its window of three words and the byte
// after it, which it copies with the text.
func TestTryTextEveryByteChecked(t *testing.T) {
	opts := []Options{DefaultOptions(), {MaxStringLength: 3}, {ZeroCopy: true}, {ZeroCopy: true, MaxStringLength: 10}}
	for _, o := range opts {
		for _, stream := range []bool{false, true} {
			for n := 0; n <= 26; n++ {
				for bad := -1; bad < n; bad++ {
					for pad := 0; pad <= 20; pad += 4 {
						in := textWithBadByte(n, bad, pad, 0)
						d, r := NewBytesDecoder(in), NewBytesDecoder(in)
						if stream {
							d, r = NewDecoder(bytes.NewReader(in)), NewDecoder(bytes.NewReader(in))
							d.PeekMajor() // buffer what the reader holds
						}
						d.SetOptions(o)
						r.SetOptions(o)
						s, ok := d.TryText()
						want, err := r.ReadString()
						if ok && (err != nil || s != want || d.Offset() != r.Offset()) {
							t.Fatalf("%+v stream %v: TryText(% x) = %q at %d; ReadString: %q, %v at %d", o, stream, in, s, d.Offset(), want, err, r.Offset())
						}
						if !ok && d.Offset() != 0 {
							t.Fatalf("%+v stream %v: TryText(% x) failed and consumed %d bytes", o, stream, in, d.Offset())
						}
						fast := bad < 0 && n <= 23 && len(in) >= 25 && n <= o.withDefaults().MaxStringLength
						if fast != ok {
							t.Fatalf("%+v stream %v: TryText(% x): took it %v, want %v", o, stream, in, ok, fast)
						}
						if view := ok && n > 0 && unsafe.StringData(s) == &in[1]; view != (ok && n > 0 && o.ZeroCopy && !stream) {
							t.Fatalf("%+v stream %v: TryText(% x): a view of the input %v", o, stream, in, view)
						}
					}
				}
			}
		}
	}
}

// textWithBadByte is the encoding of a text of n letters whose byte at
// bad (none if bad is -1) is not ASCII, followed by pad bytes fill.
func textWithBadByte(n, bad, pad int, fill byte) []byte {
	in := AppendHead(nil, MajorText, uint64(n))
	for i := 0; i < n; i++ {
		c := byte('a' + i%26)
		if i == bad {
			c = 0x80 | byte(i)
		}
		in = append(in, c)
	}
	for i := 0; i < pad; i++ {
		in = append(in, fill)
	}
	return in
}

// TestTryStringCut gives TryString texts of 0-23 bytes cut after every
// byte, with at least 17 bytes buffered: it must fail and consume
// nothing, as ReadString reports the text cut short.
func TestTryStringCut(t *testing.T) {
	for n := 0; n <= 23; n++ {
		in := AppendHead(nil, MajorText, uint64(n))
		for i := 0; i < n; i++ {
			in = append(in, byte('a'+i))
		}
		for cut := 17; cut < len(in); cut++ {
			d := NewBytesDecoder(in[:cut:cut])
			if s, ok := d.TryString(); ok || d.off != 0 {
				t.Fatalf("TryString(% x) = %q, %v at %d; want a failure that consumes nothing", in[:cut], s, ok, d.off)
			}
			if _, err := NewBytesDecoder(in[:cut:cut]).ReadString(); err == nil {
				t.Fatalf("ReadString(% x) read a text cut short", in[:cut])
			}
		}
	}
}

// TestTryByteArrayLengths checks TryByteArray against ReadByteArray on byte
// strings of 0-30 bytes read into arrays of 0-30 bytes, whole and cut
// short, under default options and a MaxStringLength of 5.
func TestTryByteArrayLengths(t *testing.T) {
	for _, o := range []Options{DefaultOptions(), {MaxStringLength: 5}} {
		for n := 0; n <= 30; n++ {
			in := AppendHead(nil, MajorBytes, uint64(n))
			for i := 0; i < n; i++ {
				in = append(in, byte(0xa0+i))
			}
			for cut := 0; cut <= len(in); cut++ {
				for m := 0; m <= 30; m++ {
					d, r := NewBytesDecoder(in[:cut]), NewBytesDecoder(in[:cut])
					d.SetOptions(o)
					r.SetOptions(o)
					got, want := make([]byte, m), make([]byte, m)
					ok := d.TryByteArray(got)
					err := r.ReadByteArray(want)
					if ok && (err != nil || !bytes.Equal(got, want) || d.off != r.off) {
						t.Fatalf("%+v: TryByteArray(% x) into %d bytes = % x at %d; ReadByteArray: % x, %v at %d", o, in[:cut], m, got, d.off, want, err, r.off)
					}
					if !ok && d.off != 0 {
						t.Fatalf("%+v: TryByteArray(% x) failed and consumed", o, in[:cut])
					}
					if fast := m == n && m < 24 && cut == len(in) && n <= o.withDefaults().MaxStringLength; ok != fast {
						t.Fatalf("%+v: TryByteArray(% x) into %d bytes: took it %v, want %v", o, in[:cut], m, ok, fast)
					}
				}
			}
		}
	}
}

// TestAppendIntHeads checks AppendInt and AppendUint against AppendHead on
// both sides of every head width, for both signs.
func TestAppendIntHeads(t *testing.T) {
	for _, m := range []uint64{0, 1, 22, 23, 24, 25, 254, 255, 256, 65534, 65535, 65536, 1<<32 - 1, 1 << 32, 1<<63 - 2, 1<<63 - 1, 1 << 63, 1<<64 - 1} {
		if got, want := AppendUint([]byte{9}, m), AppendHead([]byte{9}, MajorUint, m); !bytes.Equal(got, want) {
			t.Errorf("AppendUint(%d) = % x, want % x", m, got, want)
		}
		if m >= 1<<63 {
			continue
		}
		if got, want := AppendInt([]byte{9}, int64(m)), AppendHead([]byte{9}, MajorUint, m); !bytes.Equal(got, want) {
			t.Errorf("AppendInt(%d) = % x, want % x", m, got, want)
		}
		if got, want := AppendInt([]byte{9}, -1-int64(m)), AppendHead([]byte{9}, MajorNeg, m); !bytes.Equal(got, want) {
			t.Errorf("AppendInt(%d) = % x, want % x", -1-int64(m), got, want)
		}
	}
}

// TestAppendTextHead: a string written as append(AppendTextHead(dst,
// len(s)), s...) is AppendString's bytes, on both sides of every head width.
func TestAppendTextHead(t *testing.T) {
	for _, n := range []int{0, 1, 22, 23, 24, 25, 254, 255, 256, 65535, 65536} {
		s := strings.Repeat("x", n)
		if got, want := append(AppendTextHead([]byte{9}, n), s...), AppendString([]byte{9}, s); !bytes.Equal(got, want) {
			t.Errorf("AppendTextHead(%d) writes % x, want % x", n, got[:min(len(got), 6)], want[:min(len(want), 6)])
		}
	}
	for _, n := range []int{1<<32 - 1, 1 << 32} {
		if got, want := AppendTextHead(nil, n), AppendHead(nil, MajorText, uint64(n)); !bytes.Equal(got, want) {
			t.Errorf("AppendTextHead(%d) = % x, want % x", n, got, want)
		}
	}
}

// TestTryTextCopies decodes a long run of short texts and byte strings
// from one input, keeping every result, then overwrites the input and
// writes into each byte slice and the byte of room after it: every text
// and every byte string still holds what was read. TryText copies text
// of up to 23 bytes as the 24 bytes that start where it starts, into the
// block's bytes not handed out yet; this checks that those writes never
// reach a string or slice handed out before, across text blocks.
func TestTryTextCopies(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var in []byte
	var texts []string
	var blobs [][]byte
	kinds := make([]bool, 3000) // true: a text
	for i := range kinds {
		kinds[i] = rng.Intn(4) != 0
		n := rng.Intn(24)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte('a' + rng.Intn(26))
		}
		if kinds[i] {
			texts = append(texts, string(b))
			in = AppendString(in, string(b))
		} else {
			blobs = append(blobs, b)
			in = AppendBytes(in, b)
		}
	}
	in = append(in, make([]byte, 25)...) // so that the last items take the fast paths too
	d := NewBytesDecoder(in)
	var gotTexts []string
	var gotBlobs [][]byte
	for _, text := range kinds {
		if text {
			s, ok := d.TryText()
			if !ok {
				var err error
				if s, err = d.ReadString(); err != nil {
					t.Fatal(err)
				}
			}
			gotTexts = append(gotTexts, s)
		} else {
			b, err := d.ReadBytes(nil)
			if err != nil {
				t.Fatal(err)
			}
			gotBlobs = append(gotBlobs, b)
		}
	}
	for i := range in {
		in[i] = 0xee
	}
	for _, b := range gotBlobs {
		for j := range b {
			b[j] ^= 0x20 // upper case
		}
		if cap(b) > len(b) {
			_ = append(b, '!') // the byte of room
		}
	}
	for i, s := range gotTexts {
		if s != texts[i] {
			t.Fatalf("text %d is %q, want %q", i, s, texts[i])
		}
	}
	for i, b := range gotBlobs {
		if want := bytes.ToUpper(blobs[i]); !bytes.Equal(b, want) {
			t.Fatalf("byte string %d is %q, want %q", i, b, want)
		}
	}
}
