package genrt

import "strconv"

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

// TryKind is the fast path of PeekKind, for a union's dispatcher: with
// nine bytes buffered, the kind of an untagged item whose head is well
// formed, or of an item behind one tag whose number is below 256 (never
// 55799). ok is false for anything else, and when the options ask for a
// check of the whole item (which PeekKind makes first at the top level);
// the caller then asks PeekKind, which reports errors. When ok, k is what
// PeekKind returns. It consumes nothing and is small enough to be inlined.
func (d *Decoder) TryKind() (k Kind, ok bool) {
	if p := d.buf[d.off:]; len(p) >= 9 && d.checks == 0 {
		switch ib := p[0]; {
		case ib>>5 != MajorTag:
			// Additional information 28-30 is reserved: PeekKind's error.
			return Kind{Initial: ib}, ib&0x1f < 28 || ib&0x1f == 31
		case ib < 0xd8:
			return Kind{Tagged: true, Tag: uint64(ib & 0x1f)}, true
		case ib == 0xd8:
			return Kind{Tagged: true, Tag: uint64(p[1])}, true
		}
	}
	return Kind{}, false
}

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
func (d *Decoder) NoVariant(union string, k Kind) error {
	what := describe(k.Initial)
	if k.Tagged {
		what = "tag " + strconv.FormatUint(k.Tag, 10)
	}
	return d.Errorf(ErrType, "no variant of %s for %s", union, what)
}
