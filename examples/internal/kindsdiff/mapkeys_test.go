package kindsdiff_test

import (
	"math/rand/v2"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/testdata/golden/mapkeys"
)

// Maps keyed by the comparable types beyond strings, integers and bools
// (the golden mapkeys.Ledger), decoded by the generated code and by
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
)

func TestMapKeysAgainstFxamacker(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(27, 3))
	fill := mirror.Filler{Rand: r}
	for i := range n {
		var v mapkeys.Ledger
		fill.Fill(&v)
		var m mLedger
		mirror.Convert(&m, v)
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		legacy, err := cborEnc.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{got, legacy, cbortest.Mutate(r, got), cbortest.Mutate(r, legacy), cbortest.Mutate(r, got)} {
			if d := cbortest.Differ[mapkeys.Ledger, aLedger, mLedger](in); d != "" {
				t.Fatalf("value %d: %s", i, d)
			}
		}
	}
}
