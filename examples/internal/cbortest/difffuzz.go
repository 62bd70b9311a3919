package cbortest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// The differential test: any input, decoded by the generated code and by
// fxamacker/cbor (default options) into the mirror types, must give the
// same value or an error on both sides. DiffFuzz is its fuzz target,
// DiffRun its deterministic run over mutated encodings.

// fxDecode is fxamacker's decoder with default options.
var fxDecode, _ = cbor.DecOptions{}.DecMode()

// Differ decodes data with T's generated UnmarshalCBOR and with
// fxamacker into A (the array mirror) and M (the legacy mirror), and
// returns "" when they agree, else what differs.
func Differ[T, A, M any](data []byte) string {
	var v T
	err := any(&v).(Codec).UnmarshalCBOR(data)
	var rerr *runtime.Error
	if err != nil && !errors.As(err, &rerr) {
		return fmt.Sprintf("UnmarshalCBOR(%x) = %v (%T), not a *runtime.Error", data, err, err)
	}
	// The generated decoders read either format at every level; a mirror
	// holds one. Take fxamacker's reading by whichever mirror accepts.
	var want T
	var a A
	fxErr := fxDecode.Unmarshal(data, &a)
	if fxErr == nil {
		mirror.Convert(&want, a)
	} else {
		var m M
		if mErr := fxDecode.Unmarshal(data, &m); mErr == nil {
			fxErr = nil
			mirror.Convert(&want, m)
		} else if formatMix(fxErr) {
			fxErr = mErr
		}
	}
	switch {
	case err == nil && fxErr == nil:
		if d := mirror.Diff(v, want); d != "" {
			return fmt.Sprintf("%x: the generated code and fxamacker read different values, at %s%s", data, typeName[T](), d)
		}
	case err == nil:
		if formatMix(fxErr) {
			return "" // arrays and maps mixed: no mirror reads that
		}
		return fmt.Sprintf("%x: the generated code accepts it as %+v; fxamacker: %v", data, v, fxErr)
	case fxErr == nil:
		return fmt.Sprintf("%x: the generated code refuses it (%v); fxamacker reads %+v", data, err, want)
	}
	return ""
}

// formatMix reports whether fxamacker refused an input because it holds
// a struct in the other format than the mirror's: a generated decoder
// reads both formats, at any level.
func formatMix(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "to struct with toarray option") ||
		strings.Contains(err.Error(), "to struct without toarray option"))
}

// DiffFuzz is the body of the differential fuzz target of T, seeded with
// the encodings of the samples and random values in both formats and
// with extra, hex inputs.
func (s Suite[T, A, M]) DiffFuzz(f *testing.F, extra ...string) {
	seeds := s.diffSeeds(f, extra)
	for _, b := range seeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := Differ[T, A, M](data); msg != "" {
			t.Fatal(msg)
		}
		if msg := DifferUsed[T, A, M](data, seeds[len(data)%len(seeds)]); msg != "" {
			t.Fatal(msg)
		}
	})
}

// DifferUsed decodes data into a T that holds what before decodes to (one
// of the seeds, as a decoder leaves it), and with fxamacker/cbor into a
// copy of that value in a mirror (Convert keeps capacities and what the
// arrays hold past the lengths), and returns "" when both refuse data or
// both read the same value, else what differs: decoding into a value that
// holds data must give what fxamacker gives for it (a map keeps its
// entries, a field absent from a legacy map its value, a null into a
// number the number; docs/guide.md, "Decoding in place").
func DifferUsed[T, A, M any](data, before []byte) string {
	var used T
	if err := any(&used).(Codec).UnmarshalCBOR(before); err != nil {
		return "" // a seed another decoder wrote: nothing to reuse
	}
	var a A
	var m M
	mirror.Convert(&a, used)
	mirror.Convert(&m, used)
	err := any(&used).(Codec).UnmarshalCBOR(data)
	var want T
	fxErr := fxDecode.Unmarshal(data, &a)
	if fxErr == nil {
		mirror.Convert(&want, a)
	} else if mErr := fxDecode.Unmarshal(data, &m); mErr == nil {
		fxErr = nil
		mirror.Convert(&want, m)
	} else if formatMix(fxErr) {
		fxErr = mErr
	}
	switch {
	case err == nil && fxErr == nil:
		if d := mirror.Diff(used, want); d != "" {
			return fmt.Sprintf("%x: decoded into a value holding %x, the generated code and fxamacker read different values, at %s%s", data, before, typeName[T](), d)
		}
	case err == nil:
		if !formatMix(fxErr) {
			return fmt.Sprintf("%x: into a value holding %x, the generated code accepts it; fxamacker: %v", data, before, fxErr)
		}
	case fxErr == nil:
		return fmt.Sprintf("%x: into a value holding %x, the generated code refuses it (%v); fxamacker reads it", data, before, err)
	}
	return ""
}

// DiffRun is the deterministic run of the differential test: n mutations
// of the seeds of DiffFuzz, each checked with Differ, and the seeds too.
func (s Suite[T, A, M]) DiffRun(t *testing.T, n int, extra ...string) {
	seeds := s.diffSeeds(t, extra)
	for _, b := range seeds {
		if msg := Differ[T, A, M](b); msg != "" {
			t.Fatal(msg)
		}
	}
	r := rand.New(rand.NewPCG(s.Seed, 0x64696666))
	fails := 0
	for i := range n {
		b := Mutate(r, seeds[r.IntN(len(seeds))])
		msg := Differ[T, A, M](b)
		if msg == "" {
			msg = DifferUsed[T, A, M](b, seeds[r.IntN(len(seeds))])
		}
		if msg != "" {
			t.Errorf("mutation %d (seed %d): %s", i, s.Seed, msg)
			if fails++; fails == 10 {
				t.FailNow()
			}
		}
	}
}

// MustHex decodes hex, in which spaces are ignored.
func MustHex(h string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

func (s Suite[T, A, M]) diffSeeds(t testing.TB, extra []string) [][]byte {
	_, arrays, legacies := s.bases(t)
	seeds := slices.Concat(arrays, legacies)
	for _, h := range extra {
		b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		if err != nil {
			t.Fatalf("seed %q: %v", h, err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// tagHeads are tags put in front of items by Mutate: ones with no meaning
// for any type, self-described CBOR in its shortest and a longer form,
// and tags 0-3 (whose content may then be wrong).
var tagHeads = [][]byte{
	{0xc6}, {0xd9, 0xd9, 0xf7}, {0xda, 0, 0, 0xd9, 0xf7}, {0xd8, 0x20}, {0xc6, 0xc6},
	{0xd9, 0xd9, 0xf7, 0xc6}, {0xc0}, {0xc1}, {0xc2}, {0xc3}, {0xd8, 0x18},
}

// replacements stand in for an item in Mutate: nulls behind tags, simple
// values, integers at the edges of the Go types, bignums, floats.
var replacements = []string{
	"f6", "f7", "d9d9f7f6", "c6f6", "e0", "f820", "f4", "f5",
	"3bffffffffffffffff", "3b8000000000000000", "1bffffffffffffffff", "1a00010000", "19ffff", "397fff",
	"c24105", "c34105", "c240", "c2420100", "c249010000000000000000", "c3487fffffffffffffff",
	"f93c00", "fa7f7fffff", "fb7ff0000000000000", "fbc7efffffffffffff", "6161", "4105", "80", "a0",
}

// Mutate returns a changed copy of b, a well-formed encoding: tags in
// front of items, items replaced, containers made indefinite, heads made
// longer, and now and then a byte changed or the input cut short.
func Mutate(r *rand.Rand, b []byte) []byte {
	b = slices.Clone(b)
	for range 1 + r.IntN(3) {
		if cbor.Wellformed(b) != nil {
			break
		}
		items := flatten(parse(b, 0))
		it := items[r.IntN(len(items))]
		switch r.IntN(8) {
		case 0, 1, 2:
			b = splice(b, it.start, it.start, tagHeads[r.IntN(len(tagHeads))])
		case 3, 4:
			repl, _ := hex.DecodeString(replacements[r.IntN(len(replacements))])
			b = splice(b, it.start, it.end, repl)
		case 5:
			if nb, ok := indefinite(b, it); ok {
				b = nb
			}
		case 6:
			if h, ok := longerHead(b, it); ok {
				b = splice(b, it.start, it.body, h)
			}
		case 7:
			if it.major == genrt.MajorUint || it.major == genrt.MajorNeg {
				// the same integer as a bignum
				mag := it.arg
				var bs []byte
				for ; mag > 0; mag >>= 8 {
					bs = append([]byte{byte(mag)}, bs...)
				}
				h := []byte{0xc2 + it.major, 0x40 + byte(len(bs))}
				b = splice(b, it.start, it.end, h, bs)
			}
		}
	}
	switch r.IntN(10) {
	case 0:
		b[r.IntN(len(b))] = byte(r.Uint32())
	case 1:
		b = b[:r.IntN(len(b))]
	}
	if len(b) == 0 {
		return []byte{0xf6}
	}
	return bytes.Clone(b)
}
