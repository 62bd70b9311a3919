// Package store is an example of the values a storage system holds: each
// value is one of many kinds, written under a CBOR tag of its kind (a
// composite record, a dictionary, each integer width) or untagged (text,
// booleans). Value is a union (//cborgen:union): the generated dispatcher
// reads any of them without reflection.
//
// The composite record was once written as a map with integer keys (its
// fields tagged keyasint); it is an array now, under the same tag, and the
// generated decoder reads both. Its second slot held a field that was
// retired: runtime.Reserved keeps the slot, so stored arrays still line up.
package store

import "github.com/cborgen/cborgen/runtime"

//go:generate go tool cbor-gen

// Value is one stored value.
//
//cborgen:union
type Value interface{ isValue() }

// Composite is a record of a named kind: a struct, a resource or an event
// of the stored program.
//
//cborgen:tag 132
//cborgen:array
type Composite struct {
	Kind     string           `cbor:"1,keyasint"`
	_        runtime.Reserved // was Location, retired
	Fields   []Field          `cbor:"3,keyasint"`
	Metadata Dict             `cbor:"4,keyasint"`
}

// Field is one named value of a composite.
//
//cborgen:array
type Field struct {
	Name  string `cbor:"1,keyasint"`
	Value Value  `cbor:"2,keyasint"`
}

// Dict is a dictionary of values, which may hold dictionaries in turn.
//
//cborgen:tag 133
type Dict map[string]Value

// UInt64Value is an unsigned 64-bit integer.
//
//cborgen:tag 164
type UInt64Value uint64

// Int64Value is a signed 64-bit integer.
//
//cborgen:tag 165
type Int64Value int64

// UInt8Value is an unsigned 8-bit integer: each width has its own tag.
//
//cborgen:tag 160
type UInt8Value uint8

// StringValue is text, written untagged.
type StringValue string

// BoolValue is a boolean, written untagged.
type BoolValue bool

func (*Composite) isValue()  {}
func (Dict) isValue()        {}
func (UInt64Value) isValue() {}
func (Int64Value) isValue()  {}
func (UInt8Value) isValue()  {}
func (StringValue) isValue() {}
func (BoolValue) isValue()   {}
