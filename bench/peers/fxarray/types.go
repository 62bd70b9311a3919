// Package fxarray holds copies of the workload types for
// fxamacker/cbor's reflection-based codec with the toarray option: the
// same wire format as the generated code. The copies have no methods;
// otherwise fxamacker/cbor would call them instead of reflecting.
package fxarray

import (
	"time"

	"github.com/fxamacker/cbor/v2"
)

// EncMode is CoreDetEncOptions, the options the generated code matches.
var EncMode = mustEnc(cbor.CoreDetEncOptions())

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
	_          struct{} `cbor:",toarray"`
	ID         uint64
	Service    string
	Method     string
	Deadline   int64
	Priority   uint8
	Idempotent bool
	TraceID    [16]byte
	Payload    []byte
}

type Profile struct {
	_        struct{} `cbor:",toarray"`
	UserID   uint64
	Name     *string
	Email    *string
	Age      *uint32
	Score    *float64
	Verified *bool
	Balance  *int64
	Locale   *string
	Ratio    *float32
	Level    *int32
	Deleted  *bool
}

type NodeKind uint8

type Graph struct {
	_     struct{} `cbor:",toarray"`
	Name  string
	Nodes []Node
	Edges []Edge
}

type Node struct {
	_      struct{} `cbor:",toarray"`
	ID     uint64
	Label  string
	Kind   NodeKind
	Weight int64
}

type Edge struct {
	_        struct{} `cbor:",toarray"`
	From     uint64
	To       uint64
	Cost     int64
	Required bool
}

type Tables struct {
	_      struct{} `cbor:",toarray"`
	Matrix [][]int64
	Rows   [][]string
	Index  map[string][]uint32
	Groups map[string][]string
	Grid   [4][4]float64
	Chunks [][]byte
}

type Counters struct {
	_      struct{} `cbor:",toarray"`
	Host   string
	Counts map[string]int64
}

type Address [8]byte

type Kind uint8

type Location struct {
	_       struct{} `cbor:",toarray"`
	Address Address
	Name    string
}

type Composite struct {
	_        struct{} `cbor:",toarray"`
	Location Location
	ID       []byte
	Kind     Kind
	TypeName string
	Fields   []Field
}

type Field struct {
	_     struct{} `cbor:",toarray"`
	Name  string
	Value Value
}

type Value struct {
	_         struct{} `cbor:",toarray"`
	Int       *int64
	Str       *string
	Bytes     []byte
	Bool      *bool
	Composite *Composite
	Array     []Value
	Dict      map[string]Value
}

// Person is the record of workload/person; its time is written as the
// EncMode in use says (TimeRFC3339Nano or TimeUnix).
type Person struct {
	_        struct{} `cbor:",toarray"`
	Name     string
	BirthDay time.Time
	Phone    string
	Siblings int
	Spouse   bool
	Money    float64
}

type Drawing struct {
	_        struct{} `cbor:",toarray"`
	Segments []Segment
}

type Segment struct {
	_          struct{} `cbor:",toarray"`
	Start, End Point
	Label      string
}

type Point struct {
	_    struct{} `cbor:",toarray"`
	X, Y int64
}
