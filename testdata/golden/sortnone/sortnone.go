// Package sortnone is a golden case generated with -sort=none.
package sortnone

//go:generate go tool cbor-gen -sort=none

// Index holds maps, whose keys go out in Go's map order.
type Index struct {
	Words map[string]int
	Refs  map[int][]string
}

// Labels is a map-format struct: its keys are written in the run's order.
//
//cborgen:map
type Labels struct {
	Long  string `cbor:"aaaa"`
	Short string `cbor:"z"`
	Neg   int    `cbor:"-30,keyasint"`
	Mid   string `cbor:"bb,omitempty"`
	Small int    `cbor:"7,keyasint,omitempty"`
}

// Keys holds maps keyed by other comparable types.
type Keys struct {
	Hashes map[[2]byte]int
	Floats map[float64]int
	Points map[Point]string
	Refs   map[*Point]int
	Arrays map[[2]int32]bool
}

// Point is a struct key.
type Point struct {
	X, Y int
	Name string
}
