package genrt

import (
	"fmt"
	"strings"
	"sync"
)

// Unmarshal decodes data, which must hold exactly one item and nothing
// after it, into v, a pointer to a type cbor-gen generated, with the
// limits and rules of opts (zero fields take the process defaults, see
// SetDefaultOptions). It is
// v.UnmarshalCBOR(data) with options:
//
//	var o Order
//	err := runtime.Unmarshal(data, &o, runtime.Options{MaxDepth: 8, Strict: true})
//
// The error is a *Error whose path starts with the type's name, as from
// UnmarshalCBOR; bytes after the item are ErrTrailing, no data at all is
// io.ErrUnexpectedEOF.
//
// Its decoder comes from a pool: a call allocates only what v holds.
func Unmarshal(data []byte, v interface{ DecodeCBOR(*Decoder) error }, opts Options) error {
	d := unmarshalPool.Get().(*Decoder)
	d.resetBytes(data, &opts)
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
	d.resetBytes(data, &opts)
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

// Finish ends the UnmarshalCBOR of a generated struct named name, over
// the decoder NewBytesDecoder(data) made: err is what the struct's
// decoder returned. It is nil when err is nil and the value took all of
// data; otherwise err with name at the root of its path (as DecodeCBOR
// names it), ErrTrailing, or for no data io.ErrUnexpectedEOF.
//
// The test is in line; the rest is one call that every generated type
// shares, instead of the error paths in each UnmarshalCBOR.
func (d *Decoder) Finish(err error, name string) error {
	if err == nil && d.off == len(d.buf) {
		return nil
	}
	return d.finish(err, name)
}

func (d *Decoder) finish(err error, name string) error {
	if err != nil {
		return AtRoot(AtRoot(err, name, OneItem), name, WholeInput)
	}
	return AtRoot(d.Errorf(ErrTrailing, "unexpected data after the value"), name, WholeInput)
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
