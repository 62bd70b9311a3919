package model

import "go/types"

// Foreign is the shape of a type that cbor-gen does not generate and that
// the generated code hands to fxamacker/cbor (a field of type Dynamic that
// is not an interface), as fxamacker encodes it, and of every type within
// it that is known when the code is generated: the builder walks the
// struct's fields as fxamacker sees them (build/foreign.go), and the
// schema record keeps the shapes, so that a change of the type (a new
// version of the module that declares it) that stored data would not
// survive is refused like a change of the program's own types. It is
// read by the schema stage only: the emitters hand such a value to
// fxamacker whatever its shape.
type Foreign struct {
	Go types.Type // a named type, or an anonymous struct type within one
	// Name is how the record names the type: its type string, with the
	// path of its package (none for the package being generated), and
	// for an anonymous struct the name of the type that holds it and the
	// path of the field (pkg/path.Outer.Meta).
	Name string
	Form ForeignForm
	// Fields are the fields on the wire, in fxamacker's order, for
	// ForeignMap and ForeignArray: Key, KeyAsInt, KeyInt, OmitEmpty, Via
	// and Type are set, Type built as for a generated struct's field,
	// with Dynamic for a struct within (which has a Foreign of its own).
	Fields []*Field
}

// ForeignForm is how fxamacker/cbor encodes a Foreign type.
type ForeignForm int

const (
	ForeignMap    ForeignForm = iota // a struct: a map keyed by field name, or integer for keyasint
	ForeignArray                     // a struct with the toarray option: an array of its fields
	ForeignCBOR                      // its own MarshalCBOR or UnmarshalCBOR: not looked into
	ForeignBinary                    // its own MarshalBinary or UnmarshalBinary: a byte string
)

// String is the form as the record writes it.
func (f ForeignForm) String() string {
	switch f {
	case ForeignMap:
		return "map"
	case ForeignArray:
		return "array"
	case ForeignCBOR:
		return "cbor"
	case ForeignBinary:
		return "binary"
	}
	return "?"
}
