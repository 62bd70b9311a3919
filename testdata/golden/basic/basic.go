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

// Wide has more than 64 fields: its legacy decoder keeps the fields it has
// seen in two words.
type Wide struct {
	F00 int64
	F01 string
	F02 bool
	F03 uint8
	F04 float64
	F05 int64
	F06 string
	F07 bool
	F08 uint8
	F09 float64
	F10 int64
	F11 string
	F12 bool
	F13 uint8
	F14 float64
	F15 int64
	F16 string
	F17 bool
	F18 uint8
	F19 float64
	F20 int64
	F21 string
	F22 bool
	F23 uint8
	F24 float64
	F25 int64
	F26 string
	F27 bool
	F28 uint8
	F29 float64
	F30 int64
	F31 string
	F32 bool
	F33 uint8
	F34 float64
	F35 int64
	F36 string
	F37 bool
	F38 uint8
	F39 float64
	F40 int64
	F41 string
	F42 bool
	F43 uint8
	F44 float64
	F45 int64
	F46 string
	F47 bool
	F48 uint8
	F49 float64
	F50 int64
	F51 string
	F52 bool
	F53 uint8
	F54 float64
	F55 int64
	F56 string
	F57 bool
	F58 uint8
	F59 float64
	F60 int64
	F61 string
	F62 bool
	F63 uint8
	F64 float64
	F65 int64
	F66 string
	F67 bool
	F68 uint8
	F69 float64
}
