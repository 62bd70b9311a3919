package generator_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/marshalers"
)

// TestOctetArrays: a slice of a byte type with its own UnmarshalCBOR reads
// a byte string as bytes and an array element by element through the
// method, as fxamacker/cbor reads both (random arrays of numbers, texts
// and nulls, into values that held random octets); strict mode refuses
// the array.
func TestOctetArrays(t *testing.T) {
	type mirror struct {
		_      struct{} `cbor:",toarray"`
		Octets []marshalers.Octet
	}
	elems := []string{"00", "17", "18ff", "6161", "63616263", "f6", "c6 01", "60"}
	r := rand.New(rand.NewPCG(27, 8))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for range n {
		count := r.IntN(5)
		in := append([]byte{0x81}, genrt.AppendArrayHead(nil, count)...)
		for range count {
			in = append(in, mustHex(t, elems[r.IntN(len(elems))])...)
		}
		if r.IntN(4) == 0 {
			in = append([]byte{0x81}, genrt.AppendBytes(nil, bytes.Repeat([]byte{7}, count))...)
		}
		old := make([]marshalers.Octet, r.IntN(4), 4)
		for i := range old[:cap(old)] {
			old[:cap(old)][i] = marshalers.Octet(r.Uint32())
		}
		got := marshalers.Octets{Octets: old}
		want := mirror{Octets: append(make([]marshalers.Octet, 0, cap(old)), old[:cap(old)]...)[:len(old)]}
		err := got.UnmarshalCBOR(in)
		fxErr := cbor.Unmarshal(in, &want)
		if (err == nil) != (fxErr == nil) || err == nil && !reflect.DeepEqual(got.Octets, want.Octets) && len(got.Octets)+len(want.Octets) > 0 {
			t.Fatalf("%x: generated %v, %v; fxamacker %v, %v", in, got.Octets, err, want.Octets, fxErr)
		}
		if in[1]>>5 == genrt.MajorArray {
			if err := genrt.Unmarshal(in, new(marshalers.Octets), genrt.Options{Strict: true}); err == nil {
				t.Fatalf("%x: strict mode takes the array", in)
			}
		}
	}
}
