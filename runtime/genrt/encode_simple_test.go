package genrt_test

import (
	"bytes"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// TestAppendUndefined: undefined is written as fxamacker/cbor writes it
// (simple value 23, f7), is one valid item, and reads back as null.
func TestAppendUndefined(t *testing.T) {
	want, err := cbor.Marshal(cbor.SimpleValue(23))
	if err != nil {
		t.Fatal(err)
	}
	got := genrt.AppendUndefined([]byte{0x01})
	if !bytes.Equal(got, append([]byte{0x01}, want...)) {
		t.Fatalf("AppendUndefined = %x, want 01 %x", got, want)
	}
	if err := genrt.Valid(got[1:]); err != nil {
		t.Fatalf("Valid(%x): %v", got[1:], err)
	}
	null, err := genrt.NewBytesDecoder(got[1:]).ReadNull()
	if !null || err != nil {
		t.Fatalf("ReadNull(%x) = %v, %v; want true, nil", got[1:], null, err)
	}
}
