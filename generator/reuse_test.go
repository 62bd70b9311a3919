package generator_test

import (
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/containers"
	"github.com/cborgen/cborgen/testdata/golden/marshalers"
	"github.com/cborgen/cborgen/testdata/golden/nilempty"
	"github.com/cborgen/cborgen/testdata/golden/realworld"
)

// TestDecodeReplaces pins a decision (README, "Decisions"): decoding into
// a value that already holds data gives the value the input encodes, in
// both formats, whatever the value held before. fxamacker/cbor instead
// keeps fields that a legacy map leaves out and merges decoded maps into
// existing ones; here a field absent from a legacy map is zero and a map
// field is made anew, so a reused value never carries stale data.
func TestDecodeReplaces(t *testing.T) {
	stale := func() containers.Containers {
		one := 1
		return containers.Containers{
			Ints:   make([]int, 2, 16),
			ByName: map[string]int{"stale": 1, "a": 9},
			PInt:   &one,
			Counts: containers.Counts{"old": 3},
		}
	}
	var want containers.Containers
	want.ByName = map[string]int{"a": 2}

	// The legacy map names only ByName.
	legacy, err := cbor.Marshal(map[string]any{"ByName": map[string]int{"a": 2}})
	if err != nil {
		t.Fatal(err)
	}
	got := stale()
	if err := got.UnmarshalCBOR(legacy); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("legacy map into a used value: got %+v, want %+v", got, want)
	}

	// The array format writes every field.
	current, err := want.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	got = stale()
	if err := got.UnmarshalCBOR(current); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("array into a used value: got %+v, want %+v", got, want)
	}
}

// TestRawMessageSize: SizeCBOR counts a cbor.RawMessage exactly, so that
// MarshalCBOR never grows its buffer for one, however long.
func TestRawMessageSize(t *testing.T) {
	slack := func(raw []byte) int {
		var v realworld.Values
		v.Raw = raw
		b, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if v.SizeCBOR() < len(b) {
			t.Fatalf("SizeCBOR %d < encoding %d", v.SizeCBOR(), len(b))
		}
		return v.SizeCBOR() - len(b)
	}
	long := append([]byte{0x59, 0x01, 0x2f}, make([]byte, 303)...) // a byte string of 303 bytes: 306 in all
	if a, b, c := slack(nil), slack([]byte{0x01}), slack(long); a != b || b != c {
		t.Errorf("SizeCBOR's slack depends on the RawMessage: %d (empty), %d (1 byte), %d (306 bytes)", a, b, c)
	}
}

// TestMethodErrors: an error returned by a field type's own UnmarshalCBOR
// or UnmarshalBinary keeps its identity (errors.As finds it), its text is
// not prefixed with "cbor: " twice, and its offset is where the item
// starts.
func TestMethodErrors(t *testing.T) {
	// Priced{Price: 7 (not Money's array), Prices: null, Best: null}
	var p marshalers.Priced
	err := p.UnmarshalCBOR([]byte{0x83, 0x07, 0xf6, 0xf6})
	var ute *cbor.UnmarshalTypeError
	if !errors.As(err, &ute) {
		t.Fatalf("errors.As does not find Money's own error in %v", err)
	}
	var re *runtime.Error
	if !errors.As(err, &re) || re.Offset != 1 {
		t.Fatalf("want a *runtime.Error at offset 1 (where Price starts), got %#v", err)
	}
	if want := "cbor: Priced.Price: " + strings.TrimPrefix(ute.Error(), "cbor: ") + " at offset 1"; err.Error() != want {
		t.Errorf("error text\n%s\nwant\n%s", err, want)
	}

	// Addressed{Addr: a 5-byte string netip.Addr refuses, Addrs: null}
	var a marshalers.Addressed
	err = a.UnmarshalCBOR([]byte{0x82, 0x45, 1, 2, 3, 4, 5, 0xf6})
	if !errors.As(err, &re) || re.Offset != 1 || strings.Count(err.Error(), "cbor: ") != 1 {
		t.Errorf("UnmarshalBinary's error: %v", err)
	}
}

// TestNilEmpty: with -nilempty, nil slices, maps and byte slices are
// written empty (40, 80, a0), nil pointers still null.
func TestNilEmpty(t *testing.T) {
	b, err := nilempty.Holder{}.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	// [h'', h'', [], {}, [], null, [[], h''], [], {}]
	if got, want := hex.EncodeToString(b), "894040"+"80a080"+"f6"+"828040"+"80a0"; got != want {
		t.Errorf("zero Holder: %s, want %s", got, want)
	}
}
