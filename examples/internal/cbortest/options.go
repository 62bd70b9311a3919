package cbortest

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unicode"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/fxmode"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// The differential test under decoding options: the generated decoders,
// given runtime.Options, accept and refuse what fxamacker/cbor refuses
// under the DecOptions of the same meaning, with the same value when both
// accept (docs/guide.md, "Decoding options").

// OptionMode is a runtime.Options and the fxamacker DecMode that means
// the same.
type OptionMode struct {
	Name string
	Opts runtime.Options
	Fx   cbor.DecMode
}

func mustDecMode(o cbor.DecOptions) cbor.DecMode {
	m, err := o.DecMode()
	if err != nil {
		panic(err)
	}
	return m
}

// OptionModes are the settings the differential test runs under, one by
// one and together.
var OptionModes = []OptionMode{
	{"DupMapKeyEnforcedAPF",
		runtime.Options{DupMapKey: runtime.DupMapKeyEnforcedAPF},
		mustDecMode(cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF})},
	{"ExtraDecErrorUnknownField",
		runtime.Options{ExtraReturnErrors: runtime.ExtraDecErrorUnknownField},
		mustDecMode(cbor.DecOptions{ExtraReturnErrors: cbor.ExtraDecErrorUnknownField})},
	{"FieldNameMatchingCaseSensitive",
		runtime.Options{FieldNameMatching: runtime.FieldNameMatchingCaseSensitive},
		mustDecMode(cbor.DecOptions{FieldNameMatching: cbor.FieldNameMatchingCaseSensitive})},
	{"DupMapKeyEnforcedAPF+ExtraDecErrorUnknownField",
		runtime.Options{DupMapKey: runtime.DupMapKeyEnforcedAPF, ExtraReturnErrors: runtime.ExtraDecErrorUnknownField},
		mustDecMode(cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF, ExtraReturnErrors: cbor.ExtraDecErrorUnknownField})},
	{"DupMapKeyEnforcedAPF+FieldNameMatchingCaseSensitive",
		runtime.Options{DupMapKey: runtime.DupMapKeyEnforcedAPF, FieldNameMatching: runtime.FieldNameMatchingCaseSensitive},
		mustDecMode(cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF, FieldNameMatching: cbor.FieldNameMatchingCaseSensitive})},
	{"IndefLengthForbidden",
		runtime.Options{IndefLength: runtime.IndefLengthForbidden},
		mustDecMode(cbor.DecOptions{IndefLength: cbor.IndefLengthForbidden})},
	{"TagsForbidden",
		runtime.Options{TagsMd: runtime.TagsForbidden},
		mustDecMode(cbor.DecOptions{TagsMd: cbor.TagsForbidden})},
	{"UTF8DecodeInvalid",
		runtime.Options{UTF8: runtime.UTF8DecodeInvalid},
		mustDecMode(cbor.DecOptions{UTF8: cbor.UTF8DecodeInvalid})},
	{"NaNDecodeForbidden",
		runtime.Options{NaN: runtime.NaNDecodeForbidden},
		mustDecMode(cbor.DecOptions{NaN: cbor.NaNDecodeForbidden})},
	{"InfDecodeForbidden",
		runtime.Options{Inf: runtime.InfDecodeForbidden},
		mustDecMode(cbor.DecOptions{Inf: cbor.InfDecodeForbidden})},
	{"IndefLengthForbidden+NaNDecodeForbidden+InfDecodeForbidden+DupMapKeyEnforcedAPF",
		runtime.Options{IndefLength: runtime.IndefLengthForbidden, NaN: runtime.NaNDecodeForbidden, Inf: runtime.InfDecodeForbidden,
			DupMapKey: runtime.DupMapKeyEnforcedAPF},
		mustDecMode(cbor.DecOptions{IndefLength: cbor.IndefLengthForbidden, NaN: cbor.NaNDecodeForbidden, Inf: cbor.InfDecodeForbidden,
			DupMapKey: cbor.DupMapKeyEnforcedAPF})},
	{"TagsForbidden+UTF8DecodeInvalid+ExtraDecErrorUnknownField",
		runtime.Options{TagsMd: runtime.TagsForbidden, UTF8: runtime.UTF8DecodeInvalid, ExtraReturnErrors: runtime.ExtraDecErrorUnknownField},
		mustDecMode(cbor.DecOptions{TagsMd: cbor.TagsForbidden, UTF8: cbor.UTF8DecodeInvalid, ExtraReturnErrors: cbor.ExtraDecErrorUnknownField})},
	{"explicit defaults",
		runtime.Options{DupMapKey: runtime.DupMapKeyQuiet, ExtraReturnErrors: runtime.ExtraDecErrorNone, FieldNameMatching: runtime.FieldNameMatchingPreferCaseSensitive,
			IndefLength: runtime.IndefLengthAllowed, TagsMd: runtime.TagsAllowed, UTF8: runtime.UTF8RejectInvalid,
			NaN: runtime.NaNDecodeAllowed, Inf: runtime.InfDecodeAllowed},
		mustDecMode(cbor.DecOptions{})},
}

// fxDecModes are the OptionModes' DecModes wrapped by fxmode.
var fxDecModes sync.Map // mode name -> cbor.DecMode

func fxDecMode(o OptionMode) cbor.DecMode {
	if m, ok := fxDecModes.Load(o.Name); ok {
		return m.(cbor.DecMode)
	}
	m, _ := fxDecModes.LoadOrStore(o.Name, fxmode.DecMode(o.Fx))
	return m.(cbor.DecMode)
}

type decoderOf interface {
	DecodeCBOR(*runtime.Decoder) error
}

// DifferOpts is Differ under o: data decoded with runtime.Unmarshal and
// o.Opts into a new T, and, when before is not nil, into a T that holds
// what before decodes to (Go maps that hold keys already), against
// fxamacker's o.Fx into the mirrors.
func DifferOpts[T, A, M any](data, before []byte, o OptionMode) string {
	var v T
	var a A
	var m M
	where := ""
	if before != nil {
		if err := runtime.Unmarshal(before, any(&v).(decoderOf), runtime.Options{}); err != nil {
			return ""
		}
		mirror.Convert(&a, v)
		mirror.Convert(&m, v)
		where = fmt.Sprintf(" into a value holding %x", before)
	}
	err := runtime.Unmarshal(data, any(&v).(decoderOf), o.Opts)
	var rerr *runtime.Error
	if err != nil && !errors.As(err, &rerr) {
		return fmt.Sprintf("%s: Unmarshal(%x) = %v (%T), not a *runtime.Error", o.Name, data, err, err)
	}
	if before == nil {
		// The program's own call through fxmode decodes as
		// runtime.Unmarshal with the options fxmode.Options gives.
		var fv T
		ferr := fxDecMode(o).Unmarshal(data, &fv)
		if (ferr == nil) != (err == nil) {
			return fmt.Sprintf("%s: %x: runtime.Unmarshal %v, through fxmode.DecMode %v", o.Name, data, err, ferr)
		}
		if err == nil {
			if d := mirror.Diff(v, fv); d != "" {
				return fmt.Sprintf("%s: %x: runtime.Unmarshal and fxmode.DecMode read different values, at %s%s", o.Name, data, typeName[T](), d)
			}
		}
	}
	var want T
	fxErr := o.Fx.Unmarshal(data, &a)
	if fxErr == nil {
		mirror.Convert(&want, a)
	} else if mErr := o.Fx.Unmarshal(data, &m); mErr == nil {
		fxErr = nil
		mirror.Convert(&want, m)
	} else if formatMix(fxErr) {
		fxErr = mErr
	}
	switch {
	case err == nil && fxErr == nil:
		if d := mirror.Diff(v, want); d != "" {
			return fmt.Sprintf("%s: %x%s: the generated code and fxamacker read different values, at %s%s", o.Name, data, where, typeName[T](), d)
		}
	case err == nil:
		if !formatMix(fxErr) {
			return fmt.Sprintf("%s: %x%s: the generated code accepts it as %+v; fxamacker: %v", o.Name, data, where, v, fxErr)
		}
	case fxErr == nil:
		return fmt.Sprintf("%s: %x%s: the generated code refuses it (%v); fxamacker reads %+v", o.Name, data, where, err, want)
	}
	return ""
}

// MutateKeys returns a changed copy of b, a well-formed encoding, with
// one map in it given another pair: a copy of one of its pairs (a known
// or unknown key twice), a pair whose key is another pair's with this
// pair's value, an unknown text or integer key (once or twice), or a
// text key of it in other letter cases; or, now and then, Mutate's edits
// on top.
func MutateKeys(r *rand.Rand, b []byte) []byte {
	var maps []span
	for _, s := range flatten(parse(b, 0)) {
		if s.major == genrt.MajorMap && len(s.kids) > 0 {
			maps = append(maps, s)
		}
	}
	if len(maps) == 0 {
		return Mutate(r, b)
	}
	s := maps[r.IntN(len(maps))]
	pair := func(j int) []byte {
		return slices.Concat(b[s.kids[2*j].start:s.kids[2*j].end], b[s.kids[2*j+1].start:s.kids[2*j+1].end])
	}
	np := len(s.kids) / 2
	j, k := r.IntN(np), r.IntN(np)
	value := b[s.kids[2*j+1].start:s.kids[2*j+1].end]
	var unknown []byte
	if r.IntN(2) == 0 {
		unknown = genrt.AppendString(nil, []string{"zz", "unknown", "A", "x"}[r.IntN(4)])
	} else {
		unknown = genrt.AppendInt(nil, []int64{-7, 99, 1000, 0}[r.IntN(4)])
	}
	var out []byte
	switch r.IntN(6) {
	case 0:
		out = addPairs(b, s, pair(j))
	case 1:
		out = addPairs(b, s, b[s.kids[2*k].start:s.kids[2*k].end], value)
	case 2:
		out = addPairs(b, s, unknown, value)
	case 3:
		out = addPairs(b, s, unknown, value, unknown, []byte{0x01})
	case 4:
		key := s.kids[2*j]
		if key.major != genrt.MajorText || key.indef {
			return MutateKeys(r, b)
		}
		out = splice(b, key.start, key.end, recaseText(b[key.body:key.end], r))
	case 5:
		out = Mutate(r, addPairs(b, s, pair(j)))
	}
	return out
}

// MutateValues returns a changed copy of b, a well-formed encoding, with
// what the value-level decoding options look at put in at random: an
// item made indefinite (string, array or map), a tag in front of an item,
// a float replaced by a NaN or an infinity of some width, a text string's
// bytes made invalid UTF-8 (a stray continuation byte, a cut sequence);
// or, now and then, MutateKeys' edits.
func MutateValues(r *rand.Rand, b []byte) []byte {
	items := flatten(parse(b, 0))
	it := items[r.IntN(len(items))]
	switch r.IntN(6) {
	case 0:
		if nb, ok := indefinite(b, it); ok {
			return nb
		}
		return MutateValues(r, b)
	case 1:
		return splice(b, it.start, it.start, tagHeads[r.IntN(len(tagHeads))])
	case 2:
		var floats []span
		for _, s := range items {
			if s.major == genrt.MajorSimple && b[s.start] >= 0xf9 && b[s.start] <= 0xfb {
				floats = append(floats, s)
			}
		}
		if len(floats) > 0 {
			it = floats[r.IntN(len(floats))]
		}
		repl, _ := hex.DecodeString(specialFloats[r.IntN(len(specialFloats))])
		return splice(b, it.start, it.end, repl)
	case 3:
		var texts []span
		for _, s := range items {
			if s.major == genrt.MajorText && !s.indef && s.end > s.body {
				texts = append(texts, s)
			}
		}
		if len(texts) == 0 {
			return MutateKeys(r, b)
		}
		it = texts[r.IntN(len(texts))]
		out := slices.Clone(b)
		out[it.body+r.IntN(it.end-it.body)] = []byte{0x80, 0xc3, 0xff, 0xe2}[r.IntN(4)]
		return out
	}
	return MutateKeys(r, b)
}

// specialFloats are NaNs and infinities of every width, quiet and
// signalling, with payloads.
var specialFloats = []string{
	"f97e00", "f97c00", "f9fc00", "f97e01", "f9fe00",
	"fa7fc00000", "fa7f800000", "faff800000", "fa7f800001",
	"fb7ff8000000000000", "fb7ff0000000000000", "fbfff0000000000000", "fb7ff0000000000001",
}

// addPairs returns b with the map s holding its pairs and then the
// encoded items of pairs (keys and values in turn).
func addPairs(b []byte, s span, items ...[]byte) []byte {
	if s.indef {
		return splice(b, s.end-1, s.end-1, items...)
	}
	return withPairs(b, s, len(items)/2, items...)
}

// OptionsRun is the deterministic differential test under every
// OptionMode: n inputs made by MutateKeys or MutateValues from the seeds
// (those of DiffRun and extra), each decoded into a new value and into
// one that holds a seed's value.
func (s Suite[T, A, M]) OptionsRun(t *testing.T, n int, extra ...string) {
	seeds := s.diffSeeds(t, extra)
	r := rand.New(rand.NewPCG(s.Seed, 0x6f707473))
	fails := 0
	for _, o := range OptionModes {
		for _, b := range seeds {
			if msg := DifferOpts[T, A, M](b, nil, o); msg != "" {
				t.Fatal(msg)
			}
		}
		for i := range n {
			b := seeds[r.IntN(len(seeds))]
			if r.IntN(2) == 0 {
				b = MutateKeys(r, b)
			} else {
				b = MutateValues(r, b)
			}
			msg := DifferOpts[T, A, M](b, nil, o)
			if msg == "" {
				msg = DifferOpts[T, A, M](b, seeds[r.IntN(len(seeds))], o)
			}
			if msg != "" {
				t.Errorf("mutation %d (seed %d): %s", i, s.Seed, msg)
				if fails++; fails == 10 {
					t.FailNow()
				}
			}
		}
	}
}

// recaseText is a text string item of text with its letters turned at
// random into other cases of them, as recase turns them.
func recaseText(text []byte, r *rand.Rand) []byte {
	runes := []rune(string(text))
	for j, c := range runes {
		for range r.IntN(4) {
			c = unicode.SimpleFold(c)
		}
		runes[j] = c
	}
	return genrt.AppendString(nil, string(runes))
}
