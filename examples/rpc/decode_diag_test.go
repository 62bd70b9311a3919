package rpc_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/rpc"
	"github.com/cborgen/cborgen/examples/rpc/internal/fixture"
)

// TestDecodeRandom: cbor-gen -decode reads random values of every type,
// current and legacy, from the schema record without a problem.
func TestDecodeRandom(t *testing.T) {
	f := mirror.Filler{}
	decodetest.DecodeRandom[rpc.Request, fixture.LegacyRequest](t, ".", "Request", 300, seed, f)
	decodetest.DecodeRandom[rpc.Response, fixture.LegacyResponse](t, ".", "Response", 300, seed, f)
	decodetest.DecodeRandom[rpc.Error, fixture.LegacyError](t, ".", "Error", 300, seed, f)
	decodetest.DecodeRandom[rpc.Params, fixture.LegacyParams](t, ".", "Params", 300, seed, f)
	decodetest.DecodeRandom[rpc.GetParams, fixture.LegacyGetParams](t, ".", "GetParams", 300, seed, f)
	decodetest.DecodeRandom[rpc.PutParams, fixture.LegacyPutParams](t, ".", "PutParams", 300, seed, f)
	decodetest.DecodeRandom[rpc.ListParams, fixture.LegacyListParams](t, ".", "ListParams", 300, seed, f)
	decodetest.DecodeRandom[rpc.Result, fixture.LegacyResult](t, ".", "Result", 300, seed, f)
	decodetest.DecodeRandom[rpc.Entry, fixture.LegacyEntry](t, ".", "Entry", 300, seed, f)
}

// TestDecodeAgrees: on mutants of the stored samples, -decode refuses what
// the generated decoders refuse, and only that.
func TestDecodeAgrees(t *testing.T) {
	decodetest.Agree[rpc.Request](t, ".", "Request", "testdata/Request.*.hex", 10000, seed, true)
	decodetest.Agree[rpc.Response](t, ".", "Response", "testdata/Response.*.hex", 10000, seed, true)
	decodetest.Agree[rpc.Error](t, ".", "Error", "testdata/Error.*.hex", 10000, seed, true)
}
