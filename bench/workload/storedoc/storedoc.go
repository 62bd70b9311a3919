// Package storedoc is the benchmarks' store document: the shape of a real
// record of a smart-contract store (bench/testdata/cadence-composite-v3.cbor.gz,
// 776 KB), about 790 KB, built from a seed (document.go).
// A value is a union of
//
//	Composite   tag 132, a map with integer keys: 0 its location (tag 192,
//	            a map of address bytes and a name), 1 retired, 2 its kind,
//	            3 its fields (text names to values), 4 its qualified
//	            identifier
//	Dictionary  tag 129, a map with integer keys: 0 an array of values,
//	            1 a map of text to values
//	UInt32Value tag 163
//	UInt64Value tag 164
//	StringValue untagged text, most values, mostly short
//	BoolValue   untagged
//
// nested through the union. fxamacker/cbor reads the same bytes only into
// any (with cbor.Tag for every tag).
package storedoc

//go:generate go tool cbor-gen

// Value is one stored value.
//
//cborgen:union
type Value interface{ isValue() }

// Composite is a record of a named kind: a struct, a resource, an event.
// Key 1 held a field that was retired; it is never written.
//
//cborgen:tag 132
//cborgen:map
type Composite struct {
	Location      Location         `cbor:"0,keyasint"`
	Kind          uint8            `cbor:"2,keyasint"`
	Fields        map[string]Value `cbor:"3,keyasint"`
	QualifiedName string           `cbor:"4,keyasint"`
}

// Location is where a composite's type is declared: an account address
// and a contract name.
//
//cborgen:tag 192
//cborgen:map
type Location struct {
	Address []byte `cbor:"0,keyasint"`
	Name    string `cbor:"1,keyasint"`
}

// Dictionary holds values by position and by name.
//
//cborgen:tag 129
//cborgen:map
type Dictionary struct {
	Values  []Value          `cbor:"0,keyasint"`
	Entries map[string]Value `cbor:"1,keyasint"`
}

// UInt32Value is an unsigned 32-bit integer.
//
//cborgen:tag 163
type UInt32Value uint32

// UInt64Value is an unsigned 64-bit integer.
//
//cborgen:tag 164
type UInt64Value uint64

// StringValue is text, written untagged.
type StringValue string

// BoolValue is a boolean, written untagged.
type BoolValue bool

func (*Composite) isValue()  {}
func (*Dictionary) isValue() {}
func (UInt32Value) isValue() {}
func (UInt64Value) isValue() {}
func (StringValue) isValue() {}
func (BoolValue) isValue()   {}
