// Package sortlength is a golden case generated with -sort=length.
package sortlength

//go:generate go tool cbor-gen -sort=length

// Index holds maps, whose keys go out length-first.
type Index struct {
	Words map[string]int
	Refs  map[int][]string
}
