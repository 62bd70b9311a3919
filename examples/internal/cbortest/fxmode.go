package cbortest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/fxmode"
	"github.com/cborgen/cborgen/runtime"
	"github.com/fxamacker/cbor/v2"
)

// FxModeEncModes are the encoding modes FxMode wraps: fxamacker's
// default, CoreDet, options that change what fxamacker writes itself,
// and TagsForbidden (which fxmode leaves to fxamacker).
var FxModeEncModes = map[string]cbor.EncMode{
	"default":       mustEncMode(cbor.EncOptions{}),
	"coredet":       mustEncMode(cbor.CoreDetEncOptions()),
	"lengthfirst":   mustEncMode(cbor.EncOptions{Sort: cbor.SortLengthFirst, ShortestFloat: cbor.ShortestFloatNone}),
	"rfc3339":       mustEncMode(cbor.EncOptions{Time: cbor.TimeRFC3339Nano, TimeTag: cbor.EncTagRequired, NilContainers: cbor.NilContainerAsEmpty}),
	"indefforbid":   mustEncMode(cbor.EncOptions{IndefLength: cbor.IndefLengthForbidden}),
	"tagsforbidden": mustEncMode(cbor.EncOptions{TagsMd: cbor.TagsForbidden}),
}

// FxModeDecModes are the decoding modes FxMode wraps: fxamacker's
// default, small limits (which the generated decoders then apply), and a
// setting fxmode.Options refuses (decoded by fxamacker). The settings
// fxmode maps beyond the limits (DupMapKey, ExtraReturnErrors,
// FieldNameMatching) are not here: the unwrapped mode calls a generated
// UnmarshalCBOR, which cannot see them, so it is no oracle for them;
// OptionsRun checks them against fxamacker on mirror types instead.
var FxModeDecModes = map[string]cbor.DecMode{
	"default":     mustDecMode(cbor.DecOptions{}),
	"small":       mustDecMode(cbor.DecOptions{MaxNestedLevels: 4, MaxArrayElements: 16, MaxMapPairs: 16}),
	"indefforbid": mustDecMode(cbor.DecOptions{IndefLength: cbor.IndefLengthForbidden}),
}

// FxModeCounts counts what FxMode compared.
type FxModeCounts struct {
	Values, Encodes, Decodes, Accepted, Refused, SameText int
}

// FxMode checks fxmode.EncMode and fxmode.DecMode against the modes they
// wrap on n random values of T (made by gen, or by a mirror.Filler with
// the seed when gen is nil) and on mutations of their encodings and of
// extra: equal bytes and errors when encoding (a value and a pointer,
// Marshal and MarshalToBuffer); when decoding (Unmarshal, and
// UnmarshalFirst with bytes after the item), the same inputs accepted,
// equal values, the same rest, and errors of the same cause.
func FxMode[T any](t *testing.T, n int, seed uint64, gen func(*rand.Rand) T, extra ...[]byte) FxModeCounts {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0x66786d6f))
	if gen == nil {
		f := mirror.Filler{Rand: r}
		gen = func(*rand.Rand) T {
			var v T
			f.Fill(&v)
			return v
		}
	}
	var c FxModeCounts
	inputs := append([][]byte(nil), extra...)
	for i := range n {
		v := gen(r)
		c.Values++
		for name, em := range FxModeEncModes {
			w := fxmode.EncMode(em)
			for _, x := range []any{v, &v} {
				want, werr := em.Marshal(x)
				got, gerr := w.Marshal(x)
				c.Encodes++
				if !bytes.Equal(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
					t.Fatalf("value %d, %s, Marshal(%T): fxmode %x, %v; fxamacker %x, %v", i, name, x, got, gerr, want, werr)
				}
				var wb, gb bytes.Buffer
				werr = em.(cbor.UserBufferEncMode).MarshalToBuffer(x, &wb)
				gerr = w.(cbor.UserBufferEncMode).MarshalToBuffer(x, &gb)
				if !bytes.Equal(gb.Bytes(), wb.Bytes()) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
					t.Fatalf("value %d, %s, MarshalToBuffer(%T): fxmode %x, %v; fxamacker %x, %v", i, name, x, gb.Bytes(), gerr, wb.Bytes(), werr)
				}
			}
		}
		if b, err := arrayMode.Marshal(&v); err == nil {
			inputs = append(inputs, b)
			for range 4 {
				inputs = append(inputs, Mutate(r, b))
			}
			if len(b) > 1 {
				inputs = append(inputs, b[:r.IntN(len(b))], append(bytes.Clone(b), 0x01))
			}
		}
	}
	for _, in := range inputs {
		for name, dm := range FxModeDecModes {
			w := fxmode.DecMode(dm)
			c.Decodes++
			var want, got T
			werr := dm.Unmarshal(in, &want)
			gerr := w.Unmarshal(in, &got)
			if msg := fxSame(werr, gerr, &c); msg != "" {
				t.Fatalf("%s Unmarshal(%x): %s", name, in, msg)
			}
			if d := mirror.Diff(got, want); werr == nil && d != "" {
				t.Fatalf("%s Unmarshal(%x): fxmode and fxamacker differ at %s", name, in, d)
			}
			var wantF, gotF T
			more := append(bytes.Clone(in), 0x82, 0x01, 0x02)
			wrest, werr := dm.UnmarshalFirst(more, &wantF)
			grest, gerr := w.UnmarshalFirst(more, &gotF)
			if msg := fxSame(werr, gerr, &c); msg != "" {
				t.Fatalf("%s UnmarshalFirst(%x): %s", name, more, msg)
			}
			if d := mirror.Diff(gotF, wantF); werr == nil && (d != "" || !bytes.Equal(grest, wrest)) {
				t.Fatalf("%s UnmarshalFirst(%x): fxmode and fxamacker differ at %s; rest %x, %x", name, more, d, grest, wrest)
			}
		}
	}
	return c
}

// fxSame compares the errors of fxamacker (want) and fxmode (got) for an
// input: both nil, or both of the same cause.
func fxSame(want, got error, c *FxModeCounts) string {
	switch {
	case want == nil && got == nil:
		c.Accepted++
		return ""
	case want == nil || got == nil:
		return fmt.Sprintf("fxmode: %v; fxamacker: %v", got, want)
	}
	c.Refused++
	if got.Error() == want.Error() {
		c.SameText++
	}
	if wc, gc := errorCause(want), errorCause(got); wc != gc {
		return fmt.Sprintf("fxmode: %v (%s); fxamacker: %v (%s)", got, gc, want, wc)
	}
	return ""
}

// errorCause names the cause of a decoding error of fxamacker's or of
// the runtime's.
func errorCause(err error) string {
	var se *cbor.SyntaxError
	var ee *cbor.ExtraneousDataError
	var me *cbor.MaxNestedLevelError
	var ae *cbor.MaxArrayElementsError
	var pe *cbor.MaxMapPairsError
	var re *runtime.Error
	switch {
	case errors.As(err, &se):
		return "syntax"
	case errors.As(err, &ee):
		return "trailing"
	case errors.As(err, &me), errors.As(err, &ae), errors.As(err, &pe):
		return "limit"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "eof"
	case errors.Is(err, runtime.ErrTrailing):
		return "trailing"
	case errors.Is(err, runtime.ErrLimit):
		return "limit"
	case errors.As(err, &re):
		return "runtime: " + re.Unwrap().Error()
	}
	return "other: " + err.Error()
}
