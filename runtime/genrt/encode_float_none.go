package genrt

import "math"

// AppendFloat64Full appends f as a float64, always 9 bytes, except NaN
// (f97e00) and the infinities (f97c00, f9fc00): what fxamacker/cbor writes
// for a float64 with ShortestFloatNone, its default, and the NaN and
// infinity conversions of its default and CoreDetEncOptions. Generated
// code calls it under cbor-gen -float none.
func AppendFloat64Full(dst []byte, f float64) []byte {
	if f != f {
		return append(dst, byteFloat16, 0x7e, 0x00)
	}
	if math.IsInf(f, 0) {
		if f > 0 {
			return append(dst, byteFloat16, 0x7c, 0x00)
		}
		return append(dst, byteFloat16, 0xfc, 0x00)
	}
	b := math.Float64bits(f)
	return append(dst, byteFloat64, byte(b>>56), byte(b>>48), byte(b>>40), byte(b>>32),
		byte(b>>24), byte(b>>16), byte(b>>8), byte(b))
}

// AppendFloat32Full appends f as a float32, always 5 bytes, except NaN
// and the infinities, which are float16 as in AppendFloat64Full.
func AppendFloat32Full(dst []byte, f float32) []byte {
	if f != f {
		return append(dst, byteFloat16, 0x7e, 0x00)
	}
	if math.IsInf(float64(f), 0) {
		if f > 0 {
			return append(dst, byteFloat16, 0x7c, 0x00)
		}
		return append(dst, byteFloat16, 0xfc, 0x00)
	}
	b := math.Float32bits(f)
	return append(dst, byteFloat32, byte(b>>24), byte(b>>16), byte(b>>8), byte(b))
}
