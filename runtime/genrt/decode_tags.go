package genrt

import (
	"math"
	"math/big"
	"strconv"
)

// Tags before a value, read as fxamacker/cbor's Unmarshal (default
// options) reads them. A Read method that finds a tag where it expected
// its item consumes the tags and reads their content: the number of a tag
// that means nothing for the Go type is ignored, tag 55799 (self-described
// CBOR) is stripped everywhere, tags 0-3 must hold the content RFC 8949
// §3.4 requires, and bignums (tags 2 and 3) read into integer and float
// fields when the value fits. A tag within a tag is one nesting level,
// counted against MaxDepth as fxamacker counts it. All of this happens
// after the expected major type has missed, off the fast paths.

// TagSelfDescribed is tag 55799, "self-described CBOR" (RFC 8949 §3.4.6):
// a marker some writers put in front of every item. It carries no meaning
// and is stripped wherever it appears before a value.
const TagSelfDescribed = 55799

// stripTags consumes the tags before the next item, which the caller has
// seen to be a tag, and returns the number of the innermost one; the
// content follows.
func (d *Decoder) stripTags() (uint64, error) {
	_, arg, err := d.head()
	if err != nil {
		return 0, err
	}
	return d.tagChain(arg)
}

// tagChain consumes the rest of a chain of tags whose first head, of
// number first, was just read, checking the content of tags 0-3 and the
// depth, and returns the number of the innermost tag.
func (d *Decoder) tagChain(first uint64) (uint64, error) {
	last := first
	d.tagAt = d.Offset() + 1 // the content must follow
	for k := 1; ; k++ {
		b, err := d.peek()
		if err != nil {
			return 0, err
		}
		if last <= 3 {
			if err := checkTagContent(d, last, b); err != nil {
				return 0, err
			}
		}
		if b>>5 != MajorTag {
			if k > 1 && (b>>5 == MajorArray || b>>5 == MajorMap) {
				// fxamacker counts the k-1 tags within tags as levels
				// around everything in the content, which the decoder,
				// reading the content at its own depth, does not see.
				if err := d.checkDepth(d.depth + k - 1); err != nil {
					return 0, err
				}
			}
			return last, nil
		}
		if d.depth+k > d.opts.MaxDepth {
			return 0, d.errAt(d.Offset(), ErrLimit, "nesting depth exceeds limit "+strconv.Itoa(d.opts.MaxDepth))
		}
		if _, last, err = d.head(); err != nil {
			return 0, err
		}
		d.tagAt = d.Offset() + 1
	}
}

// checkDepth walks the item at the read position, without consuming it,
// as if it sat at the given depth, so that the limit holds as fxamacker
// counts it inside a container wrapped in tags within tags. An item that
// lies within one walked before is not walked again.
func (d *Decoder) checkDepth(depth int) error {
	s := d.slowPath()
	if d.Offset() < s.walkedTo {
		return nil
	}
	d.pinned, d.pin = true, d.off
	err := d.walk(0, depth)
	end := d.Offset()
	d.off = d.pin
	d.pinned = false
	if err != nil {
		return err
	}
	s.walkedTo = end
	return nil
}

// peekHead decodes, without consuming anything, the head that starts i
// bytes after the read position; an indefinite length is argument 0. ok
// is false when the bytes are not there or the additional information is
// reserved; the read that follows reports why.
//
// At the top level it first checks the whole item when the options ask
// for it (checkItem); when that fails, ok is false, and the read that
// follows finds the fault again.
func (d *Decoder) peekHead(i int) (ib byte, arg uint64, size int, ok bool) {
	if d.need(i+1) != nil {
		return 0, 0, 0, false
	}
	if d.checks != 0 && d.checkItem() != nil {
		return 0, 0, 0, false
	}
	ib = d.buf[d.off+i]
	ai := ib & 0x1f
	if ai < 24 {
		return ib, uint64(ai), 1, true
	}
	if ai == 31 {
		return ib, 0, 1, true
	}
	if ai > 27 {
		return 0, 0, 0, false
	}
	size = 1 + 1<<(ai-24)
	if d.need(i+size) != nil {
		return 0, 0, 0, false
	}
	for _, c := range d.buf[d.off+i+1 : d.off+i+size] {
		arg = arg<<8 | uint64(c)
	}
	return ib, arg, size, true
}

// contentMajor returns the major type of the content of the tags at the
// read position, looking through them without consuming anything. When
// the content cannot be seen (cut short, malformed, deeper than the limit
// allows) it returns MajorTag, and the read that follows reports why.
func (d *Decoder) contentMajor() byte {
	for i, n := 0, 0; n <= d.opts.MaxDepth; n++ {
		ib, _, size, ok := d.peekHead(i)
		if !ok {
			break
		}
		if ib>>5 != MajorTag {
			return ib >> 5
		}
		i += size
	}
	return MajorTag
}

// tagsBeforeNull reports whether the tags at the read position are all
// 55799 and are followed by null or undefined, and if so consumes them and
// the null. fxamacker strips 55799 before it looks for a null, so
// 55799(null) sets a pointer to nil; any other tag makes the null the
// content of a value that the pointer points to.
func (d *Decoder) tagsBeforeNull() (bool, error) {
	for i, n := 0, 0; n <= d.opts.MaxDepth; n++ {
		ib, arg, size, ok := d.peekHead(i)
		if !ok {
			return false, nil
		}
		if ib>>5 != MajorTag {
			if ib != byteNull && ib != byteUndefined {
				return false, nil
			}
			if _, err := d.stripTags(); err != nil {
				return false, err
			}
			d.off++
			return true, nil
		}
		if arg != TagSelfDescribed {
			return false, nil
		}
		i += size
	}
	return false, nil
}

// bignum reads the byte string of a bignum whose tag (2 or 3) was just
// read and returns it as a CBOR integer argument: the value is mag for
// tag 2 and -1-mag for tag 3. A magnitude beyond 64 bits is ErrRange.
func (d *Decoder) bignum(tag uint64, typ string) (neg bool, mag uint64, err error) {
	start := d.Offset()
	n, _, err := d.stringHead(MajorBytes, "byte string")
	if err != nil {
		return false, 0, err
	}
	var b []byte
	if n < 0 {
		s := d.slowPath()
		if s.scratch, err = d.chunks(s.scratch[:0], MajorBytes, "byte string", start); err != nil {
			return false, 0, err
		}
		b = s.scratch
	} else {
		b = d.buf[d.off : d.off+n]
		d.off += n
	}
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) > 8 {
		sign := ""
		if tag == 3 {
			sign = "negative "
		}
		return false, 0, d.errAt(start, ErrRange, sign+"bignum of "+count(len(b), "byte")+" overflows "+typ)
	}
	for _, c := range b {
		mag = mag<<8 | uint64(c)
	}
	return tag == 3, mag, nil
}

// readRawTags handles the tags in front of an item that ReadRawChecked returns
// as it is (a cbor.RawMessage, the input of a field's own UnmarshalCBOR,
// an interface value), as fxamacker does before it hands the item over:
// leading 55799 tags are consumed, and every tag of the chain that
// follows must hold what RFC 8949 requires if it is one of tags 0-3. It
// returns the depth at which to walk the rest.
func (d *Decoder) readRawTags() (int, error) {
	k := 0
	for {
		ib, arg, size, ok := d.peekHead(0)
		if !ok || ib>>5 != MajorTag || arg != TagSelfDescribed {
			break
		}
		if k > 0 && d.depth+k > d.opts.MaxDepth {
			return 0, d.errAt(d.Offset(), ErrLimit, "nesting depth exceeds limit "+strconv.Itoa(d.opts.MaxDepth))
		}
		d.off += size
		k++
	}
	depth := d.depth
	if k > 0 {
		depth += k - 1
		if ib, _, _, ok := d.peekHead(0); ok && ib>>5 == MajorTag {
			depth++ // the stripped tags' nesting goes on into this chain
		}
	}
	for i, n := 0, 0; n <= d.opts.MaxDepth; n++ {
		ib, arg, size, ok := d.peekHead(i)
		if !ok || ib>>5 != MajorTag {
			break
		}
		i += size
		if arg <= 3 && d.need(i+1) == nil {
			if b := d.buf[d.off+i]; !tagContentOK(arg, b) {
				return 0, d.errAt(d.Offset()+int64(i), ErrTag, "tag "+strconv.FormatUint(arg, 10)+" holds "+describe(b))
			}
		}
	}
	return depth, nil
}

// tagContentOK reports whether b, the initial byte of the content of tag
// 0-3, starts the content RFC 8949 §3.4 requires.
func tagContentOK(tag uint64, b byte) bool {
	switch m := b >> 5; tag {
	case 0:
		return m == MajorText
	case 1:
		return m == MajorUint || m == MajorNeg || b == byteFloat16 || b == byteFloat32 || b == byteFloat64
	default:
		return m == MajorBytes
	}
}

// floatOfInt is the float64 of a CBOR integer, for a float field; a
// negative integer below -2^63 does not fit fxamacker's int64 step and is
// ErrRange, as there.
func (d *Decoder) floatOfInt(neg bool, mag uint64, start int64) (float64, error) {
	if !neg {
		return float64(mag), nil
	}
	if mag > math.MaxInt64 {
		return 0, d.rangeError(start, neg, mag, "float (int64 range)")
	}
	return float64(-1 - int64(mag)), nil // one rounding, as fxamacker's
}

// ReadUntaggedNull reads the untagged null that a nil slice or map of a
// type with a tag of its own (//cborgen:tag) is written as, before
// ReadTypeTag, as ReadNull does; under Strict, where the tag is required,
// it reads nothing and reports false, so that ReadTypeTag refuses the null
// as fxamacker/cbor refuses it with DecTagRequired. For generated code.
func (d *Decoder) ReadUntaggedNull() (bool, error) {
	if d.opts.Strict {
		return false, nil
	}
	return d.ReadNull()
}

// ReadTypeTag reads the tag in front of a value of a type declared with
// //cborgen:tag want, after any self-described CBOR tags (55799). A
// different tag number is an error (ErrTagNumber) that names both; so is
// an item without a tag, unless optional, when the untagged item is left
// to be read as it is, and so is the type's tag followed by another tag
// (self-described CBOR included) before the content. This is
// fxamacker/cbor's DecTagRequired (or DecTagOptional) for a type in its
// TagSet.
//
// Errors: ErrTagNumber; io.ErrUnexpectedEOF and ErrSyntax for a head cut
// short or malformed.
func (d *Decoder) ReadTypeTag(want uint64, optional bool) error {
	// Fast path: the tag in its shortest head of one or two bytes, and
	// after it the head of content that is not a tag, all buffered, with
	// no check of the whole item asked for (which the loop's head read
	// makes at the top level). What the loop does then, in a few compares.
	if p := d.buf[d.off:]; len(p) >= 3 && d.checks == 0 {
		if want < 24 && p[0] == 0xc0|byte(want) && p[1]>>5 != MajorTag {
			d.off++
			d.tagAt = d.Offset() + 1
			return nil
		}
		if want >= 24 && want < 256 && p[0] == 0xd8 && uint64(p[1]) == want && p[2]>>5 != MajorTag {
			d.off += 2
			d.tagAt = d.Offset() + 1
			return nil
		}
	}
	for {
		ib, arg, _, ok := d.peekHead(0)
		if !ok {
			_, err := d.ReadTag() // says why: cut short, or malformed
			return err
		}
		start := d.Offset()
		if ib>>5 != MajorTag {
			if optional {
				return nil
			}
			return d.errAt(start, ErrTagNumber, "expected tag "+strconv.FormatUint(want, 10)+", found "+describe(ib))
		}
		if _, err := d.ReadTag(); err != nil {
			return err
		}
		switch {
		case arg == want:
			// fxamacker takes the tags in front of the content, after
			// the leading 55799s, as one list that must be the type's
			// own: another tag after it (even 55799) is refused.
			if ib, next, _, ok := d.peekHead(0); ok && ib>>5 == MajorTag {
				return d.errAt(start, ErrTagNumber, "expected tag "+strconv.FormatUint(want, 10)+", found tag "+
					strconv.FormatUint(arg, 10)+" then tag "+strconv.FormatUint(next, 10))
			}
			return nil
		case arg == TagSelfDescribed:
			continue
		}
		return d.errAt(start, ErrTagNumber, "expected tag "+strconv.FormatUint(want, 10)+", found tag "+strconv.FormatUint(arg, 10))
	}
}

// ReadBigInt reads an integer of any size into z, as fxamacker/cbor's
// default options read into a big.Int: a CBOR integer, or a bignum (tag 2
// or 3 around a byte string). Other tags before the item are skipped; tags
// 0-3 must hold the content RFC 8949 §3.4 requires. Null and undefined
// leave z as it is, as fxamacker leaves it; outside strict mode a simple
// value sets it to its code, and a map is skipped (z left as it is), as
// there.
func (d *Decoder) ReadBigInt(z *big.Int) error {
	for {
		b, err := d.peek()
		if err != nil {
			return err
		}
		switch {
		case b == byteNull || b == byteUndefined:
			d.off++
			return nil
		case b>>5 == MajorMap && !d.opts.Strict:
			// fxamacker reads a map into big.Int as into a struct without
			// exported fields: every pair skipped (its key a text string
			// or an integer, as for any struct), the value left as it is.
			return d.skipFieldMap()
		case b>>5 == MajorSimple && !d.opts.Strict:
			at := d.Offset()
			ib, arg, err := d.head()
			if err != nil {
				return err
			}
			if code, ok := d.simpleCode(ib, arg); ok {
				z.SetUint64(code)
				return nil
			}
			return d.typeError(at, ib, "integer or bignum")
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
