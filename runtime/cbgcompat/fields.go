package cbgcompat

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// The reads of one field each: the head, its major type and its range
// checked as whyrusleeping/cbor-gen's generated code checks them, with
// its messages. Generated code calls them instead of repeating the
// checks per field.

// heads describes the heads with additional information 24+k, whose
// argument is the 1<<k bytes after the first: shift takes it from the
// eight bytes after the first read as one big-endian word, n is the
// head's length, min the least argument of its shortest form, and
// span what an int64's argument may exceed min by (math.MaxInt64-min);
// mask takes the argument from the eight bytes that end with the head.
var heads = [4]struct {
	shift, n  uint64
	min, span uint64
	mask      uint64
}{
	{56, 2, 24, math.MaxInt64 - 24, 1<<8 - 1},
	{48, 3, 1 << 8, math.MaxInt64 - 1<<8, 1<<16 - 1},
	{32, 5, 1 << 16, math.MaxInt64 - 1<<16, 1<<32 - 1},
	{0, 9, 1 << 32, math.MaxInt64 - 1<<32, 1<<64 - 1},
}

// tailHead reads, for uint64 and int64, a long head (additional
// information 24+k) whose bytes end the buffer or come near its end,
// when the buffer holds at least eight bytes up to the head's end: one
// load of the eight bytes that end there, masked. It returns the
// head's argument and length, or a length of 0 when it is cut short,
// not in its shortest form, or too near the buffer's start.
func tailHead(buf []byte, pos int, k byte) (uint64, int) {
	if k >= 4 {
		return 0, 0
	}
	h := &heads[k]
	end := pos + int(h.n)
	if end > len(buf) || end < 8 {
		return 0, 0
	}
	v := binary.BigEndian.Uint64(buf[end-8:end]) & h.mask
	if v < h.min {
		return 0, 0
	}
	return v, int(h.n)
}

// longHead returns the nine bytes at pos, the longest head, for a
// caller that checked that buf holds them (len(buf)-pos >= 9; pos is
// never past len(buf)): read without a further check of their bounds.
func longHead(buf []byte, pos int) *[9]byte {
	return (*[9]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), pos))
}

// Uint64 reads an unsigned integer. Where the buffer holds the longest
// head, a head in its shortest form is read with one load of the eight
// bytes after its first; everything else (a head cut short, the end of
// the buffer, another type, an error) by uint64.
func (d *Decoder) Uint64() (uint64, error) {
	if len(d.buf)-d.pos >= 9 {
		p := longHead(d.buf, d.pos)
		c := p[0]
		if c < 24 {
			d.pos++
			return uint64(c), nil
		}
		if k := c - 24; k < 4 {
			h := &heads[k]
			if v := binary.BigEndian.Uint64(p[1:]) >> (h.shift & 63); v >= h.min {
				d.pos += int(h.n)
				return v, nil
			}
		}
	} else if d.pos < len(d.buf) {
		// A head that ends the buffer, or nearly: the last fields of an
		// item read alone.
		if v, n := tailHead(d.buf, d.pos, d.buf[d.pos]-24); n > 0 {
			d.pos += n
			return v, nil
		}
	}
	return d.uint64()
}

func (d *Decoder) uint64() (uint64, error) {
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

// Int64 reads an unsigned or negative integer that fits an int64: as
// Uint64 reads it where the buffer holds the longest head, else by
// int64.
func (d *Decoder) Int64() (int64, error) {
	if len(d.buf)-d.pos >= 9 && longHead(d.buf, d.pos)[0] < 0x40 {
		p := longHead(d.buf, d.pos)
		// neg is all ones for a negative integer, whose value is -1-v,
		// that is ^v.
		c := p[0] & 0x1f
		neg := -int64(p[0] >> 5)
		if c < 24 {
			d.pos++
			return int64(c) ^ neg, nil
		}
		if k := c - 24; k < 4 {
			h := &heads[k]
			if v := binary.BigEndian.Uint64(p[1:]) >> (h.shift & 63); v-h.min <= h.span {
				d.pos += int(h.n)
				return int64(v) ^ neg, nil
			}
		}
	} else if d.pos < len(d.buf) && d.buf[d.pos] < 0x40 {
		// As in Uint64.
		c := d.buf[d.pos]
		if v, n := tailHead(d.buf, d.pos, c&0x1f-24); n > 0 && v <= math.MaxInt64 {
			d.pos += n
			return int64(v) ^ -int64(c>>5), nil
		}
	}
	return d.int64()
}

func (d *Decoder) int64() (int64, error) {
	if p := d.buf[d.pos:]; len(p) > 0 && p[0] < 0x40 {
		// The head in its shortest form and all there.
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
		}
		if n > 0 {
			d.pos += n
			return int64(v) ^ -int64(p[0]>>5), nil
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
// one allocation for many values, zero included. A Decoder's first
// block of each is of at most intBlock big.Ints and wordBlock words,
// and over a buffer no more than the input the Decoder was made over
// justifies (each value takes a byte of it at least); each later one is
// twice as long as the one it follows, up to maxIntBlock big.Ints and
// maxWordBlock words (2 KiB each on 64-bit platforms, as much as a
// grown block of short strings): a Decoder kept for item after item
// (see spares) allocates a block every 63 big.Ints, where one of 17
// took as long as the rest of a power.Claim's decode. A value kept
// keeps its blocks alive, at most 4 KiB, as a kept string of the
// generated code's other decoders keeps its text block (blocks of 4 KiB,
// 127 big.Ints, counted the same instructions per call and ran within
// the spread of 2 KiB's side by side: what is left of the blocks' cost
// is the first write to fresh memory, paid per byte). A pooled Decoder
// keeps what is left of its blocks for the next item, so a run of small
// items shares them.
// Each value has its own words with no room to grow into: a result that
// needs more gets new ones, as big.Int's arithmetic does. A value longer
// than wordBlock/4 words has words of its own. intBlock is 17, not 8 or
// 16: a block of more than 512 bytes is allocated with a header instead
// of heap bits written for it, which took a block of 8 about 420
// instructions; maxIntBlock is 63, whose header fills its size class
// (2,048 bytes).
const (
	intBlock     = 17
	wordBlock    = 64
	maxIntBlock  = 63
	maxWordBlock = 256
)

// newFilInt returns a zero big.Int of d's block.
func (d *Decoder) newFilInt() *big.Int {
	if d.nints == len(d.ints) {
		d.newInts()
	}
	x := &d.ints[d.nints]
	d.nints++
	return x
}

func (d *Decoder) newInts() {
	n := intBlock
	if d.src == nil && len(d.buf) < n {
		n = len(d.buf) // each value takes at least a byte
	}
	n = max(n, min(2*len(d.ints), maxIntBlock))
	d.ints, d.nints = make([]big.Int, n), 0
}

// newWords returns nw words of a new block (FilInt takes them from d's
// block while it has room), or of their own when they are many.
func (d *Decoder) newWords(nw int) []big.Word {
	if nw > wordBlock/4 {
		return make([]big.Word, nw)
	}
	n := wordBlock
	if d.src == nil && nw+len(d.buf)/2 < n {
		// As many words as the allocation's size class holds.
		n = classFloor(bits.UintSize/8*(nw+len(d.buf)/2)) / (bits.UintSize / 8)
	}
	n = max(n, min(2*len(d.words), maxWordBlock))
	d.words, d.nwords = make([]big.Word, n), nw
	return d.words[:nw:nw]
}

// FilIntBox is laid out as github.com/filecoin-project/go-state-types'
// big.Int (and abi.TokenAmount, abi.StoragePower, ... which are that
// type): a struct of an embedded *big.Int alone. A *FilIntBox converts
// to a pointer to that type without unsafe, the conversion Go allows
// between pointers to types of identical underlying types: a change of
// the type's layout fails to compile the generated code, not to run it.
type FilIntBox struct{ *big.Int }

// The boxes FilIntPtr returns, and the values StringValues.MakePtr
// returns (refs), are taken from blocks as the big.Ints are (see
// intBlock): a Decoder's first block of at most boxBlock or refBlock
// values, over a buffer no more than its input justifies (each value
// takes a byte of it at least), each later one twice the one it
// follows, up to 2 KiB on 64-bit platforms. A value of a block is
// handed out once: each pointer points to a value of its own, which no
// other decode writes; a value kept keeps its block alive, at most 2
// KiB (and a box its big.Int's blocks).
const (
	boxBlock    = 32
	maxBoxBlock = 256
	refBlock    = 16
	maxRefBlock = 128
)

// FilIntPtr reads a go-state-types big.Int as FilInt does, for a field
// that points to one (*abi.TokenAmount, *big.Int): its value is a box
// of d's block, which the field points to (as whyrusleeping/cbor-gen's
// code sets such a field to a new big.Int for every value it reads).
// The generated code converts the result, (*big.Int)(p).
func (d *Decoder) FilIntPtr() (*FilIntBox, error) {
	x, err := d.FilInt()
	if err != nil {
		return nil, err
	}
	if d.nboxes == len(d.boxes) {
		n := boxBlock
		if d.src == nil && len(d.buf) < n {
			n = len(d.buf)
		}
		d.boxes, d.nboxes = make([]FilIntBox, max(n, min(2*len(d.boxes), maxBoxBlock))), 0
	}
	p := &d.boxes[d.nboxes]
	d.nboxes++
	p.Int = x
	return p, nil
}

// newRef returns a string of d's block of refs for a pointer field's
// value (see StringValues.MakePtr).
func (d *Decoder) newRef() *string {
	if d.nrefs == len(d.refs) {
		n := refBlock
		if d.src == nil && len(d.buf) < n {
			n = len(d.buf)
		}
		d.refs, d.nrefs = make([]string, max(n, min(2*len(d.refs), maxRefBlock))), 0
	}
	p := &d.refs[d.nrefs]
	d.nrefs++
	return p
}

// FilInt reads a github.com/filecoin-project/go-state-types/big.Int as
// its UnmarshalCBOR does and returns its Int: a byte string of at most
// FilIntMax bytes, empty for zero, else a sign byte (0 or 1) and the
// magnitude big-endian.
func (d *Decoder) FilInt() (*big.Int, error) {
	// n is the length of the byte string, whose bytes end at d.pos once
	// it is read; the common heads are read here, the rest (and every
	// error) by filIntHead.
	var n int
	pos := d.pos
	rest := len(d.buf) - pos
	if rest < 1 {
		return d.filIntAny()
	}
	base := unsafe.Pointer(unsafe.SliceData(d.buf))
	switch c := *(*byte)(unsafe.Add(base, pos)); {
	case c-(MajByteString<<5|1) < 23 && int(c&0x1f) < rest:
		// Not empty, with a head of one byte, all there.
		n = int(c & 0x1f)
		d.pos = pos + 1 + n
	case c == MajByteString<<5:
		d.pos = pos + 1
		return d.newFilInt(), nil
	default:
		// Of two bytes, in its shortest form, all there.
		if c != MajByteString<<5|24 || rest < 3 {
			return d.filIntAny()
		}
		n = int(*(*byte)(unsafe.Add(base, pos+1)))
		if n < 24 || n > FilIntMax || n >= rest-1 {
			return d.filIntAny()
		}
		d.pos = pos + 2 + n
	}
	return d.filIntBytes(n)
}

// filIntAny is FilInt for every head.
func (d *Decoder) filIntAny() (*big.Int, error) {
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
	if _, err = d.view(extra); err != nil {
		return nil, err
	}
	return d.filIntBytes(int(extra))
}

// be64 is the big-endian word of the eight bytes at p+off.
func be64(p unsafe.Pointer, off int) uint64 {
	return binary.BigEndian.Uint64((*[8]byte)(unsafe.Add(p, off))[:])
}

// filIntBytes makes the big.Int of the n bytes (1 to FilIntMax) of a
// byte string that end at d.pos: a sign byte, then the magnitude. They
// are read without a further check of their bounds.
func (d *Decoder) filIntBytes(n int) (*big.Int, error) {
	base, end := unsafe.Pointer(unsafe.SliceData(d.buf)), d.pos
	sign := *(*byte)(unsafe.Add(base, end-n))
	if sign > 1 {
		return nil, fmt.Errorf("big int prefix should be either 0 or 1, got %d", sign)
	}
	x := d.newFilInt()
	const wb = bits.UintSize / 8
	m := n - 1 // the magnitude's length, leading zeros included
	if wb == 8 && m <= 8 && end >= 8 {
		// At most 8 bytes of magnitude, the common case (token amounts
		// under 18.4 FIL, a sector's power), and 8 bytes or more up to
		// their end in the buffer: one load of the 8 bytes that end
		// there, less those before the magnitude's.
		w := be64(base, end-8) & (1<<(8*uint(m)) - 1)
		if w == 0 {
			return x, nil
		}
		var ws []big.Word
		if i := d.nwords; i < len(d.words) {
			d.nwords = i + 1
			ws = d.words[i : i+1 : i+1]
		} else {
			ws = d.newWords(1)
		}
		ws[0] = big.Word(w)
		x.SetBits(ws)
		if sign == 1 {
			x.Neg(x)
		}
		return x, nil
	}
	if m == 0 {
		return x, nil
	}
	// Whole words from the low end, then the top word's 1 to wb bytes;
	// SetBits drops the words that leading zeros leave zero (each value
	// keeps all of its own words).
	nw := int(uint(m+wb-1) / wb)
	var ws []big.Word
	if i := d.nwords; len(d.words)-i >= nw {
		d.nwords = i + nw
		ws = unsafe.Slice((*big.Word)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.words)), i*wb)), nw)
	} else {
		ws = d.newWords(nw)
	}
	wp := unsafe.Pointer(unsafe.SliceData(ws))
	for i := 0; i < nw-1; i++ {
		if wb == 8 {
			*(*big.Word)(unsafe.Add(wp, i*wb)) = big.Word(be64(base, end-8))
		} else {
			*(*big.Word)(unsafe.Add(wp, i*wb)) = big.Word(binary.BigEndian.Uint32((*[4]byte)(unsafe.Add(base, end-4))[:]))
		}
		end -= wb
	}
	// The top word's k bytes end at end: a load of the eight bytes that
	// end there, less those before them, or of the eight that begin with
	// them, less those after, where the buffer holds those.
	var w big.Word
	switch k := m - (nw-1)*wb; {
	case wb == 8 && end >= 8:
		w = big.Word(be64(base, end-8) & (1<<(8*uint(k)) - 1))
	case wb == 8 && end-k+8 <= len(d.buf):
		w = big.Word(be64(base, end-k) >> (8 * uint(8-k)))
	default:
		for _, c := range d.buf[end-k : end] {
			w = w<<8 | big.Word(c)
		}
	}
	*(*big.Word)(unsafe.Add(wp, (nw-1)*wb)) = w
	x.SetBits(ws)
	if sign == 1 {
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
