package cose_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/cose"
	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/runtime"
)

// claimsMirror is cose.Claims for fxamacker/cbor's reflection.
type claimsMirror struct {
	Issuer    string `cbor:"1,keyasint,omitempty"`
	Subject   string `cbor:"2,keyasint,omitempty"`
	Audience  string `cbor:"3,keyasint,omitempty"`
	Expires   int64  `cbor:"4,keyasint,omitempty"`
	NotBefore int64  `cbor:"5,keyasint,omitempty"`
	IssuedAt  int64  `cbor:"6,keyasint,omitempty"`
	ID        []byte `cbor:"7,keyasint,omitempty"`
}

// TestClaimsOptions: CWT claims (a //cborgen:map type with integer keys)
// with a repeated claim, an unknown claim once and twice, decoded under
// each cbortest.OptionModes as fxamacker/cbor decodes them under the same
// DecOptions: a COSE library with DupMapKeyEnforcedAPF refuses a repeated
// claim; one with IndefLengthForbidden (deterministic input only) an
// indefinite-length claim, with TagsForbidden a tagged claim, with
// NaNDecodeForbidden or InfDecodeForbidden a NaN or infinity even in a
// claim it skips, and one with UTF8DecodeInvalid takes an issuer that is
// not UTF-8 as it is.
func TestClaimsOptions(t *testing.T) {
	for _, h := range []string{
		"a2 01 6161 04 1a 00010000",           // iss, exp
		"a3 01 6161 04 1a 00010000 01 6162",   // iss twice
		"a3 01 6161 18 63 00 04 01",           // an unknown claim 99
		"a4 01 6161 18 63 00 04 01 18 63 00",  // 99 twice
		"a3 01 6161 3863 00 38 63 00",         // -100 twice
		"a3 6169 00 01 6161 6169 00",          // an unknown text claim twice
		"bf 06 01 06 02 ff",                   // iat twice in an indefinite map
		"a2 01 6161 01 f6",                    // iss twice, the second null
		"a1 01 7f 6161 6162 ff",               // iss as an indefinite-length text string
		"a1 04 c6 01",                         // exp behind an unassigned tag
		"d9d9f7 a1 04 01",                     // self-described CBOR
		"a1 01 62 ff61",                       // iss not UTF-8
		"a2 01 6161 18 63 f97e00",             // an unknown claim holding a NaN
		"a2 01 6161 18 63 fb7ff0000000000000", // an unknown claim holding +Inf
	} {
		data := cbortest.MustHex(h)
		for _, o := range cbortest.OptionModes {
			var c cose.Claims
			err := runtime.Unmarshal(data, &c, o.Opts)
			var m claimsMirror
			fxErr := o.Fx.Unmarshal(data, &m)
			switch {
			case err == nil && fxErr == nil:
				if got := claimsMirror(c); !reflect.DeepEqual(got, m) {
					t.Errorf("%s, %s: %+v, fxamacker %+v", h, o.Name, got, m)
				}
			case err == nil || fxErr == nil:
				t.Errorf("%s, %s: generated: %v; fxamacker: %v", h, o.Name, err, fxErr)
			case !strings.Contains(err.Error(), strings.TrimPrefix(fxErr.Error(), "cbor: ")) && !errors.Is(err, runtime.ErrUTF8):
				// (the runtime's words for invalid UTF-8 are its own)
				t.Errorf("%s, %s: generated: %v; fxamacker's text: %v", h, o.Name, err, fxErr)
			case !errors.Is(err, runtime.ErrDuplicateKey) && !errors.Is(err, runtime.ErrUnknownField) &&
				!errors.Is(err, runtime.ErrForbidden) && !errors.Is(err, runtime.ErrUTF8):
				t.Errorf("%s, %s: %v: not ErrDuplicateKey, ErrUnknownField, ErrForbidden or ErrUTF8", h, o.Name, err)
			}
		}
	}
}
