package generator_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/toarray"
)

// TestToArrayHasNoLegacy: a struct with fxamacker's toarray option gets no
// legacy map decoder: its arrays are fxamacker's bytes and read back, and
// a map, which fxamacker refuses for such a struct, is refused too (it
// used to decode, keys unknown or not, to a value fxamacker never
// produces). //cborgen:legacy keeps the map decoder; a struct without
// toarray keeps it by default.
func TestToArrayHasNoLegacy(t *testing.T) {
	type sign1Array struct {
		_         struct{} `cbor:",toarray"`
		Protected []byte
		Payload   []byte
		Signature []byte
	}
	type sign1Map struct {
		Protected []byte
		Payload   []byte
		Signature []byte
	}
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(26, 5))
	bytesOf := func() []byte {
		if r.IntN(4) == 0 {
			return nil
		}
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		v := toarray.Sign1{Protected: bytesOf(), Payload: bytesOf(), Signature: bytesOf()}
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := em.Marshal(sign1Array{Protected: v.Protected, Payload: v.Payload, Signature: v.Signature})
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%+v: got %x, fxamacker %x (%v)", v, got, want, err)
		}
		var back toarray.Sign1
		if err := back.UnmarshalCBOR(got); err != nil || !bytes.Equal(back.Payload, v.Payload) {
			t.Fatalf("%x read back as %+v, %v", got, back, err)
		}

		// The map form, and an integer-keyed map: both refused, by both.
		for _, m := range []any{
			sign1Map{Protected: v.Protected, Payload: v.Payload, Signature: v.Signature},
			map[int][]byte{1: v.Protected, 2: v.Payload},
		} {
			b, err := em.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var fx sign1Array
			if err := cbor.Unmarshal(b, &fx); err == nil {
				t.Fatalf("fxamacker accepts the map %x into a toarray struct", b)
			}
			var gen toarray.Sign1
			if err := gen.UnmarshalCBOR(b); !errors.Is(err, genrt.ErrType) {
				t.Fatalf("the map %x into Sign1: %v, want ErrType", b, err)
			}
		}
	}

	// //cborgen:legacy, and no toarray: the map form decodes.
	b, err := em.Marshal(map[string]int{"X": 3, "Y": -4})
	if err != nil {
		t.Fatal(err)
	}
	var p toarray.Point
	if err := p.UnmarshalCBOR(b); err != nil || p.X != 3 || p.Y != -4 {
		t.Errorf("Point from a map: %+v, %v", p, err)
	}
	b, err = em.Marshal(map[string]string{"A": "a"})
	if err != nil {
		t.Fatal(err)
	}
	var plain toarray.Plain
	if err := plain.UnmarshalCBOR(b); err != nil || plain.A != "a" {
		t.Errorf("Plain from a map: %+v, %v", plain, err)
	}
}
