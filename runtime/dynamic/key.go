package dynamic

import (
	"reflect"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// DecodeKey decodes the next item from d into *p, the key of a map whose
// key type is a type parameter, as DecodeValue does, then makes sure that
// a Go map can hold it, as fxamacker/cbor's default decoder does: when K
// is an interface type and the item read as a []byte, the key is that
// byte string as a cbor.ByteString (MapKeyByteStringAllowed); any other
// key that is not comparable (a slice or map in an interface, a struct
// of K holding one) is fxamacker's InvalidMapKeyTypeError, in a
// *runtime.Error at the key's offset (the check costs a reflection only
// when K holds an interface).
func DecodeKey[K comparable](d *genrt.Decoder, p *K) error {
	off := d.Offset()
	if err := DecodeValue(d, p); err != nil {
		return err
	}
	if !holdsInterface(reflect.TypeFor[K]()) {
		return nil
	}
	v := reflect.ValueOf(p).Elem()
	if v.Comparable() {
		return nil
	}
	if b, ok := any(*p).([]byte); ok {
		if k, ok := any(cbor.ByteString(b)).(K); ok {
			*p = k
			return nil
		}
	}
	return d.MethodError(off, &cbor.InvalidMapKeyTypeError{GoType: typeIn(v).String()})
}

// typeIn is the dynamic type of v when v is an interface.
func typeIn(v reflect.Value) reflect.Type {
	if v.Kind() == reflect.Interface && !v.IsNil() {
		return v.Elem().Type()
	}
	return v.Type()
}

// holdsInterface reports whether a value of t holds an interface value
// in place: t is one, or an array or struct with one within it (a
// pointer's target is not in place).
func holdsInterface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return holdsInterface(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsInterface(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
