package dynamic_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/dynamic"
)

// TestFloatNone: with Options.FloatNone (cbor-gen -float none) a float
// type argument and a float inside an interface field are written at
// their Go width, as fxamacker writes them with ShortestFloatNone.
func TestFloatNone(t *testing.T) {
	opts := cbor.CoreDetEncOptions()
	opts.ShortestFloat = cbor.ShortestFloatNone
	em, err := opts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	o := dynamic.Options{FloatNone: true}
	r := rand.New(rand.NewPCG(26, 7))
	values := []float64{0, math.Copysign(0, -1), 1.5, math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64}
	for range 2000 {
		values = append(values, math.Float64frombits(r.Uint64()))
	}
	for _, f := range values {
		f32 := float32(f)
		for _, v := range []any{f, f32, []float64{f, 1}} {
			want, err := em.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := dynamic.Append(nil, v, o)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("Append(%T %v) = %x, %v; want %x", v, v, got, err, want)
			}
		}
		want, _ := em.Marshal(f)
		if got, err := dynamic.AppendValue(nil, &f, o); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendValue(%v) = %x, %v; want %x", f, got, err, want)
		}
		want, _ = em.Marshal(f32)
		if got, err := dynamic.AppendValue(nil, &f32, o); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("AppendValue(float32 %v) = %x, %v; want %x", f32, got, err, want)
		}
	}
}
