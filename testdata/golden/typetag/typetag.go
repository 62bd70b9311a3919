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
