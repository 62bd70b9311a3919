package genrt_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// output is a type whose MarshalCBOR returns its own bytes, whatever they
// are, as a faulty hand-written marshaler may.
type output []byte

func (o output) MarshalCBOR() ([]byte, error) { return o, nil }

// outPair is a generic type with such a method, for the name fxamacker
// gives an instantiated type.
type outPair[T any] struct{ out output }

func (p outPair[T]) MarshalCBOR() ([]byte, error) { return p.out, nil }

var coreDet = func() cbor.EncMode {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

// checkMarshaled compares AppendMarshaledBy on data with fxamacker
// encoding a field whose MarshalCBOR returns data: both refuse it with the
// same text, or both write it.
func checkMarshaled(t *testing.T, data []byte) {
	t.Helper()
	want, fxErr := coreDet.Marshal(struct {
		_ struct{} `cbor:",toarray"`
		F output
	}{F: output(data)})
	got, err := genrt.AppendMarshaledBy([]byte{0x81}, data, (*output)(nil)) // the array head fxamacker writes for the struct
	switch {
	case fxErr == nil && err == nil:
		if !bytes.Equal(got, want) {
			t.Fatalf("%x: wrote %x, fxamacker %x", data, got, want)
		}
	case fxErr == nil || err == nil:
		if !errors.Is(err, genrt.ErrUTF8) && !errors.Is(err, genrt.ErrTag) {
			t.Fatalf("%x: error %v, fxamacker's %v", data, err, fxErr)
		}
		// The runtime's check refuses invalid text and tag content that
		// fxamacker's well-formedness check lets through (see
		// AppendMarshaled); that is not the text under test.
	default:
		if err.Error() != fxErr.Error() {
			t.Fatalf("%x: error\n%s\nfxamacker's\n%s", data, err, fxErr)
		}
		var me *genrt.MarshalerError
		var re *genrt.Error
		if !errors.As(err, &me) || me.Type != "genrt_test.output" || !errors.As(err, &re) || !bytes.Equal(got, []byte{0x81}) {
			t.Fatalf("%x: %#v does not unwrap to a *MarshalerError and a *Error, or dst changed (%x)", data, err, got)
		}
	}
}

// TestMarshalerErrorText: the output of a MarshalCBOR that is not exactly
// one well-formed item gives fxamacker's "error calling MarshalCBOR for
// type T: ..." with fxamacker's reason, on a table of every fault its
// check names and on random items cut, extended and overwritten at random.
func TestMarshalerErrorText(t *testing.T) {
	for _, h := range []string{
		"", "18", "1c", "3f", "5f4100ff", "7f6161ff", "9f01ff", "bf0101ff", "df01", "ff", "f800", "f81f",
		"0101", "8201", "a101", "5b8000000000000000", "9b8000000000000000", "9b0000000080000000",
		"c001", "c1f6", "c1fa00000000", "c261ff", "c3c24100", "c0c001", "dbffffffffffffffff", "d9d9f7", "fc",
		"7bffffffffffffffff61", "c06261", "c2", "f97e00",
	} {
		checkMarshaled(t, mustHex(h))
	}
	// 65536 nested arrays pass fxamacker's depth of 65535.
	deep := append(bytes.Repeat([]byte{0x81}, 65536), 0x01)
	checkMarshaled(t, deep)
	checkMarshaled(t, deep[1:])

	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(26, 4))
	for range n {
		data := randomItem(r, nil, 0)
		switch r.IntN(4) {
		case 0:
			data = data[:r.IntN(len(data)+1)]
		case 1:
			data = append(data, randomItem(r, nil, 2)...)
		case 2:
			data[r.IntN(len(data))] = byte(r.Uint32())
		}
		checkMarshaled(t, data)
	}

	// The name is the pointee's, as reflect gives it, for a generic type too.
	_, fxErr := coreDet.Marshal([]outPair[int]{{output{0x18}}})
	_, err := genrt.AppendMarshaledBy(nil, []byte{0x18}, (*outPair[int])(nil))
	if err == nil || fxErr == nil || err.Error() != fxErr.Error() {
		t.Errorf("generic type: %v; fxamacker: %v", err, fxErr)
	}
}

// FuzzMarshalerError holds AppendMarshaledBy's text to fxamacker's on
// any output of a MarshalCBOR.
func FuzzMarshalerError(f *testing.F) {
	for _, h := range []string{"", "18", "9f01ff", "c261ff", "0101", "a1016161"} {
		f.Add(mustHex(h))
	}
	f.Fuzz(checkMarshaled)
}
