package genrt

import (
	"math"
	"math/big"
)

// AppendBigInt appends x as fxamacker/cbor writes a big.Int by default: a
// CBOR integer when it fits one (-2^64 to 2^64-1), else a bignum, tag 2
// (positive) or 3 (negative, holding -1-x) around the big-endian bytes.
func AppendBigInt(dst []byte, x *big.Int) []byte {
	if x.IsUint64() {
		return AppendUint(dst, x.Uint64())
	}
	if x.IsInt64() {
		return AppendInt(dst, x.Int64())
	}
	neg := x.Sign() < 0
	m := new(big.Int).Abs(x)
	if neg {
		m.Sub(m, bigOne) // -1-x
		if m.IsUint64() {
			return AppendHead(dst, MajorNeg, m.Uint64())
		}
		dst = AppendTag(dst, 3)
	} else {
		dst = AppendTag(dst, 2)
	}
	return AppendBytes(dst, m.Bytes())
}

var bigOne = big.NewInt(1)

// SizeBigInt reports an upper bound of the length of what AppendBigInt
// writes for x: a tag, a head and the magnitude's bytes.
func SizeBigInt(x *big.Int) int { return 1 + 9 + (x.BitLen()+7)/8 }

// AppendBytesOf appends a byte string holding b, a slice of a named byte
// type (type Kind uint8): fxamacker/cbor writes every slice whose element
// kind is uint8 as a byte string.
func AppendBytesOf[E ~uint8](dst []byte, b []E) []byte {
	return AppendBytes(dst, asBytes(b))
}

// Major types of RFC 8949 §3.1, as the three high bits of an initial byte
// hold them (unshifted).
const (
	MajorUint   byte = 0
	MajorNeg    byte = 1
	MajorBytes  byte = 2
	MajorText   byte = 3
	MajorArray  byte = 4
	MajorMap    byte = 5
	MajorTag    byte = 6
	MajorSimple byte = 7
)

// Initial bytes of the simple values and floats.
const (
	byteFalse     = 0xf4
	byteTrue      = 0xf5
	byteNull      = 0xf6
	byteUndefined = 0xf7
	byteFloat16   = 0xf9
	byteFloat32   = 0xfa
	byteFloat64   = 0xfb
	byteBreak     = 0xff
	byteSimple8   = 0xf8 // a simple value in two bytes
)

// AppendHead appends the shortest head of the given major type with
// argument n.
func AppendHead(dst []byte, major byte, n uint64) []byte {
	m := major << 5
	switch {
	case n < 24:
		return append(dst, m|byte(n))
	case n <= math.MaxUint8:
		return append(dst, m|24, byte(n))
	case n <= math.MaxUint16:
		return append(dst, m|25, byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		return append(dst, m|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	default:
		return append(dst, m|27, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}

// SizeHead reports how many bytes AppendHead writes for argument n.
func SizeHead(n uint64) int {
	switch {
	case n < 24:
		return 1
	case n <= math.MaxUint8:
		return 2
	case n <= math.MaxUint16:
		return 3
	case n <= math.MaxUint32:
		return 5
	default:
		return 9
	}
}

// AppendUint appends v as an unsigned integer (major type 0).
func AppendUint(dst []byte, v uint64) []byte {
	if v < 24 {
		return append(dst, byte(v))
	}
	return appendUint(dst, v)
}

// appendUint is AppendHead for an unsigned integer of 24 or more: the
// major type is 0, so the head byte is the width code alone.
func appendUint(dst []byte, v uint64) []byte {
	switch {
	case v <= math.MaxUint8:
		return append(dst, 24, byte(v))
	case v <= math.MaxUint16:
		return append(dst, 25, byte(v>>8), byte(v))
	case v <= math.MaxUint32:
		return append(dst, 26, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	default:
		return append(dst, 27, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32),
			byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
	}
}

// AppendInt appends v as an unsigned (v >= 0) or negative (v < 0) integer.
// Small enough to be inlined for the one-byte values 0 to 23.
func AppendInt(dst []byte, v int64) []byte {
	if uint64(v) < 24 {
		return append(dst, byte(v))
	}
	return appendInt(dst, v)
}

// appendInt is AppendInt in one call for both signs: s is all ones when
// v < 0, and v ^ s is then -1-v; the major type (1 or 0) is bit 5 of s.
// It writes the head itself (appendHead's switch) rather than calling it.
func appendInt(dst []byte, v int64) []byte {
	s := uint64(v >> 63)
	m, n := byte(s)&(MajorNeg<<5), uint64(v)^s
	switch {
	case n < 24:
		return append(dst, m|byte(n))
	case n <= math.MaxUint8:
		return append(dst, m|24, byte(n))
	case n <= math.MaxUint16:
		return append(dst, m|25, byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		return append(dst, m|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	default:
		return append(dst, m|27, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}

// AppendBool appends true (f5) or false (f4).
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, byteTrue)
	}
	return append(dst, byteFalse)
}

// AppendNull appends null (f6), the encoding of nil pointers, slices and maps.
func AppendNull(dst []byte) []byte { return append(dst, byteNull) }

// AppendUndefined appends undefined (f7).
func AppendUndefined(dst []byte) []byte { return append(dst, byteUndefined) }

// AppendString appends s as a text string. The caller guarantees UTF-8;
// Go strings that are not valid UTF-8 are written as they are, as
// fxamacker/cbor does.
func AppendString(dst []byte, s string) []byte {
	dst = AppendHead(dst, MajorText, uint64(len(s)))
	return append(dst, s...)
}

// AppendTextHead appends the head of a text string of n bytes, in line
// for the one-byte heads of strings below 24 bytes. Generated code writes
// a string as append(AppendTextHead(dst, len(s)), s...), which the
// compiler inlines whole, where AppendString calls AppendHead for every
// head. For generated code.
func AppendTextHead(dst []byte, n int) []byte {
	if uint(n) < 24 {
		return append(dst, 0x60|byte(n))
	}
	return AppendHead(dst, MajorText, uint64(n))
}

// AppendBytes appends b as a byte string. A nil b is written as an empty
// byte string; generated code writes null for nil slices itself.
func AppendBytes(dst []byte, b []byte) []byte {
	dst = AppendHead(dst, MajorBytes, uint64(len(b)))
	return append(dst, b...)
}

// AppendBytesOrNull appends b as a byte string, or null when b is nil, as
// fxamacker/cbor writes a []byte: a field of that type in one call.
func AppendBytesOrNull(dst []byte, b []byte) []byte {
	if b == nil {
		return append(dst, byteNull)
	}
	return AppendBytes(dst, b)
}

// AppendArrayHead appends the head of an array of n elements.
func AppendArrayHead(dst []byte, n int) []byte { return AppendHead(dst, MajorArray, uint64(n)) }

// AppendMapHead appends the head of a map of n pairs.
func AppendMapHead(dst []byte, n int) []byte { return AppendHead(dst, MajorMap, uint64(n)) }

// AppendTag appends the head of tag number tag; the tag content follows.
func AppendTag(dst []byte, tag uint64) []byte { return AppendHead(dst, MajorTag, tag) }

// AppendFloat64 appends f in the shortest of float16, float32 and float64
// that keeps its value exactly, NaN as f97e00 and infinities as float16:
// the preferred serialization of RFC 8949 §4.2.2 that fxamacker/cbor's
// CoreDetEncOptions writes.
func AppendFloat64(dst []byte, f float64) []byte {
	if f != f {
		return append(dst, byteFloat16, 0x7e, 0x00)
	}
	f32 := float32(f)
	if float64(f32) != f {
		b := math.Float64bits(f)
		return append(dst, byteFloat64, byte(b>>56), byte(b>>48), byte(b>>40), byte(b>>32),
			byte(b>>24), byte(b>>16), byte(b>>8), byte(b))
	}
	return appendFloat32(dst, f32)
}

// AppendFloat32 appends f as AppendFloat64 does: float16 when exact,
// otherwise float32.
func AppendFloat32(dst []byte, f float32) []byte {
	if f != f {
		return append(dst, byteFloat16, 0x7e, 0x00)
	}
	return appendFloat32(dst, f)
}

func appendFloat32(dst []byte, f float32) []byte {
	if h, ok := float16Exact(math.Float32bits(f)); ok {
		return append(dst, byteFloat16, byte(h>>8), byte(h))
	}
	b := math.Float32bits(f)
	return append(dst, byteFloat32, byte(b>>24), byte(b>>16), byte(b>>8), byte(b))
}

// float16Exact converts the bits of a non-NaN float32 to IEEE 754 binary16
// bits when that conversion loses nothing (subnormal halves included).
func float16Exact(b uint32) (uint16, bool) {
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xff)
	mant := b & 0x7fffff
	switch {
	case exp == 0xff: // infinity (NaN is handled by the callers)
		return sign | 0x7c00, true
	case exp == 0 && mant == 0: // ±0
		return sign, true
	case exp == 0: // float32 subnormals are far below the half range
		return 0, false
	}
	e := exp - 127 // unbiased exponent
	switch {
	case e > 15:
		return 0, false
	case e >= -14: // normal half: 10 mantissa bits
		if mant&0x1fff != 0 {
			return 0, false
		}
		return sign | uint16(e+15)<<10 | uint16(mant>>13), true
	case e >= -24: // subnormal half: value = m * 2^-24 with m < 1024
		full := mant | 0x800000 // 24 significant bits
		shift := uint(13 + (-14 - e))
		if full&(1<<shift-1) != 0 {
			return 0, false
		}
		return sign | uint16(full>>shift), true
	}
	return 0, false
}

// float16ToFloat64 converts binary16 bits to a float64.
func float16ToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(mant, -24)
	case 0x1f:
		if mant == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(1024+mant, exp-25)
}
