package genrt_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// mustHex decodes a hex string; spaces are ignored so tables can group bytes.
func mustHex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(fmt.Sprintf("bad hex %q: %v", s, err))
	}
	return b
}

// decoderKind builds a Decoder over data. Every decoding test runs against both
// the []byte decoder and the io.Reader decoder; the reader hands out one byte
// per Read call so that every buffer refill path is exercised.
type decoderKind struct {
	name string
	new  func(data []byte) *genrt.Decoder
}

func newOneByteDecoder(data []byte) *genrt.Decoder {
	// Copy so that a reader decoder can never alias the caller's slice.
	c := append([]byte(nil), data...)
	return genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(c)))
}

var decoderKinds = []decoderKind{
	{"bytes", genrt.NewBytesDecoder},
	{"reader", newOneByteDecoder},
}

// fxEnc is the reference encoder of the wire format (DESIGN.md).
var fxEnc = mustEncMode(cbor.CoreDetEncOptions())

// fxEncLengthFirst is the reference for genrt.SortLengthFirst.
var fxEncLengthFirst = func() cbor.EncMode {
	o := cbor.CoreDetEncOptions()
	o.Sort = cbor.SortLengthFirst
	return mustEncMode(o)
}()

// fxDecStrict is fxamacker's decoder made as strict as genrt.Valid can be
// compared with: duplicate keys rejected (compared after decoding, so 01 and
// 18 01 collide), invalid UTF-8 rejected (the default), tags 0-3 checked
// (the default when decoding into any).
var fxDecStrict = func() cbor.DecMode {
	dm, err := cbor.DecOptions{
		DupMapKey: cbor.DupMapKeyEnforcedAPF,
		UTF8:      cbor.UTF8RejectInvalid,
	}.DecMode()
	if err != nil {
		panic(err)
	}
	return dm
}()

func mustEncMode(o cbor.EncOptions) cbor.EncMode {
	em, err := o.EncMode()
	if err != nil {
		panic(err)
	}
	return em
}

// fxValid reports whether fxamacker accepts data as one valid item when
// decoding it into an empty interface with fxDecStrict.
func fxValid(data []byte) error {
	var v any
	return fxDecStrict.Unmarshal(data, &v)
}

// asError checks that err is a *genrt.Error and returns it.
func asError(t testing.TB, err error) *genrt.Error {
	t.Helper()
	var e *genrt.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *genrt.Error", err, err)
	}
	return e
}

// skipAll runs Skip on a fresh decoder over data and returns the error and
// the offset afterwards.
func skipAll(k decoderKind, data []byte) (int64, error) {
	d := k.new(data)
	err := d.Skip()
	return d.Offset(), err
}

// Expected decoded values. The tree drives the typed reads the way generated
// code does: it knows what comes next and calls the matching Read function.
type (
	tArr struct {
		indef bool
		elems []any
	}
	tMap struct {
		indef bool
		kv    []any // key, value, key, value...
	}
	tTag struct {
		num     uint64
		content any
	}
	tNull   struct{}
	tUndef  struct{}
	tSimple uint8    // simple values without a typed read: checked by Skip
	tSkip   struct{} // integers beyond int64/uint64 and bignums: Valid and Skip only
)

func arr(elems ...any) tArr  { return tArr{elems: elems} }
func iarr(elems ...any) tArr { return tArr{indef: true, elems: elems} }
func mp(kv ...any) tMap      { return tMap{kv: kv} }
func imp(kv ...any) tMap     { return tMap{indef: true, kv: kv} }

// readTree reads one item from d as described by want and reports the first
// difference.
func readTree(d *genrt.Decoder, want any) error {
	switch w := want.(type) {
	case uint64:
		got, err := d.ReadUint64()
		if err != nil {
			return err
		}
		if got != w {
			return fmt.Errorf("ReadUint64 = %d, want %d", got, w)
		}
	case int64:
		got, err := d.ReadInt64()
		if err != nil {
			return err
		}
		if got != w {
			return fmt.Errorf("ReadInt64 = %d, want %d", got, w)
		}
	case float64:
		got, err := d.ReadFloat64()
		if err != nil {
			return err
		}
		if !sameFloat(got, w) {
			return fmt.Errorf("ReadFloat64 = %v (%#x), want %v (%#x)", got, math.Float64bits(got), w, math.Float64bits(w))
		}
	case bool:
		got, err := d.ReadBool()
		if err != nil {
			return err
		}
		if got != w {
			return fmt.Errorf("ReadBool = %v, want %v", got, w)
		}
	case string:
		got, err := d.ReadString()
		if err != nil {
			return err
		}
		if got != w {
			return fmt.Errorf("ReadString = %q, want %q", got, w)
		}
	case []byte:
		got, err := d.ReadBytes(nil)
		if err != nil {
			return err
		}
		if got == nil || !bytes.Equal(got, w) {
			return fmt.Errorf("ReadBytes = %x (nil %v), want %x", got, got == nil, w)
		}
	case tNull, tUndef:
		ok, err := d.ReadNull()
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("ReadNull = false, want true")
		}
	case tSimple, tSkip:
		return d.Skip()
	case tTag:
		got, err := d.ReadTag()
		if err != nil {
			return err
		}
		if got != w.num {
			return fmt.Errorf("ReadTag = %d, want %d", got, w.num)
		}
		return readTree(d, w.content)
	case tArr:
		n, err := d.ReadArrayHead()
		if err != nil {
			return err
		}
		if err := readElems(d, n, w.indef, w.elems); err != nil {
			return err
		}
		d.Leave()
	case tMap:
		n, err := d.ReadMapHead()
		if err != nil {
			return err
		}
		if n >= 0 {
			n *= 2
		}
		if err := readElems(d, n, w.indef, w.kv); err != nil {
			return err
		}
		d.Leave()
	default:
		panic(fmt.Sprintf("readTree: unexpected %T", want))
	}
	return nil
}

func readElems(d *genrt.Decoder, n int, indef bool, elems []any) error {
	// An indefinite length is counted when the container is whole (n is
	// then its length and Leave consumes the break), else -1.
	if indef && n >= 0 && n != len(elems) {
		return fmt.Errorf("head of an indefinite-length container = %d, want %d (counted) or -1", n, len(elems))
	}
	if indef && n < 0 {
		for i := 0; ; i++ {
			brk, err := d.ReadBreak()
			if err != nil {
				return err
			}
			if brk {
				if i != len(elems) {
					return fmt.Errorf("break after %d items, want %d", i, len(elems))
				}
				return nil
			}
			if i >= len(elems) {
				return fmt.Errorf("more than %d items", len(elems))
			}
			if err := readTree(d, elems[i]); err != nil {
				return genrt.AtIndex(err, i)
			}
		}
	}
	if n != len(elems) {
		return fmt.Errorf("head = %d items, want %d", n, len(elems))
	}
	for i, e := range elems {
		if err := readTree(d, e); err != nil {
			return genrt.AtIndex(err, i)
		}
	}
	return nil
}

// appendTree encodes want with the runtime's append functions (definite
// lengths only).
func appendTree(dst []byte, want any) []byte {
	switch w := want.(type) {
	case uint64:
		return genrt.AppendUint(dst, w)
	case int64:
		return genrt.AppendInt(dst, w)
	case float64:
		return genrt.AppendFloat64(dst, w)
	case bool:
		return genrt.AppendBool(dst, w)
	case string:
		return genrt.AppendString(dst, w)
	case []byte:
		return genrt.AppendBytes(dst, w)
	case tNull:
		return genrt.AppendNull(dst)
	case tTag:
		return appendTree(genrt.AppendTag(dst, w.num), w.content)
	case tArr:
		dst = genrt.AppendArrayHead(dst, len(w.elems))
		for _, e := range w.elems {
			dst = appendTree(dst, e)
		}
		return dst
	case tMap:
		dst = genrt.AppendMapHead(dst, len(w.kv)/2)
		for _, e := range w.kv {
			dst = appendTree(dst, e)
		}
		return dst
	}
	panic(fmt.Sprintf("appendTree: cannot encode %T", want))
}

// sameFloat compares floats bit for bit, except that any NaN equals any NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// checkAtEnd asserts that the decoder consumed exactly n bytes and that no
// item follows.
func checkAtEnd(t testing.TB, d *genrt.Decoder, n int) {
	t.Helper()
	if got := d.Offset(); got != int64(n) {
		t.Errorf("Offset() = %d, want %d", got, n)
	}
	if _, err := d.PeekMajor(); !errors.Is(err, io.EOF) {
		t.Errorf("PeekMajor at end = %v, want io.EOF", err)
	}
}
