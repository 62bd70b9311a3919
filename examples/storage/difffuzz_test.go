package storage_test

import (
	"errors"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/examples/storage/internal/fixture"
	"github.com/cborgen/cborgen/runtime"
)

// The differential test against fxamacker/cbor (cbortest.Differ): the
// generated decoders read every input as fxamacker reads it into the
// mirrors, or docs/guide.md lists why not. The fuzz targets run in make
// fuzz; TestDiff* run a fixed number of mutations (fewer with -short).

var (
	diffComposite = cbortest.Suite[storage.Composite, arrComposite, fixture.LegacyComposite]{
		Samples: fixture.Composites(), Seed: seed, Filler: mirror.Filler{MaxDepth: 5},
	}
	diffLimits = cbortest.Suite[storage.Limits, arrLimits, fixture.LegacyLimits]{
		Samples: fixture.LimitsSamples(), Seed: seed,
	}
	diffPath = cbortest.Suite[storage.Path, arrPath, fixture.LegacyPath]{
		Samples: fixture.Paths(), Seed: seed,
	}
)

// The inputs of the report that asked for the test, and their kin.
var (
	pathSeeds = []string{
		"d9d9f7 820160", // self-described CBOR in front of the record
		"82 c6 01 60",   // a tag with no meaning on a uint16 field
		"82 c2 41 05 60", "82 c3 41 05 60", "82 c2 49 010000000000000000 60",
		"c6 a2 61 64 01 61 69 60", // a tag on a legacy map
		"a2 c6 61 64 01 61 69 60", // a tag on a legacy key: refused by both
	}
	limitsSeeds = []string{
		"87 00 00 00 f4 3bffffffffffffffff 83 000000 f6", // below -2^63 into a float32
		"87 00 00 00 f4 c3 41 05 83 000000 f6",
		"87 d9d9f7 00 c6 00 00 f4 f93c00 83 c6 00 00 c2 40 f6",
	}
	compositeSeeds = []string{
		"86 82 48 0000000000000000 60 40 00 60 9f a0 a0 a0 ff 00", // indefinite Fields of empty maps
		"86 82 48 0000000000000000 60 c6 40 00 60 c6 9f d9d9f7 a0 ff 00",
		"86 82 48 0000000000000000 60 40 00 60 81 82 60 8d d9d9f7 f6 f6 f6 f6 f6 f6 f6 f6 f6 f6 f6 f6 f6 00",
	}
)

func TestDiffComposite(t *testing.T) { diffComposite.DiffRun(t, diffCount(), compositeSeeds...) }
func TestDiffLimits(t *testing.T)    { diffLimits.DiffRun(t, diffCount(), limitsSeeds...) }
func TestDiffPath(t *testing.T)      { diffPath.DiffRun(t, diffCount(), pathSeeds...) }

func FuzzDiffComposite(f *testing.F) { diffComposite.DiffFuzz(f, compositeSeeds...) }
func FuzzDiffLimits(f *testing.F)    { diffLimits.DiffFuzz(f, limitsSeeds...) }
func FuzzDiffPath(f *testing.F)      { diffPath.DiffFuzz(f, pathSeeds...) }

func diffCount() int {
	if testing.Short() {
		return 3000
	}
	return 30000
}

// TestReportedInputs: the inputs of the report decode as fxamacker
// decodes them.
func TestReportedInputs(t *testing.T) {
	for h, want := range map[string]storage.Path{
		"d9d9f7 820160":            {Domain: 1},
		"82 c6 01 60":              {Domain: 1},
		"82 c2 41 05 60":           {Domain: 5},
		"c6 a2 61 64 01 61 69 60":  {Domain: 1},
		"82 d9d9f7 c6 01 c0 61 61": {Domain: 1, Identifier: "a"},
		"d9d9f7 c6 82 c2 40 c6 60": {Domain: 0},
	} {
		var p storage.Path
		if err := p.UnmarshalCBOR(cbortest.MustHex(h)); err != nil || p != want {
			t.Errorf("Path(%s) = %+v, %v; want %+v", h, p, err, want)
		}
	}
	var p storage.Path
	if err := p.UnmarshalCBOR(cbortest.MustHex("82 c3 41 05 60")); !errors.Is(err, runtime.ErrRange) {
		t.Errorf("Path(82 c3 41 05 60) = %v, want ErrRange (-6 into a uint16)", err)
	}
	var l storage.Limits
	if err := l.UnmarshalCBOR(cbortest.MustHex("87 00 00 00 f4 3bffffffffffffffff 83 000000 f6")); !errors.Is(err, runtime.ErrRange) {
		t.Errorf("Limits with Burst below -2^63 = %v, want ErrRange", err)
	}
	var v storage.Value
	if err := v.UnmarshalCBOR(cbortest.MustHex("8d d9d9f7 f6 d9d9f7 f6 f6 f6 f6 f6 f6 d9d9f7 f6 d9d9f7 f6 f6 f6 f6 d9d9f7 f6")); err != nil ||
		v.Bool != nil || v.Int != nil || v.Path != nil || v.Hash != nil || v.Composite != nil {
		t.Errorf("Value of 55799(null)s = %+v, %v; want every pointer nil", v, err)
	}
}

// TestDiffOptions: under each of cbortest.OptionModes, the generated
// decoders accept and refuse what fxamacker/cbor does under the same
// DecOptions, with the same values, on map-key edits of the seeds
// (repeated known and unknown keys, unknown keys, re-cased keys, in
// struct maps and in the Go maps Dict and Index, also into values whose
// maps hold keys already).
func TestDiffOptions(t *testing.T) {
	n := diffCount() / 3
	diffComposite.OptionsRun(t, n, compositeSeeds...)
	diffLimits.OptionsRun(t, n, limitsSeeds...)
	diffPath.OptionsRun(t, n, pathSeeds...)
}
