package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// tagRead decodes one item of a Go type with the runtime, as generated
// code does, and with fxamacker/cbor's Unmarshal (default options).
type tagRead struct {
	name string
	run  func(d *genrt.Decoder) (any, error)
	fx   func(data []byte) (any, error)
}

func fxInto[T any](data []byte) (any, error) {
	var v T
	err := cbor.Unmarshal(data, &v)
	return v, err
}

func readPtr[T any](read func(*genrt.Decoder) (T, error)) func(*genrt.Decoder) (any, error) {
	return func(d *genrt.Decoder) (any, error) {
		null, err := d.ReadNull()
		if err != nil || null {
			return (*T)(nil), err
		}
		v, err := read(d)
		return &v, err
	}
}

func readInts(d *genrt.Decoder) ([]int64, error) {
	n, err := d.ReadArrayHead()
	if err != nil {
		return nil, err
	}
	s := []int64{}
	for i := 0; ; i++ {
		more, err := d.NextElem(n, i)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		x, err := d.ReadInt64()
		if err != nil {
			return nil, err
		}
		s = append(s, x)
	}
	d.Leave()
	return s, nil
}

func readStrMap(d *genrt.Decoder) (map[string]int64, error) {
	n, err := d.ReadMapHead()
	if err != nil {
		return nil, err
	}
	m := map[string]int64{}
	for i := 0; ; i++ {
		more, err := d.NextPair(n, i)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		k, err := d.ReadString()
		if err != nil {
			return nil, err
		}
		if m[k], err = d.ReadInt64(); err != nil {
			return nil, err
		}
	}
	d.Leave()
	return m, nil
}

var tagReads = []tagRead{
	{"int64", func(d *genrt.Decoder) (any, error) { return d.ReadInt64() }, fxInto[int64]},
	{"int32", func(d *genrt.Decoder) (any, error) { return d.ReadInt32() }, fxInto[int32]},
	{"uint8", func(d *genrt.Decoder) (any, error) { return d.ReadUint8() }, fxInto[uint8]},
	{"uint64", func(d *genrt.Decoder) (any, error) { return d.ReadUint64() }, fxInto[uint64]},
	{"float64", func(d *genrt.Decoder) (any, error) { return d.ReadFloat64() }, fxInto[float64]},
	{"float32", func(d *genrt.Decoder) (any, error) { return d.ReadFloat32() }, fxInto[float32]},
	{"bool", func(d *genrt.Decoder) (any, error) { return d.ReadBool() }, fxInto[bool]},
	{"string", func(d *genrt.Decoder) (any, error) { return d.ReadString() }, fxInto[string]},
	{"[]byte", func(d *genrt.Decoder) (any, error) { return d.ReadBytes(nil) }, fxInto[[]byte]},
	{"[]int64", func(d *genrt.Decoder) (any, error) { return readInts(d) }, fxInto[[]int64]},
	{"map[string]int64", func(d *genrt.Decoder) (any, error) { return readStrMap(d) }, fxInto[map[string]int64]},
	{"*int64", readPtr(func(d *genrt.Decoder) (int64, error) { return d.ReadInt64() }), fxInto[*int64]},
	{"*string", readPtr(func(d *genrt.Decoder) (string, error) { return d.ReadString() }), fxInto[*string]},
	{"time.Time", func(d *genrt.Decoder) (any, error) { return d.ReadTime() }, fxInto[time.Time]},
	{"*time.Time", readPtr(func(d *genrt.Decoder) (time.Time, error) { return d.ReadTime() }), fxInto[*time.Time]},
	{"big.Int", func(d *genrt.Decoder) (any, error) {
		var z big.Int
		err := d.ReadBigInt(&z)
		return z.String(), err
	}, func(data []byte) (any, error) {
		var z big.Int
		err := cbor.Unmarshal(data, &z)
		return z.String(), err
	}},
	{"*big.Int", readPtr(func(d *genrt.Decoder) (string, error) {
		var z big.Int
		err := d.ReadBigInt(&z)
		return z.String(), err
	}), func(data []byte) (any, error) {
		var z *big.Int
		err := cbor.Unmarshal(data, &z)
		if z == nil {
			return (*string)(nil), err
		}
		s := z.String()
		return &s, err
	}},
	{"RawMessage", func(d *genrt.Decoder) (any, error) {
		raw, err := d.ReadRawChecked()
		return cbor.RawMessage(bytes.Clone(raw)), err
	}, fxInto[cbor.RawMessage]},
	{"*RawMessage", readPtr(func(d *genrt.Decoder) (cbor.RawMessage, error) {
		raw, err := d.ReadRawChecked()
		return cbor.RawMessage(bytes.Clone(raw)), err
	}), fxInto[*cbor.RawMessage]},
}

// tagInputs are tagged items of every kind, valid and not.
var tagInputs = []string{
	// tags with no meaning for the type, before every kind of item
	"c6 01", "c6 20", "d9d9f7 01", "d9d9f7 c6 01", "c6 d9d9f7 01", "da0000d9f7 01",
	"c6 1903e8", "c6 3903e7", "c6 f93c00", "c6 fa3fc00000", "c6 f5", "c6 f4",
	"c6 6161", "c6 7f6161ff", "c6 4105", "c6 5f4105ff",
	"c6 82 01 02", "82 c6 01 d9d9f7 02", "c6 9f 01 c6 02 ff",
	"c6 a1 6161 01", "a1 c6 6161 c6 01", "d9d9f7 a1 d9d9f7 6161 d9d9f7 01",
	// null and undefined behind tags
	"d9d9f7 f6", "d9d9f7 f7", "d9d9f7 d9d9f7 f6", "c6 f6", "d9d9f7 c6 f6", "c6 d9d9f7 f6",
	// tags 0-3 with the right and the wrong content
	"c0 74 323032302d30312d30325430333a30343a30355a", "c0 01", "c0 f6",
	"c1 01", "c1 fb41d0000000000000", "c1 6161", "c1 c6 01", "c6 c1 01", "c1 f6",
	"c2 4105", "c3 4105", "c2 40", "c3 40", "c2 5f 4105 ff", "c2 01", "c3 6161", "c2 c6 4105",
	"c6 c2 4105", "c2 49 010000000000000000", "c2 48 ffffffffffffffff",
	"c3 48 7fffffffffffffff", "c3 48 8000000000000000", "c3 48 ffffffffffffffff",
	"c2 42 0100", "c2 43 000001", "c3 49 000000000000000001",
	"82 c2 01 02", "81 c0 01", "c6 c0 6161",
	// integers that a float cannot take through int64
	"3b 8000000000000000", "3b ffffffffffffffff", "3b 7fffffffffffffff",
	// cut short after a tag
	"c6", "d9d9f7", "c6 c6", "c2",
}

func TestTagsLikeFxamacker(t *testing.T) {
	n := 0
	for _, h := range tagInputs {
		data := mustHex(h)
		for _, r := range tagReads {
			want, wantErr := r.fx(data)
			for _, k := range decoderKinds {
				d := k.new(data)
				got, err := r.run(d)
				if err == nil && d.More() {
					err = errors.New("trailing data")
				}
				if err != nil {
					var re *genrt.Error
					if !errors.As(err, &re) && err.Error() != "trailing data" {
						t.Errorf("%s %s(%s): error %v is not a *genrt.Error", k.name, r.name, h, err)
					}
				}
				n++
				switch {
				case wantErr != nil && err != nil:
				case wantErr != nil:
					t.Errorf("%s %s(%s) = %#v; fxamacker: %v", k.name, r.name, h, got, wantErr)
				case err != nil:
					if tagDeparture(r.name, data) {
						continue
					}
					t.Errorf("%s %s(%s): %v; fxamacker: %#v", k.name, r.name, h, err, want)
				case !sameValue(got, want):
					t.Errorf("%s %s(%s) = %#v; fxamacker: %#v", k.name, r.name, h, got, want)
				}
			}
		}
	}
	t.Logf("%d reads", n)
}

// tagDeparture reports whether fxamacker accepting data where the runtime
// refuses it is one of the departures docs/guide.md lists: a null (behind
// any tag) into a type that cannot hold it, which fxamacker ignores; a
// byte string type read from an array of integers; a map into a big.Int.
func tagDeparture(typ string, data []byte) bool {
	for len(data) > 0 && data[0]>>5 == genrt.MajorTag {
		_, n := tagHeadLen(data)
		data = data[n:]
	}
	if len(data) > 0 && data[0]>>5 == genrt.MajorArray && typ == "[]byte" ||
		len(data) > 0 && data[0]>>5 == genrt.MajorMap && strings.HasSuffix(typ, "big.Int") {
		return true
	}
	if len(data) == 1 && (data[0] == 0xf6 || data[0] == 0xf7) {
		return !strings.HasPrefix(typ, "*") && typ != "RawMessage" || typ == "*int64" || typ == "*string"
	}
	return false
}

func tagHeadLen(b []byte) (uint64, int) {
	ai := b[0] & 0x1f
	if ai < 24 {
		return uint64(ai), 1
	}
	n := 1 << (ai - 24)
	var v uint64
	for _, c := range b[1 : 1+n] {
		v = v<<8 | uint64(c)
	}
	return v, 1 + n
}

func sameValue(a, b any) bool {
	if ta, ok := a.(*time.Time); ok {
		tb, ok := b.(*time.Time)
		return ok && (ta == nil) == (tb == nil) && (ta == nil || ta.Equal(*tb))
	}
	if ta, ok := a.(time.Time); ok {
		tb, ok := b.(time.Time)
		return ok && ta.Equal(tb)
	}
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && sameFloat(fa, fb)
	}
	return reflect.DeepEqual(a, b)
}

// TestTagDepth: a tag within a tag is one nesting level, as fxamacker
// counts it, before a scalar and around containers alike.
func TestTagDepth(t *testing.T) {
	tags := func(k int) string { return strings.Repeat("c6", k) }
	arrays := func(k int) string { return strings.Repeat("81", k) }
	cases := []string{
		tags(32) + "01", tags(33) + "01", tags(34) + "01",
		arrays(1) + tags(32) + "01", arrays(1) + tags(33) + "01",
		tags(2) + arrays(31) + "01", tags(2) + arrays(32) + "01",
		tags(3) + "81" + tags(3) + arrays(28) + "01", tags(3) + "81" + tags(3) + arrays(27) + "01",
		"81" + tags(3) + arrays(29) + "01", "81" + tags(3) + arrays(30) + "01",
		strings.Repeat("d9d9f7", 33) + "01", strings.Repeat("d9d9f7", 34) + "01",
	}
	for _, h := range cases {
		data := mustHex(h)
		var fx any
		wantErr := cbor.Unmarshal(data, &fx)
		for _, k := range decoderKinds {
			d := k.new(data)
			err := readNested(d)
			if (err == nil) != (wantErr == nil) {
				t.Errorf("%s %s: %v; fxamacker: %v", k.name, h, err, wantErr)
			}
			if err != nil && wantErr != nil {
				if !errors.Is(err, genrt.ErrLimit) {
					t.Errorf("%s %s: %v, want ErrLimit", k.name, h, err)
				}
			}
			// The same through ReadRawChecked (a RawMessage field).
			_, err = k.new(data).ReadRawChecked()
			if (err == nil) != (wantErr == nil) {
				t.Errorf("%s ReadRawChecked %s: %v; fxamacker: %v", k.name, h, err, wantErr)
			}
		}
	}
}

// readNested reads nested one-element arrays around an integer, as a
// generated decoder of a recursive type reads them.
func readNested(d *genrt.Decoder) error {
	if m, err := d.PeekMajor(); err != nil {
		return err
	} else if m == genrt.MajorArray {
		n, err := d.ReadArrayHead()
		if err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("length %d", n)
		}
		if err := readNested(d); err != nil {
			return err
		}
		d.Leave()
		return nil
	}
	_, err := d.ReadInt64()
	return err
}

// TestPeekMajorThroughTags: PeekMajor reports the major type of a tag's
// content, without consuming anything, so that a struct decoder picks
// its format by the content.
func TestPeekMajorThroughTags(t *testing.T) {
	for h, want := range map[string]byte{
		"c6 a0": genrt.MajorMap, "d9d9f7 c6 80": genrt.MajorArray, "c6 01": genrt.MajorUint,
		"c6": genrt.MajorTag, "c6 fc": genrt.MajorTag, "c6 bf ff": genrt.MajorMap, "d9d9f7 9f ff": genrt.MajorArray,
	} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(h))
			m, err := d.PeekMajor()
			if err != nil || m != want {
				t.Errorf("%s PeekMajor(%s) = %d, %v; want %d", k.name, h, m, err, want)
			}
			if d.Offset() != 0 {
				t.Errorf("%s PeekMajor(%s) consumed %d bytes", k.name, h, d.Offset())
			}
		}
	}
}

// TestIndefiniteCounted: ReadArrayHead and ReadMapHead return the length
// of a whole indefinite-length container, nested ones included (counted
// in one pass over the outermost), and Leave consumes each break; one
// that is cut short or malformed is left to the break (-1).
func TestIndefiniteCounted(t *testing.T) {
	const depth = 50
	data := append(bytes.Repeat(mustHex("9f 01"), depth), mustHex("bf 6161 02 ff")...)
	data = append(data, bytes.Repeat([]byte{0xff}, depth)...)
	for _, k := range decoderKinds {
		d := k.new(data)
		d.SetOptions(genrt.Options{MaxDepth: 100})
		for i := range depth {
			n, err := d.ReadArrayHead()
			if i < 64 && (err != nil || n != 2) || i >= 64 && (err != nil || n != -1) {
				t.Fatalf("%s level %d: ReadArrayHead = %d, %v", k.name, i, n, err)
			}
			if x, err := d.ReadUint64(); x != 1 || err != nil {
				t.Fatalf("%s level %d: %d, %v", k.name, i, x, err)
			}
		}
		if m, err := readStrMap(d); err != nil || m["a"] != 2 {
			t.Fatalf("%s: map %v, %v", k.name, m, err)
		}
		for range depth {
			d.Leave()
		}
		checkAtEnd(t, d, len(data))
	}
	for _, h := range []string{"9f 01 02", "9f 1c ff", "bf 01 ff", "9f 5f 61 ff ff"} {
		for _, k := range decoderKinds {
			if n, err := k.new(mustHex(h)).ReadArrayHead(); n != -1 && err == nil {
				t.Errorf("%s ReadArrayHead(%s) = %d, want -1 or an error", k.name, h, n)
			}
		}
	}
}

// TestFloatOfNegativeInt: a negative integer reads into a float64 with
// one rounding, as fxamacker converts it (through int64).
func TestFloatOfNegativeInt(t *testing.T) {
	for _, mag := range []uint64{1<<53 + 1, 1<<54 + 1, 1<<62 + 1<<9 + 1, 1<<63 - 1, 1<<63 - 513} {
		data := genrt.AppendHead(nil, genrt.MajorNeg, mag)
		var want float64
		if err := cbor.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		for _, k := range decoderKinds {
			if got, err := k.new(data).ReadFloat64(); err != nil || got != want {
				t.Errorf("%s ReadFloat64(%x) = %v, %v; fxamacker: %v", k.name, data, got, err, want)
			}
		}
	}
}

// TestIndefiniteBombFast: nested indefinite-length arrays that never end,
// with the depth limit raised to its cap, are refused without passing
// over the input once per level.
func TestIndefiniteBombFast(t *testing.T) {
	data := bytes.Repeat([]byte{0x9f}, 60000)
	for _, k := range decoderKinds {
		d := k.new(data)
		d.SetOptions(genrt.Options{MaxDepth: 65535})
		start := time.Now()
		var err error
		for err == nil {
			_, err = d.ReadArrayHead()
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %v, want io.ErrUnexpectedEOF", k.name, err)
		}
		if el := time.Since(start); el > 10*time.Second {
			t.Errorf("%s: %v for %d bytes", k.name, el, len(data))
		}
	}
}
