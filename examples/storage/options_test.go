package storage_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/examples/storage/internal/fixture"
	"github.com/cborgen/cborgen/runtime"
	"github.com/fxamacker/cbor/v2"
)

var fxDefault, _ = cbor.DecOptions{}.DecMode()

// TestOptionCases: hand-written inputs for the decoding options, each
// decoded under every cbortest.OptionModes and under the defaults, by the
// generated code with runtime.Options and by fxamacker/cbor with the
// DecOptions of the same meaning into the legacy mirror: the same
// acceptance, the same value, the same cause, and fxamacker's message
// inside the generated code's.
func TestOptionCases(t *testing.T) {
	index := func(m map[int32]string) storage.Value { return storage.Value{Index: m} }
	for _, tc := range []struct {
		name   string
		hex    string
		before storage.Value // what the value holds before the decode
		// under DupMapKeyEnforcedAPF, ExtraDecErrorUnknownField and
		// FieldNameMatchingCaseSensitive alone: the cause or nil
		dup, unknown, exact error
	}{
		{"a duplicate known key", "a2 6170 a1 6164 01 6170 a1 6164 02", storage.Value{}, runtime.ErrDuplicateKey, nil, nil},
		{"a known key twice by case folding", "a2 6173 6161 6153 6162", storage.Value{}, runtime.ErrDuplicateKey, nil, nil},
		{"a duplicate unknown key", "a3 6169 01 617a 00 617a 00", storage.Value{}, runtime.ErrDuplicateKey, runtime.ErrUnknownField, nil},
		{"a duplicate unknown integer key", "a3 6169 01 07 00 07 00", storage.Value{}, runtime.ErrDuplicateKey, runtime.ErrUnknownField, nil},
		{"an unknown text and integer key of one value", "a3 6169 01 6137 00 07 00", storage.Value{}, nil, runtime.ErrUnknownField, nil},
		{"an unknown key", "a2 6169 01 617a 00", storage.Value{}, nil, runtime.ErrUnknownField, nil},
		{"a re-cased key", "a1 6149 01", storage.Value{}, nil, nil, nil},
		{"a repeated key in a Go map of strings", "a1 6164 a2 616b a1 6169 01 616b a1 6169 02", storage.Value{}, runtime.ErrDuplicateKey, nil, nil},
		{"a repeated key in a Go map of integers", "a1 616e a2 01 6161 01 6162", storage.Value{}, runtime.ErrDuplicateKey, nil, nil},
		{"a key the map holds, once", "a1 616e a2 01 6161 02 6162", index(map[int32]string{1: "x", 5: "y"}), nil, nil, nil},
		{"a key the map holds, twice", "a1 616e a2 01 6161 01 6162", index(map[int32]string{1: "x"}), runtime.ErrDuplicateKey, nil, nil},
		{"a key the map holds, then a new one twice", "a1 616e a3 01 6161 02 6162 02 6163", index(map[int32]string{1: "x"}), runtime.ErrDuplicateKey, nil, nil},
		{"one unknown key in sibling maps", "a1 6161 82 a1 6170 a2 6164 01 617a 00 a1 6170 a2 617a 00 6164 01", storage.Value{}, nil, runtime.ErrUnknownField, nil},
		{"an unknown key around a nested map with it", "a3 617a 00 6170 a2 617a 00 6164 01 617a 00", storage.Value{}, runtime.ErrDuplicateKey, runtime.ErrUnknownField, nil},
		{"a duplicate key in a nested struct map", "a1 6170 a3 6164 01 6169 6161 6164 02", storage.Value{}, runtime.ErrDuplicateKey, nil, nil},
		{"one key in sibling Go maps", "a1 6161 82 a1 6164 a1 616b a0 a1 6164 a1 616b a0", storage.Value{}, nil, nil, nil},
		{"an indefinite map with a key twice", "bf 6169 01 6169 02 ff", storage.Value{}, runtime.ErrDuplicateKey, nil, nil},
	} {
		data := cbortest.MustHex(tc.hex)
		modes := append([]cbortest.OptionMode{{Name: "defaults", Fx: fxDefault}}, cbortest.OptionModes...)
		for _, o := range modes {
			v := tc.before
			v.Index = clone(tc.before.Index)
			var m fixture.LegacyValue
			mirror.Convert(&m, v)
			err := runtime.Unmarshal(data, &v, o.Opts)
			fxErr := o.Fx.Unmarshal(data, &m)
			switch {
			case err == nil && fxErr == nil:
				var want storage.Value
				mirror.Convert(&want, m)
				if d := mirror.Diff(v, want); d != "" {
					t.Errorf("%s, %s: values differ at %s", tc.name, o.Name, d)
				}
			case err == nil || fxErr == nil:
				t.Errorf("%s, %s: generated: %v; fxamacker: %v", tc.name, o.Name, err, fxErr)
			case !strings.Contains(err.Error(), strings.TrimPrefix(fxErr.Error(), "cbor: ")):
				t.Errorf("%s, %s: generated: %v; fxamacker's text: %v", tc.name, o.Name, err, fxErr)
			}
			var want error
			switch o.Name {
			case "DupMapKeyEnforcedAPF":
				want = tc.dup
			case "ExtraDecErrorUnknownField":
				want = tc.unknown
			case "FieldNameMatchingCaseSensitive":
				want = tc.exact
			case "defaults", "explicit defaults":
			default:
				continue
			}
			if !errors.Is(err, want) || (want == nil) != (err == nil) {
				t.Errorf("%s, %s: %v, want %v", tc.name, o.Name, err, want)
			}
		}
	}
}

func clone[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
