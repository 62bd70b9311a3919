// Package nilempty is a golden case: -nilempty writes nil slices, maps
// and byte slices as empty ones, as fxamacker's NilContainerAsEmpty.
package nilempty

//go:generate go tool cbor-gen -nilempty

// Blob is a named byte slice.
type Blob []byte

// Holder has a container of every kind that can be nil.
type Holder struct {
	Bytes  []byte
	Blob   Blob
	Ints   []int
	Names  map[string]int
	Nested [][]string
	Ptr    *[]int
	Inner  Inner
	Inners []Inner
	ByKey  map[string][]byte
}

// Inner is a nested generated type.
type Inner struct {
	Tags []string
	Raw  []byte
}
