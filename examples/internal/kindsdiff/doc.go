// Package kindsdiff holds differential tests, against fxamacker/cbor, of
// the kinds of generated code beyond plain array structs, through the
// generator's golden packages: tagged types, a map-format struct of
// tagged values, a union with a catch-all, zero-copy then reuse through
// each, and the errors of fields' own methods (their texts, in both
// directions). It has no code of its own; see its tests.
package kindsdiff
