// Package realworld holds the field types users' structs actually have:
// times, big integers, raw messages, types with their own marshalers,
// embedded structs, generic types, interfaces, recursive types, named
// containers and pointers to pointers.
package realworld

import (
	"math/big"
	"net/netip"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/testdata/golden/nested"
)

// Kind is a named byte type: a []Kind is a byte string, as fxamacker
// writes any slice whose element kind is uint8.
type Kind uint8

// Named containers.
type (
	Tags  []string
	Attrs map[string]int
	Grid  [2][3]int16
	Blob  []byte
)

// Money has its own CBOR methods (fxamacker's cbor.Marshaler and
// cbor.Unmarshaler), written by hand: an array [units, currency].
type Money struct {
	Units    int64
	Currency string
}

func (m Money) MarshalCBOR() ([]byte, error) {
	return cbor.Marshal([]any{m.Units, m.Currency})
}

func (m *Money) UnmarshalCBOR(data []byte) error {
	var a struct {
		_        struct{} `cbor:",toarray"`
		Units    int64
		Currency string
	}
	if err := cbor.Unmarshal(data, &a); err != nil {
		return err
	}
	m.Units, m.Currency = a.Units, a.Currency
	return nil
}

// Values has a field of each kind that is not a struct of its own.
type Values struct {
	At       time.Time
	AtPtr    *time.Time
	Big      big.Int
	BigPtr   *big.Int
	Raw      cbor.RawMessage
	Price    Money
	PricePtr *Money
	Addr     netip.Addr // encoding.BinaryMarshaler: a byte string
	Any      any
	Kinds    []Kind
	Kind4    [4]Kind
	Tags     Tags
	Attrs    Attrs
	Grid     Grid
	Blob     Blob
	PP       **int
	PPS      **string
	Items    [2]nested.Item
	ByName   map[string]nested.Item
	ByID     map[int]*nested.Item
	Times    []time.Time
	Z        int       `cbor:"z,omitzero"`
	ZAt      time.Time `cbor:"zat,omitzero"`
	E        string    `cbor:"e,omitempty"`
}

// Audit and Meta are embedded in Doc.
type Audit struct {
	CreatedBy string
	Version   int    `cbor:"v"`
	Title     string // shadowed by Doc.Title, which is less nested
	Note      string // ambiguous with Meta.Note: neither is on the wire
	Owner     string // Meta.OwnerID is tagged "Owner" and wins
}

type Meta struct {
	ID      uint64
	Version int
	Note    string
	OwnerID string `json:"Owner"`
	Inner
}

type Inner struct {
	Depth  int
	Labels []string
}

// Doc embeds a struct by value and one by pointer, which embeds a third.
type Doc struct {
	Audit
	*Meta
	Title string
	ID    string `cbor:"id"`
}

// Page is generic: its methods work for every instantiation.
type Page[T any] struct {
	Items []T
	Next  string
	First *T
	ByKey map[string]T
	Top   [3]T // a byte string when T is uint8, as fxamacker writes it
}

// Pair has two type parameters.
type Pair[K comparable, V any] struct {
	Key K
	Val V
}

// Tree and List are recursive.
type Tree struct {
	Value int
	Kids  []Tree
	Left  *Tree
}

type List struct {
	Val  string
	Next *List
}

// Shape is a named interface.
type Shape interface{ Area() float64 }

// Uses holds instantiations of the generic types, recursive types, and
// interfaces.
type Uses struct {
	Ints  Page[int]
	Items Page[nested.Item]
	Strs  *Page[string]
	Pair  Pair[string, float64]
	Tree  Tree
	List  *List
	Shape Shape
	Any   []any
}
