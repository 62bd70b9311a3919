// Package evolve is a golden case in two versions: this is version 1, the
// first release of a record format; ../evolve_v2 is the same package a
// release later, generated against the schema record of this one. The
// generator's tests decode the bytes of each version with the other.
package evolve

// Record is read by older and newer versions alike.
//
//cborgen:extensible
type Record struct {
	ID     uint64  `cbor:"id"`
	Name   string  `cbor:"name"`
	Coupon *string `cbor:"coupon"` // retired in version 2
	Count  int32   `cbor:"count"`
}

// Event is not extensible: this version refuses the longer arrays of
// version 2.
type Event struct {
	At   int64 `cbor:"at"`
	Kind uint8 `cbor:"kind"`
}

// Framed gains fields in version 2 through an embedded pointer, *Meta.
type Framed struct {
	ID int64 `cbor:"id"`
}
