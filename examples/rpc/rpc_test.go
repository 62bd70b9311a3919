package rpc_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/rpc"
	"github.com/cborgen/cborgen/examples/rpc/internal/fixture"
)

// The array mirrors: the rpc types with toarray and no methods, so that
// fxamacker/cbor shows what the generated code must write. The legacy
// mirrors are fixture.Legacy*.

type arrRequest struct {
	_        struct{}          `cbor:",toarray"`
	Version  uint8             `json:"v"`
	ID       uint64            `json:"id"`
	Method   rpc.Method        `json:"method"`
	Headers  map[string]string `json:"headers,omitempty"`
	Deadline *int64            `json:"deadline,omitempty"`
	Trace    *rpc.TraceID      `json:"trace,omitempty"`
	Params   arrParams         `json:"params"`
	Peer     string            `json:"-"`
}

type arrParams struct {
	_    struct{}       `cbor:",toarray"`
	Get  *arrGetParams  `json:"get,omitempty"`
	Put  *arrPutParams  `json:"put,omitempty"`
	List *arrListParams `json:"list,omitempty"`
}

type arrGetParams struct {
	_           struct{}        `cbor:",toarray"`
	Key         string          `json:"key"`
	Consistency rpc.Consistency `json:"consistency,omitempty"`
}

type arrPutParams struct {
	_         struct{} `cbor:",toarray"`
	Key       string   `json:"key"`
	Value     []byte   `json:"value"`
	TTL       uint32   `json:"ttl,omitempty"`
	IfVersion *uint64  `json:"if_version,omitempty"`
}

type arrListParams struct {
	_      struct{} `cbor:",toarray"`
	Prefix string   `json:"prefix"`
	Limit  uint16   `json:"limit,omitempty"`
	Cursor []byte   `json:"cursor,omitempty"`
	Keys   bool     `json:"keys_only,omitempty"`
}

type arrResponse struct {
	_      struct{}           `cbor:",toarray"`
	ID     uint64             `json:"id"`
	Result *arrResult         `json:"result,omitempty"`
	Error  *arrError          `json:"error,omitempty"`
	Timing map[string]float32 `json:"timing,omitempty"`
}

type arrResult struct {
	_       struct{}   `cbor:",toarray"`
	Found   bool       `json:"found,omitempty"`
	Value   []byte     `json:"value,omitempty"`
	Version uint64     `json:"version"`
	Entries []arrEntry `json:"entries,omitempty"`
	Next    []byte     `json:"next,omitempty"`
}

type arrEntry struct {
	_       struct{} `cbor:",toarray"`
	Key     string   `json:"key"`
	Version uint64   `json:"version"`
	Size    int64    `json:"size"`
	Score   float64  `json:"score,omitempty"`
}

type arrError struct {
	_          struct{}       `cbor:",toarray"`
	Code       rpc.Code       `json:"code"`
	Message    string         `json:"message"`
	RetryAfter *uint32        `json:"retry_after,omitempty"`
	Fields     map[int]string `json:"fields,omitempty"`
	Data       []byte         `json:"data,omitempty"`
}

const seed = 20261130

func TestRequest(t *testing.T) {
	cbortest.Suite[rpc.Request, arrRequest, fixture.LegacyRequest]{
		Samples: fixture.Requests(), Random: 3000, Seed: seed,
	}.Run(t)
}

func TestResponse(t *testing.T) {
	cbortest.Suite[rpc.Response, arrResponse, fixture.LegacyResponse]{
		Samples: fixture.Responses(), Random: 3000, Seed: seed,
	}.Run(t)
}

func TestError(t *testing.T) {
	cbortest.Suite[rpc.Error, arrError, fixture.LegacyError]{
		Samples: fixture.Errors(), Random: 2000, Seed: seed,
	}.Run(t)
}

// The other message types are covered inside Request and Response; these
// run them alone, without samples.

func TestParams(t *testing.T) {
	cbortest.Suite[rpc.Params, arrParams, fixture.LegacyParams]{Random: 2000, Seed: seed}.Run(t)
}

func TestResult(t *testing.T) {
	cbortest.Suite[rpc.Result, arrResult, fixture.LegacyResult]{Random: 2000, Seed: seed}.Run(t)
}

func TestEntry(t *testing.T) {
	cbortest.Suite[rpc.Entry, arrEntry, fixture.LegacyEntry]{Random: 2000, Seed: seed}.Run(t)
}

func TestPutParams(t *testing.T) {
	cbortest.Suite[rpc.PutParams, arrPutParams, fixture.LegacyPutParams]{Random: 2000, Seed: seed}.Run(t)
}

func TestGetParams(t *testing.T) {
	cbortest.Suite[rpc.GetParams, arrGetParams, fixture.LegacyGetParams]{Random: 2000, Seed: seed}.Run(t)
}

func TestListParams(t *testing.T) {
	cbortest.Suite[rpc.ListParams, arrListParams, fixture.LegacyListParams]{Random: 2000, Seed: seed}.Run(t)
}

// One fuzz target per generated type; the seed corpora in testdata/fuzz are
// written by go test -run . -update.

func FuzzRequest(f *testing.F)    { cbortest.Fuzz[rpc.Request](f) }
func FuzzParams(f *testing.F)     { cbortest.Fuzz[rpc.Params](f) }
func FuzzGetParams(f *testing.F)  { cbortest.Fuzz[rpc.GetParams](f) }
func FuzzPutParams(f *testing.F)  { cbortest.Fuzz[rpc.PutParams](f) }
func FuzzListParams(f *testing.F) { cbortest.Fuzz[rpc.ListParams](f) }
func FuzzResponse(f *testing.F)   { cbortest.Fuzz[rpc.Response](f) }
func FuzzResult(f *testing.F)     { cbortest.Fuzz[rpc.Result](f) }
func FuzzEntry(f *testing.F)      { cbortest.Fuzz[rpc.Entry](f) }
func FuzzError(f *testing.F)      { cbortest.Fuzz[rpc.Error](f) }
