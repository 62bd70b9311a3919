package runtime

import "math"

// AppendRaw appends raw, the item a union's catch-all variant holds, as it
// is, after checking that it is exactly one item that Valid accepts
// (indefinite lengths and any tags included, so that what was read is
// written back byte for byte, and only what ReadRawBytes would keep); an
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
//
// Deprecated: generated code calls [AppendMarshaledBy], whose error names
// the type, as fxamacker/cbor's does.
func AppendMarshaled(dst, data []byte) ([]byte, error) {
	d := Decoder{buf: data, opts: marshalerLimits}
	if err := d.walk(checkTags|noIndef, 0); err != nil {
		return dst, err
	}
	if d.off != len(data) {
		return dst, d.errAt(d.Offset(), ErrTrailing, "more than one item in the output of a CBOR marshaler")
	}
	return append(dst, data...), nil
}
