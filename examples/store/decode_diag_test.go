package store_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/store"
)

// TestDecodeAgrees: on mutants of the stored samples, -decode refuses what
// the generated decoder refuses, and only that. The kinds of the named
// types (Dict, UInt64Value...) are not in the record: -decode reads them
// from the source beside it.
func TestDecodeAgrees(t *testing.T) {
	decodetest.Agree[store.Composite](t, ".", "Composite", "testdata/account*.hex", 20000, 132, true)
}
