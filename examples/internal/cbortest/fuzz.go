package cbortest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// Fuzz is the body of the fuzz target of generated type T, FuzzT, whose
// seed corpus is testdata/fuzz/FuzzT (written by the Corpus subtest of
// Suite.Run with -update). On any input the decoders must not panic, and
// every error must be a *runtime.Error. What UnmarshalCBOR accepts:
//   - a one-byte-at-a-time stream decodes to the same value and stops at
//     the end of the input;
//   - strict mode accepts no more than the default, and gives the same value;
//   - it encodes to bytes that decode to the same value and encode to the
//     same bytes again, which runtime.Valid accepts.
func Fuzz[T any](f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var v T
		err := any(&v).(Codec).UnmarshalCBOR(data)
		var rerr *runtime.Error
		if err != nil && !errors.As(err, &rerr) {
			t.Fatalf("UnmarshalCBOR(%x) = %v (%T), not a *runtime.Error", data, err, err)
		}
		var strict T
		serr := runtime.Unmarshal(data, any(&strict).(Codec), runtime.Options{Strict: true})
		if serr != nil && !errors.As(serr, &rerr) {
			t.Fatalf("strict runtime.Unmarshal(%x) = %v (%T), not a *runtime.Error", data, serr, serr)
		}
		if err != nil {
			if serr == nil {
				t.Fatalf("strict mode accepts %x, the default options do not: %v", data, err)
			}
			return
		}
		if serr == nil {
			if d := mirror.Diff(v, strict); d != "" {
				t.Fatalf("strict mode reads %x differently, at %s%s", data, typeName[T](), d)
			}
		}
		var streamed T
		d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)))
		if err := any(&streamed).(Codec).DecodeCBOR(d); err != nil {
			t.Fatalf("DecodeCBOR(stream of %x): %v", data, err)
		}
		if d.Offset() != int64(len(data)) {
			t.Fatalf("DecodeCBOR(stream of %x) stopped at offset %d", data, d.Offset())
		}
		if diff := mirror.Diff(v, streamed); diff != "" {
			t.Fatalf("DecodeCBOR(stream of %x) differs at %s%s", data, typeName[T](), diff)
		}

		b, err := any(&v).(Codec).MarshalCBOR()
		if err != nil {
			t.Fatalf("MarshalCBOR of a decoded value: %v", err)
		}
		var w T
		if err := any(&w).(Codec).UnmarshalCBOR(b); err != nil {
			t.Fatalf("UnmarshalCBOR(%x), the encoding of a decoded value: %v", b, err)
		}
		if d := mirror.Diff(v, w); d != "" {
			t.Fatalf("decode(encode(decode(%x))) differs at %s", data, d)
		}
		if b2, _ := any(&w).(Codec).MarshalCBOR(); !bytes.Equal(b, b2) {
			t.Fatalf("encodings differ: %x then %x", b, b2)
		}
		if err := runtime.Valid(b); err != nil {
			t.Fatalf("runtime.Valid(%x) = %v for generated output", b, err)
		}
	})
}

// corpus checks the committed seed corpus of FuzzT in Dir/fuzz/FuzzT, or
// writes it with -update: the samples and a few random values in both
// formats, and hostile inputs made from them. Files that go test -fuzz
// added there (inputs that once failed) are kept and not checked.
func (s Suite[T, A, M]) corpus(t *testing.T) {
	dir := s.Dir
	if dir == "" {
		dir = "testdata"
	}
	dir = filepath.Join(dir, "fuzz", "Fuzz"+typeName[T]())
	seeds := s.seeds(t)
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range seeds {
			if !yield(name) {
				return
			}
		}
	}) {
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", seeds[name])
		path := filepath.Join(dir, name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("seed corpus: %v (go test -run %s -update writes it)", err, t.Name())
			continue
		}
		if string(got) != want {
			t.Errorf("seed corpus: %s is stale (go test -run %s -update rewrites it)", path, t.Name())
		}
	}
}

// seeds are the corpus of FuzzT by file name.
func (s Suite[T, A, M]) seeds(t *testing.T) map[string][]byte {
	values, arrays, legacies := s.bases(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range s.Samples {
			if !yield(name) {
				return
			}
		}
	})
	seeds := map[string][]byte{}
	for i := range values {
		name := ""
		switch {
		case i < len(names):
			name = "sample_" + names[i]
		case i < len(names)+2:
			name = fmt.Sprintf("random_%d", i-len(names))
		default:
			continue
		}
		seeds[name] = arrays[i]
		seeds[name+"_legacy"] = legacies[i]
	}
	enc, legacy := arrays[0], legacies[0]
	top, ltop := parse(enc, 0), parse(legacy, 0)
	seeds["hostile_truncated"] = enc[:len(enc)/2]
	seeds["hostile_trailing"] = append(slices.Clip(enc), 0x00)
	seeds["hostile_forged_count"] = splice(enc, 0, top.body, []byte{0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	seeds["hostile_depth"] = append(bytes.Repeat([]byte{0x81}, 40), 0x00)
	if b, ok := indefinite(enc, top); ok {
		seeds["hostile_indefinite"] = b
	}
	if h, ok := longerHead(enc, top); ok {
		seeds["hostile_long_head"] = splice(enc, 0, top.body, h)
	}
	if len(top.kids) > 0 {
		k := top.kids[0]
		seeds["hostile_invalid_utf8"] = splice(enc, k.start, k.end, badUTF8[0])
		seeds["hostile_forged_string"] = splice(enc, k.start, k.end, []byte{0x7b, 0, 0, 0, 1, 0, 0, 0, 0})
	}
	if ltop.major == genrt.MajorMap && len(ltop.kids) > 0 {
		unknown := []byte{0x61, '~', 0x00}
		seeds["hostile_unknown_key_twice"] = withPairs(legacy, ltop, 2, unknown, unknown)
		seeds["hostile_field_twice"] = withPairs(legacy, ltop, 1, legacy[ltop.kids[0].start:ltop.kids[1].end])
		k := ltop.kids[0]
		seeds["hostile_key_type"] = splice(legacy, k.start, k.end, []byte{0x41, 'a'})
	}
	for name, b := range s.Bombs {
		if len(b) <= 4096 {
			seeds["bomb_"+strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
					return r
				}
				return '_'
			}, name)] = b
		}
	}
	return seeds
}
