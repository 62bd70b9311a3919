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

// TestValueOptionCases: hand-written inputs for the decoding options that
// look at values (IndefLength, TagsMd, UTF8, NaN, Inf), decoded as in
// TestOptionCases under every mode; want gives the cause under the
// defaults and under each of those options alone (absent: the defaults'
// cause, but nil under UTF8DecodeInvalid for ErrUTF8).
func TestValueOptionCases(t *testing.T) {
	forbidden := runtime.ErrForbidden
	for _, tc := range []struct {
		name string
		hex  string
		want map[string]error
	}{
		{"a NaN into a float", "a1 6166 f97e00", map[string]error{"NaNDecodeForbidden": forbidden}},
		{"a float32 NaN with a payload", "a1 6166 fa 7fc00001", map[string]error{"NaNDecodeForbidden": forbidden}},
		{"+Inf into a float", "a1 6166 fb 7ff0000000000000", map[string]error{"InfDecodeForbidden": forbidden}},
		{"-Inf as a float32", "a1 6166 fa ff800000", map[string]error{"InfDecodeForbidden": forbidden}},
		{"a NaN under an unknown key", "a2 6169 01 617a f97e00", map[string]error{"NaNDecodeForbidden": forbidden}},
		{"an infinity in a skipped array", "a2 617a 82 01 f97c00 6169 01", map[string]error{"InfDecodeForbidden": forbidden}},
		{"a NaN into an integer", "a1 6169 f97e00", map[string]error{"defaults": runtime.ErrType, "NaNDecodeForbidden": forbidden}},
		{"an indefinite-length text string", "a1 6173 7f 6161 6162 ff", map[string]error{"IndefLengthForbidden": forbidden}},
		{"an indefinite-length map", "bf 6169 01 ff", map[string]error{"IndefLengthForbidden": forbidden}},
		{"an indefinite-length array of values", "a1 6161 9f a0 a1 6169 02 ff", map[string]error{"IndefLengthForbidden": forbidden}},
		{"an indefinite-length byte string under an unknown key", "a2 617a 5f 4101 ff 6169 01", map[string]error{"IndefLengthForbidden": forbidden}},
		{"an indefinite length after a type error", "a2 6169 6161 617a 9f ff", map[string]error{"defaults": runtime.ErrType, "IndefLengthForbidden": forbidden}},
		{"a tag in front of an integer", "a1 6169 c6 01", map[string]error{"TagsForbidden": forbidden}},
		{"self-described CBOR", "d9d9f7 a1 6169 01", map[string]error{"TagsForbidden": forbidden}},
		{"a bignum into an integer", "a1 6169 c2 41 05", map[string]error{"TagsForbidden": forbidden}},
		{"a tag under an unknown key", "a2 6169 01 617a c1 00", map[string]error{"TagsForbidden": forbidden}},
		{"text that is not UTF-8", "a1 6173 62 ff61", map[string]error{"defaults": runtime.ErrUTF8, "IndefLengthForbidden": runtime.ErrUTF8,
			"TagsForbidden": runtime.ErrUTF8, "NaNDecodeForbidden": runtime.ErrUTF8, "InfDecodeForbidden": runtime.ErrUTF8}},
		{"a Go map key that is not UTF-8", "a1 6164 a1 62 c328 a0", map[string]error{"defaults": runtime.ErrUTF8, "IndefLengthForbidden": runtime.ErrUTF8,
			"TagsForbidden": runtime.ErrUTF8, "NaNDecodeForbidden": runtime.ErrUTF8, "InfDecodeForbidden": runtime.ErrUTF8}},
		{"a struct map key that is not UTF-8", "a2 62 ff61 01 6169 01", map[string]error{"defaults": runtime.ErrUTF8, "IndefLengthForbidden": runtime.ErrUTF8,
			"TagsForbidden": runtime.ErrUTF8, "NaNDecodeForbidden": runtime.ErrUTF8, "InfDecodeForbidden": runtime.ErrUTF8}},
		{"an indefinite-length text string with a chunk not UTF-8", "a1 6173 7f 6161 61 ff ff", map[string]error{"defaults": runtime.ErrUTF8,
			"IndefLengthForbidden": forbidden, "TagsForbidden": runtime.ErrUTF8, "NaNDecodeForbidden": runtime.ErrUTF8, "InfDecodeForbidden": runtime.ErrUTF8}},
	} {
		data := cbortest.MustHex(tc.hex)
		modes := append([]cbortest.OptionMode{{Name: "defaults", Fx: fxDefault}}, cbortest.OptionModes...)
		for _, o := range modes {
			var v storage.Value
			var m fixture.LegacyValue
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
			case errors.Is(err, runtime.ErrUTF8) || errors.Is(err, runtime.ErrType):
				// the runtime's words for these are its own
			case !strings.Contains(err.Error(), strings.TrimPrefix(fxErr.Error(), "cbor: ")):
				t.Errorf("%s, %s: generated: %v; fxamacker's text: %v", tc.name, o.Name, err, fxErr)
			}
			name := o.Name
			switch name {
			case "explicit defaults":
				name = "defaults"
			case "defaults", "IndefLengthForbidden", "TagsForbidden", "UTF8DecodeInvalid", "NaNDecodeForbidden", "InfDecodeForbidden":
			default:
				continue
			}
			want, ok := tc.want[name]
			if !ok {
				if want = tc.want["defaults"]; want == runtime.ErrUTF8 {
					want = nil // UTF8DecodeInvalid
				}
			}
			if !errors.Is(err, want) || (want == nil) != (err == nil) {
				t.Errorf("%s, %s: %v, want %v", tc.name, o.Name, err, want)
			}
		}
	}
}
