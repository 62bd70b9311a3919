// Package sortnone is a golden case generated with -sort=none.
package sortnone

//go:generate go tool cbor-gen -sort=none

// Index holds maps, whose keys go out in Go's map order.
type Index struct {
	Words map[string]int
	Refs  map[int][]string
}
