package generator_test

import (
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/testdata/golden/halfmethods"
)

// readingMirror is halfmethods.Reading without its generated methods.
type readingMirror struct {
	_      struct{} `cbor:",toarray"`
	Temp   halfmethods.Celsius
	Temps  []halfmethods.Celsius
	Lvl    halfmethods.Level
	ByName map[string]halfmethods.Level
	Code   halfmethods.Code
	Labels halfmethods.Labels
	Ptr    *halfmethods.Celsius
}

// TestHalfMethods decodes the forms that only the one-way methods read
// (text temperatures through UnmarshalCBOR, a byte string of labels
// through UnmarshalBinary) beside the forms read by kind, and compares
// with fxamacker reading the same bytes.
func TestHalfMethods(t *testing.T) {
	for _, in := range []any{
		[]any{"21.5C", []any{"1C", 2.5}, 3, map[string]any{"a": 4}, []byte{1, 2, 3, 4}, []byte("a,b"), "7C"},
		[]any{-40.0, nil, 0, nil, []byte{0, 0, 0, 0}, []string{"x", "y"}, nil},
		[]any{1.5, []any{}, 9, map[string]any{}, []byte{9, 9, 9, 9}, nil, 12.25},
	} {
		data, err := cbor.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var got halfmethods.Reading
		if err := got.UnmarshalCBOR(data); err != nil {
			t.Fatalf("UnmarshalCBOR(%x): %v", data, err)
		}
		var want readingMirror
		if err := cbor.Unmarshal(data, &want); err != nil {
			t.Fatalf("fxamacker cannot read %x: %v", data, err)
		}
		if !reflect.DeepEqual(convert(reflect.ValueOf(got), reflect.TypeFor[readingMirror]()).Interface(), want) {
			t.Errorf("%x: got %+v, fxamacker reads %+v", data, got, want)
		}
	}
	// The method's own error comes through.
	data, _ := cbor.Marshal([]any{true, nil, 0, nil, []byte{1, 2, 3, 4}, nil, nil})
	var r halfmethods.Reading
	if err := r.UnmarshalCBOR(data); err == nil || cbor.Unmarshal(data, new(readingMirror)) == nil {
		t.Errorf("a bool temperature: generated %v; fxamacker must refuse it too", err)
	}
}
