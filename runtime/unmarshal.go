package runtime

import (
	"fmt"
	"strings"
	"sync"
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
//
// The decoder comes from a pool (v's method makes it escape), so that a
// call allocates nothing but what v holds; with opts.ZeroCopy and a value
// of strings and numbers, nothing at all.
func Unmarshal(data []byte, v interface{ DecodeCBOR(*Decoder) error }, opts Options) error {
	d := unmarshalPool.Get().(*Decoder)
	d.resetBytes(data)
	d.SetOptions(opts)
	err := v.DecodeCBOR(d)
	if err == nil && d.off != len(data) {
		err = d.errAt(d.Offset(), ErrTrailing, "unexpected data after the value")
	}
	d.buf = nil
	unmarshalPool.Put(d)
	if err != nil {
		return AtRoot(err, typeName(v), WholeInput)
	}
	return nil
}

// UnmarshalBody is Unmarshal for the hook of a type declared with
// //cborgen:body: it decodes data with v's generated DecodeCBORBody, so
// that a hand-written UnmarshalCBOR can be
//
//	func (r *Record) UnmarshalCBOR(data []byte) error {
//		if err := runtime.UnmarshalBody(data, r, runtime.Options{}); err != nil {
//			return err
//		}
//		return r.check() // what the hook does around the body
//	}
//
// (Unmarshal's code, repeated rather than shared: a call more would cost
// Unmarshal a tenth of its instructions on a small value.)
func UnmarshalBody(data []byte, v interface{ DecodeCBORBody(*Decoder) error }, opts Options) error {
	d := unmarshalPool.Get().(*Decoder)
	d.resetBytes(data)
	d.SetOptions(opts)
	err := v.DecodeCBORBody(d)
	if err == nil && d.off != len(data) {
		err = d.errAt(d.Offset(), ErrTrailing, "unexpected data after the value")
	}
	d.buf = nil
	unmarshalPool.Put(d)
	if err != nil {
		return AtRoot(err, typeName(v), WholeInput)
	}
	return nil
}

var unmarshalPool = sync.Pool{New: func() any { return NewBytesDecoder(nil) }}

// typeName is the name UnmarshalCBOR gives the root of an error's path:
// the type v points to, without its package or type arguments, or ""
// when that type has no name. It reads the name from fmt's %T, which is
// "*pkg.Name[args]" for every type cbor-gen generates, so that the
// runtime needs no reflection of its own.
func typeName(v any) string {
	s := strings.TrimLeft(fmt.Sprintf("%T", v), "*")
	s, _, _ = strings.Cut(s, "[")
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 || strings.ContainsAny(s, " {}()") {
		return "" // an unnamed type: struct{ *T }, map[K]V, func() T...
	}
	return s[dot+1:]
}
