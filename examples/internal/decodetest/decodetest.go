// Package decodetest checks cbor-gen -decode on random values of the
// examples' types.
package decodetest

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// unmarshaler is the generated decoder.
type unmarshaler interface{ UnmarshalCBOR([]byte) error }

// Agree mutates the stored samples of T (the files matching pattern, hex)
// n times (fewer with -short) and checks that -decode says the generated
// decoder refuses a mutant exactly when UnmarshalCBOR does, or with exact
// false only that -decode takes what UnmarshalCBOR takes: for a directory
// with a record that leaves out what the decoder checks and no source
// beside it (the kinds of named types of other kinds, //cborgen:nolegacy).
// Inputs that became a sequence of
// items, which -decode reads item by item and UnmarshalCBOR refuses as
// trailing data, are left out.
func Agree[T any](t *testing.T, dir, typ, pattern string, n int, seed uint64, exact bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples %s: %v", pattern, err)
	}
	var samples [][]byte
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := hex.DecodeString(strings.TrimSpace(string(text)))
		if err != nil {
			t.Fatal(f, err)
		}
		samples = append(samples, b)
	}
	if testing.Short() {
		n = min(n, 500)
	}
	r := rand.New(rand.NewPCG(seed, 0x61677265))
	for range n {
		b := append([]byte(nil), samples[r.IntN(len(samples))]...)
		for j := r.IntN(3); j >= 0 && len(b) > 0; j-- {
			k := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[k] = byte(r.IntN(256))
			case 1:
				b = append(b[:k:k], b[k+1:]...)
			default:
				b = append(b[:k:k], append([]byte{byte(r.IntN(256))}, b[k:]...)...)
			}
		}
		var v T
		errGen := any(&v).(unmarshaler).UnmarshalCBOR(b)
		if errGen != nil && strings.Contains(errGen.Error(), "unexpected data after the value") {
			continue
		}
		var out bytes.Buffer
		errDiag := generator.Read(generator.ReadConfig{Decode: typ, Dir: dir}, bytes.NewReader(b), &out)
		if (errGen == nil) != (errDiag == nil) && (exact || errGen == nil) {
			t.Errorf("%x:\nUnmarshalCBOR: %v\n-decode: %v\n%s", b, errGen, errDiag, out.String())
		}
	}
}
