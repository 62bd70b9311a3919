package cose_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/cose"
	"github.com/cborgen/cborgen/examples/internal/cbortest"
)

// TestFxMode: the program's fxamacker modes wrapped by fxmode give what
// the modes give, on random values and mutated encodings.
func TestFxMode(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 30
	}
	t.Run("Claims", func(t *testing.T) { t.Log(cbortest.FxMode(t, n, 18, randClaims)) })
	t.Run("Header", func(t *testing.T) { t.Log(cbortest.FxMode[cose.Header](t, n, 18, nil)) })
	t.Run("Sign1", func(t *testing.T) { t.Log(cbortest.FxMode[cose.Sign1](t, n, 18, nil)) })
}
