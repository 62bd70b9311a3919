package dynamic_test

import (
	"errors"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/dynamic"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// TestDecodeKey: a key of a type argument that holds an interface is
// made one a Go map can hold, as fxamacker's default decoder makes it, or
// refused with fxamacker's error; other keys are DecodeValue's.
func TestDecodeKey(t *testing.T) {
	type holder struct{ V any }
	for _, c := range []struct {
		data []byte
		want any // nil: an error
	}{
		{[]byte{0x42, 1, 2}, cbor.ByteString("\x01\x02")},
		{[]byte{0x61, 'a'}, "a"},
		{[]byte{0x81, 0x01}, nil},
		{[]byte{0xa0}, nil},
	} {
		var k any
		err := dynamic.DecodeKey(genrt.NewBytesDecoder(c.data), &k)
		var fx map[any]int
		fxErr := cbor.Unmarshal(append(append([]byte{0xa1}, c.data...), 0x00), &fx)
		if c.want == nil {
			var invalid *cbor.InvalidMapKeyTypeError
			if !errors.As(err, &invalid) || fxErr == nil {
				t.Errorf("%x: %v (fxamacker %v), want an invalid key type error", c.data, err, fxErr)
			}
			continue
		}
		if err != nil || k != c.want || fx[c.want] != 0 || len(fx) != 1 {
			t.Errorf("%x: %#v, %v; want %#v as fxamacker reads %v", c.data, k, err, c.want, fx)
		}
	}
	var h holder
	err := dynamic.DecodeKey(genrt.NewBytesDecoder([]byte{0xa1, 0x61, 'V', 0x80}), &h)
	var invalid *cbor.InvalidMapKeyTypeError
	if !errors.As(err, &invalid) {
		t.Errorf("a struct holding a slice in an interface: %v, want an invalid key type error", err)
	}
	var n [2]uint8
	if err := dynamic.DecodeKey(genrt.NewBytesDecoder([]byte{0x42, 1, 2}), &n); err != nil || n != [2]uint8{1, 2} {
		t.Errorf("[2]uint8: %v, %v", n, err)
	}
}
