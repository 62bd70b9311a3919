// Package cbortest checks the code cbor-gen generated for a type against
// fxamacker/cbor, the reference it must match byte for byte, and against
// hostile input.
//
// A [Suite] runs, for one generated type T and its two mirror types (see
// package mirror), every check the examples' tests share: golden files of
// named samples in the current and the legacy format, a differential run
// over random values, a table of thousands of hostile inputs derived from
// valid encodings (each must be a *runtime.Error, without a panic and
// within an allocation bound, over a slice and over a one-byte stream),
// strict mode, streams of items, and the seed corpus of the fuzz target
// ([Fuzz]). The tests of each example declare the mirrors and call
// [Suite.Run].
package cbortest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/fxamacker/cbor/v2"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata with fxamacker/cbor's encodings of the samples")

// Codec is the API cbor-gen generates; *T implements it for a generated T.
type Codec interface {
	MarshalCBOR() ([]byte, error)
	AppendCBOR(dst []byte) ([]byte, error)
	UnmarshalCBOR(data []byte) error
	DecodeCBOR(d *runtime.Decoder) error
}

// Suite checks generated type T. A mirrors T for the array format (its
// structs carry `_ struct{} cbor:",toarray"`), M mirrors T for the legacy
// map format; both have T's fields and tags and no methods.
type Suite[T, A, M any] struct {
	// Samples are named values of T with golden files in Dir:
	// T.name.hex (current format) and T.name.legacy.hex (the map format,
	// as fxamacker/cbor wrote it with CoreDetEncOptions). A sample must
	// survive the legacy format unchanged: no empty slice or map, no -0,
	// in an omitempty field.
	Samples map[string]T
	// Dir holds the golden files; "" means "testdata".
	Dir string
	// Random is the number of random values for the differential test.
	Random int
	// Seed seeds the random values, so a failure can be repeated.
	Seed uint64
	// Filler shapes the random values; its Rand is set by Run.
	Filler mirror.Filler
	// Bombs are further inputs the decoders must refuse, by name, such
	// as depth bombs through recursive types. They join the hostile
	// table (see Hostile) of the format their first byte shows.
	Bombs map[string][]byte
}

var (
	arrayMode  = mustEncMode(cbor.CoreDetEncOptions())
	legacyMode = arrayMode
	// Old writers used fxamacker/cbor's defaults or other sort orders, so
	// the random legacy inputs come in every key order and float width.
	legacyModes = []cbor.EncMode{
		mustEncMode(cbor.EncOptions{}),
		mustEncMode(cbor.EncOptions{Sort: cbor.SortFastShuffle}),
		mustEncMode(cbor.EncOptions{Sort: cbor.SortLengthFirst}),
		mustEncMode(cbor.CoreDetEncOptions()),
	}
)

// dupMode is fxamacker/cbor's default decoding with duplicate map keys
// refused.
var dupMode = func() cbor.DecMode {
	dm, err := cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF}.DecMode()
	if err != nil {
		panic(err)
	}
	return dm
}()

func mustEncMode(o cbor.EncOptions) cbor.EncMode {
	m, err := o.EncMode()
	if err != nil {
		panic(err)
	}
	return m
}

func typeName[T any]() string {
	return reflect.TypeFor[T]().Name()
}

// Run runs the golden and the random checks as subtests.
func (s Suite[T, A, M]) Run(t *testing.T) {
	t.Helper()
	if _, ok := any(new(T)).(Codec); !ok {
		t.Fatalf("*%s lacks the generated methods", reflect.TypeFor[T]())
	}
	if err := mirror.SameTags(reflect.TypeFor[T](), reflect.TypeFor[A]()); err != nil {
		t.Fatalf("array mirror: %v", err)
	}
	if err := mirror.SameTags(reflect.TypeFor[T](), reflect.TypeFor[M]()); err != nil {
		t.Fatalf("legacy mirror: %v", err)
	}
	t.Run("Golden", s.golden)
	t.Run("Random", s.random)
	t.Run("Hostile", s.hostileTable)
	t.Run("Strict", s.strict)
	t.Run("Stream", s.stream)
	t.Run("Corpus", s.corpus)
}

func (s Suite[T, A, M]) golden(t *testing.T) {
	dir := s.Dir
	if dir == "" {
		dir = "testdata"
	}
	names := make([]string, 0, len(s.Samples))
	for name := range s.Samples {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			v := s.Samples[name]
			var a A
			mirror.Convert(&a, v)
			ref, err := arrayMode.Marshal(a)
			if err != nil {
				t.Fatalf("fxamacker/cbor: %v", err)
			}
			var m M
			mirror.Convert(&m, v)
			legacy, err := legacyMode.Marshal(m)
			if err != nil {
				t.Fatalf("fxamacker/cbor, legacy: %v", err)
			}
			base := filepath.Join(dir, typeName[T]()+"."+name)
			if *update {
				writeHex(t, base+".hex", ref)
				writeHex(t, base+".legacy.hex", legacy)
			}
			want := readHex(t, base+".hex")
			wantLegacy := readHex(t, base+".legacy.hex")
			if !bytes.Equal(ref, want) {
				t.Fatalf("fxamacker/cbor no longer writes %s.hex (run go test -update if the sample changed):\n got %x\nwant %x", base, ref, want)
			}
			if !bytes.Equal(legacy, wantLegacy) {
				t.Fatalf("fxamacker/cbor no longer writes %s.legacy.hex:\n got %x\nwant %x", base, legacy, wantLegacy)
			}

			// The current format: encode, then decode.
			got := encode(t, &v)
			if !bytes.Equal(got, want) {
				t.Fatalf("encoding differs from %s.hex:\n got %x\nwant %x", base, got, want)
			}
			var back T
			if err := any(&back).(Codec).UnmarshalCBOR(want); err != nil {
				t.Fatalf("UnmarshalCBOR(%s.hex): %v", base, err)
			}
			if d := mirror.Diff(v, back); d != "" {
				t.Fatalf("UnmarshalCBOR(%s.hex) = %+v, differs at %s%s", base, back, typeName[T](), d)
			}

			// The legacy format: decode, compare, encode again.
			var old T
			if err := any(&old).(Codec).UnmarshalCBOR(wantLegacy); err != nil {
				t.Fatalf("UnmarshalCBOR(%s.legacy.hex): %v", base, err)
			}
			if d := mirror.Diff(v, old); d != "" {
				t.Fatalf("UnmarshalCBOR(%s.legacy.hex) = %+v, differs at %s%s", base, old, typeName[T](), d)
			}
			if again := encode(t, &old); !bytes.Equal(again, want) {
				t.Fatalf("legacy decoded and encoded again:\n got %x\nwant %x", again, want)
			}

			checkTruncated[T](t, want)
			checkTruncated[T](t, wantLegacy)
			checkTrailing[T](t, want)
		})
	}
}

// encode encodes v with every generated entry point, checks that they
// agree, and returns the bytes.
func encode[T any](t *testing.T, v *T) []byte {
	t.Helper()
	c := any(v).(Codec)
	b, err := c.MarshalCBOR()
	if err != nil {
		t.Fatalf("MarshalCBOR: %v", err)
	}
	prefix := []byte("prefix")
	appended, err := c.AppendCBOR(slices.Clip(prefix))
	if err != nil {
		t.Fatalf("AppendCBOR: %v", err)
	}
	if !bytes.HasPrefix(appended, prefix) || !bytes.Equal(appended[len(prefix):], b) {
		t.Fatalf("AppendCBOR(prefix) = %x, want prefix then MarshalCBOR's %x", appended, b)
	}
	// cbor.Marshal must pick the generated methods up for T and *T.
	viaValue, err := cbor.Marshal(*v)
	if err != nil {
		t.Fatalf("cbor.Marshal(v): %v", err)
	}
	viaPointer, err := cbor.Marshal(v)
	if err != nil {
		t.Fatalf("cbor.Marshal(&v): %v", err)
	}
	if !bytes.Equal(viaValue, b) || !bytes.Equal(viaPointer, b) {
		t.Fatalf("cbor.Marshal does not use the generated code:\n   v: %x\n  &v: %x\nwant %x", viaValue, viaPointer, b)
	}
	return b
}

// checkTruncated checks that every proper prefix of data is an error, not a
// panic and not a value.
func checkTruncated[T any](t *testing.T, data []byte) {
	t.Helper()
	for i := 1; i < len(data); i++ {
		var v T
		err := any(&v).(Codec).UnmarshalCBOR(data[:i])
		if err == nil {
			t.Fatalf("UnmarshalCBOR(%x), the first %d of %d bytes: no error", data[:i], i, len(data))
		}
		var rerr *runtime.Error
		if !errors.As(err, &rerr) {
			t.Fatalf("UnmarshalCBOR(%x): error %v (%T) is not a *runtime.Error", data[:i], err, err)
		}
	}
}

// checkTrailing checks that bytes after the item are an error.
func checkTrailing[T any](t *testing.T, data []byte) {
	t.Helper()
	var v T
	err := any(&v).(Codec).UnmarshalCBOR(append(slices.Clip(data), 0x00))
	if !errors.Is(err, runtime.ErrTrailing) {
		t.Fatalf("UnmarshalCBOR with a trailing byte: error %v, want runtime.ErrTrailing", err)
	}
}

func (s Suite[T, A, M]) random(t *testing.T) {
	f := s.Filler
	f.Rand = rand.New(rand.NewPCG(s.Seed, 0x63626f72))
	var buf []byte
	n := s.Random
	if testing.Short() {
		n = max(n/20, min(n, 50)) // the first values of the same sequence
	}
	for i := range n {
		var v T
		f.Fill(&v)
		if err := s.check(&v, &buf, i); err != nil {
			t.Fatalf("random value %d of %d (seed %d): %v\nvalue: %+v", i, s.Random, s.Seed, err, v)
		}
	}
}

// check runs the differential checks on one value.
func (s Suite[T, A, M]) check(v *T, buf *[]byte, i int) error {
	name := typeName[T]()
	var a A
	mirror.Convert(&a, *v)
	want, err := arrayMode.Marshal(a)
	if err != nil {
		return fmt.Errorf("fxamacker/cbor: %v", err)
	}

	// Generated encoders = fxamacker/cbor with toarray.
	got, err := any(v).(Codec).AppendCBOR((*buf)[:0])
	if err != nil {
		return fmt.Errorf("AppendCBOR: %v", err)
	}
	*buf = got
	if !bytes.Equal(got, want) {
		return fmt.Errorf("AppendCBOR differs from fxamacker/cbor:\n got %x\nwant %x", got, want)
	}
	if m, err := cbor.Marshal(v); err != nil || !bytes.Equal(m, want) {
		return fmt.Errorf("cbor.Marshal(&v) = %x, %v; want %x", m, err, want)
	}

	// Generated decoders read fxamacker/cbor's bytes: as []byte, as a
	// Decoder over the same bytes and as a stream.
	var back T
	if err := any(&back).(Codec).UnmarshalCBOR(want); err != nil {
		return fmt.Errorf("UnmarshalCBOR(%x): %v", want, err)
	}
	if d := mirror.Diff(*v, back); d != "" {
		return fmt.Errorf("UnmarshalCBOR(%x) differs at %s%s", want, name, d)
	}
	var streamed T
	if err := any(&streamed).(Codec).DecodeCBOR(runtime.NewDecoder(bytes.NewReader(want))); err != nil {
		return fmt.Errorf("DecodeCBOR(NewDecoder(%x)): %v", want, err)
	}
	if d := mirror.Diff(*v, streamed); d != "" {
		return fmt.Errorf("DecodeCBOR(NewDecoder(%x)) differs at %s%s", want, name, d)
	}

	// fxamacker/cbor reads the generated bytes.
	var a2 A
	if err := cbor.Unmarshal(got, &a2); err != nil {
		return fmt.Errorf("fxamacker/cbor cannot read %x: %v", got, err)
	}
	var fromRef T
	mirror.Convert(&fromRef, a2)
	if d := mirror.Diff(*v, fromRef); d != "" {
		return fmt.Errorf("fxamacker/cbor reads %x differently, at %s%s", got, name, d)
	}

	// The legacy map format, as fxamacker/cbor wrote it without toarray,
	// in one of several key orders and float widths. What the generated
	// decoder makes of it must be what fxamacker/cbor makes of it (omitempty
	// drops empty slices and -0, so not always *v), and must encode to the
	// current format of that value.
	var m M
	mirror.Convert(&m, *v)
	legacy, err := legacyModes[i%len(legacyModes)].Marshal(m)
	if err != nil {
		return fmt.Errorf("fxamacker/cbor, legacy: %v", err)
	}
	var m2 M
	if err := cbor.Unmarshal(legacy, &m2); err != nil {
		return fmt.Errorf("fxamacker/cbor cannot read its own legacy %x: %v", legacy, err)
	}
	var expect T
	mirror.Convert(&expect, m2)
	var old T
	if err := any(&old).(Codec).UnmarshalCBOR(legacy); err != nil {
		return fmt.Errorf("UnmarshalCBOR(legacy %x): %v", legacy, err)
	}
	if d := mirror.Diff(expect, old); d != "" {
		return fmt.Errorf("UnmarshalCBOR(legacy %x) differs from fxamacker/cbor's reading at %s%s", legacy, name, d)
	}
	var ae A
	mirror.Convert(&ae, expect)
	wantAgain, err := arrayMode.Marshal(ae)
	if err != nil {
		return fmt.Errorf("fxamacker/cbor: %v", err)
	}
	again, err := any(&old).(Codec).AppendCBOR(nil)
	if err != nil {
		return fmt.Errorf("AppendCBOR: %v", err)
	}
	if !bytes.Equal(again, wantAgain) {
		return fmt.Errorf("legacy %x decoded and encoded again:\n got %x\nwant %x", legacy, again, wantAgain)
	}

	// The same map with its keys in other cases: fxamacker/cbor matches a
	// key that names no field exactly case-insensitively, and so must the
	// generated decoder. Where two keys now name one field, both refuse
	// the map (fxamacker/cbor with its duplicate detection on).
	recased := recase(legacy, rand.New(rand.NewPCG(s.Seed, uint64(i))))
	var m3 M
	fxErr := dupMode.Unmarshal(recased, &m3)
	var folded T
	err = any(&folded).(Codec).UnmarshalCBOR(recased)
	var dup *cbor.DupMapKeyError
	switch {
	case fxErr != nil:
		if !errors.As(fxErr, &dup) || !errors.Is(err, runtime.ErrDuplicateKey) {
			return fmt.Errorf("re-cased legacy %x: fxamacker/cbor: %v; UnmarshalCBOR: %v", recased, fxErr, err)
		}
	case err != nil:
		return fmt.Errorf("UnmarshalCBOR(re-cased legacy %x): %v", recased, err)
	default:
		var expectFolded T
		mirror.Convert(&expectFolded, m3)
		if d := mirror.Diff(expectFolded, folded); d != "" {
			return fmt.Errorf("UnmarshalCBOR(re-cased legacy %x) differs from fxamacker/cbor's reading at %s%s", recased, name, d)
		}
	}

	// fxamacker/cbor uses the generated code for fields of type T and *T.
	h := holder[T]{X: *v, P: v, S: []T{*v}}
	hb, err := cbor.Marshal(h)
	if err != nil {
		return fmt.Errorf("cbor.Marshal(holder): %v", err)
	}
	hwant := slices.Concat([]byte{0xa3, 0x61, 'X'}, want, []byte{0x61, 'P'}, want, []byte{0x61, 'S', 0x81}, want)
	if !bytes.Equal(hb, hwant) {
		return fmt.Errorf("cbor.Marshal(struct holding T):\n got %x\nwant %x", hb, hwant)
	}
	var h2 holder[T]
	if err := cbor.Unmarshal(hb, &h2); err != nil {
		return fmt.Errorf("cbor.Unmarshal(struct holding T): %v", err)
	}
	if d := mirror.Diff(h, h2); d != "" {
		return fmt.Errorf("cbor.Unmarshal(struct holding T) differs at holder%s", d)
	}
	return nil
}

type holder[T any] struct {
	X T
	P *T
	S []T
}

func writeHex(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(b)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readHex(t *testing.T, path string) []byte {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes the golden files)", err)
	}
	b, err := hex.DecodeString(strings.Join(strings.Fields(string(text)), ""))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// shortSample is the table for go test -short: every k-th of cases, so
// that about limit remain, spread over the whole table (each base value,
// each position, each kind of damage); the full table otherwise.
func shortSample[E any](cases []E, limit int) []E {
	if !testing.Short() || len(cases) <= limit {
		return cases
	}
	k := (len(cases) + limit - 1) / limit
	out := make([]E, 0, limit)
	for i := 0; i < len(cases); i += k {
		out = append(out, cases[i])
	}
	return out
}
