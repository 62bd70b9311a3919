// Package typetag is a golden case: types written under a CBOR tag of
// their own (//cborgen:tag), as fxamacker/cbor writes a type in its TagSet.
package typetag

// Point is always tagged.
//
//cborgen:tag 1001
type Point struct {
	X, Y int64
}

// Label may come untagged from older writers.
//
//cborgen:tag 1002 optional
type Label struct {
	Text string `cbor:"t"`
	Lang string `cbor:"l,omitempty"`
}

// Shape holds tagged values in every position, under a tag of its own.
//
//cborgen:tag 65535
type Shape struct {
	At    Point
	Path  []Point
	Named map[string]Label
	Maybe *Point
	Label Label
}

// UInt64Value is a tagged integer: a named non-struct type is generated
// when it carries //cborgen:tag.
//
//cborgen:tag 1003
type UInt64Value uint64

// Dict is a tagged map of tagged values.
//
//cborgen:tag 1004
type Dict map[string]UInt64Value

// Blob is a byte string whose tag older writers left out.
//
//cborgen:tag 1005 optional
type Blob []byte

// Points is a tagged slice of tagged structs.
//
//cborgen:tag 1006
type Points []Point

// Values holds the tagged value types.
type Values struct {
	U   UInt64Value
	D   Dict
	B   Blob
	P   Points
	PU  *UInt64Value
	Ds  []Dict
	Map map[string]Blob
}

// Sparse is a map-format struct of tagged values, each left out when
// empty (omitempty) as fxamacker/cbor leaves out a type of its TagSet: by
// the test of the type's underlying kind, so that a nil Dict is left out
// rather than written as an untagged null. A tagged struct is never empty.
//
//cborgen:map
type Sparse struct {
	U  UInt64Value `cbor:"u,omitempty"`
	D  Dict        `cbor:"d,omitempty"`
	B  Blob        `cbor:"b,omitempty"`
	P  Points      `cbor:"p,omitempty"`
	At Point       `cbor:"at,omitempty"`
}
