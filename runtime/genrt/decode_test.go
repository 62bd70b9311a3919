package genrt_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// bigIntLike holds an integer in [-2^64, 2^64-1] as sign and magnitude.
type bigIntLike struct {
	neg bool
	mag uint64 // for neg: the value is -1-mag, as CBOR major type 1 stores it
}

func (b bigIntLike) encode() []byte {
	if b.neg {
		return genrt.AppendHead(nil, genrt.MajorNeg, b.mag)
	}
	return genrt.AppendUint(nil, b.mag)
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
		read   func(d *genrt.Decoder) (int64, error)
	}
	type unsignedRead struct {
		name string
		hi   uint64
		read func(d *genrt.Decoder) (uint64, error)
	}
	signed := []signedRead{
		{"int8", math.MinInt8, math.MaxInt8, func(d *genrt.Decoder) (int64, error) { v, err := d.ReadInt8(); return int64(v), err }},
		{"int16", math.MinInt16, math.MaxInt16, func(d *genrt.Decoder) (int64, error) { v, err := d.ReadInt16(); return int64(v), err }},
		{"int32", math.MinInt32, math.MaxInt32, func(d *genrt.Decoder) (int64, error) { v, err := d.ReadInt32(); return int64(v), err }},
		{"int64", math.MinInt64, math.MaxInt64, func(d *genrt.Decoder) (int64, error) { return d.ReadInt64() }},
		{"int", math.MinInt, math.MaxInt, func(d *genrt.Decoder) (int64, error) { v, err := d.ReadInt(); return int64(v), err }},
	}
	unsigned := []unsignedRead{
		{"uint8", math.MaxUint8, func(d *genrt.Decoder) (uint64, error) { v, err := d.ReadUint8(); return uint64(v), err }},
		{"uint16", math.MaxUint16, func(d *genrt.Decoder) (uint64, error) { v, err := d.ReadUint16(); return uint64(v), err }},
		{"uint32", math.MaxUint32, func(d *genrt.Decoder) (uint64, error) { v, err := d.ReadUint32(); return uint64(v), err }},
		{"uint64", math.MaxUint64, func(d *genrt.Decoder) (uint64, error) { return d.ReadUint64() }},
		{"uint", math.MaxUint, func(d *genrt.Decoder) (uint64, error) { v, err := d.ReadUint(); return uint64(v), err }},
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
				} else if !errors.Is(err, genrt.ErrRange) {
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
				} else if !errors.Is(err, genrt.ErrRange) {
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
	for _, h := range []string{"6161", "4100", "80", "a0", "f4", "f93c00", "c66161"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadInt64(); !errors.Is(err, genrt.ErrType) {
				t.Errorf("%s ReadInt64(%s) = %v, want ErrType", k.name, h, err)
			}
			if _, err := k.new(mustHex(h)).ReadUint8(); !errors.Is(err, genrt.ErrType) {
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
				if !errors.Is(err, genrt.ErrRange) {
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
			if _, err := k.new(mustHex(h)).ReadFloat64(); !errors.Is(err, genrt.ErrRange) {
				t.Errorf("%s ReadFloat64(%s) = %v, want ErrRange", k.name, h, err)
			}
		}
	}
	for _, h := range []string{"6161", "f4", "80", "4100", "c66161"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadFloat64(); !errors.Is(err, genrt.ErrType) {
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
		got, err := genrt.NewBytesDecoder(data).ReadFloat64()
		if err != nil {
			t.Fatalf("ReadFloat64(%x): %v", data, err)
		}
		want := halfToFloat(uint16(h))
		if !sameFloat(got, want) {
			t.Fatalf("ReadFloat64(%x) = %v, want %v", data, got, want)
		}
		enc := genrt.AppendFloat64(nil, got)
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
		for _, h := range []string{"00", "01", "f0"} {
			if _, err := k.new(mustHex(h)).ReadBool(); !errors.Is(err, genrt.ErrType) {
				t.Errorf("%s ReadBool(%s) = %v, want ErrType", k.name, h, err)
			}
		}
	}
}
