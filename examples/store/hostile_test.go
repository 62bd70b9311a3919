package store_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/store"
	"github.com/cborgen/cborgen/runtime"
)

// encodings returns the committed encodings of the samples, current and
// legacy, in name order.
func encodings(t *testing.T) [][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.hex"))
	if err != nil || len(paths) < 6 {
		t.Fatalf("the samples' encodings in testdata: %v, %v", paths, err)
	}
	slices.Sort(paths)
	var encs [][]byte
	for _, p := range paths {
		encs = append(encs, readHex(t, p))
	}
	return encs
}

func decodeValue(data []byte) error {
	_, err := store.UnmarshalValueCBOR(data)
	return err
}

func streamValue(d *runtime.Decoder) error {
	_, err := store.DecodeValueCBOR(d)
	return err
}

// nest returns depth copies of open around inner, each followed by close.
func nest(open []byte, depth int, inner, close []byte) []byte {
	var b []byte
	for range depth {
		b = append(b, open...)
	}
	b = append(b, inner...)
	for range depth {
		b = append(b, close...)
	}
	return b
}

// TestHostileValues: the union's decoders refuse every damaged encoding of
// the samples (cut short, an item replaced by a forged length or an
// unclosed container, bytes after the value) and each named hostile input,
// with a *runtime.Error of the right cause, over a slice and a one-byte
// stream, without a panic and within the allocation bound.
func TestHostileValues(t *testing.T) {
	h := cbortest.MustHex
	named := []cbortest.Hostile{
		{Name: "unknown tag", Data: h("d9270f00"), Is: runtime.ErrType},
		{Name: "untagged integer, which no variant takes", Data: h("01"), Is: runtime.ErrType},
		{Name: "byte string, which no variant takes", Data: h("4161"), Is: runtime.ErrType},
		{Name: "invalid UTF-8 text", Data: h("62c328"), Is: runtime.ErrUTF8},
		{Name: "invalid UTF-8 dictionary key", Data: h("d885a162c328f5"), Is: runtime.ErrUTF8},
		{Name: "invalid UTF-8 composite kind", Data: h("d8848462c328f680f6"), Is: runtime.ErrUTF8},
		{Name: "composite kind as an integer", Data: h("d8848401f680f6"), Is: runtime.ErrType},
		{Name: "composite array of three", Data: h("d8848360f680"), Is: runtime.ErrLength},
		{Name: "composite untagged", Data: h("8460f680f6"), Is: runtime.ErrType},
		{Name: "metadata without its tag", Data: h("d8848460f680a0"), Is: runtime.ErrTagNumber},
		{Name: "legacy composite with a byte-string key", Data: h("d884a1416101"), Is: runtime.ErrType},
		{Name: "field of one element", Data: h("d8848460f6818160f6"), Is: runtime.ErrLength},
		{Name: "unsigned integer under the signed tag", Data: h("d8a51bffffffffffffffff"), Is: runtime.ErrRange},
		{Name: "UInt8Value of 256", Data: h("d8a0190100"), Is: runtime.ErrRange},
		{Name: "text under an integer tag", Data: h("d8a460"), Is: runtime.ErrType},
		{Name: "dictionary of 131073 pairs", Data: h("d885ba00020001"), Is: runtime.ErrLimit},
		{Name: "fields of 131073 elements", Data: h("d8848460f69a00020001"), Is: runtime.ErrLimit},
		{Name: "kind of 4 GiB", Data: h("d884847b0000000100000000"), Is: runtime.ErrLimit},
		{Name: "dictionaries 40 deep", Data: nest(h("d885a16161"), 40, h("f5"), nil), Is: runtime.ErrLimit},
		{Name: "composites 40 deep", Data: nest(h("d8848460f681826166"), 40, h("f5"), h("f6")), Is: runtime.ErrLimit},
		{Name: "indefinite dictionaries 40 deep", Data: nest(h("d885bf6161"), 40, h("f5"), h("ff")), Is: runtime.ErrLimit},
		{Name: "a break outside any container", Data: h("ff")}, // no variant takes it: ErrType
		{Name: "reserved additional information", Data: h("1c"), Is: runtime.ErrSyntax},
	}
	t.Run("named", func(t *testing.T) { cbortest.CheckDecoder(t, named, decodeValue, streamValue) })
	t.Run("damaged", func(t *testing.T) {
		cases := cbortest.Damaged(encodings(t))
		if len(cases) < 250 {
			t.Fatalf("only %d damaged encodings", len(cases))
		}
		cbortest.CheckDecoder(t, cases, decodeValue, streamValue)
	})
}

// checkValue is the property of the fuzz target and the random run: any
// input decodes to a value or a *runtime.Error, never a panic; a stream
// reads it as the slice does; and a value read encodes to bytes that
// decode again and encode to the same bytes again.
func checkValue(t *testing.T, data []byte) {
	t.Helper()
	v, err := store.UnmarshalValueCBOR(data)
	var rerr *runtime.Error
	if err != nil && !errors.As(err, &rerr) {
		t.Fatalf("UnmarshalValueCBOR(%x) = %v (%T), not a *runtime.Error", data, err, err)
	}
	d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)))
	sv, serr := store.DecodeValueCBOR(d)
	if serr != nil && serr != io.EOF && !errors.As(serr, &rerr) {
		t.Fatalf("DecodeValueCBOR(stream of %x) = %v (%T), not a *runtime.Error", data, serr, serr)
	}
	if err != nil {
		return // a stream may still read a first value of input with bytes after it
	}
	if serr != nil || d.Offset() != int64(len(data)) || !reflect.DeepEqual(sv, v) {
		t.Fatalf("DecodeValueCBOR(stream of %x) = %#v, %v at offset %d; the slice gave %#v", data, sv, serr, d.Offset(), v)
	}
	b, err := store.MarshalValueCBOR(v)
	if err != nil {
		t.Fatalf("MarshalValueCBOR of %#v, decoded from %x: %v", v, data, err)
	}
	// A nil Dict is written as an untagged null, which reads back as a nil
	// Value (as fxamacker reads it into an any): so the value may lose a
	// nil dictionary's kind, and the bytes may not change.
	w, err := store.UnmarshalValueCBOR(b)
	if err != nil {
		t.Fatalf("decode(encode(decode(%x))): %v", data, err)
	}
	if b2, _ := store.MarshalValueCBOR(w); !bytes.Equal(b2, b) {
		t.Fatalf("encodings of one value differ: %x then %x", b, b2)
	}
	if err := runtime.Valid(b); err != nil {
		t.Fatalf("runtime.Valid(%x) = %v for generated output", b, err)
	}
}

// TestMutatedValues runs checkValue over mutations of the samples: tags
// put in front of items, items replaced, containers made indefinite,
// heads made longer, bytes changed, input cut short.
func TestMutatedValues(t *testing.T) {
	encs := encodings(t)
	n := 20000
	if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(7, 132))
	for i := range n {
		checkValue(t, cbortest.Mutate(r, encs[i%len(encs)]))
	}
}

// FuzzValue is the fuzz target of the union's decoders (make fuzz); its
// seeds are the samples' committed encodings in both formats.
func FuzzValue(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.hex"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no seeds in testdata: %v", err)
	}
	for _, p := range paths {
		f.Add(seedHex(f, p))
	}
	f.Add([]byte{0xf6})
	f.Fuzz(checkValue)
}

func seedHex(f *testing.F, path string) []byte {
	f.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	b, err := hex.DecodeString(string(bytes.TrimSpace(text)))
	if err != nil {
		f.Fatal(err)
	}
	return b
}
