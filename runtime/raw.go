package runtime

import (
	"math"
	"unsafe"
)

// ReadRaw consumes the next item, checks that it is well-formed within the
// limits (as Skip does), and returns its encoded bytes. As fxamacker/cbor
// does before it hands an item to a cbor.RawMessage or an UnmarshalCBOR
// method, it strips leading 55799 tags and checks that each of the tags
// in front holds what RFC 8949 requires if it is one of tags 0-3. The result aliases
// the decoder's buffer: it is valid until the next read from d, so copy it
// to keep it. Generated code hands it to a field's own UnmarshalCBOR, as
// fxamacker/cbor does, and copies it into a cbor.RawMessage.
func (d *Decoder) ReadRaw() ([]byte, error) {
	if d.opts.Strict && d.depth == 0 {
		if err := d.checkStrict(); err != nil {
			return nil, err
		}
	}
	depth := d.depth
	if d.off >= len(d.buf) || d.buf[d.off]>>5 == MajorTag {
		var err error
		if depth, err = d.readRawTags(); err != nil {
			return nil, err
		}
	}
	d.pinned, d.pin = true, d.off // a refill keeps buf[pin:] and moves pin with it
	err := d.walk(0, depth)
	d.pinned = false
	if err != nil {
		return nil, err
	}
	return d.buf[d.pin:d.off:d.off], nil
}

// marshalerLimits are the limits fxamacker/cbor applies to what a
// cbor.Marshaler returns: none to speak of.
var marshalerLimits = Options{
	MaxDepth:         65535,
	MaxArrayElements: math.MaxInt32,
	MaxMapPairs:      math.MaxInt32,
	MaxStringLength:  math.MaxInt32,
}

// AppendMarshaled appends data, the output of a field's own MarshalCBOR,
// after checking it as fxamacker/cbor does: exactly one well-formed item,
// definite lengths only, and tags 0-3 with the content RFC 8949 §3.4
// requires. The error is a *Error with offsets into data.
func AppendMarshaled(dst, data []byte) ([]byte, error) {
	d := Decoder{buf: data, opts: marshalerLimits, strictAt: -1}
	if err := d.walk(checkTags|noIndef, 0); err != nil {
		return dst, err
	}
	if d.off != len(data) {
		return dst, d.errAt(d.Offset(), ErrTrailing, "more than one item in the output of a CBOR marshaler")
	}
	return append(dst, data...), nil
}

// AppendBytesOf appends a byte string holding b, a slice of a named byte
// type (type Kind uint8): fxamacker/cbor writes every slice whose element
// kind is uint8 as a byte string.
func AppendBytesOf[E ~uint8](dst []byte, b []E) []byte {
	return AppendBytes(dst, asBytes(b))
}

// ReadBytesOf is ReadBytes for a slice of a named byte type.
func ReadBytesOf[E ~uint8](d *Decoder, buf []E) ([]E, error) {
	b, err := d.ReadBytes(asBytes(buf))
	return unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(b))), len(b)), err
}

// ReadByteArrayOf is ReadByteArray for an array of a named byte type
// (pass a[:]).
func ReadByteArrayOf[E ~uint8](d *Decoder, dst []E) error {
	return d.ReadByteArray(asBytes(dst))
}

// asBytes views a slice of a named byte type as []byte: the two have the
// same memory layout.
func asBytes[E ~uint8](b []E) []byte {
	if b == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), cap(b))[:len(b)]
}

// ReadBytesView reads a byte string and returns its content without
// copying when it has a definite length: the result aliases the decoder's
// buffer and is valid until the next read from d. Generated code hands it
// to UnmarshalBinary, whose contract forbids keeping it.
func (d *Decoder) ReadBytesView() ([]byte, error) {
	if b, err := d.peek(); err != nil {
		return nil, err
	} else if b>>5 == MajorTag {
		// fxamacker reads a bignum into a value that is no byte slice
		// or array (netip.Addr, url.URL) as an integer: a type error.
		at := d.Offset()
		if tag, err := d.stripTags(); err != nil {
			return nil, err
		} else if tag == 2 || tag == 3 {
			return nil, d.errAt(at, ErrType, "expected byte string, found bignum")
		}
	}
	return d.readBytesView()
}
