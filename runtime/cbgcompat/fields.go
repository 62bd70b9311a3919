package cbgcompat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"unicode/utf8"
)

// The reads of one field each: the head, its major type and its range
// checked as whyrusleeping/cbor-gen's generated code checks them, with
// its messages. Generated code calls them instead of repeating the
// checks per field.

// Uint64 reads an unsigned integer.
func (d *Decoder) Uint64() (uint64, error) {
	if p := d.buf[d.pos:]; len(p) > 0 {
		switch c := p[0]; {
		case c < 24:
			d.pos++
			return uint64(c), nil
		case c == 24 && len(p) >= 2 && p[1] >= 24:
			d.pos += 2
			return uint64(p[1]), nil
		case c == 25 && len(p) >= 3:
			if v := binary.BigEndian.Uint16(p[1:]); v > math.MaxUint8 {
				d.pos += 3
				return uint64(v), nil
			}
		case c == 26 && len(p) >= 5:
			if v := binary.BigEndian.Uint32(p[1:]); v > math.MaxUint16 {
				d.pos += 5
				return uint64(v), nil
			}
		case c == 27 && len(p) >= 9:
			if v := binary.BigEndian.Uint64(p[1:]); v > math.MaxUint32 {
				d.pos += 9
				return v, nil
			}
		}
	}
	maj, extra, err := d.ReadHeader()
	if err != nil {
		return 0, err
	}
	if maj != MajUnsignedInt {
		return 0, errors.New("wrong type for uint64 field")
	}
	return extra, nil
}

// Uint8 reads an unsigned integer of at most 255.
func (d *Decoder) Uint8() (uint8, error) {
	maj, extra, err := d.ReadHeader()
	if err != nil {
		return 0, err
	}
	if maj != MajUnsignedInt {
		return 0, errors.New("wrong type for uint8 field")
	}
	if extra > math.MaxUint8 {
		return 0, errors.New("integer in input was too large for uint8 field")
	}
	return uint8(extra), nil
}

// Int64 reads an unsigned or negative integer that fits an int64.
func (d *Decoder) Int64() (int64, error) {
	if p := d.buf[d.pos:]; len(p) > 0 && p[0] < 0x40 {
		// Either integer, its head in its shortest form and all there.
		var v uint64
		n := 0
		switch c := p[0] & 0x1f; {
		case c < 24:
			v, n = uint64(c), 1
		case c == 24 && len(p) >= 2 && p[1] >= 24:
			v, n = uint64(p[1]), 2
		case c == 25 && len(p) >= 3:
			if v = uint64(binary.BigEndian.Uint16(p[1:])); v > math.MaxUint8 {
				n = 3
			}
		case c == 26 && len(p) >= 5:
			if v = uint64(binary.BigEndian.Uint32(p[1:])); v > math.MaxUint16 {
				n = 5
			}
		case c == 27 && len(p) >= 9:
			if v = binary.BigEndian.Uint64(p[1:]); v > math.MaxUint32 && v <= math.MaxInt64 {
				n = 9
			}
		}
		if n > 0 {
			d.pos += n
			if p[0] >= 0x20 {
				return -1 - int64(v), nil
			}
			return int64(v), nil
		}
	}
	maj, extra, err := d.ReadHeader()
	if err != nil {
		return 0, err
	}
	switch maj {
	case MajUnsignedInt:
		if extra > math.MaxInt64 {
			return 0, errors.New("int64 positive overflow")
		}
		return int64(extra), nil
	case MajNegativeInt:
		if extra > math.MaxInt64 {
			return 0, errors.New("int64 negative overflow")
		}
		return -1 - int64(extra), nil
	}
	return 0, fmt.Errorf("wrong type for int64 field: %d", maj)
}

// Bool reads false (f4) or true (f5).
func (d *Decoder) Bool() (bool, error) {
	maj, extra, err := d.ReadHeader()
	if err != nil {
		return false, err
	}
	if maj != MajOther {
		return false, errors.New("booleans must be major type 7")
	}
	switch extra {
	case 20:
		return false, nil
	case 21:
		return true, nil
	}
	return false, fmt.Errorf("booleans are either major type 7, value 20 or 21 (got %d)", extra)
}

// FilIntMax is the longest encoding of a
// github.com/filecoin-project/go-state-types/big.Int, sign byte
// included: its BigIntMaxSerializedLen, which the generator checks.
const FilIntMax = 128

// AppendFilInt appends x as go-state-types' big.Int.MarshalCBOR writes
// the big.Int{Int: x} that holds it: a byte string, empty for zero (and
// for nil), else a sign byte (0 positive, 1 negative) and the magnitude
// big-endian, refused when longer than FilIntMax.
func AppendFilInt(dst []byte, x *big.Int) ([]byte, error) {
	if x == nil || x.Sign() == 0 {
		return append(dst, MajByteString<<5), nil
	}
	n := (x.BitLen() + 7) / 8
	if n+1 > FilIntMax {
		return dst, fmt.Errorf("big integer byte array too long (%d bytes)", n+1)
	}
	dst = AppendHeader(dst, MajByteString, uint64(n+1))
	if x.Sign() < 0 {
		dst = append(dst, 1)
	} else {
		dst = append(dst, 0)
	}
	return appendMagnitude(dst, x.Bits(), n), nil
}

// appendMagnitude appends the magnitude held in the little-endian words
// ws big-endian in n bytes, n covering its highest non-zero byte: a word
// at a time, where big.Int's FillBytes goes a byte at a time.
func appendMagnitude(dst []byte, ws []big.Word, n int) []byte {
	const wb = bits.UintSize / 8
	top := (n - 1) / wb
	for k := (n-1)%wb + 1; k > 0; k-- {
		dst = append(dst, byte(ws[top]>>(8*(k-1))))
	}
	for i := top - 1; i >= 0; i-- {
		if wb == 8 {
			dst = binary.BigEndian.AppendUint64(dst, uint64(ws[i]))
		} else {
			dst = binary.BigEndian.AppendUint32(dst, uint32(ws[i]))
		}
	}
	return dst
}

// The big.Ints FilInt returns, and their words, are taken from blocks,
// one allocation for many values, zero included: a value kept keeps its
// blocks alive (at most intBlock big.Ints and wordBlock words, 768 bytes
// on 64-bit platforms, and over a buffer no more than the input the
// Decoder was made over justifies). A pooled Decoder keeps what is left
// of its blocks for the next item, so a run of small items shares them.
// Each value has its own words with no room to grow into: a result that
// needs more gets new ones, as big.Int's arithmetic does. A value longer
// than wordBlock/4 words has words of its own.
const (
	intBlock  = 8
	wordBlock = 64
)

// newFilInt returns a zero big.Int of d's block.
func (d *Decoder) newFilInt() *big.Int {
	if len(d.ints) == 0 {
		n := intBlock
		if d.src == nil && len(d.buf) < n {
			n = len(d.buf) // each value takes at least a byte
		}
		d.ints = make([]big.Int, n)
	}
	x := &d.ints[0]
	d.ints = d.ints[1:]
	return x
}

// filWords returns nw words of d's block.
func (d *Decoder) filWords(nw int) []big.Word {
	if nw > wordBlock/4 {
		return make([]big.Word, nw)
	}
	if len(d.words) < nw {
		n := wordBlock
		if d.src == nil && nw+len(d.buf)/2 < n {
			n = nw + len(d.buf)/2
		}
		d.words = make([]big.Word, n)
	}
	ws := d.words[:nw:nw]
	d.words = d.words[nw:]
	return ws
}

// FilInt reads a github.com/filecoin-project/go-state-types/big.Int as
// its UnmarshalCBOR does and returns its Int: a byte string of at most
// FilIntMax bytes, empty for zero, else a sign byte (0 or 1) and the
// magnitude big-endian.
func (d *Decoder) FilInt() (*big.Int, error) {
	var b []byte
	p := d.buf[d.pos:]
	switch {
	case len(p) > 0 && p[0] == MajByteString<<5:
		d.pos++
		return d.newFilInt(), nil
	case len(p) > 1 && p[0] > MajByteString<<5 && p[0] < MajByteString<<5|24 && int(p[0]&0x1f) < len(p):
		// A byte string with a head of one byte, all there.
		b = p[1 : 1+p[0]&0x1f]
		d.pos += 1 + len(b)
	case len(p) > 2 && p[0] == MajByteString<<5|24 && p[1] >= 24 && p[1] <= FilIntMax && int(p[1]) < len(p)-1:
		// Of two bytes, in its shortest form.
		b = p[2 : 2+int(p[1])]
		d.pos += 2 + len(b)
	default:
		maj, extra, err := d.ReadHeader()
		if err != nil {
			return nil, err
		}
		if maj != MajByteString {
			return nil, fmt.Errorf("cbor input for fil big int was not a byte string (%x)", maj)
		}
		if extra == 0 {
			return d.newFilInt(), nil
		}
		if extra > FilIntMax {
			return nil, fmt.Errorf("big integer byte array too long (%d bytes)", extra)
		}
		if b, err = d.view(extra); err != nil {
			return nil, err
		}
	}
	if b[0] > 1 {
		return nil, fmt.Errorf("big int prefix should be either 0 or 1, got %d", b[0])
	}
	neg, mag := b[0] == 1, b[1:]
	for len(mag) > 0 && mag[0] == 0 {
		mag = mag[1:]
	}
	const wb = bits.UintSize / 8
	nw := (len(mag) + wb - 1) / wb
	x := d.newFilInt()
	if nw == 0 {
		return x, nil
	}
	ws := d.filWords(nw)
	// Whole words from the low end, then the bytes of the top one.
	i, n := 0, len(mag)
	for ; n >= wb; n -= wb {
		if wb == 8 {
			ws[i] = big.Word(binary.BigEndian.Uint64(mag[n-wb : n]))
		} else {
			ws[i] = big.Word(binary.BigEndian.Uint32(mag[n-wb : n]))
		}
		i++
	}
	if end := d.pos - len(mag) + n; n > 0 && wb == 8 && end >= 8 {
		// The top word's bytes end at end in d's buffer: a load of the
		// eight bytes there, less those before them.
		ws[i] = big.Word(binary.BigEndian.Uint64(d.buf[end-8:end]) & (1<<(8*uint(n)) - 1))
	} else if n > 0 {
		var w big.Word
		for _, c := range mag[:n] {
			w = w<<8 | big.Word(c)
		}
		ws[i] = w
	}
	x.SetBits(ws)
	if neg {
		x.Neg(x)
	}
	return x, nil
}

// AddressBytes reads a github.com/filecoin-project/go-address.Address
// as its UnmarshalCBOR does, up to the parse: a byte string of at most
// 64 bytes, which it returns, valid until the next read, for the
// caller's address.NewFromBytes.
func (d *Decoder) AddressBytes() ([]byte, error) {
	if p := d.buf[d.pos:]; len(p) > 0 && p[0] >= MajByteString<<5 && p[0] < MajByteString<<5|24 && int(p[0]&0x1f) < len(p) {
		// A byte string with a head of one byte, all there.
		d.pos += 1 + int(p[0]&0x1f)
		return p[1 : 1+p[0]&0x1f], nil
	}
	maj, extra, err := d.ReadHeader()
	if err != nil {
		return nil, err
	}
	if maj != MajByteString {
		return nil, errors.New("cbor type for address unmarshal was not byte string")
	}
	if extra > 64 {
		return nil, errors.New("too many bytes to unmarshal for an address")
	}
	return d.view(extra)
}

// ErrEmptyAddress is what go-address's UnmarshalCBOR returns for an
// empty address.
var ErrEmptyAddress = errors.New("cbor input should not contain empty addresses")

// ErrUndefinedAddress is what go-address's MarshalCBOR returns for
// address.Undef.
var ErrUndefinedAddress = errors.New("cannot marshal undefined address")

// AppendAddress appends an address's bytes (its Bytes) as go-address's
// MarshalCBOR writes them: a byte string, refused when empty (Undef).
func AppendAddress(dst []byte, a []byte) ([]byte, error) {
	if len(a) == 0 {
		return dst, ErrUndefinedAddress
	}
	return append(AppendHeader(dst, MajByteString, uint64(len(a))), a...), nil
}

// TextOrBytes reads the next item when it is a text string of valid
// UTF-8 or a byte string of at most max bytes that d holds, with a head
// of one or two bytes in its shortest form: a new slice of its contents
// (never nil), and whether it was text. Otherwise it reads nothing and
// ok is false, for the caller to read the item its own way. What a
// go-state-types DealLabel is read with in its own package.
func (d *Decoder) TextOrBytes(max uint64) (b []byte, text, ok bool) {
	p := d.buf[d.pos:]
	if len(p) == 0 {
		return nil, false, false
	}
	maj, n, h := p[0]>>5, uint64(p[0]&0x1f), 1
	if maj != MajByteString && maj != MajTextString {
		return nil, false, false
	}
	if n == 24 {
		if len(p) < 2 || p[1] < 24 {
			return nil, false, false
		}
		n, h = uint64(p[1]), 2
	} else if n > 24 {
		return nil, false, false
	}
	if n > max || n > uint64(len(p)-h) {
		return nil, false, false
	}
	v := p[h : h+int(n)]
	text = maj == MajTextString
	if text && !utf8.Valid(v) {
		return nil, false, false
	}
	d.pos += h + int(n)
	return d.blockBytes(v), text, true
}
