// Package foreign is a golden case: a map-format struct (//cborgen:map)
// holding, under omitempty, structs of a package the program does not
// generate (ext, standing for a third-party module). Each is tested for
// emptiness as fxamacker/cbor tests it, field by field, and written by
// fxamacker. The run reads ext's //go:generate lines (it has none), so
// the regeneration cache does not keep it.
package foreign

import "github.com/cborgen/cborgen/testdata/golden/foreign/ext"

// Foreign holds a struct of each kind fxamacker tells apart: empty when
// each of its fields is (Options), never empty (Point, Pair, Stamp),
// always empty (Nothing).
//
//cborgen:map
type Foreign struct {
	ID     int         `cbor:"id"`
	Opts   ext.Options `cbor:"opts,omitempty"`
	Point  ext.Point   `cbor:"point,omitempty"`
	Pair   ext.Pair    `cbor:"pair,omitempty"`
	None   ext.Nothing `cbor:"none,omitempty"`
	Stamp  ext.Stamp   `cbor:"stamp,omitempty"`
	Limits *ext.Limits `cbor:"limits,omitempty"`
	Both   ext.Limits  `cbor:"both,omitempty,omitzero"`
}
