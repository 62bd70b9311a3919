// Package anonymous is a golden case: fields of anonymous struct types,
// which fxamacker/cbor writes as maps keyed by field name (arrays with its
// toarray option), directly, in slices, behind pointers, as map values
// (the set idiom map[string]struct{}) and inside one another. Each use
// gets a hidden named copy in the output (cborAnon_Doc_Meta, ...).
package anonymous

import "time"

//go:generate go tool cbor-gen -type Doc,Card,Set,Page,Arr,Ver

// Doc holds anonymous structs of every shape.
type Doc struct {
	ID   int64
	Meta struct {
		Author string `cbor:"author"`
		Rev    uint16 `cbor:"rev,omitempty"`
		Tags   []string
	}
	Parts []struct {
		Name string
		Size int32 `cbor:"1,keyasint"`
	}
	Cover *struct {
		URL    string
		Width  int
		Height int
	}
	Seen  map[string]struct{}
	Notes map[string]struct {
		At   time.Time `cbor:"at"`
		Text string    `cbor:"text"`
	}
	// Point carries fxamacker's toarray option: an array.
	Point struct {
		_    struct{} `cbor:",toarray"`
		X, Y float64
	}
	Tree struct {
		Label string
		Kids  []struct {
			Label string
			Leaf  *struct{ Weight float32 }
		}
	}
	skip int
}

// Card is a map-format type whose anonymous structs fxamacker leaves out
// by its own tests: omitempty field by field, omitzero as Go's zero value.
//
//cborgen:map
type Card struct {
	Title string `cbor:"t"`
	Meta  struct {
		A string `cbor:"a,omitempty"`
		B []int  `cbor:"b,omitempty"`
	} `cbor:"meta,omitempty"`
	Z struct {
		N int
		S string
	} `cbor:"z,omitzero"`
	Keep struct{ N int }     `cbor:"keep,omitempty"`
	Ps   []struct{ V uint8 } `cbor:"ps,omitempty"`
}

// Set is a value type of the set idiom.
type Set map[string]struct{}

// Page is generic; its anonymous struct does not use T.
type Page[T any] struct {
	Meta struct{ N int }
	V    T
}

// Arr holds an array of anonymous structs, empty ones under toarray (one
// as a map value: not read in line), and one with an unexported field.
type Arr struct {
	A [2]struct{ X int8 }
	E struct {
		_ struct{} `cbor:",toarray"`
	}
	ME map[string]struct {
		_ struct{} `cbor:",toarray"`
		K bool
	}
	MS map[string]struct {
		_ struct{} `cbor:",toarray"`
	}
	u struct{ a int }
	U struct {
		a int
		B int
	}
}

// StructAsArray is the marker a Cardano library embeds to have a struct
// written as an array (its cbor.StructAsArray): no fields, no methods,
// only fxamacker's toarray option, which its holder takes over.
type StructAsArray struct {
	_ struct{} `cbor:",toarray"`
}

// Ver holds anonymous structs that embed the marker: arrays, as
// fxamacker writes them; one a level deeper, through a struct that embeds
// the marker too, and one map-format struct beside them.
type Ver struct {
	Protocol struct {
		StructAsArray
		Major uint
		Minor uint
	}
	Certs []struct {
		StructAsArray
		Kind uint8
		Pool *[]byte
	}
	Pools map[string]struct {
		StructAsArray
		Owners []string
		Margin struct {
			StructAsArray
			Num, Den uint64
		}
	}
	Meta struct {
		Slot uint64 `cbor:"1,keyasint"`
	}
}
