package runtime

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

// ReadBigInt reads an integer of any size into z, as fxamacker/cbor's
// default options read into a big.Int: a CBOR integer, or a bignum (tag 2
// or 3 around a byte string). Other tags before the item are skipped; tags
// 0-3 must hold the content RFC 8949 §3.4 requires. Null and undefined set
// z to 0 (fxamacker leaves it unchanged: the same on a fresh value).
func (d *Decoder) ReadBigInt(z *big.Int) error {
	for {
		b, err := d.peek()
		if err != nil {
			return err
		}
		switch {
		case b == byteNull || b == byteUndefined:
			d.off++
			z.SetInt64(0)
			return nil
		case b>>5 == MajorUint || b>>5 == MajorNeg:
			neg, mag, _, err := d.readInt("integer")
			if err != nil {
				return err
			}
			switch {
			case !neg:
				z.SetUint64(mag)
			case mag <= math.MaxInt64:
				z.SetInt64(-1 - int64(mag))
			default:
				z.SetUint64(mag)
				z.Add(z, bigOne)
				z.Neg(z)
			}
			return nil
		case b>>5 == MajorTag:
			tag, err := d.stripTags()
			if err != nil {
				return err
			}
			if tag != 2 && tag != 3 {
				continue // fxamacker/cbor decodes the content of other tags
			}
			// A view of the input (SetBytes copies it): never the
			// scratch buffer made to alias the input, which the chunks
			// of an indefinite-length string would be written into.
			b, err := d.readBytesView()
			if err != nil {
				return err
			}
			z.SetBytes(b)
			if tag == 3 {
				z.Add(z, bigOne)
				z.Neg(z)
			}
			return nil
		}
		return d.typeError(d.Offset(), b, "integer or bignum")
	}
}
