package mirror

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

type inner struct {
	N int16 `cbor:"n"`
}

type outer struct {
	A    []inner          `cbor:"a,omitempty"`
	M    map[string]inner `cbor:"m"`
	P    *inner           `cbor:"p"`
	F    float32          `cbor:"f"`
	B    []byte           `cbor:"b"`
	K    [2]inner         `cbor:"k"`
	S    string           `json:"s"`
	Skip *outer           `cbor:"-"`
	Gone string           `json:"-"`
}

type innerMirror struct {
	_ struct{} `cbor:",toarray"`
	N int16    `cbor:"n"`
}

type outerMirror struct {
	_    struct{}               `cbor:",toarray"`
	A    []innerMirror          `cbor:"a,omitempty"`
	M    map[string]innerMirror `cbor:"m"`
	P    *innerMirror           `cbor:"p"`
	F    float32                `cbor:"f"`
	B    []byte                 `cbor:"b"`
	K    [2]innerMirror         `cbor:"k"`
	S    string                 `json:"s"`
	Skip *outerMirror           `cbor:"-"`
	Gone string                 `json:"-"`
}

func TestConvertRoundTrip(t *testing.T) {
	f := Filler{Rand: rand.New(rand.NewPCG(1, 2))}
	for i := range 500 {
		var v outer
		f.Fill(&v)
		var m outerMirror
		Convert(&m, v)
		var back outer
		Convert(&back, m)
		if d := Diff(v, back); d != "" {
			t.Fatalf("value %d: round trip differs at outer%s", i, d)
		}
		if !reflect.DeepEqual(v, back) && !hasNaN(v) {
			t.Fatalf("value %d: reflect.DeepEqual disagrees with Diff", i)
		}
	}
}

func hasNaN(v outer) bool { return math.IsNaN(float64(v.F)) }

func TestConvertPanicsOnMissingField(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no field") {
			t.Fatalf("recover() = %v, want a missing field panic", r)
		}
	}()
	var dst struct{ N int16 }
	Convert(&dst, struct{ N, X int16 }{})
}

func TestSameTags(t *testing.T) {
	if err := SameTags(outer{}, outerMirror{}); err != nil {
		t.Fatal(err)
	}
	type wrong struct {
		N int16 `cbor:"m"`
	}
	if err := SameTags(inner{}, wrong{}); err == nil {
		t.Fatal("SameTags: no error for different tags")
	}
}

func TestDiff(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		a, b  any
		equal bool
	}{
		{math.NaN(), math.NaN(), true},
		{math.NaN(), math.Float64frombits(0x7ff0000000000001), true},
		{0.0, negZero, false},
		{float32(1), float32(1), true},
		{[]byte(nil), []byte{}, false},
		{map[string]int(nil), map[string]int{}, false},
		{outer{Skip: &outer{}}, outer{}, true},
		{outer{Gone: "x"}, outer{}, true},
		{outer{P: &inner{1}}, outer{P: &inner{2}}, false},
		{outer{M: map[string]inner{"a": {}}}, outer{M: map[string]inner{"b": {}}}, false},
		// Keys that are never the same Go key: matched by value.
		{map[float64]int{math.NaN(): 1, 2: 3}, map[float64]int{math.NaN(): 1, 2: 3}, true},
		{map[float64]int{math.NaN(): 1}, map[float64]int{math.NaN(): 2}, false},
		{map[*int]int{new(int): 1}, map[*int]int{new(int): 1}, true},
		{map[*int]int{new(int): 1, nil: 2}, map[*int]int{new(int): 2, nil: 1}, false},
	} {
		if d := Diff(c.a, c.b); (d == "") != c.equal {
			t.Errorf("Diff(%#v, %#v) = %q, want equal %v", c.a, c.b, d, c.equal)
		}
	}
}

func TestFill(t *testing.T) {
	fill := func(seed uint64) []outer {
		f := Filler{Rand: rand.New(rand.NewPCG(seed, 0))}
		vs := make([]outer, 200)
		for i := range vs {
			f.Fill(&vs[i])
		}
		return vs
	}
	a, b := fill(7), fill(7)
	var nilB, emptyB, nilM, emptyM int
	for i := range a {
		if d := Diff(a[i], b[i]); d != "" {
			t.Fatalf("the same seed gave different values: %s", d)
		}
		if a[i].Skip != nil || a[i].Gone != "" {
			t.Fatalf("Fill set a field that is not on the wire: %+v", a[i])
		}
		if !utf8.ValidString(a[i].S) {
			t.Fatalf("Fill made invalid UTF-8 %q", a[i].S)
		}
		switch {
		case a[i].B == nil:
			nilB++
		case len(a[i].B) == 0:
			emptyB++
		}
		switch {
		case a[i].M == nil:
			nilM++
		case len(a[i].M) == 0:
			emptyM++
		}
	}
	if nilB == 0 || emptyB == 0 || nilM == 0 || emptyM == 0 {
		t.Errorf("Fill should make nil and empty slices and maps: %d %d %d %d", nilB, emptyB, nilM, emptyM)
	}
}
