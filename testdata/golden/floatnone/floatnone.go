// Package floatnone is a golden case: -float none writes every float at
// its Go width (float32 in 5 bytes, float64 in 9), as fxamacker's
// ShortestFloatNone, its default encoding option; NaN and the
// infinities stay float16, as fxamacker's default NaN and infinity
// conversions write them.
package floatnone

//go:generate go tool cbor-gen -float none

// Celsius is a named float type.
type Celsius float64

// Point has only floats: its SizeCBOR is its exact size.
type Point struct {
	X float64
	Y float64
	Z float32
}

// Reading has floats in every place a field can hold one.
type Reading struct {
	Value  float64
	Small  float32
	Temp   Celsius
	Ptr    *float64
	Series []float64
	Pair   [2]float32
	ByName map[string]float64
	Points []Point
	Where  *Point
	Any    any `cbor:"any,omitempty"`
}

// Keys holds maps keyed by floats, each key at its Go width.
type Keys struct {
	Wide   map[float64]int
	Narrow map[float32]bool
	Temps  map[Celsius]string
}
