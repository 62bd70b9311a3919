package runtime

import "strconv"

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
