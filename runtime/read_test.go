package runtime_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cborgen/cborgen/runtime"
)

// bigIntLike holds an integer in [-2^64, 2^64-1] as sign and magnitude.
type bigIntLike struct {
	neg bool
	mag uint64 // for neg: the value is -1-mag, as CBOR major type 1 stores it
}

func (b bigIntLike) encode() []byte {
	if b.neg {
		return runtime.AppendHead(nil, runtime.MajorNeg, b.mag)
	}
	return runtime.AppendUint(nil, b.mag)
}

// fits reports whether b lies in [lo, hi] given as signed or unsigned bounds.
func (b bigIntLike) fitsSigned(lo, hi int64) bool {
	if b.neg {
		return b.mag <= uint64(-1-lo)
	}
	return b.mag <= uint64(hi)
}

func (b bigIntLike) fitsUnsigned(hi uint64) bool { return !b.neg && b.mag <= hi }

func pos(v uint64) bigIntLike { return bigIntLike{mag: v} }

// neg(v) is the integer -v for v >= 1, written as its CBOR magnitude v-1.
func negv(v uint64) bigIntLike { return bigIntLike{neg: true, mag: v - 1} }

func TestReadIntRanges(t *testing.T) {
	type signedRead struct {
		name   string
		lo, hi int64
		read   func(d *runtime.Decoder) (int64, error)
	}
	type unsignedRead struct {
		name string
		hi   uint64
		read func(d *runtime.Decoder) (uint64, error)
	}
	signed := []signedRead{
		{"int8", math.MinInt8, math.MaxInt8, func(d *runtime.Decoder) (int64, error) { v, err := d.ReadInt8(); return int64(v), err }},
		{"int16", math.MinInt16, math.MaxInt16, func(d *runtime.Decoder) (int64, error) { v, err := d.ReadInt16(); return int64(v), err }},
		{"int32", math.MinInt32, math.MaxInt32, func(d *runtime.Decoder) (int64, error) { v, err := d.ReadInt32(); return int64(v), err }},
		{"int64", math.MinInt64, math.MaxInt64, func(d *runtime.Decoder) (int64, error) { return d.ReadInt64() }},
		{"int", math.MinInt, math.MaxInt, func(d *runtime.Decoder) (int64, error) { v, err := d.ReadInt(); return int64(v), err }},
	}
	unsigned := []unsignedRead{
		{"uint8", math.MaxUint8, func(d *runtime.Decoder) (uint64, error) { v, err := d.ReadUint8(); return uint64(v), err }},
		{"uint16", math.MaxUint16, func(d *runtime.Decoder) (uint64, error) { v, err := d.ReadUint16(); return uint64(v), err }},
		{"uint32", math.MaxUint32, func(d *runtime.Decoder) (uint64, error) { v, err := d.ReadUint32(); return uint64(v), err }},
		{"uint64", math.MaxUint64, func(d *runtime.Decoder) (uint64, error) { return d.ReadUint64() }},
		{"uint", math.MaxUint, func(d *runtime.Decoder) (uint64, error) { v, err := d.ReadUint(); return uint64(v), err }},
	}

	// Inputs: every width's boundaries and one past them, both signs.
	var inputs []bigIntLike
	for _, u := range []uint64{0, 1, 23, 24, 255, 256, math.MaxInt8, math.MaxInt8 + 1, math.MaxInt16, math.MaxInt16 + 1,
		math.MaxUint16, math.MaxUint16 + 1, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64 - 1, math.MaxUint64} {
		inputs = append(inputs, pos(u))
		if u > 0 {
			inputs = append(inputs, negv(u))
		}
	}
	inputs = append(inputs, negv(math.MaxInt8+2), negv(math.MaxInt16+2), negv(math.MaxInt32+2),
		bigIntLike{neg: true, mag: math.MaxUint64}) // -2^64

	count := 0
	for _, in := range inputs {
		data := in.encode()
		for _, k := range decoderKinds {
			for _, r := range signed {
				count++
				got, err := r.read(k.new(data))
				if in.fitsSigned(r.lo, r.hi) {
					want := int64(in.mag)
					if in.neg {
						want = -1 - int64(in.mag)
					}
					if err != nil || got != want {
						t.Errorf("%s Read %s(%x) = %d, %v; want %d", k.name, r.name, data, got, err, want)
					}
				} else if !errors.Is(err, runtime.ErrRange) {
					t.Errorf("%s Read %s(%x) = %d, %v; want ErrRange", k.name, r.name, data, got, err)
				} else if e := asError(t, err); e.Offset != 0 {
					t.Errorf("%s Read %s(%x): error offset %d, want 0", k.name, r.name, data, e.Offset)
				}
			}
			for _, r := range unsigned {
				count++
				got, err := r.read(k.new(data))
				if in.fitsUnsigned(r.hi) {
					if err != nil || got != in.mag {
						t.Errorf("%s Read %s(%x) = %d, %v; want %d", k.name, r.name, data, got, err, in.mag)
					}
				} else if !errors.Is(err, runtime.ErrRange) {
					t.Errorf("%s Read %s(%x) = %d, %v; want ErrRange", k.name, r.name, data, got, err)
				}
			}
		}
	}
	if count < 800 {
		t.Fatalf("only %d reads", count)
	}
}

func TestReadIntWrongType(t *testing.T) {
	// A tag is read through (tags_test.go); its content is what counts.
	for _, h := range []string{"6161", "4100", "80", "a0", "f4", "f6", "f93c00", "c66161", "d9d9f7f6"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadInt64(); !errors.Is(err, runtime.ErrType) {
				t.Errorf("%s ReadInt64(%s) = %v, want ErrType", k.name, h, err)
			}
			if _, err := k.new(mustHex(h)).ReadUint8(); !errors.Is(err, runtime.ErrType) {
				t.Errorf("%s ReadUint8(%s) = %v, want ErrType", k.name, h, err)
			}
		}
	}
}

func TestReadFloat(t *testing.T) {
	cases := []struct {
		hex  string
		want float64
	}{
		{"f93c00", 1},
		{"f97bff", 65504},
		{"f90001", 5.960464477539063e-8},
		{"f9fc00", math.Inf(-1)},
		{"f98000", math.Copysign(0, -1)},
		{"fa47c35000", 100000},
		{"fa3f8ccccd", float64(float32(1.1))},
		{"fa00000001", float64(math.SmallestNonzeroFloat32)},
		{"fb3ff199999999999a", 1.1},
		{"fb0000000000000001", math.SmallestNonzeroFloat64},
		{"fb7fefffffffffffff", math.MaxFloat64},
		{"00", 0},
		{"1864", 100},
		{"3863", -100},
		{"1bffffffffffffffff", float64(math.MaxUint64)},
		{"3b7fffffffffffffff", -float64(1 << 63)},
		{"c1f93c00", 1}, // tags are read through
		{"c24105", 5},   // bignums too
		{"c34105", -6},
	}
	for _, c := range cases {
		for _, k := range decoderKinds {
			d := k.new(mustHex(c.hex))
			got, err := d.ReadFloat64()
			if err != nil || !sameFloat(got, c.want) {
				t.Errorf("%s ReadFloat64(%s) = %v, %v; want %v", k.name, c.hex, got, err, c.want)
			}
			checkAtEnd(t, d, len(c.hex)/2)

			// ReadFloat32 rounds to the nearest float32 and rejects finite
			// values beyond its range with ErrRange (documented).
			got32, err := k.new(mustHex(c.hex)).ReadFloat32()
			if math.Abs(c.want) > math.MaxFloat32 && !math.IsInf(c.want, 0) {
				if !errors.Is(err, runtime.ErrRange) {
					t.Errorf("%s ReadFloat32(%s) = %v, %v; want ErrRange", k.name, c.hex, got32, err)
				}
				continue
			}
			want32 := float32(c.want)
			if err != nil || !sameFloat(float64(got32), float64(want32)) {
				t.Errorf("%s ReadFloat32(%s) = %v, %v; want %v", k.name, c.hex, got32, err, want32)
			}
		}
	}
	// NaN of every width stays NaN.
	for _, h := range []string{"f97e00", "f97c01", "fa7fc00000", "faffc00001", "fb7ff8000000000000", "fb7ff0000000000001"} {
		for _, k := range decoderKinds {
			if f, err := k.new(mustHex(h)).ReadFloat64(); err != nil || !math.IsNaN(f) {
				t.Errorf("%s ReadFloat64(%s) = %v, %v; want NaN", k.name, h, f, err)
			}
			if f, err := k.new(mustHex(h)).ReadFloat32(); err != nil || !math.IsNaN(float64(f)) {
				t.Errorf("%s ReadFloat32(%s) = %v, %v; want NaN", k.name, h, f, err)
			}
		}
	}
	// Below -2^63 an integer does not fit fxamacker's int64 step.
	for _, h := range []string{"3b8000000000000000", "3bffffffffffffffff", "c3488000000000000000", "c249010000000000000000"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadFloat64(); !errors.Is(err, runtime.ErrRange) {
				t.Errorf("%s ReadFloat64(%s) = %v, want ErrRange", k.name, h, err)
			}
		}
	}
	for _, h := range []string{"6161", "f4", "f6", "80", "c6f6", "4100", "c66161"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadFloat64(); !errors.Is(err, runtime.ErrType) {
				t.Errorf("%s ReadFloat64(%s) = %v, want ErrType", k.name, h, err)
			}
		}
	}
	// A float head cut short is truncation.
	for _, h := range []string{"f9", "f93c", "fa47c350", "fb3ff1999999"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadFloat64(); !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s ReadFloat64(%s) = %v, want io.ErrUnexpectedEOF", k.name, h, err)
			}
		}
	}
}

func TestReadFloat16AllValues(t *testing.T) {
	// Every half-precision pattern decodes to the value RFC 8949 Appendix D
	// defines, and AppendFloat64 writes it back in the same three bytes
	// (NaNs become f97e00).
	for h := 0; h < 1<<16; h++ {
		data := []byte{0xf9, byte(h >> 8), byte(h)}
		got, err := runtime.NewBytesDecoder(data).ReadFloat64()
		if err != nil {
			t.Fatalf("ReadFloat64(%x): %v", data, err)
		}
		want := halfToFloat(uint16(h))
		if !sameFloat(got, want) {
			t.Fatalf("ReadFloat64(%x) = %v, want %v", data, got, want)
		}
		enc := runtime.AppendFloat64(nil, got)
		if math.IsNaN(want) {
			if !bytes.Equal(enc, []byte{0xf9, 0x7e, 0x00}) {
				t.Fatalf("AppendFloat64(NaN from %x) = %x, want f97e00", data, enc)
			}
		} else if !bytes.Equal(enc, data) {
			t.Fatalf("AppendFloat64(%v) = %x, want %x", got, enc, data)
		}
	}
}

// halfToFloat is RFC 8949 Appendix D's decode_half, in Go.
func halfToFloat(h uint16) float64 {
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	var v float64
	switch exp {
	case 0:
		v = math.Ldexp(mant, -24)
	case 31:
		if mant == 0 {
			v = math.Inf(1)
		} else {
			v = math.NaN()
		}
	default:
		v = math.Ldexp(mant+1024, exp-25)
	}
	if h&0x8000 != 0 {
		return -v
	}
	return v
}

func TestReadString(t *testing.T) {
	for _, c := range []struct {
		hex, want string
	}{
		{"60", ""},
		{"6449455446", "IETF"},
		{"7f657374726561646d696e67ff", "streaming"},
		{"7fff", ""},
		{"7f6060ff", ""},
		{"7f62c3bc6161ff", "\u00fca"},
	} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(c.hex))
			got, err := d.ReadString()
			if err != nil || got != c.want {
				t.Errorf("%s ReadString(%s) = %q, %v; want %q", k.name, c.hex, got, err, c.want)
			}
			checkAtEnd(t, d, len(c.hex)/2)
		}
	}
}

func TestReadStringUTF8(t *testing.T) {
	for _, h := range []string{
		"61ff",         // 0xff is never UTF-8
		"61c3",         // cut-off two-byte sequence
		"62c0af",       // overlong '/'
		"63eda080",     // UTF-16 surrogate U+D800
		"64f4908080",   // beyond U+10FFFF
		"6380e6b0",     // continuation byte first
		"7f61c361bcff", // a character split across chunks (RFC 8949 §3.2.3)
		"7f616161ffff", // second chunk invalid
	} {
		data := mustHex(h)
		for _, k := range decoderKinds {
			if _, err := k.new(data).ReadString(); !errors.Is(err, runtime.ErrUTF8) {
				t.Errorf("%s ReadString(%s) = %v, want ErrUTF8", k.name, h, err)
			} else {
				asError(t, err)
			}
			if _, err := k.new(data).ReadKey(); !errors.Is(err, runtime.ErrUTF8) {
				t.Errorf("%s ReadKey(%s) = %v, want ErrUTF8", k.name, h, err)
			}
		}
		if err := runtime.Valid(data); !errors.Is(err, runtime.ErrUTF8) {
			t.Errorf("Valid(%s) = %v, want ErrUTF8", h, err)
		}
		if err := fxValid(data); err == nil {
			t.Errorf("fxamacker accepts %s", h)
		}
	}
	// Byte strings carry any bytes.
	for _, k := range decoderKinds {
		if b, err := k.new(mustHex("42ffc3")).ReadBytes(nil); err != nil || !bytes.Equal(b, []byte{0xff, 0xc3}) {
			t.Errorf("%s ReadBytes(42ffc3) = %x, %v", k.name, b, err)
		}
	}
}

func TestReadIndefiniteChunkTypes(t *testing.T) {
	bad := []string{"5f6100ff", "5f00ff", "5f5f4100ffff", "5f80ff", "5ff6ff", "5fc04100ff"}
	for _, h := range bad {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadBytes(nil); !errors.Is(err, runtime.ErrSyntax) {
				t.Errorf("%s ReadBytes(%s) = %v, want ErrSyntax", k.name, h, err)
			}
			var a [1]byte
			if err := k.new(mustHex(h)).ReadByteArray(a[:]); !errors.Is(err, runtime.ErrSyntax) {
				t.Errorf("%s ReadByteArray(%s) = %v, want ErrSyntax", k.name, h, err)
			}
		}
	}
	for _, h := range []string{"7f4100ff", "7f00ff", "7f7f6100ffff", "7ff6ff"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadString(); !errors.Is(err, runtime.ErrSyntax) {
				t.Errorf("%s ReadString(%s) = %v, want ErrSyntax", k.name, h, err)
			}
		}
	}
}

func TestReadBytes(t *testing.T) {
	for _, k := range decoderKinds {
		// The empty byte string is non-nil.
		b, err := k.new(mustHex("40")).ReadBytes(nil)
		if err != nil || b == nil || len(b) != 0 {
			t.Errorf("%s ReadBytes(40) = %#v, %v; want non-nil empty", k.name, b, err)
		}
		// Appended to buf[:0]: the old contents go, the capacity is reused.
		buf := make([]byte, 3, 16)
		copy(buf, "zzz")
		b, err = k.new(mustHex("4401020304")).ReadBytes(buf)
		if err != nil || !bytes.Equal(b, []byte{1, 2, 3, 4}) {
			t.Errorf("%s ReadBytes = %x, %v", k.name, b, err)
		} else if &b[0] != &buf[:1][0] {
			t.Errorf("%s ReadBytes did not reuse the buffer", k.name)
		}
		// Indefinite chunks are joined.
		b, err = k.new(mustHex("5f42010243030405ff")).ReadBytes(buf)
		if err != nil || !bytes.Equal(b, []byte{1, 2, 3, 4, 5}) || &b[0] != &buf[:1][0] {
			t.Errorf("%s ReadBytes(indefinite) = %x, %v", k.name, b, err)
		}
		// The result must not alias the decoder's input.
		in := mustHex("4401020304")
		b, _ = runtime.NewBytesDecoder(in).ReadBytes(nil)
		in[1] = 0xee
		if b[0] != 1 {
			t.Errorf("ReadBytes result aliases the input")
		}
	}
	// No allocation when the buffer has room.
	data := mustHex("5818" + strings.Repeat("ab", 24))
	d := runtime.NewBytesDecoder(data)
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		var err error
		if buf, err = d.ReadBytes(buf); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ReadBytes with room allocates %v times", n)
	}
}

func TestReadByteArray(t *testing.T) {
	for _, k := range decoderKinds {
		var a [4]byte
		if err := k.new(mustHex("4401020304")).ReadByteArray(a[:]); err != nil || a != [4]byte{1, 2, 3, 4} {
			t.Errorf("%s ReadByteArray(4 into 4) = %x, %v", k.name, a, err)
		}
		var c [5]byte
		if err := k.new(mustHex("5f42010243030405ff")).ReadByteArray(c[:]); err != nil || c != [5]byte{1, 2, 3, 4, 5} {
			t.Errorf("%s ReadByteArray(indefinite 5 into 5) = %x, %v", k.name, c, err)
		}
		for _, size := range []int{0, 3, 5} {
			dst := make([]byte, size)
			if err := k.new(mustHex("4401020304")).ReadByteArray(dst); !errors.Is(err, runtime.ErrLength) {
				t.Errorf("%s ReadByteArray(4 into %d) = %v, want ErrLength", k.name, size, err)
			}
		}
		if err := k.new(mustHex("5f420102ff")).ReadByteArray(make([]byte, 3)); !errors.Is(err, runtime.ErrLength) {
			t.Errorf("%s ReadByteArray(indefinite 2 into 3) = %v, want ErrLength", k.name, err)
		}
		if err := k.new(mustHex("6401020304")).ReadByteArray(a[:]); !errors.Is(err, runtime.ErrType) {
			t.Errorf("%s ReadByteArray(text) = %v, want ErrType", k.name, err)
		}
	}
}

func TestReadNull(t *testing.T) {
	for _, k := range decoderKinds {
		for _, h := range []string{"f6", "f7"} {
			d := k.new(mustHex(h))
			if ok, err := d.ReadNull(); !ok || err != nil {
				t.Errorf("%s ReadNull(%s) = %v, %v", k.name, h, ok, err)
			}
			checkAtEnd(t, d, 1)
		}
		for _, h := range []string{"00", "f4", "60", "80", "f93c00"} {
			d := k.new(mustHex(h))
			if ok, err := d.ReadNull(); ok || err != nil {
				t.Errorf("%s ReadNull(%s) = %v, %v; want false, nil", k.name, h, ok, err)
			}
			if d.Offset() != 0 {
				t.Errorf("%s ReadNull(%s) consumed %d bytes", k.name, h, d.Offset())
			}
			if err := d.Skip(); err != nil {
				t.Errorf("%s Skip after ReadNull(%s): %v", k.name, h, err)
			}
		}
		if _, err := k.new(nil).ReadNull(); err == nil {
			t.Errorf("%s ReadNull(empty) = nil error", k.name)
		}
	}
}

func TestReadBool(t *testing.T) {
	for _, k := range decoderKinds {
		d := k.new(mustHex("f5f4"))
		if v, err := d.ReadBool(); !v || err != nil {
			t.Errorf("%s ReadBool(f5) = %v, %v", k.name, v, err)
		}
		if v, err := d.ReadBool(); v || err != nil {
			t.Errorf("%s ReadBool(f4) = %v, %v", k.name, v, err)
		}
		for _, h := range []string{"00", "01", "f6", "f7", "f0"} {
			if _, err := k.new(mustHex(h)).ReadBool(); !errors.Is(err, runtime.ErrType) {
				t.Errorf("%s ReadBool(%s) = %v, want ErrType", k.name, h, err)
			}
		}
	}
}

func TestReadKey(t *testing.T) {
	// {"name": 1, 7: 2, -3: 3, (_ "a", "b"): 4}
	data := mustHex("a4 646e616d65 01 07 02 22 03 7f61616162ff 04")
	for _, k := range decoderKinds {
		d := k.new(data)
		n, err := d.ReadMapHead()
		if err != nil || n != 4 {
			t.Fatalf("%s ReadMapHead = %d, %v", k.name, n, err)
		}
		want := []runtime.Key{
			{Kind: runtime.KeyText, Text: []byte("name")},
			{Kind: runtime.KeyInt, Int: 7},
			{Kind: runtime.KeyInt, Int: -3},
			{Kind: runtime.KeyText, Text: []byte("ab")},
		}
		for i, w := range want {
			key, err := d.ReadKey()
			if err != nil {
				t.Fatalf("%s key %d: %v", k.name, i, err)
			}
			if key.Kind != w.Kind || (w.Kind == runtime.KeyText && string(key.Text) != string(w.Text)) ||
				(w.Kind == runtime.KeyInt && key.Int != w.Int) {
				t.Errorf("%s key %d = %+v, want %+v", k.name, i, key, w)
			}
			v, err := d.ReadUint64()
			if err != nil || v != uint64(i+1) {
				t.Errorf("%s value %d = %d, %v", k.name, i, v, err)
			}
		}
		d.Leave()
		checkAtEnd(t, d, len(data))
	}
	// Every small integer key, in its head alone (the fast path) and
	// beyond, read alike by every kind of decoder, strict or not, which
	// leave the decoder after the key.
	for i := int64(-30); i < 300; i++ {
		var data []byte
		if i >= 0 {
			data = runtime.AppendUint(nil, uint64(i))
		} else {
			data = runtime.AppendInt(nil, i)
		}
		for _, k := range decoderKinds {
			for _, strict := range []bool{false, true} {
				d := k.new(data)
				d.SetOptions(runtime.Options{Strict: strict})
				key, err := d.ReadKey()
				if err != nil || key.Kind != runtime.KeyInt || key.Int != i {
					t.Fatalf("%s (strict %v) ReadKey(%x) = %+v, %v; want %d", k.name, strict, data, key, err, i)
				}
				checkAtEnd(t, d, len(data))
			}
		}
	}
	// Text keys of every length up to 30, ASCII, multi-byte and not
	// UTF-8 (one byte changed at each place), followed by 0 to 20 bytes,
	// strict or not, with no limit and a limit of 5 bytes: the fast paths
	// (16 bytes checked as two words, a one-byte head) read them as the
	// general path does, and never look at the bytes after the key.
	for n := 0; n <= 30; n++ {
		for _, content := range textKeyContents(n) {
			key := runtime.AppendString(nil, content)
			for tail := 0; tail <= 20; tail += 4 {
				data := append(append([]byte(nil), key...), bytes.Repeat([]byte{0xc3}, tail)...)
				for _, k := range decoderKinds {
					for _, o := range []runtime.Options{{}, {Strict: true}, {MaxStringLength: 5}} {
						d := k.new(data)
						d.SetOptions(o)
						got, err := d.ReadKey()
						switch {
						case o.MaxStringLength != 0 && n > o.MaxStringLength:
							if !errors.Is(err, runtime.ErrLimit) {
								t.Fatalf("%s %+v ReadKey(%x) = %+v, %v; want ErrLimit", k.name, o, data, got, err)
							}
						case !utf8.ValidString(content):
							if !errors.Is(err, runtime.ErrUTF8) {
								t.Fatalf("%s %+v ReadKey(%x) = %+v, %v; want ErrUTF8", k.name, o, data, got, err)
							}
						default:
							if err != nil || got.Kind != runtime.KeyText || string(got.Text) != content {
								t.Fatalf("%s %+v ReadKey(%x) = %+v, %v; want %q", k.name, o, data, got, err, content)
							}
							if d.Offset() != int64(len(key)) {
								t.Fatalf("%s %+v ReadKey(%x) left the decoder at %d, want %d", k.name, o, data, d.Offset(), len(key))
							}
						}
					}
				}
			}
		}
	}
	// Integer keys at the int64 edges.
	for _, c := range []struct {
		hex  string
		want int64
	}{{"1b7fffffffffffffff", math.MaxInt64}, {"3b7fffffffffffffff", math.MinInt64}} {
		key, err := runtime.NewBytesDecoder(mustHex(c.hex)).ReadKey()
		if err != nil || key.Kind != runtime.KeyInt || key.Int != c.want {
			t.Errorf("ReadKey(%s) = %+v, %v; want %d", c.hex, key, err, c.want)
		}
	}
	// A key that cannot name a struct field is an error, as in
	// fxamacker/cbor: other types are ErrType, integers beyond int64
	// ErrRange, and what is not well-formed ErrSyntax.
	for _, c := range []struct {
		hex  string
		want error
	}{
		{"4101", runtime.ErrType}, {"8101", runtime.ErrType}, {"a0", runtime.ErrType},
		{"f5", runtime.ErrType}, {"f6", runtime.ErrType}, {"f93e00", runtime.ErrType}, {"c16161", runtime.ErrType},
		{"1bffffffffffffffff", runtime.ErrRange}, {"3b8000000000000000", runtime.ErrRange},
		{"ff", runtime.ErrSyntax}, {"fc", runtime.ErrSyntax}, {"5f4101ff00", runtime.ErrType},
	} {
		for _, k := range decoderKinds {
			_, err := k.new(mustHex(c.hex)).ReadKey()
			if !errors.Is(err, c.want) {
				t.Errorf("%s ReadKey(%s) = %v, want %v", k.name, c.hex, err, c.want)
			}
			asError(t, err)
		}
	}
}

func TestReadTag(t *testing.T) {
	for _, k := range decoderKinds {
		d := k.new(mustHex("c11a514b67b0 d9d9f7 00 db ffffffffffffffff 01"))
		if tag, err := d.ReadTag(); err != nil || tag != 1 {
			t.Errorf("%s ReadTag = %d, %v", k.name, tag, err)
		}
		if v, err := d.ReadUint64(); err != nil || v != 1363896240 {
			t.Errorf("%s tag content = %d, %v", k.name, v, err)
		}
		if tag, err := d.ReadTag(); err != nil || tag != 55799 {
			t.Errorf("%s ReadTag = %d, %v", k.name, tag, err)
		}
		if err := d.Skip(); err != nil {
			t.Errorf("%s Skip: %v", k.name, err)
		}
		if tag, err := d.ReadTag(); err != nil || tag != math.MaxUint64 {
			t.Errorf("%s ReadTag = %d, %v", k.name, tag, err)
		}
		if err := d.Skip(); err != nil {
			t.Errorf("%s Skip: %v", k.name, err)
		}
		if _, err := k.new(mustHex("01")).ReadTag(); !errors.Is(err, runtime.ErrType) {
			t.Errorf("%s ReadTag(01) = %v, want ErrType", k.name, err)
		}
	}
}

func TestReadBreak(t *testing.T) {
	for _, k := range decoderKinds {
		// A whole indefinite-length array is counted; Leave consumes
		// its break.
		d := k.new(mustHex("9f0102ff"))
		if n, err := d.ReadArrayHead(); err != nil || n != 2 {
			t.Fatalf("%s ReadArrayHead = %d, %v; want 2 (counted)", k.name, n, err)
		}
		for i := uint64(1); i <= 2; i++ {
			if v, err := d.ReadUint64(); v != i || err != nil {
				t.Fatalf("%s element = %d, %v", k.name, v, err)
			}
		}
		d.Leave()
		checkAtEnd(t, d, 4)

		// One that cannot be counted (cut short inside) is read to the
		// break.
		d = k.new(mustHex("9f01029f"))
		if n, err := d.ReadArrayHead(); err != nil || n != -1 {
			t.Fatalf("%s ReadArrayHead = %d, %v; want -1", k.name, n, err)
		}
		for i := uint64(1); i <= 2; i++ {
			if brk, err := d.ReadBreak(); brk || err != nil {
				t.Fatalf("%s ReadBreak before %d = %v, %v", k.name, i, brk, err)
			}
			if v, err := d.ReadUint64(); v != i || err != nil {
				t.Fatalf("%s element = %d, %v", k.name, v, err)
			}
		}
		if brk, err := d.ReadBreak(); brk || err != nil {
			t.Fatalf("%s ReadBreak before the last = %v, %v", k.name, brk, err)
		}

		// Missing break: truncated.
		d = k.new(mustHex("9f01"))
		d.ReadArrayHead()
		d.ReadBreak()
		d.ReadUint64()
		if _, err := d.ReadBreak(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s ReadBreak at end = %v, want io.ErrUnexpectedEOF", k.name, err)
		}
	}
}

func TestOptionsLimits(t *testing.T) {
	withOpts := func(k decoderKind, hex string, f func(*runtime.Options)) *runtime.Decoder {
		d := k.new(mustHex(hex))
		o := runtime.DefaultOptions()
		f(&o)
		d.SetOptions(o)
		return d
	}
	arrays := func(o *runtime.Options) { o.MaxArrayElements = 3 }
	maps := func(o *runtime.Options) { o.MaxMapPairs = 2 }
	strs := func(o *runtime.Options) { o.MaxStringLength = 4 }
	for _, k := range decoderKinds {
		// Arrays.
		if n, err := withOpts(k, "83010203", arrays).ReadArrayHead(); n != 3 || err != nil {
			t.Errorf("%s 3 elements, limit 3: %d, %v", k.name, n, err)
		}
		if _, err := withOpts(k, "8401020304", arrays).ReadArrayHead(); !errors.Is(err, runtime.ErrLimit) {
			t.Errorf("%s ReadArrayHead 4 elements, limit 3: %v", k.name, err)
		}
		for _, h := range []string{"8401020304", "9f01020304ff", "81 8401020304"} {
			if err := withOpts(k, h, arrays).Skip(); !errors.Is(err, runtime.ErrLimit) {
				t.Errorf("%s Skip(%s), limit 3: %v, want ErrLimit", k.name, h, err)
			}
		}
		if err := withOpts(k, "9f010203ff", arrays).Skip(); err != nil {
			t.Errorf("%s Skip(indefinite 3), limit 3: %v", k.name, err)
		}
		// Maps.
		if n, err := withOpts(k, "a201020304", maps).ReadMapHead(); n != 2 || err != nil {
			t.Errorf("%s 2 pairs, limit 2: %d, %v", k.name, n, err)
		}
		if _, err := withOpts(k, "a3010203040506", maps).ReadMapHead(); !errors.Is(err, runtime.ErrLimit) {
			t.Errorf("%s ReadMapHead 3 pairs, limit 2: %v", k.name, err)
		}
		for _, h := range []string{"a3010203040506", "bf010203040506ff"} {
			if err := withOpts(k, h, maps).Skip(); !errors.Is(err, runtime.ErrLimit) {
				t.Errorf("%s Skip(%s), limit 2: %v, want ErrLimit", k.name, h, err)
			}
		}
		// Strings, definite and indefinite (the limit is on the total).
		if s, err := withOpts(k, "6449455446", strs).ReadString(); s != "IETF" || err != nil {
			t.Errorf("%s 4-byte string, limit 4: %q, %v", k.name, s, err)
		}
		for _, h := range []string{"656162636465", "7f6261626263646566ff", "7f6361626363636465ff"} {
			if _, err := withOpts(k, h, strs).ReadString(); !errors.Is(err, runtime.ErrLimit) {
				t.Errorf("%s ReadString(%s), limit 4: %v, want ErrLimit", k.name, h, err)
			}
			if err := withOpts(k, h, strs).Skip(); !errors.Is(err, runtime.ErrLimit) {
				t.Errorf("%s Skip(%s), limit 4: %v, want ErrLimit", k.name, h, err)
			}
		}
		if _, err := withOpts(k, "450102030405", strs).ReadBytes(nil); !errors.Is(err, runtime.ErrLimit) {
			t.Errorf("%s ReadBytes(5 bytes), limit 4: %v, want ErrLimit", k.name, err)
		}
		if _, err := withOpts(k, "5f4301020343040506 ff", strs).ReadBytes(nil); !errors.Is(err, runtime.ErrLimit) {
			t.Errorf("%s ReadBytes(indefinite 6 bytes), limit 4: %v, want ErrLimit", k.name, err)
		}
	}
	// Zero fields take the defaults.
	d := runtime.NewBytesDecoder(nil)
	d.SetOptions(runtime.Options{})
	def := runtime.DefaultOptions()
	if def.MaxDepth != 32 || def.MaxArrayElements != 131072 || def.MaxMapPairs != 131072 || def.Strict {
		t.Errorf("DefaultOptions() = %+v", def)
	}
	big := mustHex("9a00020001" + strings.Repeat("00", 131073))
	if err := runtime.Valid(big); !errors.Is(err, runtime.ErrLimit) {
		t.Errorf("Valid(array of 131073) = %v, want ErrLimit", err)
	}
	ok := mustHex("9a00020000" + strings.Repeat("00", 131072))
	if err := runtime.Valid(ok); err != nil {
		t.Errorf("Valid(array of 131072) = %v", err)
	}
}

func TestStrict(t *testing.T) {
	strict := func(k decoderKind, h string) *runtime.Decoder {
		d := k.new(mustHex(h))
		d.SetOptions(runtime.Options{Strict: true})
		return d
	}
	// Not the shortest head: rejected strict, accepted otherwise.
	longHeads := []struct {
		hex  string
		read func(*runtime.Decoder) error
	}{
		{"1817", func(d *runtime.Decoder) error { _, err := d.ReadUint64(); return err }},
		{"190017", func(d *runtime.Decoder) error { _, err := d.ReadUint64(); return err }},
		{"1a0000ffff", func(d *runtime.Decoder) error { _, err := d.ReadUint32(); return err }},
		{"1b00000000ffffffff", func(d *runtime.Decoder) error { _, err := d.ReadInt64(); return err }},
		{"3800", func(d *runtime.Decoder) error { _, err := d.ReadInt8(); return err }},
		{"580101", func(d *runtime.Decoder) error { _, err := d.ReadBytes(nil); return err }},
		{"79000161", func(d *runtime.Decoder) error { _, err := d.ReadString(); return err }},
		{"980101", func(d *runtime.Decoder) error { _, err := d.ReadArrayHead(); return err }},
		{"b8010101", func(d *runtime.Decoder) error { _, err := d.ReadMapHead(); return err }},
		{"d80100", func(d *runtime.Decoder) error { _, err := d.ReadTag(); return err }},
		{"81 1800", func(d *runtime.Decoder) error { return d.Skip() }},
		{"81 1800", func(d *runtime.Decoder) error { _, err := d.ReadArrayHead(); return err }},
		{"a1 1800 00", func(d *runtime.Decoder) error { _, err := d.ReadMapHead(); return err }},
	}
	for _, c := range longHeads {
		for _, k := range decoderKinds {
			if err := c.read(k.new(mustHex(c.hex))); err != nil {
				t.Errorf("%s non-strict %s: %v", k.name, c.hex, err)
			}
			if err := c.read(strict(k, c.hex)); err == nil {
				t.Errorf("%s strict %s accepted", k.name, c.hex)
			} else {
				asError(t, err)
			}
		}
	}
	// Indefinite lengths.
	for _, h := range []string{"9fff", "bfff", "5fff", "7fff", "81 9fff", "a1 00 5f ff", "c1 9fff"} {
		for _, k := range decoderKinds {
			if err := k.new(mustHex(h)).Skip(); err != nil {
				t.Errorf("%s non-strict Skip(%s): %v", k.name, h, err)
			}
			if err := strict(k, h).Skip(); err == nil {
				t.Errorf("%s strict Skip(%s) accepted", k.name, h)
			}
			if err := readByFirstByte(strict(k, h)); err == nil {
				t.Errorf("%s strict typed read of %s accepted", k.name, h)
			}
		}
	}
	// Duplicate keys: a map read at the top level in strict mode is checked
	// whole before its head is returned.
	for _, h := range []string{"a2 01 00 01 00", "a2 01 00 1801 00", "a2 6161 00 6161 01", "a2 6161 00 7f6161ff 01",
		"81 a2 00 00 00 00", "bf 01 00 01 00 ff", "a2 4100 00 5f4100ff 00", "a2 f93c00 00 fa3f800000 00"} {
		for _, k := range decoderKinds {
			if err := k.new(mustHex(h)).Skip(); err != nil {
				t.Errorf("%s non-strict Skip(%s): %v", k.name, h, err)
			}
			if err := strict(k, h).Skip(); !errors.Is(err, runtime.ErrDuplicateKey) && !errors.Is(err, runtime.ErrStrict) {
				t.Errorf("%s strict Skip(%s) = %v, want ErrDuplicateKey", k.name, h, err)
			}
			if err := readByFirstByte(strict(k, h)); err == nil {
				t.Errorf("%s strict typed read of %s accepted", k.name, h)
			}
		}
	}
	// Strict accepts what CoreDet writes.
	good := []string{"a2 01 00 02 00", "a2 6161 00 6162 00", "83 1818 f93c00 6161", "c1 1a514b67b0"}
	for _, h := range good {
		for _, k := range decoderKinds {
			d := strict(k, h)
			if err := d.Skip(); err != nil {
				t.Errorf("%s strict Skip(%s): %v", k.name, h, err)
			}
			if err := readByFirstByte(strict(k, h)); err != nil {
				t.Errorf("%s strict typed read of %s: %v", k.name, h, err)
			}
		}
	}
}

// TestStrictStream reads many maps from a stream in strict mode: each map
// is checked whole before its head is returned, across buffer refills, and
// decoding then starts again at the map's first byte.
func TestStrictStream(t *testing.T) {
	var data []byte
	const maps = 400
	for i := 0; i < maps; i++ {
		data = runtime.AppendMapHead(data, 2)
		data = runtime.AppendString(data, "id")
		data = runtime.AppendUint(data, uint64(i))
		data = runtime.AppendString(data, "name")
		data = runtime.AppendString(data, strings.Repeat("n", i%50))
	}
	// The last map repeats its key: strict mode must reject it, and only it.
	bad := mustHex("a2 626964 01 626964 02")
	data = append(data, bad...)
	for _, k := range decoderKinds {
		d := k.new(data)
		d.SetOptions(runtime.Options{Strict: true})
		for i := 0; i < maps; i++ {
			n, err := d.ReadMapHead()
			if err != nil || n != 2 {
				t.Fatalf("%s map %d: %d, %v", k.name, i, n, err)
			}
			for j := 0; j < n; j++ {
				key, err := d.ReadKey()
				if err != nil || key.Kind != runtime.KeyText {
					t.Fatalf("%s map %d key %d: %+v, %v", k.name, i, j, key, err)
				}
				switch string(key.Text) {
				case "id":
					if v, err := d.ReadUint64(); v != uint64(i) || err != nil {
						t.Fatalf("%s map %d id = %d, %v", k.name, i, v, err)
					}
				case "name":
					if s, err := d.ReadString(); len(s) != i%50 || err != nil {
						t.Fatalf("%s map %d name = %q, %v", k.name, i, s, err)
					}
				default:
					t.Fatalf("%s map %d: key %q", k.name, i, key.Text)
				}
			}
			d.Leave()
		}
		start := d.Offset()
		_, err := d.ReadMapHead()
		if !errors.Is(err, runtime.ErrDuplicateKey) {
			t.Fatalf("%s: duplicate in the last map: %v", k.name, err)
		}
		if e := asError(t, err); e.Offset != start+5 {
			t.Errorf("%s: duplicate reported at %d, want %d", k.name, e.Offset, start+5)
		}
	}
}

// TestReuseClearedGrow: a slice from ReuseCleared, grown by Grow, hands out
// only zero elements, whether s was nil, too small, reused for a definite
// length or reused for an indefinite one (all of its capacity cleared), and
// when Grow goes past the capacity; a reused slice keeps its array.
func TestReuseClearedGrow(t *testing.T) {
	type elem struct {
		P *int
		N int
	}
	one := 1
	stale := func(n, c int) []elem {
		s := make([]elem, n, c)
		for i := range s[:c] {
			s[:c][i] = elem{&one, i + 1}
		}
		return s
	}
	d := runtime.NewBytesDecoder(make([]byte, 64))
	for _, tc := range []struct {
		name      string
		s         []elem
		n, grow   int
		sameArray bool
	}{
		{"nil", nil, 3, 3, false},
		{"too small", stale(2, 2), 3, 3, false},
		{"definite", stale(5, 8), 3, 3, true},
		{"definite, all", stale(8, 8), 8, 8, true},
		{"indefinite", stale(5, 8), -1, 8, true},
		{"indefinite, past the capacity", stale(5, 8), -1, 20, false},
		{"empty, indefinite", stale(0, 0), -1, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first *elem
			if cap(tc.s) > 0 {
				first = &tc.s[:1][0]
			}
			s := runtime.ReuseCleared(d, tc.s, tc.n)
			if len(s) != 0 {
				t.Fatalf("len %d after ReuseCleared", len(s))
			}
			for i := range tc.grow {
				s = runtime.Grow(s)
				if len(s) != i+1 {
					t.Fatalf("len %d after %d Grows", len(s), i+1)
				}
				if s[i] != (elem{}) {
					t.Fatalf("element %d is %+v, not zero", i, s[i])
				}
				s[i] = elem{&one, -1} // what a decoder writes
			}
			if same := first != nil && &s[0] == first; same != tc.sameArray {
				t.Errorf("kept the array: %v, want %v", same, tc.sameArray)
			}
		})
	}
}

// textKeyContents are texts of n bytes: ASCII, with a two-byte character
// where there is room, and with one byte made 0xff (not UTF-8) at each
// place in turn.
func textKeyContents(n int) []string {
	ascii := strings.Repeat("k", n)
	out := []string{ascii}
	if n >= 2 {
		out = append(out, ascii[:n-2]+"é")
	}
	for i := range n {
		b := []byte(ascii)
		b[i] = 0xff
		out = append(out, string(b))
	}
	return out
}
