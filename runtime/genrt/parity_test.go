package genrt_test

import (
	"errors"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// TestValidSelfDescribedKeys: tag 55799 is transparent when keys are
// compared, as in fxamacker's duplicate check, which strips it before
// comparing decoded keys; as the content of another tag it is kept.
func TestValidSelfDescribedKeys(t *testing.T) {
	cases := []struct {
		hex string
		dup bool
	}{
		{"a2 d9d9f7 6161 00 6161 01", true},
		{"a2 6161 00 d9d9f7 6161 01", true},
		{"a2 d9d9f7 d9d9f7 01 00 01 01", true},
		{"a2 d9d9f7 01 00 d9d9f7 01 01", true},
		{"a2 81 d9d9f7 01 00 81 01 01", true}, // in an array key
		{"a2 c6 6161 00 6161 01", false},
		{"a2 c6 d9d9f7 01 00 c6 01 01", false}, // 6(55799(1)) is not 6(1)
		{"a2 c6 01 00 c6 01 01", true},
	}
	for _, c := range cases {
		data := mustHex(c.hex)
		var v any
		fxErr := fxDecStrict.Unmarshal(data, &v)
		if (fxErr != nil) != c.dup {
			t.Errorf("%s: fxamacker says %v; the table says duplicate %v", c.hex, fxErr, c.dup)
		}
		err := genrt.Valid(data)
		if c.dup && !errors.Is(err, genrt.ErrDuplicateKey) || !c.dup && err != nil {
			t.Errorf("Valid(%s) = %v; duplicate %v", c.hex, err, c.dup)
		}
	}
}
