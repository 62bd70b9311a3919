// Package small is a golden case: -small, the smaller and slower form of
// the code, on the shapes of the other cases (every scalar kind, every
// container, structs inside structs, the tags of the legacy map's keys,
// times) and on the types that keep the default code's structure (a tag
// of the type's own, optional elements, more than 64 fields). The generator's
// behaviour tests check its values against fxamacker/cbor as they check
// the default code's.
package small

//go:generate go tool cbor-gen -small

import (
	"time"

	"github.com/cborgen/cborgen/testdata/golden/containers"
)

// Scalars has a field of every scalar kind.
type Scalars struct {
	B   bool
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	F32 float32
	F64 float64
	S   string
}

// Containers has a field of every container shape.
type Containers struct {
	Bytes    []byte
	Blob     containers.Blob
	Fixed    [3]byte
	Hash     containers.Hash
	Ints     []int
	Tags     containers.Tags
	Triple   [3]int16
	Grid     [2][2]uint8
	Nested   [][]string
	ByName   map[string]int
	ByInt    map[int64]string
	ByUint   map[uint8]bool
	ByBool   map[bool]float32
	Counts   containers.Counts
	ByColor  map[containers.Color][]byte
	PInt     *int
	PString  *string
	PBytes   *[]byte
	PSlice   *[]int
	PMap     *map[string]string
	PPInt    **int
	PHash    *containers.Hash
	Pointers []*int
	MapOfMap map[string]map[int]string
}

// Item is a line of an Order.
type Item struct {
	SKU   string
	Qty   uint32
	Price float64
}

// Order holds Items in every way a struct can hold another.
type Order struct {
	ID       uint64
	First    Item
	Last     *Item
	Items    []Item
	Pointers []*Item
	Pair     [2]Item
	ByName   map[string]Item
	ByID     map[int]*Item
	Parent   *Order
	Children []Order
	At       time.Time
	Since    *time.Time
}

// Tagged uses every tag form. Its toarray option would leave it without
// the legacy map decoder; //cborgen:legacy keeps it.
//
//cborgen:legacy
type Tagged struct {
	_        struct{} `cbor:",toarray"`
	Name     string   `cbor:"name"`
	Skipped  int      `cbor:"-"`
	Opt      string   `cbor:"opt,omitempty"`
	One      int      `cbor:"1,keyasint"`
	Neg      bool     `cbor:"-2,keyasint,omitempty"`
	JSONName string   `json:"json_name"`
	JSONSkip int      `json:"-"`
	JSONOpt  []int    `json:"jopt,omitempty"`
	Both     uint     `cbor:"both_cbor" json:"both_json"`
	NoName   string   `cbor:",omitempty"`
	Plain    float32
	private  int
	Private2 int `cbor:"-" json:"p2"`
}

// IntKeys uses only integer keys; it is an array all the same.
//
//cborgen:array
type IntKeys struct {
	A int    `cbor:"1,keyasint"`
	B string `cbor:"2,keyasint"`
	C []byte `cbor:"-1,keyasint"`
}

// Cased has keys that differ only in case (an exact match wins over a
// case-insensitive one; the first field wins among those).
//
//cborgen:array
type Cased struct {
	Lower string `cbor:"key"`
	Upper string `cbor:"KEY"`
	Mixed int    `cbor:"kEy2"`
	Sigma string `cbor:"σς"`
	Ks    int    `cbor:"ks"`
	Int   int    `cbor:"3,keyasint"`
}

// Signed has no legacy map form.
//
//cborgen:nolegacy
type Signed struct {
	Payload []byte
	Key     uint32
}

// Base is embedded through a pointer.
type Base struct {
	ID   uint64
	Name string
}

// Derived has Base's fields promoted through a pointer.
type Derived struct {
	*Base
	Extra int16
}

// Envelope has a tag of its own, which keeps the default structure.
//
//cborgen:tag 1234
type Envelope struct {
	Kind uint8
	Body string
}

// Versioned may leave its last two elements out.
//
//cborgen:optional 1
type Versioned struct {
	V     uint8
	Note  string
	Extra *int64
}

// Empty has no fields on the wire.
type Empty struct {
	hidden int
}

// Batch has a tag of its own and only fields that may be null, whose
// reads need no error variable of the method's.
//
//cborgen:tag 1235
type Batch struct {
	Items []string
	Sizes map[string]uint16
}
