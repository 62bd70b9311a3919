package genrt_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// floatNoneMode is fxamacker's CoreDetEncOptions with ShortestFloatNone:
// what cbor-gen -float none promises to write.
func floatNoneMode(t testing.TB) cbor.EncMode {
	t.Helper()
	opts := cbor.CoreDetEncOptions()
	opts.ShortestFloat = cbor.ShortestFloatNone
	em, err := opts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	return em
}

// specialFloat64s are the values a float encoder gets wrong first.
var specialFloat64s = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1.5, 65504, 65505, 1e-7, 5.960464477539063e-08,
	math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff0000000000001),
	math.Float64frombits(0xfff8000000000001), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	math.MaxFloat64, -math.MaxFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32, 2.2250738585072014e-308 / 3,
}

// randomFloat64 draws from every class: random bits (NaNs with payloads,
// subnormals, infinities), values exact in float32 or float16, and the
// special ones.
func randomFloat64(r *rand.Rand) float64 {
	switch r.IntN(6) {
	case 0:
		return math.Float64frombits(r.Uint64())
	case 1:
		return float64(math.Float32frombits(r.Uint32()))
	case 2:
		return float64(r.IntN(1<<11)-1<<10) / float64(int(1)<<r.IntN(30))
	case 3:
		return math.Float64frombits(r.Uint64() & 0x800fffffffffffff) // subnormal or ±0
	case 4:
		return math.Float64frombits(r.Uint64() | 0x7ff0000000000000) // NaN or ±Inf
	}
	return specialFloat64s[r.IntN(len(specialFloat64s))]
}

func TestAppendFloatFullMatchesFxamacker(t *testing.T) {
	em := floatNoneMode(t)
	r := rand.New(rand.NewPCG(26, 1))
	n := 200000
	if testing.Short() {
		n = 5000
	}
	check := func(v any, got []byte) {
		t.Helper()
		want, err := em.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%T %v (%#x): got %x, fxamacker %x", v, v, v, got, want)
		}
	}
	for i := range n + len(specialFloat64s) {
		var f float64
		if i < len(specialFloat64s) {
			f = specialFloat64s[i]
		} else {
			f = randomFloat64(r)
		}
		check(f, genrt.AppendFloat64Full(nil, f))
		f32 := float32(f)
		if i%2 == 1 {
			f32 = math.Float32frombits(r.Uint32())
		}
		check(f32, genrt.AppendFloat32Full(nil, f32))
	}
}
