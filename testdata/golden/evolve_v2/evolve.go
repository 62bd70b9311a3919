// Package evolve is a golden case in two versions: this is version 2 of
// ../evolve_v1. Its schema record (cbor_gen.lock) continues the record of
// version 1: one field retired, one widened, fields appended.
package evolve

import "github.com/cborgen/cborgen/runtime"

// Record is read by older and newer versions alike.
//
//cborgen:extensible
type Record struct {
	ID    uint64           `cbor:"id"`
	Name  string           `cbor:"name"`
	_     runtime.Reserved // was Coupon *string, retired in version 2
	Count int64            `cbor:"count"` // int32 in version 1
	Tags  []string         `cbor:"tags"`  // added in version 2
	Score float64          `cbor:"score"` // added in version 2
}

// Event is not extensible: version 1 refuses its arrays once Source is
// set.
type Event struct {
	At     int64  `cbor:"at"`
	Kind   uint16 `cbor:"kind"`   // uint8 in version 1
	Source string `cbor:"source"` // added in version 2
}

// Framed gained the fields of Meta, promoted through an embedded pointer:
// a version 1 array ends before them, and decoding it into a Framed whose
// Meta is nil must leave Meta nil.
type Framed struct {
	ID int64 `cbor:"id"`
	*Meta
}

// Meta is embedded by pointer in Framed.
type Meta struct {
	Note string `cbor:"note"`
	Rev  []int  `cbor:"rev"`
}
