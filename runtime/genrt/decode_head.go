package genrt

import (
	"encoding/binary"
	"io"
	"strconv"
)

// head reads the head of the next item: its initial byte and argument.
// For indefinite lengths (additional information 31) arg is 0; the caller
// checks that the major type allows it. Reserved additional information
// (28-30) is a syntax error. In strict mode a head that is not the
// shortest for its argument is an error. At the top level it first checks
// the whole item when the options ask for it (checkItem).
func (d *Decoder) head() (ib byte, arg uint64, err error) {
	// Fast path: a definite head whose bytes are all buffered, outside
	// strict mode and major type 7 (whose two-byte form needs a check).
	// A tag stands aside when the options ask for checks of the whole
	// item, which headSlow makes at the top level: no other head read
	// there can be the first of an item that a check would refuse
	// (containers, floats and indefinite lengths check or go slow).
	if d.off < len(d.buf) {
		ib = d.buf[d.off]
		ai := ib & 0x1f
		if ai < 24 && (ib < 0xc0 || ib >= 0xe0 || d.checks == 0) {
			d.off++
			return ib, uint64(ai), nil
		}
		if ai <= 27 && ib < 0xe0 && !d.opts.Strict && (ib < 0xc0 || d.checks == 0) {
			p := d.buf[d.off+1:]
			switch ai {
			case 24:
				if len(p) >= 1 {
					d.off += 2
					return ib, uint64(p[0]), nil
				}
			case 25:
				if len(p) >= 2 {
					d.off += 3
					return ib, uint64(binary.BigEndian.Uint16(p)), nil
				}
			case 26:
				if len(p) >= 4 {
					d.off += 5
					return ib, uint64(binary.BigEndian.Uint32(p)), nil
				}
			case 27:
				if len(p) >= 8 {
					d.off += 9
					return ib, binary.BigEndian.Uint64(p), nil
				}
			}
		}
	}
	return d.headSlow()
}

// headSlow is head for the rest: refills, major type 7, strict mode,
// indefinite lengths and malformed heads.
func (d *Decoder) headSlow() (ib byte, arg uint64, err error) {
	if d.off >= len(d.buf) {
		if err := d.need(1); err != nil {
			return 0, 0, d.eof(err, d.Offset(), "item head")
		}
	}
	if d.checks != 0 {
		if err := d.checkItem(); err != nil {
			return 0, 0, err
		}
	}
	ib = d.buf[d.off]
	ai := ib & 0x1f
	if ai < 24 {
		d.off++
		return ib, uint64(ai), nil
	}
	switch ai {
	case 24, 25, 26, 27:
		n := 1 << (ai - 24)
		if err := d.need(1 + n); err != nil {
			return 0, 0, d.eof(err, d.Offset(), "item head")
		}
		b := d.buf[d.off+1 : d.off+1+n]
		for _, c := range b {
			arg = arg<<8 | uint64(c)
		}
		if ib>>5 == MajorSimple {
			if ai == 24 && arg < 32 {
				return 0, 0, d.errAt(d.Offset(), ErrSyntax, "simple value "+strconv.FormatUint(arg, 10)+" in two-byte form")
			}
		} else if d.opts.Strict && SizeHead(arg) != 1+n {
			return 0, 0, d.errAt(d.Offset(), ErrStrict, "head is not the shortest for its argument")
		}
		d.off += 1 + n
		return ib, arg, nil
	case 31:
		switch ib >> 5 {
		case MajorUint, MajorNeg, MajorTag:
			return 0, 0, d.errAt(d.Offset(), ErrSyntax, "indefinite length on "+majorNames[ib>>5])
		case MajorSimple:
			return 0, 0, d.errAt(d.Offset(), ErrSyntax, "break outside an indefinite-length item")
		}
		if d.opts.Strict {
			return 0, 0, d.errAt(d.Offset(), ErrStrict, "indefinite length")
		}
		d.off++
		return ib, 0, nil
	}
	return 0, 0, d.errAt(d.Offset(), ErrSyntax, "reserved additional information "+strconv.Itoa(int(ai)))
}

// peek returns the initial byte of the next item without consuming it.
// At the top level it first checks the whole item when the options ask
// for it (checkItem).
func (d *Decoder) peek() (byte, error) {
	if d.off < len(d.buf) && d.checks == 0 {
		return d.buf[d.off], nil
	}
	return d.peekSlow()
}

func (d *Decoder) peekSlow() (byte, error) {
	if err := d.need(1); err != nil {
		return 0, d.eof(err, d.Offset(), "item")
	}
	if d.checks != 0 {
		if err := d.checkItem(); err != nil {
			return 0, err
		}
	}
	return d.buf[d.off], nil
}

// PeekMajor returns the major type of the next item without consuming it;
// for a tagged item, the major type of the tags' content (the decoders
// read through tags that mean nothing for the Go type, so a struct decoder
// tells its two formats apart by the content). With no bytes left at the top level (between items) the error is io.EOF
// itself, unwrapped, so that a loop over a stream can test err == io.EOF
// as with any io.Reader; inside an item it is a *Error wrapping
// io.ErrUnexpectedEOF.
func (d *Decoder) PeekMajor() (byte, error) {
	if d.off < len(d.buf) && d.checks == 0 {
		if m := d.buf[d.off] >> 5; m != MajorTag {
			return m, nil
		}
	}
	return d.peekMajorSlow()
}

func (d *Decoder) peekMajorSlow() (byte, error) {
	if d.off >= len(d.buf) {
		if err := d.need(1); err != nil {
			// Between items, not inside a tag whose content is missing.
			if d.depth == 0 && err == io.ErrUnexpectedEOF && len(d.buf) == d.off && d.tagAt != d.Offset()+1 {
				return 0, io.EOF
			}
			return 0, d.eof(err, d.Offset(), "item")
		}
	}
	if d.checks != 0 {
		if err := d.checkItem(); err != nil {
			return 0, err
		}
	}
	if m := d.buf[d.off] >> 5; m != MajorTag {
		return m, nil
	}
	return d.contentMajor(), nil
}

// typeError is the error for an item of the wrong type at offset off.
func (d *Decoder) typeError(off int64, ib byte, want string) error {
	return d.errAt(off, ErrType, "expected "+want+", found "+describe(ib))
}
