package storage_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/examples/storage/internal/fixture"
)

// TestDecodeRandom: cbor-gen -decode reads random values of every type,
// current and legacy, from the schema record without a problem.
func TestDecodeRandom(t *testing.T) {
	decodetest.DecodeRandom[storage.Composite, fixture.LegacyComposite](t, ".", "Composite", 300, seed, mirror.Filler{MaxDepth: 5})
	decodetest.DecodeRandom[storage.Limits, fixture.LegacyLimits](t, ".", "Limits", 300, seed, mirror.Filler{})
	decodetest.DecodeRandom[storage.Path, fixture.LegacyPath](t, ".", "Path", 300, seed, mirror.Filler{})
	decodetest.DecodeRandom[storage.Location, fixture.LegacyLocation](t, ".", "Location", 300, seed, mirror.Filler{})
	decodetest.DecodeRandom[storage.Field, fixture.LegacyField](t, ".", "Field", 300, seed, mirror.Filler{MaxDepth: 5})
	decodetest.DecodeRandom[storage.Value, fixture.LegacyValue](t, ".", "Value", 300, seed, mirror.Filler{MaxDepth: 5})
}

// TestDecodeAgrees: on mutants of the stored samples, -decode refuses what
// the generated decoders refuse, and only that.
func TestDecodeAgrees(t *testing.T) {
	decodetest.Agree[storage.Composite](t, ".", "Composite", "testdata/Composite.*.hex", 10000, seed, true)
	decodetest.Agree[storage.Limits](t, ".", "Limits", "testdata/Limits.*.hex", 10000, seed, true)
	decodetest.Agree[storage.Field](t, ".", "Field", "testdata/Field.*.hex", 10000, seed, true)
}
