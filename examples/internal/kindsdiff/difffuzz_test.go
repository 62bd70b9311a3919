package kindsdiff_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/typetag"
	"github.com/cborgen/cborgen/testdata/golden/union"
)

// Differential tests of the kinds beyond plain array structs: tagged
// types, a map-format struct of tagged values, a union with a catch-all,
// and zero-copy then reuse through them. The oracle is fxamacker/cbor
// with mirror types in a TagSet; for the catch-all, runtime.Valid (itself
// checked against fxamacker by the runtime's FuzzValid). The fuzz targets
// run in make fuzz; the Test functions run their seeds and a fixed number
// of mutations (fewer with -short).

// The mirrors of the golden typetag types: plain types in a TagSet.
type (
	tPoint struct {
		_    struct{} `cbor:",toarray"`
		X, Y int64
	}
	tU64    uint64
	tDict   map[string]tU64
	tBlob   []byte
	tPoints []tPoint
	tSparse struct {
		U  tU64    `cbor:"u,omitempty"`
		D  tDict   `cbor:"d,omitempty"`
		B  tBlob   `cbor:"b,omitempty"`
		P  tPoints `cbor:"p,omitempty"`
		At tPoint  `cbor:"at,omitempty"`
	}
	tValues struct {
		_   struct{} `cbor:",toarray"`
		U   tU64
		D   tDict
		B   tBlob
		P   tPoints
		PU  *tU64
		Ds  []tDict
		Map map[string]tBlob
	}
)

var tagEnc, tagDec = func() (cbor.EncMode, cbor.DecMode) {
	set := cbor.NewTagSet()
	req := cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagRequired}
	opt := cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagOptional}
	for _, a := range []struct {
		o cbor.TagOptions
		v any
		n uint64
	}{{req, tPoint{}, 1001}, {req, tU64(0), 1003}, {req, tDict(nil), 1004}, {opt, tBlob(nil), 1005}, {req, tPoints(nil), 1006}} {
		if err := set.Add(a.o, reflect.TypeOf(a.v), a.n); err != nil {
			panic(err)
		}
	}
	em, err := cbor.CoreDetEncOptions().EncModeWithTags(set)
	if err != nil {
		panic(err)
	}
	dm, err := cbor.DecOptions{}.DecModeWithTags(set)
	if err != nil {
		panic(err)
	}
	return em, dm
}()

func toTPoints(p typetag.Points) tPoints {
	if p == nil {
		return nil
	}
	out := make(tPoints, len(p))
	for i, x := range p {
		out[i] = tPoint{X: x.X, Y: x.Y}
	}
	return out
}

func toTDict(d typetag.Dict) tDict {
	if d == nil {
		return nil
	}
	out := make(tDict, len(d))
	for k, x := range d {
		out[k] = tU64(x)
	}
	return out
}

func toTSparse(v typetag.Sparse) tSparse {
	return tSparse{U: tU64(v.U), D: toTDict(v.D), B: tBlob(v.B), P: toTPoints(v.P), At: tPoint{X: v.At.X, Y: v.At.Y}}
}

// randSparse fills a Sparse at random, with nil and empty values often.
func randSparse(r *rand.Rand) typetag.Sparse {
	var v typetag.Sparse
	if r.IntN(2) == 0 {
		v.U = typetag.UInt64Value(r.Uint64() >> r.IntN(64))
	}
	switch r.IntN(3) {
	case 1:
		v.D = typetag.Dict{}
	case 2:
		v.D = typetag.Dict{"a": 1, "bb": typetag.UInt64Value(r.Uint64())}
	}
	switch r.IntN(3) {
	case 1:
		v.B = typetag.Blob{}
	case 2:
		v.B = typetag.Blob("blob")
	}
	switch r.IntN(3) {
	case 1:
		v.P = typetag.Points{}
	case 2:
		v.P = typetag.Points{{X: -1, Y: 2}}
	}
	if r.IntN(2) == 0 {
		v.At = typetag.Point{X: r.Int64N(100) - 50, Y: 7}
	}
	return v
}

// TestSparseOmitEmpty: omitempty on a field of a tagged type leaves it out
// when its underlying value is empty (a nil or empty Dict, Blob or
// Points, a zero UInt64Value), as fxamacker/cbor leaves out a type of its
// TagSet, instead of writing an untagged null (which a TagSet reader
// refuses: "expect CBOR tag value"); a tagged struct is never left out.
func TestSparseOmitEmpty(t *testing.T) {
	empty, err := (&typetag.Sparse{}).MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	if want := cbortest.MustHex("a1 626174 d903e9 82 00 00"); !bytes.Equal(empty, want) {
		t.Errorf("Sparse{} = %x, want %x", empty, want)
	}
	r := rand.New(rand.NewPCG(23, 4))
	for range 500 {
		v := randSparse(r)
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := tagEnc.Marshal(toTSparse(v))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%+v: generated %x, fxamacker %x", v, got, want)
		}
		var back tSparse
		if err := tagDec.Unmarshal(got, &back); err != nil {
			t.Fatalf("%+v: fxamacker refuses the generated %x: %v", v, got, err)
		}
		var gen typetag.Sparse
		if err := gen.UnmarshalCBOR(want); err != nil {
			t.Fatalf("%+v: the generated decoder refuses %x: %v", v, want, err)
		}
	}
}

// diffTagged decodes data into the generated T and with fxamacker into
// the mirror M, and reports how they differ: one accepts and the other
// refuses (except for the departures the README lists), or both accept
// and the values' encodings differ.
func diffTagged[T any, M any, PT interface {
	*T
	cbortest.Codec
}](data []byte) string {
	var v T
	var m M
	err := PT(&v).UnmarshalCBOR(data)
	fxErr := tagDec.Unmarshal(data, &m)
	switch {
	case err == nil && fxErr != nil && strings.Contains(fxErr.Error(), "toarray option"):
		return "" // a legacy map, which the generated decoder of an array struct reads too
	case err == nil && fxErr != nil:
		if got, err := PT(&v).MarshalCBOR(); err == nil && wrongTagNull[M](data, fxErr, got) {
			return "" // fxamacker refuses the untagged null it writes itself for a nil tagged map or slice
		}
		return "accepted by the generated decoder, refused by fxamacker: " + fxErr.Error()
	case err != nil && fxErr == nil:
		return "refused by the generated decoder: " + err.Error() + "; accepted by fxamacker"
	case err != nil:
		var e *runtime.Error
		if !errors.As(err, &e) {
			return "not a *runtime.Error: " + err.Error()
		}
		return ""
	}
	return sameEncoding(PT(&v), m)
}

// sameEncoding reports how v, decoded by the generated code, and m,
// decoded by fxamacker into the mirror, differ: "" when both encoders
// write the same bytes.
func sameEncoding(v cbortest.Codec, m any) string {
	got, err := v.MarshalCBOR()
	if err != nil {
		return "re-encoding: " + err.Error()
	}
	want, err := tagEnc.Marshal(m)
	if err != nil {
		return "fxamacker re-encoding: " + err.Error()
	}
	if !bytes.Equal(got, want) {
		return "decoded values differ: generated writes " + hexOf(got) + ", fxamacker " + hexOf(want)
	}
	return ""
}

// wrongTagNull reports whether fxamacker's refusal is of an untagged null
// for a tagged type: it writes one for a nil map or slice of a TagSet type
// (EncTagRequired) and reads it back only as DecTagOptional, where the
// generated decoder reads it as nil, as fxamacker's encoder meant it. It
// is when fxamacker with every tag optional reads data as the generated
// decoder does.
func wrongTagNull[M any](data []byte, fxErr error, got []byte) bool {
	if !strings.Contains(fxErr.Error(), "expect CBOR tag value") {
		return false
	}
	var m M
	if err := tagDecOptional.Unmarshal(data, &m); err != nil {
		return false
	}
	want, err := tagEnc.Marshal(m)
	return err == nil && bytes.Equal(got, want)
}

var tagDecOptional = func() cbor.DecMode {
	set := cbor.NewTagSet()
	opt := cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagOptional}
	for _, a := range []struct {
		v any
		n uint64
	}{{tPoint{}, 1001}, {tU64(0), 1003}, {tDict(nil), 1004}, {tBlob(nil), 1005}, {tPoints(nil), 1006}} {
		if err := set.Add(opt, reflect.TypeOf(a.v), a.n); err != nil {
			panic(err)
		}
	}
	dm, err := cbor.DecOptions{}.DecModeWithTags(set)
	if err != nil {
		panic(err)
	}
	return dm
}()

func hexOf(b []byte) string { return hex.EncodeToString(b) }

var sparseSeeds = []string{
	"a1 626174 d903e9 82 00 00",
	"a5 6162 d903ed 42 6869 6164 d903ec a1 6161 d903eb 01 6170 d903ee 81 d903e9 82 20 02 6175 d903eb 05 626174 d903e9 82 00 00",
	"a1 6164 f6",                       // an untagged null for a tagged map
	"a1 6162 42 6869",                  // an untagged Blob: its tag is optional
	"a1 6175 d903eb d864 05",           // another tag after the type's
	"a1 6175 d9d9f7 d903eb 05",         // 55799 in front of the type's tag
	"a1 6175 d903eb d9d9f7 05",         // 55799 after it
	"a1 626174 d903e9 9f 01 02 ff",     // indefinite content
	"a2 6175 d903eb 01 6175 d903eb 02", // a key twice
	"a1 6164 d903ec a1 d9d9f7 6161 d903eb 01",
}

var valuesSeeds = []string{
	"87 d903eb 01 d903ec a0 d903ed 40 d903ee 80 f6 80 a0",
	"87 d903eb 01 f6 f6 f6 f6 f6 f6",
	"87 d903eb 01 d903ec a1 6161 d903eb 02 42 6869 d903ee 81 d903e9 82 01 02 d903eb 03 81 d903ec a0 a1 6161 d903ed 40",
	"87 d903eb c2 41 01 f6 f6 f6 f6 f6 f6", // a bignum after the type's tag
}

func TestDiffSparse(t *testing.T) { diffRun[typetag.Sparse, tSparse](t, sparseSeeds) }
func TestDiffValues(t *testing.T) { diffRun[typetag.Values, tValues](t, valuesSeeds) }

func FuzzDiffSparse(f *testing.F) { diffFuzz[typetag.Sparse, tSparse](f, sparseSeeds) }
func FuzzDiffValues(f *testing.F) { diffFuzz[typetag.Values, tValues](f, valuesSeeds) }

func mutations() int {
	if testing.Short() {
		return 3000
	}
	return 30000
}

func diffRun[T, M any, PT interface {
	*T
	cbortest.Codec
}](t *testing.T, seeds []string) {
	r := rand.New(rand.NewPCG(23, 5))
	var bs [][]byte
	for _, h := range seeds {
		bs = append(bs, cbortest.MustHex(h))
	}
	for _, b := range bs {
		if msg := diffTagged[T, M, PT](b); msg != "" {
			t.Fatalf("%x: %s", b, msg)
		}
	}
	for i := range mutations() {
		b := cbortest.Mutate(r, bs[r.IntN(len(bs))])
		if msg := diffTagged[T, M, PT](b); msg != "" {
			t.Fatalf("mutation %d, %x: %s", i, b, msg)
		}
		if msg := cbortest.ZeroCopyReuse[T](bs[i%len(bs)], b, i%8 == 0); msg != "" {
			t.Fatalf("mutation %d: %s", i, msg)
		}
		if msg := diffTaggedUsed[T, M, PT](b, bs[r.IntN(len(bs))]); msg != "" {
			t.Fatalf("mutation %d, %x: %s", i, b, msg)
		}
	}
}

// diffTaggedUsed decodes data into a T that holds what before decodes to,
// and with fxamacker into a copy of that value in the mirror M
// (mirror.Convert: capacities kept), and reports how they differ, as
// diffTagged does: decoding into a used value must give fxamacker's
// result for the same value (a map keeps its entries, a field absent from
// the map-format Sparse keeps its value).
func diffTaggedUsed[T any, M any, PT interface {
	*T
	cbortest.Codec
}](data, before []byte) string {
	var v T
	if PT(&v).UnmarshalCBOR(before) != nil {
		return ""
	}
	var m M
	mirror.Convert(&m, v)
	err := PT(&v).UnmarshalCBOR(data)
	fxErr := tagDec.Unmarshal(data, &m)
	switch {
	case err == nil && fxErr != nil:
		if strings.Contains(fxErr.Error(), "toarray option") || strings.Contains(fxErr.Error(), "expect CBOR tag value") {
			return "" // as in diffTagged: a legacy map, an untagged null
		}
		return "into a used value: accepted by the generated decoder, refused by fxamacker: " + fxErr.Error()
	case err != nil && fxErr == nil:
		return "into a used value: refused by the generated decoder: " + err.Error() + "; accepted by fxamacker"
	case err != nil:
		return ""
	}
	if msg := sameEncoding(PT(&v), m); msg != "" {
		return "into a value holding " + hexOf(before) + ": " + msg
	}
	return ""
}

func diffFuzz[T, M any, PT interface {
	*T
	cbortest.Codec
}](f *testing.F, seeds []string) {
	var bs [][]byte
	for _, h := range seeds {
		bs = append(bs, cbortest.MustHex(h))
		f.Add(cbortest.MustHex(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := diffTagged[T, M, PT](data); msg != "" {
			t.Fatalf("%x: %s", data, msg)
		}
		if msg := cbortest.ZeroCopyReuse[T](bs[len(data)%len(bs)], data, true); msg != "" {
			t.Fatal(msg)
		}
		if msg := diffTaggedUsed[T, M, PT](data, bs[len(data)%len(bs)]); msg != "" {
			t.Fatalf("%x: %s", data, msg)
		}
	})
}

// The catch-all: a Document whose Ext holds one item x, which the union
// Extension reads as a StringValue (text), a UInt64Value (tag 2002) or
// else keeps in its catch-all Unknown, byte for byte, exactly when
// runtime.Valid accepts x.

// catchAllDoc is the Document [null, null, null, null, [x]].
func catchAllDoc(x []byte) []byte {
	return append(cbortest.MustHex("85 f6 f6 f6 f6 81"), x...)
}

// claimed reports whether x is an item another variant of Extension
// claims, after any 55799 (in any head length): text, tag 2002, or null
// and undefined (a nil Extension).
func claimed(x []byte) bool {
	for len(x) > 0 && x[0]>>5 == genrt.MajorTag {
		n, size := tagArg(x)
		if size == 0 {
			return false
		}
		if n != genrt.TagSelfDescribed {
			return n == 2002
		}
		x = x[size:]
	}
	return len(x) > 0 && (x[0]>>5 == genrt.MajorText || x[0] == 0xf6 || x[0] == 0xf7)
}

// tagArg returns the number of the tag head at the start of x and its
// size, 0 when it is cut short or not a definite head.
func tagArg(x []byte) (uint64, int) {
	ai := x[0] & 0x1f
	if ai < 24 {
		return uint64(ai), 1
	}
	if ai > 27 || len(x) < 1+1<<(ai-24) {
		return 0, 0
	}
	var n uint64
	for _, c := range x[1 : 1+1<<(ai-24)] {
		n = n<<8 | uint64(c)
	}
	return n, 1 + 1<<(ai-24)
}

func checkCatchAll(x []byte) string {
	if claimed(x) || len(x) == 0 {
		return ""
	}
	data := catchAllDoc(x)
	var doc union.Document
	err := doc.UnmarshalCBOR(data)
	// Valid judges the whole Document, so that x nests as deep as the
	// catch-all reads it; its other fields are nulls.
	verr := runtime.Valid(data)
	switch {
	case verr == nil && err != nil:
		return "Valid accepts it; the catch-all refuses it: " + err.Error()
	case verr != nil && err == nil:
		return "the catch-all keeps it; Valid refuses it: " + verr.Error()
	case err != nil:
		if !sameCause(err, verr) {
			return "the catch-all says " + err.Error() + "; Valid says " + verr.Error()
		}
		return ""
	}
	if len(doc.Ext) != 1 {
		return "not one extension"
	}
	if u, ok := doc.Ext[0].(union.Unknown); !ok || !bytes.Equal(u, x) {
		return "not kept byte for byte"
	}
	out, err := doc.MarshalCBOR()
	if err != nil || !bytes.Equal(out, data) {
		return "not written back byte for byte"
	}
	return ""
}

// sameCause reports whether two errors wrap the same sentinel (of the
// classes Valid reports).
func sameCause(a, b error) bool {
	for _, c := range []error{runtime.ErrSyntax, runtime.ErrLimit, runtime.ErrUTF8, runtime.ErrDuplicateKey, runtime.ErrTag, runtime.ErrLength, runtime.ErrTrailing, io.ErrUnexpectedEOF} {
		if errors.Is(a, c) != errors.Is(b, c) {
			return false
		}
	}
	return true
}

var catchAllSeeds = []string{
	"8161ff", "c3a0", "c160", "c00b", "c07f616bff", "d9d9f78161ff", // refused by Valid and fxamacker
	"a2 6161 00 6161 01", "a2 d9d9f7 6161 00 6161 01",
	"00", "f6", "d9d9f7 80", "9f 01 9f ff ff", "bf 6161 01 ff", "5f 4101 ff", "c6 c6 01", "d9 07d3 01",
	"c0 74 323031332d30332d32315432303a30343a30305a", "c2 41 01", "a2 01 00 1801 00",
}

func TestCatchAll(t *testing.T) {
	var bs [][]byte
	for _, h := range catchAllSeeds {
		b := cbortest.MustHex(h)
		bs = append(bs, b)
		if msg := checkCatchAll(b); msg != "" {
			t.Errorf("%s: %s", h, msg)
		}
	}
	r := rand.New(rand.NewPCG(23, 6))
	for i := range mutations() {
		b := cbortest.Mutate(r, bs[r.IntN(len(bs))])
		if msg := checkCatchAll(b); msg != "" {
			t.Fatalf("mutation %d, %x: %s", i, b, msg)
		}
		if msg := cbortest.ZeroCopyReuse[union.Document](catchAllDoc(bs[i%len(bs)]), catchAllDoc(b), i%8 == 0); msg != "" {
			t.Fatalf("mutation %d: %s", i, msg)
		}
	}
}

func FuzzCatchAll(f *testing.F) {
	var bs [][]byte
	for _, h := range catchAllSeeds {
		bs = append(bs, cbortest.MustHex(h))
		f.Add(cbortest.MustHex(h))
	}
	f.Fuzz(func(t *testing.T, x []byte) {
		if msg := checkCatchAll(x); msg != "" {
			t.Fatalf("%x: %s", x, msg)
		}
		if msg := cbortest.ZeroCopyReuse[union.Document](catchAllDoc(bs[len(x)%len(bs)]), catchAllDoc(x), true); msg != "" {
			t.Fatal(msg)
		}
	})
}
