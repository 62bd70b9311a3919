package generator_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/basic"
	"github.com/cborgen/cborgen/testdata/golden/containers"
	"github.com/cborgen/cborgen/testdata/golden/small"
	"github.com/cborgen/cborgen/testdata/golden/tags"
)

// TestSmallAgreesWithDefault decodes the same inputs with the default
// code and the -small code of types of the same shape and name
// (testdata/golden/small against the cases it copies): valid encodings
// of random values in both formats, legacy maps with keys repeated,
// unknown or re-cased, and those bytes mutated, under the options that
// change what a map of a struct means. The two must accept the same
// inputs, refuse the rest with the same error, and decode the same value.
func TestSmallAgreesWithDefault(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 40
	}
	optionSets := []runtime.Options{
		{},
		{Strict: true},
		{DupMapKey: runtime.DupMapKeyEnforcedAPF},
		{ExtraReturnErrors: runtime.ExtraDecErrorUnknownField},
		{FieldNameMatching: runtime.FieldNameMatchingCaseSensitive},
	}
	em := encMode(t, 0)
	pairs := []struct{ def, small generated }{
		{new(basic.Scalars), new(small.Scalars)},
		{new(containers.Containers), new(small.Containers)},
		{new(tags.Tagged), new(small.Tagged)},
		{new(tags.IntKeys), new(small.IntKeys)},
		{new(tags.Cased), new(small.Cased)},
	}
	for _, p := range pairs {
		typ := reflect.TypeOf(p.def).Elem()
		smallT := reflect.TypeOf(p.small).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(typ.String()))))
			m := newMirrors()
			mapT := m.mirror(typ, false)
			for i := 0; i < rounds && !t.Failed(); i++ {
				x := reflect.New(typ)
				fill(r, x.Elem(), map[reflect.Type]int{})
				array, err := x.Interface().(generated).MarshalCBOR()
				if err != nil {
					t.Fatal(err)
				}
				legacy, err := em.Marshal(convert(x.Elem(), mapT).Interface())
				if err != nil {
					t.Fatal(err)
				}
				inputs := [][]byte{array, legacy, recase(t, r, legacy), withExtraPair(t, r, legacy)}
				for range 4 {
					inputs = append(inputs, mutate(r, inputs[r.IntN(len(inputs))]))
				}
				for _, in := range inputs {
					for _, opts := range optionSets {
						// Into new values, and into values that hold
						// the first input's (decoding in place).
						for _, into := range [][]byte{nil, array} {
							a, b := reflect.New(typ), reflect.New(smallT)
							if into != nil {
								if err := runtime.Unmarshal(into, a.Interface().(generated), runtime.Options{}); err != nil {
									t.Fatal(err)
								}
								if err := runtime.Unmarshal(into, b.Interface().(generated), runtime.Options{}); err != nil {
									t.Fatalf("-small: %v", err)
								}
							}
							errA := runtime.Unmarshal(in, a.Interface().(generated), opts)
							errB := runtime.Unmarshal(in, b.Interface().(generated), opts)
							if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
								t.Fatalf("%x with %+v: default: %v; -small: %v", in, opts, errA, errB)
							}
							if errA != nil {
								continue
							}
							encA, errA := a.Interface().(generated).MarshalCBOR()
							encB, errB := b.Interface().(generated).MarshalCBOR()
							if errA != nil || errB != nil || !bytes.Equal(encA, encB) {
								t.Fatalf("%x with %+v decodes to %x in the default code, %x in -small (%v, %v)", in, opts, encA, encB, errA, errB)
							}
						}
					}
				}
			}
		})
	}
}

// TestSmallStream reads values of both formats one after the other from
// a stream that hands out one byte per read, with the default code and
// the -small code: the same values, then io.EOF.
func TestSmallStream(t *testing.T) {
	em := encMode(t, 0)
	pairs := []struct{ def, small generated }{
		{new(containers.Containers), new(small.Containers)},
		{new(tags.Tagged), new(small.Tagged)},
		{new(tags.Cased), new(small.Cased)},
	}
	for _, p := range pairs {
		typ := reflect.TypeOf(p.def).Elem()
		smallT := reflect.TypeOf(p.small).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			mapT := newMirrors().mirror(typ, false)
			var all []byte
			for i := range 30 {
				x := reflect.New(typ)
				fill(r, x.Elem(), map[reflect.Type]int{})
				var b []byte
				var err error
				if i%2 == 0 {
					b, err = x.Interface().(generated).MarshalCBOR()
				} else {
					b, err = em.Marshal(convert(x.Elem(), mapT).Interface())
				}
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, b...)
			}
			da := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(all)))
			db := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(all)))
			for i := 0; ; i++ {
				a, b := reflect.New(typ), reflect.New(smallT)
				errA := a.Interface().(generated).DecodeCBOR(da)
				errB := b.Interface().(generated).DecodeCBOR(db)
				if errors.Is(errA, io.EOF) && errors.Is(errB, io.EOF) {
					if i != 30 {
						t.Fatalf("io.EOF after %d values, want 30", i)
					}
					return
				}
				if errA != nil || errB != nil {
					t.Fatalf("value %d: default: %v; -small: %v", i, errA, errB)
				}
				encA, _ := a.Interface().(generated).MarshalCBOR()
				encB, _ := b.Interface().(generated).MarshalCBOR()
				if !bytes.Equal(encA, encB) {
					t.Fatalf("value %d: default %x, -small %x", i, encA, encB)
				}
			}
		})
	}
}

// withExtraPair returns the map legacy with one more pair at a random
// place: a copy of one of its pairs (a repeated key) or an unknown key.
func withExtraPair(t *testing.T, r *rand.Rand, legacy []byte) []byte {
	t.Helper()
	d := runtime.NewBytesDecoder(legacy)
	n, err := d.ReadMapHead()
	if err != nil {
		t.Fatalf("legacy %x: %v", legacy, err)
	}
	var pairs [][]byte
	for i := 0; i != n; i++ {
		start := d.Offset()
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, legacy[start:d.Offset()])
	}
	extra := runtime.AppendUint(runtime.AppendString(nil, "unknown"), 1)
	if len(pairs) > 0 && r.IntN(2) == 0 {
		extra = pairs[r.IntN(len(pairs))]
	}
	at := r.IntN(len(pairs) + 1)
	out := runtime.AppendMapHead(nil, len(pairs)+1)
	for i, p := range pairs {
		if i == at {
			out = append(out, extra...)
		}
		out = append(out, p...)
	}
	if at == len(pairs) {
		out = append(out, extra...)
	}
	return out
}

// mutate returns a copy of data with one change: a byte replaced, a byte
// inserted or the end cut off.
func mutate(r *rand.Rand, data []byte) []byte {
	out := append([]byte{}, data...)
	if len(out) == 0 {
		return []byte{byte(r.IntN(256))}
	}
	i := r.IntN(len(out))
	switch r.IntN(3) {
	case 0:
		out[i] = byte(r.IntN(256))
	case 1:
		out = append(out[:i], append([]byte{byte(r.IntN(256))}, out[i:]...)...)
	default:
		out = out[:i]
	}
	return out
}
