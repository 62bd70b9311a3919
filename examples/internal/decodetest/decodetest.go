// Package decodetest checks cbor-gen -decode on random values of the
// examples' types.
package decodetest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/generator"
	"github.com/fxamacker/cbor/v2"
)

// legacyMode writes the legacy maps as the examples' version 1 did.
var legacyMode, _ = cbor.CoreDetEncOptions().EncMode()

// marshaler is what the generated code gives every type.
type marshaler interface{ MarshalCBOR() ([]byte, error) }

// DecodeRandom checks cbor-gen -decode on n random values of T (fewer
// with -short): their encoding by the generated code, and their legacy
// map (M, through the mirror, as fxamacker/cbor writes it) unless M is
// the same type as T, must read without a problem from the schema record
// in dir, as the generated decoder reads them. typ is T's name in the
// record.
func DecodeRandom[T, M any](t *testing.T, dir, typ string, n int, seed uint64, f mirror.Filler) {
	t.Helper()
	f.Rand = rand.New(rand.NewPCG(seed, 0x64696167))
	if testing.Short() {
		n = min(n, 50)
	}
	for i := range n {
		var v T
		f.Fill(&v)
		cur, err := any(&v).(marshaler).MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		inputs := [][]byte{cur}
		var m M
		if _, same := any(m).(T); !same {
			mirror.Convert(&m, v)
			legacy, err := legacyMode.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, legacy)
		}
		for _, in := range inputs {
			var out bytes.Buffer
			if err := generator.Read(generator.ReadConfig{Decode: typ, Dir: dir}, bytes.NewReader(in), &out); err != nil {
				t.Fatalf("random value %d (seed %d), %x: %v\n%s", i, seed, in, err, out.String())
			}
			if !strings.Contains(out.String(), "/ ") {
				t.Fatalf("%x: no annotation:\n%s", in, out.String())
			}
		}
	}
}
