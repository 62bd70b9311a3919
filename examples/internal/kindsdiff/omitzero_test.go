package kindsdiff_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/testdata/golden/mapformat"
)

// TestOmitZeroArrayStruct pins a documented departure: omitzero on a field
// holding an array-format struct leaves out T{}, as fxamacker/cbor leaves
// out the generated type itself (reflect's IsZero), while fxamacker with a
// toarray mirror of the struct never leaves it out (its omitzero passes
// over toarray structs).
func TestOmitZeroArrayStruct(t *testing.T) {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := (&mapformat.Zeros{}).MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(got, []byte("\x62at")) {
		t.Errorf("Zeros{} = %x: At (Point{}, omitzero) is written", got)
	}
	type real struct {
		At mapformat.Point `cbor:"at,omitzero"`
	}
	type point struct {
		_    struct{} `cbor:",toarray"`
		X, Y int32
	}
	type mirror struct {
		At point `cbor:"at,omitzero"`
	}
	if b, err := em.Marshal(real{}); err != nil || !bytes.Equal(b, []byte{0xa0}) {
		t.Errorf("fxamacker, the generated Point: %x, %v; want a0 (left out)", b, err)
	}
	if b, err := em.Marshal(mirror{}); err != nil || bytes.Equal(b, []byte{0xa0}) {
		t.Errorf("fxamacker, a toarray mirror: %x, %v; want it written (the departure is gone: update the docs)", b, err)
	}
}

// zpMirror is mapformat.ZeroParts without the generated methods: fxamacker
// writes it by reflection and tests each omitzero field with reflect's
// IsZero (the field types' own generated MarshalCBOR write the values).
type zpMirror struct {
	Set  mapformat.SetType[uint64] `cbor:"1,keyasint,omitzero"`
	Bag  mapformat.Bag             `cbor:"2,keyasint,omitzero"`
	Anon struct {
		L []string
		A [2]int16
	} `cbor:"3,keyasint,omitzero"`
	Sets [2]mapformat.SetType[string] `cbor:"4,keyasint,omitzero"`
	Both mapformat.SetType[int8]      `cbor:"5,keyasint,omitempty,omitzero"`
}

// TestOmitZeroNotComparable: omitzero on types == cannot test (a struct
// holding a slice, a map, a func; arrays of them) is reflect's IsZero,
// part by part, as fxamacker tests it: random values with every part
// zero or not (nil beside empty, -0.0, fields that are not encoded),
// byte for byte against fxamacker under CoreDetEncOptions, and decoded
// as fxamacker's default DecMode decodes them.
func TestOmitZeroNotComparable(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 400
	}
	r := rand.New(rand.NewPCG(42, 3))
	fill := mirror.Filler{Rand: r}
	pick := func() int { return r.IntN(3) } // 0: zero, 1: empty but not zero, 2: as filled
	left := map[int]int{}
	for i := range n {
		var v mapformat.ZeroParts
		fill.Fill(&v)
		switch pick() {
		case 0:
			v.Set.Items = nil
		case 1:
			v.Set.Items = []uint64{}
		}
		switch pick() {
		case 0:
			v.Bag.M = nil
		case 1:
			v.Bag.M = map[string]int{}
		}
		for k := range v.Bag.Rows {
			switch pick() {
			case 0:
				v.Bag.Rows[k] = nil
			case 1:
				v.Bag.Rows[k] = []byte{}
			}
		}
		switch pick() {
		case 0:
			v.Bag.Inner.N = 0
		case 1:
			v.Bag.Inner.N = math.Copysign(0, -1) // zero to reflect's IsZero
		}
		if r.IntN(2) == 0 {
			v.Bag.Inner.P = nil
		}
		if r.IntN(4) == 0 { // every part zero, one of them -0.0
			v.Bag = mapformat.Bag{}
			v.Bag.Inner.N = math.Copysign(0, -1)
		}
		if r.IntN(4) == 0 {
			v.Bag.F = func() {}
		}
		if r.IntN(4) == 0 {
			v.Bag.SetNote("not encoded")
		}
		if pick() == 0 {
			v.Anon.L = nil
		}
		if pick() == 0 {
			v.Anon.A = [2]int16{}
		}
		for k := range v.Sets {
			switch pick() {
			case 0:
				v.Sets[k].Items = nil
			case 1:
				v.Sets[k].Items = []string{}
			}
		}
		if pick() == 0 {
			v.Both.Items = nil
		}
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := cborEnc.Marshal(zpMirror(v))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("value %d %+v:\ngenerated %x\nfxamacker %x", i, v, got, want)
		}
		var m map[int]cbor.RawMessage
		if err := cbor.Unmarshal(got, &m); err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 5; k++ {
			if _, ok := m[k]; !ok {
				left[k]++
			}
		}
		v.Bag.F = nil // a func is not compared by the decoders' diff
		for _, in := range [][]byte{got, cbortest.Mutate(r, got)} {
			if d := cbortest.Differ[mapformat.ZeroParts, zpMirror, zpMirror](in); d != "" {
				t.Fatalf("value %d: %s", i, d)
			}
		}
	}
	// Every field must have been left out, and written, many times.
	for k := 1; k <= 5; k++ {
		if left[k] < n/40 || left[k] > n-n/40 {
			t.Errorf("key %d left out %d times in %d values", k, left[k], n)
		}
	}
}
