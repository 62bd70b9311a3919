package storage_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/runtime"
)

// errClass is the sentinel an error wraps, of those callers branch on.
func errClass(err error) error {
	for _, c := range []error{runtime.ErrSyntax, runtime.ErrType, runtime.ErrRange, runtime.ErrLength,
		runtime.ErrLimit, runtime.ErrUTF8, runtime.ErrDuplicateKey, runtime.ErrStrict, runtime.ErrTag,
		runtime.ErrTrailing, runtime.ErrTimeRange, runtime.ErrTagNumber, io.ErrUnexpectedEOF} {
		if errors.Is(err, c) {
			return c
		}
	}
	return err
}

// sameClass decodes data over a slice and over a stream and reports
// whether both refuse it with the same class of error, or both accept it.
func sameClass[T any, PT interface {
	*T
	cbortest.Codec
}](t *testing.T, data []byte) {
	t.Helper()
	var a, b T
	e1 := PT(&a).UnmarshalCBOR(data)
	d := runtime.NewDecoder(bytes.NewReader(data))
	e2 := PT(&b).DecodeCBOR(d)
	if e2 == nil && d.More() {
		return // trailing data: the stream stops after the item
	}
	if e1 != nil && (strings.Contains(e1.Error(), "bytes left") || strings.Contains(e1.Error(), "byte left")) {
		// A declared length checked against the bytes that remain, at
		// once over a slice; a stream meets the end of the data later,
		// or another error first.
		return
	}
	if (e1 == nil) != (e2 == nil) || e1 != nil && errClass(e1) != errClass(e2) {
		t.Errorf("%x: over a slice: %v; over a stream: %v", data, e1, e2)
	}
}

// TestMalformedSimpleInIndefiniteArray: a two-byte simple value below 32
// (f810, not well-formed) in an indefinite-length array is ErrSyntax over
// a slice as over a stream (the count of the array's elements, over a
// slice, stopped at it as an element and made the error ErrLength).
func TestMalformedSimpleInIndefiniteArray(t *testing.T) {
	for _, h := range []string{
		"9f f810 ff", "9f f810 60 ff", "9f f800 ff", "9f f81f 60 ff",
		"86 9f f810 ff 40 00 60 80 00",
		"86 82 48 0000000000000000 60 40 00 60 9f 82 60 f810 ff 00",
	} {
		data := cbortest.MustHex(h)
		var c storage.Composite
		if err := c.UnmarshalCBOR(data); !errors.Is(err, runtime.ErrSyntax) {
			t.Errorf("Composite %s: %v, want ErrSyntax", h, err)
		}
		sameClass[storage.Composite](t, data)
		sameClass[storage.Path](t, data)
	}
}

// TestSliceStreamSameClass: mutations of the samples, refused over a slice
// and over a stream with the same class of error.
func TestSliceStreamSameClass(t *testing.T) {
	seeds := reuseSeeds(t)
	n := 10000
	if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(seed, 0x636c6173))
	for range n {
		sameClass[storage.Composite](t, cbortest.Mutate(r, seeds[r.IntN(len(seeds))]))
		if t.Failed() {
			return
		}
	}
}
