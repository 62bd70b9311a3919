// Package containers is a golden case: pointers, slices, arrays, byte
// strings and maps, plain and named.
package containers

// Tags is a named slice.
type Tags []string

// Blob is a named byte slice.
type Blob []byte

// Hash is a named byte array.
type Hash [4]byte

// Counts is a named map.
type Counts map[string]uint32

// Color is a named map key.
type Color string

// Containers has a field of every container shape.
type Containers struct {
	Bytes    []byte
	Blob     Blob
	Fixed    [3]byte
	Hash     Hash
	Ints     []int
	Tags     Tags
	Triple   [3]int16
	Grid     [2][2]uint8
	Nested   [][]string
	ByName   map[string]int
	ByInt    map[int64]string
	ByUint   map[uint8]bool
	ByBool   map[bool]float32
	Counts   Counts
	ByColor  map[Color][]byte
	PInt     *int
	PString  *string
	PBytes   *[]byte
	PSlice   *[]int
	PMap     *map[string]string
	PPInt    **int
	PHash    *Hash
	Pointers []*int
	MapOfMap map[string]map[int]string
}
