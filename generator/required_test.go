package generator_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/required"
)

// TestRequiredDirective: //cborgen:required N makes the fields after the
// first N optional from a type's first version: shorter arrays decode,
// with those fields zero, and every field is always written, as
// fxamacker/cbor writes a toarray struct.
func TestRequiredDirective(t *testing.T) {
	for _, tc := range []struct {
		hex  string
		want required.Version
		err  error
	}{
		{"8101", required.Version{Major: 1}, nil},
		{"820102", required.Version{Major: 1, Minor: 2}, nil},
		{"9f01ff", required.Version{Major: 1}, nil},
		{"9f0102ff", required.Version{Major: 1, Minor: 2}, nil},
		{"80", required.Version{}, genrt.ErrLength},
		{"83010203", required.Version{}, genrt.ErrLength},
		{"a1654d616a6f7203", required.Version{Major: 3}, nil}, // the legacy map
	} {
		var v required.Version
		err := v.UnmarshalCBOR(mustHex(t, tc.hex))
		if !errors.Is(err, tc.err) || (err == nil && v != tc.want) {
			t.Errorf("%s: got %+v, %v; want %+v, %v", tc.hex, v, err, tc.want, tc.err)
		}
	}

	// Written in full, byte for byte as fxamacker writes it.
	type versionMirror struct {
		_            struct{} `cbor:",toarray"`
		Major, Minor uint8
	}
	for _, v := range []required.Version{{}, {Major: 1}, {Major: 2, Minor: 200}} {
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := cbor.Marshal(versionMirror{Major: v.Major, Minor: v.Minor})
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: got %x, want %x", v, got, want)
		}
	}

	// A Token of two elements: the rest zero, under its tag.
	var tok required.Token
	if err := tok.UnmarshalCBOR(mustHex(t, "d9044c8263697373810a")); err != nil ||
		!reflect.DeepEqual(tok, required.Token{Issuer: "iss", Version: required.Version{Major: 10}}) {
		t.Errorf("two-element Token: %+v, %v", tok, err)
	}
	if err := tok.UnmarshalCBOR(mustHex(t, "d9044c8163697373")); !errors.Is(err, genrt.ErrLength) {
		t.Errorf("one-element Token: %v, want ErrLength", err)
	}
}
