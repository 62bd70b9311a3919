package genrt_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// fxDefaultEnc is fxamacker's EncOptions{}, cbor.Marshal's options, which
// allow indefinite lengths.
var fxDefaultEnc = mustEncMode(cbor.EncOptions{})

// indefOutputs are outputs of a MarshalCBOR with indefinite lengths,
// well-formed and not.
var indefOutputs = []string{
	"9f01ff", "bf616101ff", "5f4101ff", "7f6161ff", "9f9fffff", "9fbf6161f6ffff", "5fff", "81 9f c1 00 ff",
	"9f01", "bf01ff", "5f6161ff", "5f5fffff", "7f7f61ff", "9fff00", "9f", "bf6161ff", "9f c0 01 ff", "7f 61 ff",
}

// TestMarshaledIndefLength: a field's own MarshalCBOR output with
// indefinite lengths is refused by default and under IndefLengthForbidden
// as fxamacker under CoreDetEncOptions refuses it, and written under
// IndefLengthAllowed as fxamacker's EncOptions{} writes it, with its
// words when it is not well-formed.
func TestMarshaledIndefLength(t *testing.T) {
	defer genrt.SetDefaultEncOptions(genrt.EncOptions{})
	for _, mode := range []struct {
		name string
		set  genrt.IndefLengthMode
		fx   cbor.EncMode
	}{
		{"default", genrt.IndefLengthDefault, coreDet},
		{"IndefLengthForbidden", genrt.IndefLengthForbidden, coreDet},
		{"IndefLengthAllowed", genrt.IndefLengthAllowed, fxDefaultEnc},
	} {
		genrt.SetDefaultEncOptions(genrt.EncOptions{IndefLength: mode.set})
		for _, h := range indefOutputs {
			data := mustHex(h)
			want, fxErr := mode.fx.Marshal(struct {
				_ struct{} `cbor:",toarray"`
				F output
			}{F: output(data)})
			before := genrt.IndefiniteWrites()
			got, err := genrt.AppendMarshaledBy([]byte{0x81}, data, (*output)(nil))
			switch {
			case fxErr == nil && err == nil:
				if !bytes.Equal(got, want) {
					t.Errorf("%s, %s: wrote %x, fxamacker %x", mode.name, h, got, want)
				}
				if genrt.IndefiniteWrites() == before {
					t.Errorf("%s, %s: written, but IndefiniteWrites did not move", mode.name, h)
				}
			case fxErr == nil || err == nil:
				if !errors.Is(err, genrt.ErrTag) {
					t.Errorf("%s, %s: %v, fxamacker %v", mode.name, h, err, fxErr)
				}
			case err.Error() != fxErr.Error():
				t.Errorf("%s, %s: error\n%s\nfxamacker's\n%s", mode.name, h, err, fxErr)
			}
		}
	}
}

// TestAppendRawIndefLength: a union's catch-all writes back the
// indefinite lengths it read by default and under IndefLengthAllowed,
// counted by IndefiniteWrites, and refuses them under
// IndefLengthForbidden.
func TestAppendRawIndefLength(t *testing.T) {
	defer genrt.SetDefaultEncOptions(genrt.EncOptions{})
	raw := mustHex("9f 01 7f 6161 ff ff")
	for _, set := range []genrt.IndefLengthMode{genrt.IndefLengthDefault, genrt.IndefLengthAllowed} {
		genrt.SetDefaultEncOptions(genrt.EncOptions{IndefLength: set})
		before := genrt.IndefiniteWrites()
		if got, err := genrt.AppendRaw(nil, raw); err != nil || !bytes.Equal(got, raw) {
			t.Errorf("IndefLength %d: %x, %v", set, got, err)
		}
		if genrt.IndefiniteWrites() != before+1 {
			t.Errorf("IndefLength %d: IndefiniteWrites %d, was %d", set, genrt.IndefiniteWrites(), before)
		}
		before = genrt.IndefiniteWrites()
		if _, err := genrt.AppendRaw(nil, mustHex("82 01 02")); err != nil || genrt.IndefiniteWrites() != before {
			t.Errorf("IndefLength %d, definite: %v, IndefiniteWrites moved", set, err)
		}
	}
	genrt.SetDefaultEncOptions(genrt.EncOptions{IndefLength: genrt.IndefLengthForbidden})
	if got, err := genrt.AppendRaw([]byte{0x82}, raw); !errors.Is(err, genrt.ErrForbidden) || !bytes.Equal(got, []byte{0x82}) {
		t.Errorf("IndefLengthForbidden: %x, %v, want ErrForbidden", got, err)
	}
	if _, err := genrt.AppendRaw(nil, mustHex("82 01")); err == nil {
		t.Errorf("IndefLengthForbidden, cut short: no error")
	}
	if got, err := genrt.AppendRaw(nil, mustHex("82 01 02")); err != nil || len(got) != 3 {
		t.Errorf("IndefLengthForbidden, definite: %x, %v", got, err)
	}
	if genrt.ProcessEncOptions().IndefLength != genrt.IndefLengthForbidden {
		t.Errorf("ProcessEncOptions() = %+v", genrt.ProcessEncOptions())
	}
}
