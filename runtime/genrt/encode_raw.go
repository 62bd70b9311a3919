package genrt

import "math"

// AppendRaw appends raw, the item a union's catch-all variant holds, as it
// is, after checking that it is exactly one item that Valid accepts
// (indefinite lengths and any tags included, so that what was read is
// written back byte for byte, and only what ReadRawBytes would keep); an
// empty raw is null. Under EncOptions.IndefLength IndefLengthForbidden
// (SetDefaultEncOptions) an indefinite length in raw is ErrForbidden.
func AppendRaw(dst, raw []byte) ([]byte, error) {
	if len(raw) == 0 {
		return AppendNull(dst), nil
	}
	d := NewBytesDecoder(raw)
	// What the checker accepts is written, but an indefinite length under
	// IndefLengthForbidden, which the walk below words.
	if ok, indef := d.checkedIndef(true); ok {
		if !indef || ProcessEncOptions().IndefLength != IndefLengthForbidden {
			if indef {
				indefWrites.Add(1)
			}
			if d.off != len(raw) {
				return dst, d.errAt(d.Offset(), ErrTrailing, "more than one item in a catch-all variant")
			}
			return append(dst, raw...), nil
		}
		d.Reset(raw)
	}
	if err := d.walk(validFlags|noIndef, 0); err != nil {
		if !isIndefOut(err) {
			return dst, err
		}
		if ProcessEncOptions().IndefLength == IndefLengthForbidden {
			return dst, d.errAt(err.(*Error).Offset, ErrForbidden, "indefinite length in a catch-all variant")
		}
		d.Reset(raw)
		if err := d.walk(validFlags, 0); err != nil {
			return dst, err
		}
		indefWrites.Add(1)
	}
	if d.off != len(raw) {
		return dst, d.errAt(d.Offset(), ErrTrailing, "more than one item in a catch-all variant")
	}
	return append(dst, raw...), nil
}

// msgIndefOut is the message of walk's error for an indefinite length
// under noIndef.
const msgIndefOut = "indefinite length in the output of a CBOR marshaler"

// isIndefOut reports whether err is walk's error for an indefinite length
// under noIndef.
func isIndefOut(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Err == ErrSyntax && e.Msg == msgIndefOut
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
// definite lengths only (unless EncOptions.IndefLength is
// IndefLengthAllowed, see SetDefaultEncOptions), and tags 0-3 with the
// content RFC 8949 §3.4 requires. The error is a *Error with offsets into
// data.
//
// Deprecated: generated code calls [AppendMarshaledBy], whose error names
// the type, as fxamacker/cbor's does.
func AppendMarshaled(dst, data []byte) ([]byte, error) {
	d := Decoder{buf: data, opts: &marshalerLimits}
	if err := d.walk(checkTags|noIndef, 0); err != nil {
		if !isIndefOut(err) || ProcessEncOptions().IndefLength != IndefLengthAllowed {
			return dst, err
		}
		d = Decoder{buf: data, opts: &marshalerLimits}
		if err := d.walk(checkTags, 0); err != nil {
			return dst, err
		}
		indefWrites.Add(1)
	}
	if d.off != len(data) {
		return dst, d.errAt(d.Offset(), ErrTrailing, "more than one item in the output of a CBOR marshaler")
	}
	return append(dst, data...), nil
}
