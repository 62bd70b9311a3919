// Package toarray is a golden case: a struct with fxamacker's toarray
// option was always an array, so it gets no legacy map decoder (a map is
// refused, as fxamacker refuses it), unless //cborgen:legacy asks for one.
package toarray

// Sign1 has the toarray option: arrays only.
type Sign1 struct {
	_         struct{} `cbor:",toarray"`
	Protected []byte
	Payload   []byte
	Signature []byte
}

// Point has the toarray option and //cborgen:legacy: it reads maps too.
//
//cborgen:legacy
type Point struct {
	_ struct{} `cbor:",toarray"`
	X int
	Y int
}

// Plain has no toarray option: it reads the legacy map form.
type Plain struct {
	A string
}

// StructAsArray is a marker as the Cardano libraries declare it: embedded,
// its field "_" gives the holder fxamacker's toarray option.
type StructAsArray struct {
	_ struct{} `cbor:",toarray"`
}

// Version embeds the marker: it has the toarray option, so no legacy form.
type Version struct {
	StructAsArray
	Major uint
	Minor uint
}
