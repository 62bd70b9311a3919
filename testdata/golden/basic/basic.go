// Package basic is a golden case: every scalar kind, named scalar types
// and aliases.
package basic

// Kind is a named unsigned integer.
type Kind uint8

// Label is a named string.
type Label string

// Ratio is an alias; the generator sees float64.
type Ratio = float64

// Scalars has a field of every scalar kind.
type Scalars struct {
	B   bool
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	F32 float32
	F64 float64
	S   string
}

// Named has named and aliased scalar types.
type Named struct {
	Kind  Kind
	Label Label
	Ratio Ratio
	Flag  Flag
	Level Level
	Byte  byte
	Rune  rune
}

// Flag is a named bool.
type Flag bool

// Level is a named signed integer.
type Level int16

// Empty has no fields on the wire.
type Empty struct {
	hidden int
}
