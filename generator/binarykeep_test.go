package generator_test

import (
	"errors"
	"maps"
	"net/netip"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/marshalers"
)

// TestBinaryKept: a netip.Addr (read through UnmarshalBinary, its fields
// all unexported) keeps its value for a null and for a map, which is
// skipped, as fxamacker/cbor reads both into the same used value; strict
// mode refuses both.
func TestBinaryKept(t *testing.T) {
	type mirror struct {
		_     struct{} `cbor:",toarray"`
		Addr  netip.Addr
		Addrs map[string]netip.Addr
	}
	old := netip.MustParseAddr("10.0.0.1")
	cases := []struct {
		in     string
		strict bool // strict mode refuses it
	}{
		{"82f6a0", true},               // null: kept
		{"82f7a0", true},               // undefined
		{"82c6f6a0", true},             // a tag around null
		{"82a0a0", true},               // an empty map: kept
		{"82a2616101026103f6a0", true}, // a map, skipped
		{"82d9d9f7a10102a0", true},     // a map in tag 55799
		{"82a1f401a0", true},           // a map with a bool key: refused by both
		{"82a1616180a0", true},         // a map with a map... of an array value
		{"824401020304a0", false},      // the byte string
		{"8244010203046a00", true},     // a truncated input
		{"8244010203045f", true},       // not a map for Addrs
		{"824401020304a16178f6", true}, // a null map value: the zero Addr
		{"824401020304a16178a0", true}, // a map value that is a map: zero
		{"8201a0", true},               // an integer: refused by both
	}
	for _, c := range cases {
		in := mustHex(t, c.in)
		got := marshalers.Addressed{Addr: old, Addrs: map[string]netip.Addr{"k": old}}
		want := mirror{Addr: old, Addrs: map[string]netip.Addr{"k": old}}
		gerr := genrt.Unmarshal(in, &got, genrt.Options{})
		werr := cbor.Unmarshal(in, &want)
		if (gerr == nil) != (werr == nil) {
			t.Errorf("%s: generated %v, fxamacker %v", c.in, gerr, werr)
			continue
		}
		if gerr == nil && (got.Addr != want.Addr || !maps.Equal(got.Addrs, want.Addrs)) {
			t.Errorf("%s: generated %v %v, fxamacker %v %v", c.in, got.Addr, got.Addrs, want.Addr, want.Addrs)
		}
		serr := genrt.Unmarshal(in, &marshalers.Addressed{}, genrt.Options{Strict: true})
		if c.strict != (serr != nil) {
			t.Errorf("%s: strict: %v", c.in, serr)
		}
		if serr != nil && gerr == nil && !errors.Is(serr, genrt.ErrType) {
			t.Errorf("%s: strict: %v, want ErrType", c.in, serr)
		}
	}
}
