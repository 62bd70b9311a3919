package runtime

import (
	"fmt"
	"strconv"
)

// Kind is what the next item is, as a union's dispatcher needs to know
// it: the number of its tag when it is tagged (after any 55799), else its
// initial byte, whose major type (Initial>>5) and, for major type 7, value
// (false, true, null, undefined, a float) tell the untagged variants apart.
type Kind struct {
	Tagged  bool
	Tag     uint64
	Initial byte
}

// Null reports whether the item is null or undefined.
func (k Kind) Null() bool { return !k.Tagged && (k.Initial == byteNull || k.Initial == byteUndefined) }

// PeekKind reports what the next item is without consuming anything.
//
// Errors: io.ErrUnexpectedEOF (or io.EOF between items) and ErrSyntax,
// for a head cut short or malformed.
func (d *Decoder) PeekKind() (Kind, error) {
	for i := 0; ; {
		ib, arg, size, ok := d.peekHead(i)
		if !ok {
			d.off += i // report the head that could not be read, where it is
			_, _, err := d.head()
			if err == nil {
				err = d.errAt(d.Offset(), ErrSyntax, "malformed head")
			}
			return Kind{}, err
		}
		if ib>>5 != MajorTag {
			return Kind{Initial: ib}, nil
		}
		if arg != TagSelfDescribed {
			return Kind{Tagged: true, Tag: arg}, nil
		}
		i += size
	}
}

// NoVariant is the error for an item that no variant of the union named
// union claims: ErrType, naming its tag number or its type.
func NoVariant(d *Decoder, union string, k Kind) error {
	what := describe(k.Initial)
	if k.Tagged {
		what = "tag " + strconv.FormatUint(k.Tag, 10)
	}
	return d.Errorf(ErrType, "no variant of %s for %s", union, what)
}

// NotAVariant is the error for encoding a value of a union's interface
// type that is none of its variants (a type that implements the interface
// but that cbor-gen did not generate).
func NotAVariant(union string, v any) error {
	return fmt.Errorf("cbor: %T is not a variant of %s", v, union)
}

// AppendRaw appends raw, the item a union's catch-all variant holds, as it
// is, after checking that it is exactly one item that Valid accepts
// (indefinite lengths and any tags included, so that what was read is
// written back byte for byte, and only what ReadRawItem would keep); an
// empty raw is null.
func AppendRaw(dst, raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return AppendNull(dst), nil
	}
	d := NewBytesDecoder(raw)
	if err := d.walk(validFlags, 0); err != nil {
		return dst, err
	}
	if d.off != len(raw) {
		return dst, d.errAt(d.Offset(), ErrTrailing, "more than one item in a catch-all variant")
	}
	return append(dst, raw...), nil
}

// ReadRawItem reads the next item, whatever it is, as its bytes, tags
// included: what a union's catch-all variant keeps. Pass buf, the slice
// the variant holds, as it is: its array is reused as ReadBytes reuses
// one, only when buf has room past its length and past the item, as the
// slices ReadRawItem makes have. The item is checked as Valid checks it
// (well-formed, text valid UTF-8, no map with a key twice, tags 0-3 with
// the content RFC 8949 requires), against the decoder's limits: a
// catch-all keeps only what it can write back as a valid item, and
// refuses the rest with the reason and its offset.
func (d *Decoder) ReadRawItem(buf []byte) ([]byte, error) {
	if d.off >= len(d.buf) {
		if err := d.need(1); err != nil {
			return buf, err
		}
	}
	d.pinned, d.pin = true, d.off // a refill keeps buf[pin:] and moves pin with it
	err := d.walk(validFlags, d.depth)
	d.pinned = false
	if err != nil {
		return buf, err
	}
	return copyBytes(buf, d.buf[d.pin:d.off:len(d.buf)]), nil
}
