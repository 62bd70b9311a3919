package genrt_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// TestAppendUnknownPairs merges kept pairs into a map written in each
// key order, as fxamacker's sort modes order a Go map's keys.
func TestAppendUnknownPairs(t *testing.T) {
	var u genrt.Unknown
	for _, p := range [][2]string{{"6161", "01"}, {"0a", "f6"}, {"63626262", "80"}, {"20", "f5"}} {
		k, _ := hex.DecodeString(p[0])
		v, _ := hex.DecodeString(p[1])
		if err := u.AddPair(k, v); err != nil {
			t.Fatal(err)
		}
	}
	// The fields' map: {"b": 2, 1: 3} in each order, after a tag.
	for _, c := range []struct {
		order      genrt.KeyOrder
		known, out string
	}{
		{genrt.SortBytewise, "a2010361" + "6202", "a6" + "0103" + "0af6" + "20f5" + "616101" + "616202" + "6362626280"},
		{genrt.SortLengthFirst, "a20103" + "616202", "a6" + "0103" + "0af6" + "20f5" + "616101" + "616202" + "6362626280"},
		{genrt.SortNone, "a2616202" + "0103", "a6" + "616202" + "0103" + "616101" + "0af6" + "6362626280" + "20f5"},
	} {
		known, _ := hex.DecodeString("d83d" + c.known)
		out, err := genrt.AppendUnknownPairs(known, 2, &u, c.order)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(out); got != "d83d"+c.out {
			t.Errorf("order %d: %s, want d83d%s", c.order, got, c.out)
		}
		if n := u.Size(2); n != len(out)-len(known) {
			t.Errorf("order %d: Size %d, the pairs add %d", c.order, n, len(out)-len(known))
		}
		if err := genrt.Valid(out); err != nil {
			t.Error(err)
		}
	}
	// A kept key equal to a field's is refused in every order.
	for _, order := range []genrt.KeyOrder{genrt.SortBytewise, genrt.SortLengthFirst, genrt.SortNone} {
		known, _ := hex.DecodeString("a20a03616202") // in every order
		if _, err := genrt.AppendUnknownPairs(known, 0, &u, order); !errors.Is(err, genrt.ErrDuplicateKey) {
			t.Errorf("order %d: %v", order, err)
		}
	}
	// 24 fields and more: a longer head.
	var big []byte
	big = genrt.AppendHead(big, genrt.MajorMap, 23)
	for i := range 23 {
		big = append(genrt.AppendString(big, string(rune('A'+i))), 0x00)
	}
	out, err := genrt.AppendUnknownPairs(big, 0, &u, genrt.SortBytewise)
	if err != nil || !bytes.HasPrefix(out, []byte{0xb8, 27}) || genrt.Valid(out) != nil || len(out)-len(big) != u.Size(23) {
		t.Fatalf("%x, %v", out, err)
	}

	var n int
	for k, v := range u.Pairs() {
		if len(k) == 0 || len(v) == 0 {
			t.Fatal("empty item")
		}
		n++
	}
	if c := u.Clone(); n != u.Len() || !u.IsMap() || !c.Equal(&u) || c.Equal(&genrt.Unknown{}) {
		t.Fatalf("%d pairs of %d", n, u.Len())
	}
	if err := u.AddElem([]byte{1}); err == nil {
		t.Fatal("an element among pairs")
	}
	if _, err := genrt.AppendUnknownElems(nil, &u); !errors.Is(err, genrt.ErrType) {
		t.Fatalf("pairs as elements: %v", err)
	}
	c := u.Clone()
	u.Reset()
	if u.Len() != 0 || c.Len() != 4 || len(u.Bytes()) != 0 {
		t.Fatal("Reset")
	}
	if out, err := genrt.AppendUnknownPairs([]byte{0xa0}, 0, &u, genrt.SortBytewise); err != nil || !bytes.Equal(out, []byte{0xa0}) {
		t.Fatalf("empty: %x %v", out, err)
	}
}

// TestUnknownEmptyCostsNothing: the encoder's test of an empty Unknown,
// and Size, allocate nothing.
func TestUnknownEmptyCostsNothing(t *testing.T) {
	var u genrt.Unknown
	if n := testing.AllocsPerRun(100, func() {
		_, _ = genrt.AppendUnknownPairs(nil, 0, &u, genrt.SortBytewise)
		_ = u.Size(3)
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
