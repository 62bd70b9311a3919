package rpc_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/rpc"
)

// TestFxMode: the program's fxamacker modes wrapped by fxmode give what
// the modes give, on random values and mutated encodings.
func TestFxMode(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 30
	}
	t.Run("Request", func(t *testing.T) { t.Log(cbortest.FxMode[rpc.Request](t, n, 42, nil)) })
	t.Run("Response", func(t *testing.T) { t.Log(cbortest.FxMode[rpc.Response](t, n, 42, nil)) })
	t.Run("Error", func(t *testing.T) { t.Log(cbortest.FxMode[rpc.Error](t, n, 42, nil)) })
	t.Run("PutParams", func(t *testing.T) { t.Log(cbortest.FxMode[rpc.PutParams](t, n, 42, nil)) })
}
