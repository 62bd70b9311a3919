package kindsdiff_test

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/testdata/golden/mapkeys"
)

// Maps keyed by the comparable types beyond strings, integers and bools
// (the golden mapkeys types), decoded by the generated code and by
// fxamacker/cbor from random encodings, their legacy maps and mutations
// of both: the same value, or an error on both sides but for the
// documented departures.

type (
	aLedger struct {
		_       struct{} `cbor:",toarray"`
		ByHash  map[mapkeys.Hash]uint64
		ByFixed map[[3]byte]string
		ByPair  map[mapkeys.Pair][]byte
		Nested  map[mapkeys.Hash]map[[1]byte]bool
		Empty   map[[0]byte]int
	}
	mLedger struct {
		ByHash  map[mapkeys.Hash]uint64
		ByFixed map[[3]byte]string
		ByPair  map[mapkeys.Pair][]byte
		Nested  map[mapkeys.Hash]map[[1]byte]bool
		Empty   map[[0]byte]int
	}
	aCurve struct {
		_      struct{} `cbor:",toarray"`
		Points map[float64]float64
		Small  map[float32]string
		Temps  map[mapkeys.Celsius]*mapkeys.Hash
	}
	mCurve struct {
		Points map[float64]float64
		Small  map[float32]string
		Temps  map[mapkeys.Celsius]*mapkeys.Hash
	}

	// The struct keys' mirrors: the array format; the map-format Span
	// is a map in both.
	aCred struct {
		_    struct{} `cbor:",toarray"`
		Kind uint8
		Hash mapkeys.Hash
	}
	mCred struct {
		Kind uint8
		Hash mapkeys.Hash
	}
	cSpan struct {
		From int `cbor:"1,keyasint"`
		To   int `cbor:"2,keyasint,omitempty"`
	}
	aIndex struct {
		_        struct{} `cbor:",toarray"`
		ByCred   map[aCred]uint64
		ByRef    map[*aCred]string
		ByPair   map[[2]int16]string
		ByGrid   map[mapkeys.Grid]int
		ByWords  map[[2]string]int
		ByHashP  map[*mapkeys.Hash]int
		ByFloatP map[*float64][]aCred
		ByCreds  map[[2]aCred]int
	}
	mIndex struct {
		ByCred   map[mCred]uint64
		ByRef    map[*mCred]string
		ByPair   map[[2]int16]string
		ByGrid   map[mapkeys.Grid]int
		ByWords  map[[2]string]int
		ByHashP  map[*mapkeys.Hash]int
		ByFloatP map[*float64][]mCred
		ByCreds  map[[2]mCred]int
	}
	aSpans struct {
		_      struct{} `cbor:",toarray"`
		BySpan map[cSpan]bool
		ByRef  map[*cSpan]aCred
	}
	mSpans struct {
		BySpan map[cSpan]bool
		ByRef  map[*cSpan]mCred
	}
	aForeign struct {
		_       struct{} `cbor:",toarray"`
		ByPoint map[image.Point]int
		ByRect  map[*image.Rectangle]string
	}
	mForeign struct {
		ByPoint map[image.Point]int
		ByRect  map[*image.Rectangle]string
	}
)

func TestMapKeysAgainstFxamacker(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(27, 3))
	mapKeysDiff[mapkeys.Ledger, aLedger, mLedger](t, r, n)
	mapKeysDiff[mapkeys.Curve, aCurve, mCurve](t, r, n)
	mapKeysDiff[mapkeys.Index, aIndex, mIndex](t, r, n)
	mapKeysDiff[mapkeys.Spans, aSpans, mSpans](t, r, n)
	mapKeysDiff[mapkeys.Foreign, aForeign, mForeign](t, r, n)
}

// mapKeysDiff runs the differential test on n random values of T, with A
// and M its array and legacy mirrors.
func mapKeysDiff[T, A, M any](t *testing.T, r *rand.Rand, n int) {
	t.Helper()
	fill := mirror.Filler{Rand: r}
	for i := range n {
		var v T
		fill.Fill(&v)
		var m M
		mirror.Convert(&m, v)
		got, err := any(&v).(cbortest.Codec).MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		legacy, err := cborEnc.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{got, legacy, cbortest.Mutate(r, got), cbortest.Mutate(r, legacy), cbortest.Mutate(r, got)} {
			if d := cbortest.Differ[T, A, M](in); d != "" {
				t.Fatalf("%T value %d: %s", v, i, d)
			}
		}
	}
}

// TestMapKeysDecodeDiag: cbor-gen -decode reads random values of the
// mapkeys types, current and legacy, from the golden schema record.
func TestMapKeysDecodeDiag(t *testing.T) {
	dir := "../../../testdata/golden/mapkeys"
	decodetest.DecodeRandom[mapkeys.Ledger, mLedger](t, dir, "Ledger", 200, 27, mirror.Filler{})
	decodetest.DecodeRandom[mapkeys.Curve, mCurve](t, dir, "Curve", 200, 28, mirror.Filler{})
	decodetest.DecodeRandom[mapkeys.Index, mIndex](t, dir, "Index", 200, 29, mirror.Filler{})
	decodetest.DecodeRandom[mapkeys.Spans, mSpans](t, dir, "Spans", 200, 30, mirror.Filler{})
}
