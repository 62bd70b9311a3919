// Package mapkeys is a golden case: maps keyed by the comparable types
// beyond strings, integers and bools, each key written as a value of its
// type is written (a byte array as a byte string), the pairs in the order
// of the encoded keys.
package mapkeys

import "image"

// Hash is a named byte array, the key of ledger state.
type Hash [32]byte

// Octet is a named byte.
type Octet byte

// Pair is a named array of named bytes: a byte string too.
type Pair [2]Octet

// Ledger holds maps keyed by byte arrays.
type Ledger struct {
	ByHash  map[Hash]uint64
	ByFixed map[[3]byte]string
	ByPair  map[Pair][]byte
	Nested  map[Hash]map[[1]byte]bool
	Empty   map[[0]byte]int
}

// Cred is a struct key (a credential): written as its own encoding, an
// array.
type Cred struct {
	Kind uint8
	Hash Hash
}

// Span is a map-format struct key: a map keyed by integers.
//
//cborgen:map
type Span struct {
	From int `cbor:"1,keyasint"`
	To   int `cbor:"2,keyasint,omitempty"`
}

// Spans holds maps keyed by a map-format struct.
type Spans struct {
	BySpan map[Span]bool
	ByRef  map[*Span]Cred
}

// Foreign holds maps keyed by a struct of another package, which
// fxamacker/cbor writes (a map keyed by field name).
type Foreign struct {
	ByPoint map[image.Point]int
	ByRect  map[*image.Rectangle]string
}

// Grid is a named array of arrays.
type Grid [2][2]int8

// Index holds maps keyed by arrays, structs and pointers to them.
type Index struct {
	ByCred   map[Cred]uint64
	ByRef    map[*Cred]string
	ByPair   map[[2]int16]string
	ByGrid   map[Grid]int
	ByWords  map[[2]string]int
	ByHashP  map[*Hash]int
	ByFloatP map[*float64][]Cred
	ByCreds  map[[2]Cred]int
}

// Table is a generic holder of a map keyed by a type parameter: any
// comparable type argument, an interface too (a key that no Go map can
// hold is an error, as in fxamacker).
type Table[K comparable, V any] struct {
	Rows  map[K]V
	Count int
}

// Ledgers is a named map keyed by a named byte array.
type Ledgers map[Hash]Ledger

// Chain holds named maps and a generic one.
type Chain struct {
	ByHash Ledgers
	Creds  Table[Cred, uint8]
	Anys   Table[any, int]
}

// Celsius is a named float.
type Celsius float32

// Curve holds maps keyed by floats, written in the shortest form that
// keeps the value, as other floats are.
type Curve struct {
	Points map[float64]float64
	Small  map[float32]string
	Temps  map[Celsius]*Hash
}
