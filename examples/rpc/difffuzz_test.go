package rpc_test

import (
	"errors"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/rpc"
	"github.com/cborgen/cborgen/examples/rpc/internal/fixture"
	"github.com/cborgen/cborgen/runtime"
)

// The differential test against fxamacker/cbor (cbortest.Differ): the
// generated decoders read every input as fxamacker reads it into the
// mirrors, or docs/guide.md lists why not. The fuzz targets run in make
// fuzz; TestDiff* run a fixed number of mutations (fewer with -short).

var (
	diffRequest = cbortest.Suite[rpc.Request, arrRequest, fixture.LegacyRequest]{
		Samples: fixture.Requests(), Seed: seed,
	}
	diffResponse = cbortest.Suite[rpc.Response, arrResponse, fixture.LegacyResponse]{
		Samples: fixture.Responses(), Seed: seed,
	}
	diffError = cbortest.Suite[rpc.Error, arrError, fixture.LegacyError]{
		Samples: fixture.Errors(), Seed: seed,
	}
)

// The inputs of the report that asked for the test, and their kin.
var (
	errorSeeds = []string{
		"85 c3 41 05 60 f6 f6 f6",               // a bignum -6 into an int32
		"85 c3 48 7fffffff00000000 60 f6 f6 f6", // one that does not fit
		"d9d9f7 85 c6 01 c6 60 d9d9f7 f6 c6 a1 c2 41 01 61 61 c6 41 00",
		"c6 a2 64 636f6465 c3 41 05 67 6d657373616765 60",
	}
	requestSeeds = []string{
		"d9d9f7 88 01 01 66 6b762e676574 f6 d9d9f7 f6 f6 83 d9d9f7 f6 f6 f6 60",
		"88 c6 01 c2 41 07 c6 66 6b762e676574 c6 a1 c6 61 61 c6 61 62 c6 1a 00010000 c6 50 00000000000000000000000000000000 c6 83 f6 f6 f6 c6 60",
	}
	responseSeeds = []string{
		"84 01 d9d9f7 f6 d9d9f7 f6 d9d9f7 f6",
		"84 c2 48 ffffffffffffffff c6 85 f5 c6 40 c6 01 c6 81 84 60 00 c3 40 c6 fb 3ff8000000000000 c6 40 f6 a1 64 65786563 c6 fa 3f800000",
	}
)

func TestDiffRequest(t *testing.T)  { diffRequest.DiffRun(t, diffCount(), requestSeeds...) }
func TestDiffResponse(t *testing.T) { diffResponse.DiffRun(t, diffCount(), responseSeeds...) }
func TestDiffError(t *testing.T)    { diffError.DiffRun(t, diffCount(), errorSeeds...) }

func FuzzDiffRequest(f *testing.F)  { diffRequest.DiffFuzz(f, requestSeeds...) }
func FuzzDiffResponse(f *testing.F) { diffResponse.DiffFuzz(f, responseSeeds...) }
func FuzzDiffError(f *testing.F)    { diffError.DiffFuzz(f, errorSeeds...) }

func diffCount() int {
	if testing.Short() {
		return 3000
	}
	return 30000
}

// TestReportedInputs: the inputs of the report decode as fxamacker
// decodes them.
func TestReportedInputs(t *testing.T) {
	var e rpc.Error
	if err := e.UnmarshalCBOR(cbortest.MustHex("85 c3 41 05 60 f6 f6 f6")); err != nil || e.Code != -6 {
		t.Errorf("Error with a bignum code = %+v, %v; want Code -6", e, err)
	}
	if err := e.UnmarshalCBOR(cbortest.MustHex("85 c3 48 7fffffff00000000 60 f6 f6 f6")); !errors.Is(err, runtime.ErrRange) {
		t.Errorf("Error with a bignum code beyond int32 = %v, want ErrRange", err)
	}
}

// TestDiffOptions: the generated decoders under each of
// cbortest.OptionModes against fxamacker/cbor under the same DecOptions,
// on map-key edits of the seeds (struct maps, the headers' Go maps).
func TestDiffOptions(t *testing.T) {
	n := diffCount() / 3
	diffRequest.OptionsRun(t, n, requestSeeds...)
	diffResponse.OptionsRun(t, n, responseSeeds...)
	diffError.OptionsRun(t, n, errorSeeds...)
}
