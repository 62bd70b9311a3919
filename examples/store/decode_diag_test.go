package store_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/store"
)

// TestDecodeAgrees: on mutants of the stored samples, -decode takes what
// the generated decoder takes. It may take more: the record does not
// describe the named types of other kinds (Dict, UInt64Value...), whose
// content it shows as it is.
func TestDecodeAgrees(t *testing.T) {
	decodetest.Agree[store.Composite](t, ".", "Composite", "testdata/account*.hex", 20000, 132, true)
}
