package runtime

import (
	"reflect"
	"strings"
)

// Unmarshal decodes data, which must hold exactly one item and nothing
// after it, into v, a pointer to a type cbor-gen generated, with the
// limits and strictness of opts (zero fields take the defaults). It is
// v.UnmarshalCBOR(data) with options:
//
//	var o Order
//	err := runtime.Unmarshal(data, &o, runtime.Options{MaxDepth: 8, Strict: true})
//
// The error is a *Error whose path starts with the type's name, as from
// UnmarshalCBOR; bytes after the item are ErrTrailing, no data at all is
// io.ErrUnexpectedEOF.
func Unmarshal(data []byte, v interface{ DecodeCBOR(*Decoder) error }, opts Options) error {
	d := NewBytesDecoder(data)
	d.SetOptions(opts)
	if err := v.DecodeCBOR(d); err != nil {
		return AtType(err, typeName(v))
	}
	if d.off != len(data) {
		return AtType(d.errAt(d.Offset(), ErrTrailing, "unexpected data after the value"), typeName(v))
	}
	return nil
}

// typeName is the name UnmarshalCBOR gives the root of an error's path:
// the type v points to, without type arguments.
func typeName(v any) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	name, _, _ := strings.Cut(t.Name(), "[")
	return name
}
