package storage_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/storage"
)

// TestFxMode: the program's fxamacker modes wrapped by fxmode give what
// the modes give, on random values and mutated encodings.
func TestFxMode(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 30
	}
	seeds := make([][]byte, 0, len(compositeSeeds)+len(pathSeeds)+len(limitsSeeds))
	for _, h := range compositeSeeds {
		seeds = append(seeds, cbortest.MustHex(h))
	}
	t.Run("Composite", func(t *testing.T) { t.Log(cbortest.FxMode[storage.Composite](t, n, seed, nil, seeds...)) })
	seeds = seeds[:0]
	for _, h := range pathSeeds {
		seeds = append(seeds, cbortest.MustHex(h))
	}
	t.Run("Path", func(t *testing.T) { t.Log(cbortest.FxMode[storage.Path](t, n, seed, nil, seeds...)) })
	seeds = seeds[:0]
	for _, h := range limitsSeeds {
		seeds = append(seeds, cbortest.MustHex(h))
	}
	t.Run("Limits", func(t *testing.T) { t.Log(cbortest.FxMode[storage.Limits](t, n, seed, nil, seeds...)) })
	t.Run("Value", func(t *testing.T) { t.Log(cbortest.FxMode[storage.Value](t, n/2, seed, nil)) })
}
