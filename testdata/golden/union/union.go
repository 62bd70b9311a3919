// Package union is a golden case: a tagged union of value kinds, as a
// store holds them (//cborgen:union), with tagged and untagged variants
// and recursion through the union.
package union

// Value is one stored value.
//
//cborgen:union
type Value interface{ isValue() }

// Composite is a record under tag 2000; it was once written as a map with
// integer keys.
//
//cborgen:tag 2000
//cborgen:array
type Composite struct {
	Kind   string  `cbor:"1,keyasint"`
	Fields []Value `cbor:"2,keyasint"`
}

// Dict is a dictionary of values under tag 2001.
//
//cborgen:tag 2001
type Dict map[string]Value

// UInt64Value is an unsigned integer under tag 2002.
//
//cborgen:tag 2002
type UInt64Value uint64

// Int64Value is a signed integer under tag 2003.
//
//cborgen:tag 2003
type Int64Value int64

// StringValue is untagged text.
type StringValue string

// BoolValue is an untagged bool.
type BoolValue bool

func (*Composite) isValue()  {}
func (Dict) isValue()        {}
func (UInt64Value) isValue() {}
func (Int64Value) isValue()  {}
func (StringValue) isValue() {}
func (BoolValue) isValue()   {}

// Extension is a union with a catch-all variant: a reader that keeps
// kinds it does not know.
//
//cborgen:union
type Extension interface{ isExtension() }

// Unknown keeps any item no other variant of Extension claims (a kind a
// newer writer added), and writes it back byte for byte.
//
//cborgen:catchall
type Unknown []byte

func (Unknown) isExtension()     {}
func (StringValue) isExtension() {}
func (UInt64Value) isExtension() {}

// Document holds values in every position.
type Document struct {
	Root   Value
	Values []Value
	ByName map[string]Value
	Ptr    *Composite
	Ext    []Extension
}
