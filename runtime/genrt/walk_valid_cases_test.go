package genrt_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// validityCases are well-formed items that Valid must judge on validity:
// one item, UTF-8, duplicate keys by value, tags 0-3.
var validityCases = []struct {
	name string
	hex  string
	want error // nil: valid
	// fxDiffers explains an expected disagreement with fxamacker's decoder
	// (fxDecStrict decoding into any); "" when both must agree.
	fxDiffers string
}{
	{"one item", "83010203", nil, ""},
	{"trailing byte", "8301020300", genrt.ErrTrailing, ""},
	{"two items", "0000", genrt.ErrTrailing, ""},
	{"trailing break", "80ff", genrt.ErrTrailing, ""},
	{"empty", "", io.ErrUnexpectedEOF, ""},

	{"distinct keys", "a201000200", nil, ""},
	{"duplicate int keys", "a201000100", genrt.ErrDuplicateKey, ""},
	{"duplicate keys, long head", "a2 1801 00 01 00", genrt.ErrDuplicateKey, ""},
	{"duplicate keys, 01 and 18 01", "a201001801 00", genrt.ErrDuplicateKey, ""},
	{"duplicate keys, 2-byte and 4-byte heads", "a2 190100 00 1a00000100 00", genrt.ErrDuplicateKey, ""},
	{"duplicate negative keys", "a2 20 00 3800 00", genrt.ErrDuplicateKey, ""},
	{"duplicate text keys", "a2 6161 00 6161 01", genrt.ErrDuplicateKey, ""},
	{"duplicate text keys, one chunked", "a2 6161 00 7f6161ff 01", genrt.ErrDuplicateKey, ""},
	{"duplicate text keys, long head", "a2 6161 00 780161 01", genrt.ErrDuplicateKey, ""},
	{"duplicate byte keys", "a2 4161 00 5f4161ff 01", genrt.ErrDuplicateKey, ""},
	{"text and bytes are different keys", "a2 6161 00 4161 01", nil, ""},
	{"1 and -1 are different keys", "a2 01 00 20 00", nil, ""},
	{"int and float are different keys", "a2 01 00 f93c00 00", nil, ""},
	{"duplicate float keys, f16 and f32", "a2 f93c00 00 fa3f800000 00", genrt.ErrDuplicateKey, ""},
	{"duplicate float keys, f16 and f64", "a2 f93e00 00 fb3ff8000000000000 00", genrt.ErrDuplicateKey, ""},
	{"duplicate bool keys", "a2 f5 00 f5 01", genrt.ErrDuplicateKey, ""},
	{"duplicate null keys", "a2 f6 00 f6 01", genrt.ErrDuplicateKey, ""},
	{"duplicate keys in indefinite map", "bf 01 00 01 00 ff", genrt.ErrDuplicateKey, ""},
	{"duplicate keys in nested map", "81 a3 01 00 02 00 01 00", genrt.ErrDuplicateKey, ""},
	{"same keys in sibling maps", "82 a1 01 00 a1 01 00", nil, ""},
	{"same key in parent and child", "a2 01 a1 01 00 02 00", nil, ""},
	{"duplicate keys among many", "b0" + hexOfKeys(15) + "0500", genrt.ErrDuplicateKey, ""},
	{"many distinct keys", "b0" + hexOfKeys(16), nil, ""},
	{"duplicate tagged keys", "a2 c1 01 00 c1 1801 00", genrt.ErrDuplicateKey, ""},
	// fxamacker rejects this too, though because an array cannot be a Go
	// map key.
	{"duplicate array keys", "a2 82 01 02 00 82 01 1802 00", genrt.ErrDuplicateKey, ""},
	{"distinct array keys", "a2 81 01 00 81 02 00", nil,
		"fxamacker cannot use an array as a Go map key"},
	{"duplicate keys, indefinite and definite array", "a2 9f01ff 00 8101 00", genrt.ErrDuplicateKey, ""},
	{"duplicate keys, nested indefinite arrays", "a2 9f9f01ff9fffff 00 82810180 00", genrt.ErrDuplicateKey, ""},
	{"duplicate keys, indefinite and definite map", "a2 bf0102ff 00 a10102 00", genrt.ErrDuplicateKey, ""},
	// A key of 30 nested indefinite arrays: the duplicate check must not
	// take time exponential in the depth (it once took about a minute).
	{"deep indefinite key", "a2" + strings.Repeat("9f", 30) + strings.Repeat("ff", 30) + "00" +
		strings.Repeat("9f", 29) + "80" + strings.Repeat("ff", 29) + "00", genrt.ErrDuplicateKey, ""},
	{"deep indefinite keys, distinct", "a2" + strings.Repeat("9f", 30) + strings.Repeat("ff", 30) + "00" +
		strings.Repeat("9f", 29) + "ff" + strings.Repeat("ff", 28) + "00", nil,
		"fxamacker cannot use an array as a Go map key"},

	{"tag 0 text", "c0 74323031332d30332d32315432303a30343a30305a", nil, ""},
	{"tag 0 with an integer", "c0 01", genrt.ErrTag, ""},
	{"tag 0 with bytes", "c0 4161", genrt.ErrTag, ""},
	{"tag 0 text that is no date", "c0 6161", genrt.ErrTag, ""},
	{"tag 0 date in chunks", "c0 7f 6a323031332d30332d3231 6a5432303a30343a30305a ff", nil, ""},
	{"tag 0 date with fraction and offset", "c0 781b 323031332d30332d32315432303a30343a30302e352b30313a3030", nil, ""},
	{"tag 0 date without zone", "c0 73 323031332d30332d32315432303a30343a3030", genrt.ErrTag, ""},
	{"tag 0 date in an array", "82 c0 6161 00", genrt.ErrTag, ""},
	{"tag 1 integer", "c1 1a514b67b0", nil, ""},
	{"tag 1 negative", "c1 20", nil, ""},
	{"tag 1 float", "c1 fb41d452d9ec200000", nil, ""},
	{"tag 1 text", "c1 6161", genrt.ErrTag, ""},
	{"tag 1 array", "c1 80", genrt.ErrTag, ""},
	{"tag 1 null", "c1 f6", genrt.ErrTag, ""},
	{"tag 2 bytes", "c2 4101", nil, ""},
	{"tag 2 text", "c2 6101", genrt.ErrTag, ""},
	{"tag 3 bytes", "c3 4101", nil, ""},
	{"tag 3 integer", "c3 01", genrt.ErrTag, ""},
	{"tag 3 indefinite bytes", "c3 5f4101ff", nil, ""},
	{"tag 4 is not checked", "c4 01", nil, ""},
	{"nested tag 0 in array", "81 c0 00", genrt.ErrTag, ""},
	{"tag 0 inside tag 55799", "d9d9f7 c0 00", genrt.ErrTag, ""},
	{"tag 55799 inside tag 0", "c0 d9d9f7 6161", genrt.ErrTag, ""},

	{"invalid UTF-8", "61ff", genrt.ErrUTF8, ""},
	{"invalid UTF-8 as map key", "a1 61ff 00", genrt.ErrUTF8, ""},
	{"invalid UTF-8 in chunk", "7f 6161 61ff ff", genrt.ErrUTF8, ""},
	{"invalid bytes are fine", "41ff", nil, ""},
	{"simple value 32", "f820", nil, ""},
	{"undefined", "f7", nil, ""},
}

// hexOfKeys writes n pairs {i: 0} for i in 0..n-1 as hex.
func hexOfKeys(n int) string {
	var b []byte
	for i := 0; i < n; i++ {
		b = genrt.AppendUint(b, uint64(i))
		b = genrt.AppendUint(b, 0)
	}
	return hexString(b)
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func TestValidity(t *testing.T) {
	for _, c := range validityCases {
		data := mustHex(c.hex)
		err := genrt.Valid(data)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: Valid(%s) = %v, want nil", c.name, c.hex, err)
			}
		} else if !errors.Is(err, c.want) {
			t.Errorf("%s: Valid(%s) = %v, want %v", c.name, c.hex, err, c.want)
		} else {
			asError(t, err)
		}
		fxErr := fxValid(data)
		agree := (err == nil) == (fxErr == nil)
		if c.fxDiffers == "" && !agree {
			t.Errorf("%s: Valid(%s) = %v but fxamacker says %v", c.name, c.hex, err, fxErr)
		}
		if c.fxDiffers != "" && agree {
			t.Errorf("%s: expected a disagreement with fxamacker (%s), both say %v / %v", c.name, c.fxDiffers, err, fxErr)
		}
	}
}

// TestValidDuplicateOffset: the error points at the second of the two keys.
func TestValidDuplicateOffset(t *testing.T) {
	data := mustHex("a3 01 00 02 00 1801 00")
	err := genrt.Valid(data)
	if e := asError(t, err); e.Offset != 5 {
		t.Errorf("duplicate key error at offset %d, want 5: %v", e.Offset, err)
	}
}

// TestValidAgreesWithFxamackerOnRFC: Valid accepts exactly what fxamacker
// accepts over both RFC tables.
func TestValidAgreesWithFxamackerOnRFC(t *testing.T) {
	for _, ex := range appendixA {
		data := mustHex(ex.hex)
		if (genrt.Valid(data) == nil) != (fxValid(data) == nil) {
			t.Errorf("%s: Valid = %v, fxamacker = %v", ex.hex, genrt.Valid(data), fxValid(data))
		}
	}
	for _, h := range allAppendixF() {
		data := mustHex(h)
		if genrt.Valid(data) == nil || fxValid(data) == nil {
			t.Errorf("%s: Valid = %v, fxamacker = %v; both must reject", h, genrt.Valid(data), fxValid(data))
		}
	}
}

// TestValidIsNotSkip: Skip checks well-formedness only, Valid checks more.
func TestValidIsNotSkip(t *testing.T) {
	for _, h := range []string{"61ff", "a2 01 00 01 00", "c1 6161"} {
		for _, k := range decoderKinds {
			if off, err := skipAll(k, mustHex(h)); err != nil || off != int64(len(mustHex(h))) {
				t.Errorf("%s Skip(%s) = %v after %d bytes; Skip checks well-formedness only", k.name, h, err, off)
			}
		}
	}
}
