// Package cbortest helps the tests that cbor-gen -tests writes: random
// values of generated types (Filler), and the mirror of a generated type
// (Mirror, ToMirror), the same fields without the generated methods, for
// fxamacker/cbor to encode as it would without cbor-gen. Only tests
// import it, so programs do not link it; it does not import
// fxamacker/cbor itself.
package cbortest
