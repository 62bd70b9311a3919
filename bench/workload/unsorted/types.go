// Package unsorted holds copies of the workload types that have maps,
// generated with -sort=none: map pairs are written in Go's iteration
// order. That is not deterministic, but it is the same work msgp does
// (msgp never sorts), so these types measure what sorting costs.
package unsorted

//go:generate go tool cbor-gen -sort=none -type Tables,Counters,Location,Composite,Field,Value

type Tables struct {
	Matrix [][]int64
	Rows   [][]string
	Index  map[string][]uint32
	Groups map[string][]string
	Grid   [4][4]float64
	Chunks [][]byte
}

type Counters struct {
	Host   string
	Counts map[string]int64
}

type Address [8]byte

type Kind uint8

type Location struct {
	Address Address `cbor:"a"`
	Name    string  `cbor:"n"`
}

type Composite struct {
	Location Location `cbor:"l"`
	ID       []byte   `cbor:"id"`
	Kind     Kind     `cbor:"k"`
	TypeName string   `cbor:"t"`
	Fields   []Field  `cbor:"f"`
}

//cborgen:array
type Field struct {
	Name  string `cbor:"1,keyasint"`
	Value Value  `cbor:"2,keyasint"`
}

type Value struct {
	Int       *int64           `cbor:"i,omitempty"`
	Str       *string          `cbor:"s,omitempty"`
	Bytes     []byte           `cbor:"b,omitempty"`
	Bool      *bool            `cbor:"t,omitempty"`
	Composite *Composite       `cbor:"c,omitempty"`
	Array     []Value          `cbor:"a,omitempty"`
	Dict      map[string]Value `cbor:"d,omitempty"`
}
