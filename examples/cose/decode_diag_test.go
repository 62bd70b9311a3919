package cose_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/cose"
	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
)

// TestDecodeRandom: cbor-gen -decode reads random values of every type
// from the schema record without a problem (their only form: Sign1 has
// no legacy map, and the others are map types).
func TestDecodeRandom(t *testing.T) {
	decodetest.DecodeRandom[cose.Claims, cose.Claims](t, ".", "Claims", 300, 18, mirror.Filler{})
	decodetest.DecodeRandom[cose.Header, cose.Header](t, ".", "Header", 300, 18, mirror.Filler{})
	decodetest.DecodeRandom[cose.Sign1, cose.Sign1](t, ".", "Sign1", 300, 18, mirror.Filler{})
}

// TestDecodeAgrees: on mutants of the stored message, -decode refuses
// what the generated decoder refuses, and only that. That Sign1 has no
// legacy map (//cborgen:nolegacy) is not in the record: -decode reads it
// from the source beside it.
func TestDecodeAgrees(t *testing.T) {
	decodetest.Agree[cose.Sign1](t, ".", "Sign1", "testdata/sign1.hex", 20000, 18, true)
}
