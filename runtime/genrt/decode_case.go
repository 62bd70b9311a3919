package genrt

import (
	"math"
	"strconv"
)

// Unions chosen by content (//cborgen:union first, //cborgen:union key K)
// read a constant inside the item, the case, before they know which
// variant to decode. For first, the dispatcher reads the array's head and
// its first element (ReadCaseHead, ReadCaseInt or ReadCaseText) and hands
// the decoder, positioned after it, to the variant's rest-of-array
// decoder: the item is read once. For key K, the key may stand anywhere
// in the map: the dispatcher marks the map's start (Mark), reads its keys
// up to K, skipping the values before it (FindKeyInt, FindKeyText; over a
// slice a skip is a walk over heads, no decoding), reads the case, goes
// back to the mark (Rewind) and decodes the map once, with the variant's
// own decoder. Over a stream the mark pins the buffer from the map's start
// until Rewind, so what is buffered is the map up to the end of K's value:
// at most the whole map, within the limits of the decoder (MaxMapPairs,
// MaxStringLength, MaxDepth, MaxArrayElements bound what the scan reads,
// as they bound the decode).

// Mark is a read position a Decoder can go back to with Rewind.
type Mark struct {
	off    int64
	depth  int
	breaks uint64
	tagAt  int64
}

// Mark returns the read position, to go back to with Rewind. Over a
// stream the bytes from here on stay buffered until Rewind, as RawStart
// pins them; every Mark must be ended by one Rewind.
func (d *Decoder) Mark() Mark {
	if d.st != nil {
		if d.st.raws == 0 {
			d.st.rawPin = d.off
		}
		d.st.raws++
	}
	return Mark{off: d.Offset(), depth: d.depth, breaks: d.breaks, tagAt: d.tagAt}
}

// Rewind goes back to the position m that Mark returned: what was read
// since is read again. It ends the pin of that Mark.
func (d *Decoder) Rewind(m Mark) {
	if d.st != nil {
		d.st.raws--
	}
	d.off = int(m.off - d.base)
	d.depth, d.breaks, d.tagAt = m.depth, m.breaks, m.tagAt
}

// ReadCaseHead reads the head of the array whose first element is the
// case of the union named union (//cborgen:union first) and returns its
// length, -1 for an indefinite-length array it could not count. It enters
// the array, as ReadArrayHead does. An array without a first element is
// ErrLength: it has no case.
func (d *Decoder) ReadCaseHead(union string) (int, error) {
	start := d.Offset()
	n, err := d.ReadArrayHead()
	if err != nil {
		return 0, err
	}
	empty := n == 0
	if n < 0 {
		if empty, err = d.ReadBreak(); err != nil {
			return 0, err
		}
	}
	if empty {
		return 0, d.errAt(start, ErrLength, "empty array: no case of "+union+" in its first element")
	}
	return n, nil
}

// ReadCaseInt reads the case of a union whose cases are integers: an
// integer within int64. Anything else (null, a tag, another type) is
// ErrType, an integer beyond int64 ErrRange: no variant has it.
func (d *Decoder) ReadCaseInt() (int64, error) {
	if d.off < len(d.buf) {
		if b := d.buf[d.off]; b < 24 {
			d.off++
			return int64(b), nil
		}
	}
	start := d.Offset()
	ib, err := d.caseInitial()
	if err != nil {
		return 0, err
	}
	if ib>>5 != MajorUint && ib>>5 != MajorNeg {
		if err := d.Skip(); err != nil {
			return 0, err // not well-formed: that is the worse news
		}
		return 0, d.typeError(start, ib, "integer (a case)")
	}
	neg, mag, _, err := d.readInt("integer")
	if err != nil {
		return 0, err
	}
	if mag > math.MaxInt64 {
		return 0, d.rangeError(start, neg, mag, "int64 case")
	}
	if neg {
		return -1 - int64(mag), nil
	}
	return int64(mag), nil
}

// ReadCaseText reads the case of a union whose cases are text: a text
// string, UTF-8 checked. The result is valid until the next read from d;
// switch on string(b), which does not copy. Anything else is ErrType.
func (d *Decoder) ReadCaseText() ([]byte, error) {
	if p := d.buf[d.off:]; len(p) > 0 {
		if n := int(p[0]) - 0x60; uint(n) < 24 && n < len(p) && n <= d.opts.MaxStringLength {
			if t := p[1 : 1+n : 1+n]; validUTF8(t) {
				d.off += 1 + n
				return t, nil
			}
		}
	}
	start := d.Offset()
	ib, err := d.caseInitial()
	if err != nil {
		return nil, err
	}
	if ib>>5 != MajorText {
		if err := d.Skip(); err != nil {
			return nil, err
		}
		return nil, d.typeError(start, ib, "text string (a case)")
	}
	k, err := d.readKey()
	return k.Text, err
}

// caseInitial consumes the self-described CBOR tags (55799) in front of
// a case, which every reader looks through, and returns the initial byte
// of what follows, unread.
func (d *Decoder) caseInitial() (byte, error) {
	for {
		ib, err := d.peek()
		if err != nil || ib>>5 != MajorTag {
			return ib, err
		}
		_, arg, size, ok := d.peekHead(0)
		if !ok || arg != TagSelfDescribed {
			return ib, nil
		}
		d.off += size
	}
}

// FindKeyInt reads the map at the read position up to its integer key k
// and reports whether it found it: the read position is then at k's
// value. The values before it are skipped; a key that is neither text
// nor an integer within int64 is an error, as it is for the struct the
// map encodes. Go back with Rewind to a Mark taken before. The first
// key k wins, as the first value of a field does in the struct's decoder.
func (d *Decoder) FindKeyInt(k int64) (bool, error) {
	return d.findKey(KeyInt, "", k)
}

// FindKeyText is FindKeyInt for a text key. As the struct's decoder
// finds its fields, a key that equals k under case folding, at the same
// length in bytes, is k too, unless Options.FieldNameMatching says case
// sensitive: the case is then the value the variant's field receives.
func (d *Decoder) FindKeyText(k string) (bool, error) {
	return d.findKey(KeyText, k, 0)
}

func (d *Decoder) findKey(kind KeyKind, text string, k int64) (bool, error) {
	n, err := d.ReadMapHead()
	if err != nil {
		return false, err
	}
	fold := [1]string{text}
	for i := 0; ; i++ {
		if more, err := d.NextPair(n, i); err != nil || !more {
			return false, err
		}
		kk, kt, kn, err := d.ReadKeyParts()
		if err != nil {
			return false, err
		}
		if kk == kind && (kind == KeyInt && kn == k || kind == KeyText && (string(kt) == text || d.FoldedField(kt, fold[:]) == 0)) {
			return true, nil
		}
		if err := d.Skip(); err != nil {
			return false, err
		}
	}
}

// NoKey is the error for a map at offset at without the key (keyToken,
// as a directive writes it) that holds the case of the union named union.
func (d *Decoder) NoKey(union string, at int64, keyToken string) error {
	return d.errAt(at, ErrType, "no key "+keyToken+" in the map: no case of "+union)
}

// NoCaseInt is the error for an integer case at offset at that no
// variant of the union named union has: ErrType, naming it.
func (d *Decoder) NoCaseInt(union string, at int64, c int64) error {
	return d.errAt(at, ErrType, "no variant of "+union+" for case "+strconv.FormatInt(c, 10))
}

// NoCaseText is NoCaseInt for a text case.
func (d *Decoder) NoCaseText(union string, at int64, c []byte) error {
	return d.errAt(at, ErrType, "no variant of "+union+" for case "+strconv.Quote(string(c)))
}

// WrongCase is the error of a variant of a union chosen by content whose
// decoder found, at offset at, a case other than its own (want).
func (d *Decoder) WrongCase(typ string, at int64, found, want any) error {
	q := func(x any) string {
		if s, ok := x.(string); ok {
			return strconv.Quote(s)
		}
		return toString(x)
	}
	return d.errAt(at, ErrType, "case "+q(found)+" is not "+typ+"'s, "+q(want))
}

func toString(x any) string {
	switch v := x.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	}
	return "?"
}

// Release ends the pin of the Mark m without going back to it.
func (d *Decoder) Release(m Mark) {
	if d.st != nil {
		d.st.raws--
	}
}
