// Package mapformat is a golden case: structs written as CBOR maps
// (//cborgen:map), as fxamacker/cbor writes a struct without toarray,
// beside array structs that hold them and that they hold.
package mapformat

import (
	"net/netip"
	"time"

	"github.com/fxamacker/cbor/v2"
)

// Header is a COSE-style header: integer keys, most of them optional.
//
//cborgen:map
type Header struct {
	Alg      int64             `cbor:"1,keyasint,omitempty"`
	Crit     []int64           `cbor:"2,keyasint,omitempty"`
	Type     string            `cbor:"3,keyasint,omitempty"`
	KeyID    []byte            `cbor:"4,keyasint,omitempty"`
	IV       []byte            `cbor:"5,keyasint,omitempty"`
	Counter  *Signature        `cbor:"7,keyasint,omitempty"`
	Extra    map[string]string `cbor:"-1,keyasint,omitempty"`
	Critical bool              `cbor:"-2,keyasint,omitempty"`
	Raw      cbor.RawMessage   `cbor:"-3,keyasint,omitempty"`
}

// Signature is an array type held by a map type.
type Signature struct {
	Protected []byte
	Header    Header
	Sig       []byte
}

// Message is a tagged map type with text keys, holding array and map types.
//
//cborgen:map
//cborgen:tag 1018
type Message struct {
	Protected   []byte      `cbor:"protected"`
	Unprotected Header      `cbor:"unprotected"`
	Payload     []byte      `cbor:"payload,omitempty"`
	Signatures  []Signature `cbor:"signatures,omitempty"`
	Version     uint8       `cbor:"v"`
}

// Point is comparable and has no floats: omitzero compares it with Point{}.
type Point struct{ X, Y int32 }

// Level has an IsZero method of its own, which omitzero calls.
type Level int

// IsZero reports whether the level is the lowest, 1 or below.
func (l Level) IsZero() bool { return l <= 1 }

// Zeros exercises omitzero, and omitempty beside it.
//
//cborgen:map
type Zeros struct {
	F     float64   `cbor:"f,omitzero"`
	G     float32   `cbor:"g,omitempty"`
	At    Point     `cbor:"at,omitzero"`
	When  time.Time `cbor:"when,omitzero"`
	Lvl   Level     `cbor:"lvl,omitzero"`
	PLvl  *Level    `cbor:"plvl,omitzero"`
	Tags  []string  `cbor:"tags,omitzero"`
	Both  string    `cbor:"both,omitempty,omitzero"`
	Arr   [2]int8   `cbor:"arr,omitzero"`
	Plain int
	// Addr is written by MarshalBinary, which fxamacker calls to tell
	// whether it is empty (the zero Addr writes no bytes).
	Addr netip.Addr `cbor:"addr,omitempty"`
}

// Base is embedded by value and by pointer.
type Base struct {
	ID   uint64 `cbor:"id"`
	Note string `cbor:"note,omitempty"`
}

// More is embedded through a pointer.
type More struct {
	Count int `cbor:"count"`
}

// Record promotes fields through embedding: those of a nil *More are left
// out, as fxamacker/cbor leaves them out of a map.
//
//cborgen:map
type Record struct {
	Base
	*More
	Name string `cbor:"name"`
}

// Wide has more than 23 fields, so that its map head is two bytes long
// until enough fields are left out.
//
//cborgen:map
type Wide struct {
	A0  int `cbor:",omitempty"`
	A1  int `cbor:",omitempty"`
	A2  int `cbor:",omitempty"`
	A3  int `cbor:",omitempty"`
	A4  int `cbor:",omitempty"`
	A5  int `cbor:",omitempty"`
	A6  int `cbor:",omitempty"`
	A7  int `cbor:",omitempty"`
	A8  int `cbor:",omitempty"`
	A9  int `cbor:",omitempty"`
	A10 int `cbor:",omitempty"`
	A11 int `cbor:",omitempty"`
	A12 int `cbor:",omitempty"`
	A13 int `cbor:",omitempty"`
	A14 int `cbor:",omitempty"`
	A15 int `cbor:",omitempty"`
	A16 int `cbor:",omitempty"`
	A17 int `cbor:",omitempty"`
	A18 int `cbor:",omitempty"`
	A19 int `cbor:",omitempty"`
	A20 int `cbor:",omitempty"`
	A21 int `cbor:",omitempty"`
	A22 int `cbor:",omitempty"`
	A23 int `cbor:",omitempty"`
	A24 int `cbor:",omitempty"`
}

// Coord is a map type whose encoding has a fixed maximum size, which the
// SizeCBOR of a type holding it counts at generation time, keys included.
//
//cborgen:map
type Coord struct {
	X int8 `cbor:"x"`
	Y int8 `cbor:"y"`
}

// Holder is an array type of fixed size holding map types.
type Holder struct {
	At   Coord
	Many [2]Coord
}

// SetType is a set as a Cardano library declares it: a generic struct
// that holds a slice, so not comparable, with no IsZero method.
type SetType[T any] struct {
	Items []T
}

// Bag is not comparable either: a map, an array of slices, a struct in
// it, and fields that are not encoded but that reflect's IsZero (and so
// fxamacker's omitzero) looks at all the same.
type Bag struct {
	M     map[string]int
	Rows  [2][]byte
	Inner struct {
		N float64
		P *int8
	}
	F    func() `cbor:"-"`
	note string
}

// SetNote sets the field that is not encoded.
func (b *Bag) SetNote(s string) { b.note = s }

// ZeroParts holds types that == cannot test under omitzero: each is left
// out when reflect's IsZero says it is zero, part by part, as fxamacker
// leaves it out.
//
//cborgen:map
type ZeroParts struct {
	Set  SetType[uint64] `cbor:"1,keyasint,omitzero"`
	Bag  Bag             `cbor:"2,keyasint,omitzero"`
	Anon struct {
		L []string
		A [2]int16
	} `cbor:"3,keyasint,omitzero"`
	Sets [2]SetType[string] `cbor:"4,keyasint,omitzero"`
	Both SetType[int8]      `cbor:"5,keyasint,omitempty,omitzero"`
}
