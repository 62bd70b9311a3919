// Package mapkeys is a golden case: maps keyed by the comparable types
// beyond strings, integers and bools, each key written as a value of its
// type is written (a byte array as a byte string), the pairs in the order
// of the encoded keys.
package mapkeys

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

// Celsius is a named float.
type Celsius float32

// Curve holds maps keyed by floats, written in the shortest form that
// keeps the value, as other floats are.
type Curve struct {
	Points map[float64]float64
	Small  map[float32]string
	Temps  map[Celsius]*Hash
}
