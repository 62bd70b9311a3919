// Package fxmap holds copies of the workload types, with the same field
// tags, for fxamacker/cbor's default struct encoding: a CBOR map per
// struct. That is the legacy format the generated decoders also read.
// The copies have no methods, so fxamacker/cbor reflects over them.
package fxmap

import "github.com/fxamacker/cbor/v2"

// EncMode is fxamacker/cbor's default encoding mode, as cbor.Marshal uses.
var EncMode = mustEnc(cbor.EncOptions{})

// DecMode has the default decoding options.
var DecMode = mustDec(cbor.DecOptions{})

func mustEnc(o cbor.EncOptions) cbor.UserBufferEncMode {
	m, err := o.UserBufferEncMode()
	if err != nil {
		panic(err)
	}
	return m
}

func mustDec(o cbor.DecOptions) cbor.DecMode {
	m, err := o.DecMode()
	if err != nil {
		panic(err)
	}
	return m
}

type Request struct {
	ID         uint64   `cbor:"id"`
	Service    string   `cbor:"svc"`
	Method     string   `cbor:"m"`
	Deadline   int64    `cbor:"dl"`
	Priority   uint8    `cbor:"p"`
	Idempotent bool     `cbor:"idem"`
	TraceID    [16]byte `cbor:"tr"`
	Payload    []byte   `cbor:"b"`
}

type Profile struct {
	UserID   uint64   `json:"user_id"`
	Name     *string  `json:"name,omitempty"`
	Email    *string  `json:"email,omitempty"`
	Age      *uint32  `json:"age,omitempty"`
	Score    *float64 `json:"score,omitempty"`
	Verified *bool    `json:"verified,omitempty"`
	Balance  *int64   `json:"balance,omitempty"`
	Locale   *string  `json:"locale,omitempty"`
	Ratio    *float32 `json:"ratio,omitempty"`
	Level    *int32   `json:"level,omitempty"`
	Deleted  *bool    `json:"deleted,omitempty"`
}

type NodeKind uint8

type Graph struct {
	Name  string
	Nodes []Node
	Edges []Edge
}

type Node struct {
	ID     uint64
	Label  string
	Kind   NodeKind
	Weight int64
}

type Edge struct {
	From     uint64
	To       uint64
	Cost     int64
	Required bool
}

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

type Drawing struct {
	Segments []Segment
}

type Segment struct {
	Start, End Point
	Label      string
}

type Point struct {
	X, Y int64
}
