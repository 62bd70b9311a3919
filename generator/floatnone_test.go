package generator_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/testdata/golden/floatnone"
)

// TestFloatNone: under -float none every float is written at its Go
// width, the bytes of fxamacker's EncOptions with ShortestFloatNone (its
// default) and otherwise CoreDetEncOptions, for values of every class;
// a struct of floats has a SizeCBOR that is its exact size, and the
// values read back bit for bit (NaN as NaN).
func TestFloatNone(t *testing.T) {
	opts := cbor.CoreDetEncOptions()
	opts.ShortestFloat = cbor.ShortestFloatNone
	em, err := opts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	type mirror struct {
		_ struct{} `cbor:",toarray"`
		X float64
		Y float64
		Z float32
	}
	r := rand.New(rand.NewPCG(26, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	special := []float64{0, math.Copysign(0, -1), 1, 0.5, 65504, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, 2.2250738585072014e-308 / 7, math.MaxFloat64, float64(math.SmallestNonzeroFloat32)}
	pick := func() float64 {
		switch r.IntN(4) {
		case 0:
			return special[r.IntN(len(special))]
		case 1:
			return float64(float32(r.NormFloat64()))
		case 2:
			return float64(r.IntN(4096)) / 64 // exact in float16 and float32
		}
		return math.Float64frombits(r.Uint64())
	}
	for i := 0; i < n; i++ {
		p := floatnone.Point{X: pick(), Y: pick(), Z: float32(pick())}
		got, err := p.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := em.Marshal(mirror{X: p.X, Y: p.Y, Z: p.Z})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%+v: got %x, fxamacker %x", p, got, want)
		}
		if !math.IsNaN(p.X) && !math.IsInf(p.X, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0) &&
			!math.IsNaN(float64(p.Z)) && !math.IsInf(float64(p.Z), 0) {
			if p.SizeCBOR() != len(got) || len(got) != 1+9+9+5 {
				t.Fatalf("%+v: SizeCBOR %d, %d bytes written", p, p.SizeCBOR(), len(got))
			}
		} else if p.SizeCBOR() < len(got) {
			t.Fatalf("%+v: SizeCBOR %d below %d", p, p.SizeCBOR(), len(got))
		}
		var back floatnone.Point
		if err := back.UnmarshalCBOR(got); err != nil {
			t.Fatal(err)
		}
		same := func(a, b float64) bool {
			return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
		}
		if !same(back.X, p.X) || !same(back.Y, p.Y) || !same(float64(back.Z), float64(p.Z)) {
			t.Fatalf("%+v read back as %+v", p, back)
		}
		var fx mirror
		if err := cbor.Unmarshal(got, &fx); err != nil || !same(fx.X, p.X) || !same(fx.Y, p.Y) {
			t.Fatalf("fxamacker reads %x as %+v, %v", got, fx, err)
		}
	}
	// An interface field goes through fxamacker/cbor with the same option.
	rd := floatnone.Reading{Any: 1.5, Series: []float64{0.5}}
	got, err := rd.MarshalCBOR()
	if err != nil || !bytes.Contains(got, []byte{0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0}) || !bytes.Contains(got, []byte{0x81, 0xfb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("Reading: %x, %v", got, err)
	}
}
