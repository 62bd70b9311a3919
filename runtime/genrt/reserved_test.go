package genrt_test

import (
	"bytes"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// A named Reserved field is null to fxamacker/cbor too, and anything
// stored in it is ignored, as in generated code.
func TestReservedWithFxamacker(t *testing.T) {
	type T struct {
		_      struct{} `cbor:",toarray"`
		A      int
		Coupon genrt.Reserved
		B      string
	}
	b, err := cbor.Marshal(T{A: 1, B: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x83, 0x01, 0xf6, 0x61, 'x'}; !bytes.Equal(b, want) {
		t.Errorf("Marshal = %x, want %x", b, want)
	}
	var v T
	// [1, {"old": [1, 2]}, "x"]: whatever the slot holds is skipped.
	if err := cbor.Unmarshal([]byte{0x83, 0x01, 0xa1, 0x63, 'o', 'l', 'd', 0x82, 0x01, 0x02, 0x61, 'x'}, &v); err != nil || v.A != 1 || v.B != "x" {
		t.Errorf("Unmarshal: %+v, %v", v, err)
	}
}
