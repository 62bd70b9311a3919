package genrt

import (
	"fmt"
	"strconv"
	"strings"
)

// MarshalerError is the error for a field whose own MarshalCBOR returned
// bytes that are not exactly one well-formed item (see
// [AppendMarshaledBy]). Its text is fxamacker/cbor's for the same bytes:
// "cbor: error calling MarshalCBOR for type shop.Money: unexpected EOF".
// An error that MarshalCBOR itself returns is handed back unchanged, as
// fxamacker/cbor hands it back; it is never a MarshalerError.
type MarshalerError struct {
	Type string // the type whose method it was, as reflect names it ("shop.Money")
	Err  error  // the *Error the check found, its offset counted in the method's output

	reason string // why, in fxamacker/cbor's words
}

func (e *MarshalerError) Error() string {
	return "cbor: error calling MarshalCBOR for type " + e.Type + ": " + e.reason
}

// Unwrap returns the *Error of the check, whose cause is one of this
// package's sentinels (ErrSyntax, ErrTrailing, ErrTag, ...).
func (e *MarshalerError) Unwrap() error { return e.Err }

// AppendMarshaledBy is [AppendMarshaled] for the output data of the
// MarshalCBOR method of a value whose type typ names: a nil pointer to it,
// (*shop.Money)(nil), so that naming the type costs nothing until the
// check fails. The error for data that fails the check is a
// *MarshalerError naming the type as fxamacker/cbor does (the pointee's
// name, as reflect gives it: "shop.Money", "shop.Pair[int]").
func AppendMarshaledBy(dst, data []byte, typ any) ([]byte, error) {
	out, err := AppendMarshaled(dst, data)
	if err != nil {
		reason := marshalerReason(data)
		if reason == "" {
			reason = err.Error()
		}
		return dst, &MarshalerError{Type: strings.TrimPrefix(fmt.Sprintf("%T", typ), "*"), Err: err, reason: reason}
	}
	return out, nil
}

// marshalerReason is fxamacker/cbor's reason for refusing data as the
// output of a MarshalCBOR, or "" where it accepts it: its well-formedness
// check as it runs it there (definite lengths only, tags 0-3 checked for
// the type of their content, no limits but a nesting depth of 65535),
// with its words, finding the first fault where it finds it.
func marshalerReason(data []byte) string {
	if len(data) == 0 {
		return "EOF"
	}
	c := fxCheck{data: data, indef: ProcessEncOptions().IndefLength == IndefLengthAllowed}
	if r := c.item(0); r != "" {
		return r
	}
	if c.off != len(data) {
		return "cbor: " + strconv.Itoa(len(data)-c.off) + " bytes of extraneous data starting at index " + strconv.Itoa(c.off)
	}
	return ""
}

// fxMaxDepth and fxMaxCount are the limits fxamacker/cbor checks the
// output of a MarshalCBOR against.
const (
	fxMaxDepth = 65535
	fxMaxCount = 2147483647
)

const fxEOF = "unexpected EOF"

// fxTypeNames are the names fxamacker/cbor's messages give the major types.
var fxTypeNames = [8]string{"positive integer", "negative integer", "byte string", "UTF-8 text string", "array", "map", "tag", "primitives"}

// fxCheck walks data as fxamacker/cbor's well-formedness check does.
type fxCheck struct {
	data  []byte
	off   int
	indef bool // indefinite lengths allowed (EncOptions.IndefLength)
}

// head reads the head at c.off: major type, additional information and
// argument, or the reason it is not well-formed.
func (c *fxCheck) head() (major, ai byte, arg uint64, reason string) {
	if c.off >= len(c.data) {
		return 0, 0, 0, fxEOF
	}
	b := c.data[c.off]
	major, ai = b>>5, b&0x1f
	c.off++
	switch {
	case ai < 24:
		return major, ai, uint64(ai), ""
	case ai <= 27:
		n := 1 << (ai - 24)
		if len(c.data)-c.off < n {
			return 0, 0, 0, fxEOF
		}
		for _, x := range c.data[c.off : c.off+n] {
			arg = arg<<8 | uint64(x)
		}
		c.off += n
		if ai == 24 && major == 7 && arg < 32 {
			return 0, 0, 0, "cbor: invalid simple value " + strconv.FormatUint(arg, 10) + " for type primitives"
		}
		return major, ai, arg, ""
	case ai == 31:
		switch major {
		case 0, 1, 6:
		case 7:
			return 0, 0, 0, `cbor: unexpected "break" code`
		default:
			return major, ai, 0, ""
		}
	}
	return 0, 0, 0, "cbor: invalid additional information " + strconv.Itoa(int(ai)) + " for type " + fxTypeNames[major]
}

// item checks one item at nesting depth depth.
func (c *fxCheck) item(depth int) string {
	major, ai, arg, r := c.head()
	if r != "" {
		return r
	}
	name := fxTypeNames[major]
	switch major {
	case 2, 3:
		if ai == 31 {
			if !c.indef {
				return "cbor: indefinite-length " + name + " isn't allowed"
			}
			return c.chunks(major, depth)
		}
		if arg > fxMaxLen {
			return "cbor: " + name + " length " + strconv.FormatUint(arg, 10) + " is too large, causing integer overflow"
		}
		if uint64(len(c.data)-c.off) < arg {
			return fxEOF
		}
		c.off += int(arg)
	case 4, 5:
		if depth++; depth > fxMaxDepth {
			return "cbor: exceeded max nested level " + strconv.Itoa(fxMaxDepth)
		}
		if ai == 31 {
			if !c.indef {
				return "cbor: indefinite-length " + name + " isn't allowed"
			}
			return c.items(major, depth)
		}
		if arg > fxMaxLen {
			return "cbor: " + name + " length " + strconv.FormatUint(arg, 10) + " is too large, it would cause integer overflow"
		}
		if arg > fxMaxCount {
			if major == 4 {
				return "cbor: exceeded max number of elements " + strconv.Itoa(fxMaxCount) + " for CBOR array"
			}
			return "cbor: exceeded max number of key-value pairs " + strconv.Itoa(fxMaxCount) + " for CBOR map"
		}
		n := arg
		if major == 5 {
			n *= 2
		}
		for ; n > 0; n-- {
			if r := c.item(depth); r != "" {
				return r
			}
		}
	case 6:
		return c.tagged(arg, depth)
	}
	return ""
}

// chunks checks the chunks of an indefinite-length string of the given
// major type, its head read, as fxamacker/cbor does.
func (c *fxCheck) chunks(major byte, depth int) string {
	name := fxTypeNames[major]
	for {
		if c.off >= len(c.data) {
			return fxEOF
		}
		b := c.data[c.off]
		switch {
		case b == 0xff:
			c.off++
			return ""
		case b>>5 != major:
			return "cbor: wrong element type " + fxTypeNames[b>>5] + " for indefinite-length " + name
		case b&0x1f == 31:
			return "cbor: indefinite-length " + name + " chunk is not definite-length"
		}
		if r := c.item(depth); r != "" {
			return r
		}
	}
}

// items checks the items of an indefinite-length array or map (major
// type 4 or 5), its head read, up to its break, as fxamacker/cbor does.
func (c *fxCheck) items(major byte, depth int) string {
	for i := 0; ; i++ {
		if c.off >= len(c.data) {
			return fxEOF
		}
		if c.data[c.off] == 0xff {
			c.off++
			if major == 5 && i%2 == 1 {
				return `cbor: unexpected "break" code`
			}
			return ""
		}
		if r := c.item(depth); r != "" {
			return r
		}
	}
}

// fxMaxLen is the largest length that fits fxamacker/cbor's int.
const fxMaxLen = uint64(^uint(0) >> 1)

// tagged checks the content of tag number num (and of the tags nested
// directly in it), the tag's head read.
func (c *fxCheck) tagged(num uint64, depth int) string {
	for {
		if c.off >= len(c.data) {
			return fxEOF
		}
		next := c.data[c.off]
		got := fxTypeNames[next>>5]
		switch {
		case num == 0 && next>>5 != 3:
			return "cbor: tag number 0 must be followed by text string, got " + got
		case num == 1 && next>>5 > 1 && (next < 0xf9 || next > 0xfb):
			return "cbor: tag number 1 must be followed by integer or floating-point number, got " + got
		case (num == 2 || num == 3) && next>>5 != 2:
			return "cbor: tag number 2 or 3 must be followed by byte string, got " + got
		}
		if next>>5 != 6 {
			return c.item(depth)
		}
		_, _, arg, r := c.head()
		if r != "" {
			return r
		}
		num = arg
		if depth++; depth > fxMaxDepth {
			return "cbor: exceeded max nested level " + strconv.Itoa(fxMaxDepth)
		}
	}
}
