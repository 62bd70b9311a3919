package generator_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/nested"
	"github.com/cborgen/cborgen/testdata/golden/realworld"
)

// TestRealWorldTags: the generated decoders of the real-world field types
// (times, big integers, raw messages, marshalers, BinaryUnmarshalers,
// interfaces, type parameters and pointers to each) read a field behind a
// tag, behind 55799, or replaced by 55799(null), as fxamacker reads it
// into the mirror, or refuse it as the departures list of docs/guide.md says (a
// null where the Go type holds none).
func TestRealWorldTags(t *testing.T) {
	edits := [][2][]byte{
		{{0xd9, 0xd9, 0xf7}, nil},             // 55799 in front
		{{0xc6}, nil},                         // a tag with no meaning in front
		{{0xd9, 0xd9, 0xf7, 0xc6}, nil},       // both
		{nil, {0xd9, 0xd9, 0xf7, 0xf6}},       // 55799(null) instead
		{nil, {0xc6, 0xf6}},                   // 6(null) instead
		{{0xc1}, nil},                         // tag 1 in front: right for numbers only
		{{0xc2}, nil},                         // tag 2 in front: right for byte strings only
		{nil, {0xc2, 0x41, 0x05}},             // bignum 5 instead
		{nil, {0xc3, 0x42, 0x01, 0x00}},       // bignum -257 instead
		{nil, {0xc1, 0x1a, 0x65, 0x00, 0, 0}}, // tag 1 time instead
	}
	for _, x := range []generated{new(realworld.Values), new(realworld.Page[int]), new(realworld.Page[nested.Item]), new(realworld.Page[*nested.Item])} {
		typ := reflect.TypeOf(x).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(12, uint64(len(typ.String()))))
			arrayT := newMirrors().mirror(typ, true)
			checked := 0
			for range 40 {
				v := reflect.New(typ)
				rwFill(r, v.Elem(), map[reflect.Type]int{})
				enc, err := v.Interface().(generated).MarshalCBOR()
				if err != nil {
					continue
				}
				for i, span := range fieldSpans(t, enc) {
					for _, e := range edits {
						var data []byte
						if e[1] == nil {
							data = slices.Concat(enc[:span[0]], e[0], enc[span[0]:])
						} else {
							data = slices.Concat(enc[:span[0]], e[1], enc[span[1]:])
						}
						checkTagged(t, typ, arrayT, data, i)
						checked++
					}
				}
			}
			t.Logf("%d inputs", checked)
		})
	}
}

// fieldSpans returns where each element of the array enc starts and ends.
func fieldSpans(t *testing.T, enc []byte) [][2]int {
	d := genrt.NewBytesDecoder(enc)
	n, err := d.ReadArrayHead()
	if err != nil {
		t.Fatal(err)
	}
	var spans [][2]int
	for range n {
		start := int(d.Offset())
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
		spans = append(spans, [2]int{start, int(d.Offset())})
	}
	return spans
}

func checkTagged(t *testing.T, typ, arrayT reflect.Type, data []byte, field int) {
	t.Helper()
	got := reflect.New(typ)
	err := got.Interface().(generated).UnmarshalCBOR(data)
	var rerr *genrt.Error
	if err != nil && !errors.As(err, &rerr) {
		t.Fatalf("%x: %v is not a *runtime.Error", data, err)
	}
	fx := reflect.New(arrayT)
	fxErr := cbor.Unmarshal(data, fx.Interface())
	name := typ.Field(field).Name
	switch {
	case err == nil && fxErr == nil:
		if !rwEqual(convert(got.Elem(), arrayT), fx.Elem()) {
			t.Errorf("field %s, %x: the generated decoder and fxamacker disagree:\n got %#v\nwant %#v", name, data, convert(got.Elem(), arrayT).Interface(), fx.Elem().Interface())
		}
	case err == nil:
		t.Errorf("field %s, %x: the generated decoder accepts it; fxamacker: %v", name, data, fxErr)
	case fxErr == nil:
		// The departures: a null where the Go type holds none, which
		// fxamacker leaves as it was (behind 55799 alone, a null sets a
		// pointer, slice or map to nil in both); a [N]byte of another
		// length, which fxamacker cuts or pads.
		if errors.Is(err, genrt.ErrLength) {
			return
		}
		if !strings.Contains(rerr.Msg, "found null") || bytes.Contains(data, []byte{0xd9, 0xd9, 0xf7, 0xf6}) && nullable(typ.Field(field).Type) {
			t.Errorf("field %s, %x: the generated decoder refuses it (%v); fxamacker reads %#v", name, data, err, fx.Elem().Interface())
		}
	}
}

func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}
