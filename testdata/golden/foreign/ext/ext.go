// Package ext stands for a third-party module in the foreign golden
// case: its structs have no generated methods and no //go:generate line,
// so fxamacker/cbor encodes them by reflection, and a map-format struct
// holding one tests it for omitempty field by field, as fxamacker does.
package ext

import "time"

// Options is empty when each of its fields on the wire is: every one is
// tagged omitempty.
type Options struct {
	Name   string         `cbor:"name,omitempty"`
	Level  int            `cbor:"level,omitempty"`
	Ratio  float64        `cbor:"ratio,omitempty"`
	On     bool           `cbor:"on,omitempty"`
	Tags   []string       `cbor:"tags,omitempty"`
	Attrs  map[string]int `cbor:"attrs,omitempty"`
	Next   *Options       `cbor:"next,omitempty"`
	Limits Limits         `cbor:"limits,omitempty"`
	Fixed  [0]int         `cbor:"fixed,omitempty"`
	When   time.Time      `cbor:"-"`
	hidden int
	inner
	*Extra
}

// inner is embedded unexported: its exported fields are promoted.
type inner struct {
	Depth uint16 `cbor:"depth,omitempty"`
}

// Extra is embedded through a pointer: nil, its fields count as empty.
type Extra struct {
	Note string `cbor:"note,omitempty"`
}

// Limits is a struct inside Options, tested field by field in turn.
type Limits struct {
	Max uint32 `cbor:"max,omitempty"`
	Min int8   `cbor:"min,omitempty"`
}

// Point has a field without omitempty: never empty.
type Point struct {
	X int `cbor:"x,omitempty"`
	Y int `cbor:"y"`
}

// Pair has fxamacker's toarray option and fields: never empty.
type Pair struct {
	_ struct{} `cbor:",toarray"`
	A int      `cbor:",omitempty"`
	B int      `cbor:",omitempty"`
}

// Nothing has no field on the wire: always empty.
type Nothing struct {
	hidden int
}

// Stamp holds a time, which fxamacker never counts as empty.
type Stamp struct {
	At time.Time `cbor:"at,omitempty"`
}
