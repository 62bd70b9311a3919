package generator_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/basic"
	"github.com/cborgen/cborgen/testdata/golden/containers"
	"github.com/cborgen/cborgen/testdata/golden/marshalers"
	"github.com/cborgen/cborgen/testdata/golden/nested"
	"github.com/cborgen/cborgen/testdata/golden/nilempty"
	"github.com/cborgen/cborgen/testdata/golden/realworld"
	"github.com/cborgen/cborgen/testdata/golden/tags"
)

// TestDecodeReplaces pins a decision (docs/design.md, formats): decoding into
// a value that already holds data gives the value the input encodes, in
// both formats, whatever the value held before. fxamacker/cbor instead
// keeps fields that a legacy map leaves out and merges decoded maps into
// existing ones; here a field absent from a legacy map is zero and a map
// field is made anew, so a reused value never carries stale data.
func TestDecodeReplaces(t *testing.T) {
	stale := func() containers.Containers {
		one := 1
		return containers.Containers{
			Ints:   make([]int, 2, 16),
			ByName: map[string]int{"stale": 1, "a": 9},
			PInt:   &one,
			Counts: containers.Counts{"old": 3},
		}
	}
	var want containers.Containers
	want.ByName = map[string]int{"a": 2}

	// The legacy map names only ByName.
	legacy, err := cbor.Marshal(map[string]any{"ByName": map[string]int{"a": 2}})
	if err != nil {
		t.Fatal(err)
	}
	got := stale()
	if err := got.UnmarshalCBOR(legacy); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("legacy map into a used value: got %+v, want %+v", got, want)
	}

	// The array format writes every field.
	current, err := want.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	got = stale()
	if err := got.UnmarshalCBOR(current); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("array into a used value: got %+v, want %+v", got, want)
	}
}

// TestDecodeKeepsUnencoded: fields that are not encoded (cbor:"-") are
// not the input's to set: decoding either format into a value in use
// leaves them as they were, as fxamacker/cbor and encoding/json do.
func TestDecodeKeepsUnencoded(t *testing.T) {
	src := tags.Tagged{Name: "n", One: 1, Plain: 2}
	current, err := src.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := cbor.Marshal(map[any]any{"name": "n", 1: 1}) // Opt, Both... absent
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{current, legacy} {
		got := tags.Tagged{Skipped: 7, Private2: 8, Both: 9, JSONName: "old"}
		if err := got.UnmarshalCBOR(in); err != nil {
			t.Fatal(err)
		}
		if got.Skipped != 7 || got.Private2 != 8 {
			t.Errorf("%x: unencoded fields changed: Skipped %d, Private2 %d", in, got.Skipped, got.Private2)
		}
		if got.Name != "n" || got.One != 1 || got.Both != 0 || got.JSONName != "" {
			t.Errorf("%x: encoded fields: %+v", in, got)
		}
	}
}

// TestRawMessageSize: SizeCBOR counts a cbor.RawMessage exactly, so that
// MarshalCBOR never grows its buffer for one, however long.
func TestRawMessageSize(t *testing.T) {
	slack := func(raw []byte) int {
		var v realworld.Values
		v.Raw = raw
		b, err := v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if v.SizeCBOR() < len(b) {
			t.Fatalf("SizeCBOR %d < encoding %d", v.SizeCBOR(), len(b))
		}
		return v.SizeCBOR() - len(b)
	}
	long := append([]byte{0x59, 0x01, 0x2f}, make([]byte, 303)...) // a byte string of 303 bytes: 306 in all
	if a, b, c := slack(nil), slack([]byte{0x01}), slack(long); a != b || b != c {
		t.Errorf("SizeCBOR's slack depends on the RawMessage: %d (empty), %d (1 byte), %d (306 bytes)", a, b, c)
	}
}

// TestMethodErrors: an error returned by a field type's own UnmarshalCBOR
// or UnmarshalBinary keeps its identity (errors.As finds it) and its text,
// and the *runtime.Error around it has the path and the offset where the
// item starts.
func TestMethodErrors(t *testing.T) {
	// Priced{Price: 7 (not Money's array), Prices: null, Best: null}
	var p marshalers.Priced
	err := p.UnmarshalCBOR([]byte{0x83, 0x07, 0xf6, 0xf6})
	var ute *cbor.UnmarshalTypeError
	if !errors.As(err, &ute) {
		t.Fatalf("errors.As does not find Money's own error in %v", err)
	}
	var re *runtime.Error
	if !errors.As(err, &re) || re.Offset != 1 {
		t.Fatalf("want a *runtime.Error at offset 1 (where Price starts), got %#v", err)
	}
	if err.Error() != ute.Error() || re.Path() != "Priced.Price" {
		t.Errorf("error text\n%s\nwant\n%s\nat %q", err, ute, re.Path())
	}
	if want := "cbor: Priced.Price: " + strings.TrimPrefix(ute.Error(), "cbor: ") + " at offset 1"; re.Detail() != want {
		t.Errorf("Detail\n%s\nwant\n%s", re.Detail(), want)
	}

	// Addressed{Addr: a 5-byte string netip.Addr refuses, Addrs: null}
	var a marshalers.Addressed
	err = a.UnmarshalCBOR([]byte{0x82, 0x45, 1, 2, 3, 4, 5, 0xf6})
	own := new(netip.Addr).UnmarshalBinary([]byte{1, 2, 3, 4, 5})
	if !errors.As(err, &re) || re.Offset != 1 || own == nil || err.Error() != own.Error() || re.Path() != "Addressed.Addr" {
		t.Errorf("UnmarshalBinary's error: %v, want %v", err, own)
	}
}

// TestNilEmpty: with -nilempty, nil slices, maps and byte slices are
// written empty (40, 80, a0), nil pointers still null.
func TestNilEmpty(t *testing.T) {
	b, err := nilempty.Holder{}.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	// [h'', h'', [], {}, [], null, [[], h''], [], {}]
	if got, want := hex.EncodeToString(b), "894040"+"80a080"+"f6"+"828040"+"80a0"; got != want {
		t.Errorf("zero Holder: %s, want %s", got, want)
	}
}

// TestDecodeIntoUsed: decoding into a value that holds another random value
// gives what decoding into a new value gives, for the array format and for
// legacy maps with keys left out at random at every level (absent fields
// must end zero however the decoder gets there: a clearing of the whole
// value, or of the absent fields after the map), with arrays and maps of
// indefinite length at random (elements of a reused slice past those of a
// definite length are handed out again).
func TestDecodeIntoUsed(t *testing.T) {
	bytewise := encMode(t, cbor.SortCoreDeterministic)
	cases := []struct {
		value generated
		fill  func(*rand.Rand, reflect.Value, map[reflect.Type]int)
	}{
		{new(nested.Order), fill},
		{new(containers.Containers), fill},
		{new(basic.Scalars), fill},
		{new(nilempty.Holder), fill},
		{new(realworld.Tree), rwFill},
		{new(realworld.Values), rwFill},
		{new(realworld.Doc), rwFill},
		{new(realworld.Uses), rwFill},
	}
	n := 400
	if testing.Short() {
		n = 60
	}
	for _, tc := range cases {
		typ := reflect.TypeOf(tc.value).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, uint64(len(typ.String()))))
			mapT := newMirrors().mirror(typ, false)
			for i := 0; i < n && !t.Failed(); i++ {
				before, x := reflect.New(typ), reflect.New(typ)
				tc.fill(r, before.Elem(), map[reflect.Type]int{})
				tc.fill(r, x.Elem(), map[reflect.Type]int{})
				current, err := x.Interface().(generated).MarshalCBOR()
				if err != nil {
					continue // a value neither encoder takes (a time beyond RFC 3339)
				}
				legacy, err := bytewise.Marshal(convert(x.Elem(), mapT).Interface())
				if err != nil {
					t.Fatal(err)
				}
				for _, in := range [][]byte{current, reshape(t, r, current, false), reshape(t, r, legacy, true)} {
					fresh := reflect.New(typ)
					freshErr := fresh.Interface().(generated).UnmarshalCBOR(in)
					used := reflect.New(typ)
					if r.IntN(2) == 0 {
						used.Elem().Set(before.Elem()) // as fill made it: odd capacities
					} else if b, err := before.Interface().(generated).MarshalCBOR(); err == nil {
						if err := used.Interface().(generated).UnmarshalCBOR(b); err != nil {
							t.Fatal(err) // as a decoder leaves it
						}
					}
					if bytes.ContainsAny(in, "\xf6\xf7") {
						continue // a null into a value that cannot hold it keeps it, as in fxamacker/cbor
					}
					usedErr := used.Interface().(generated).UnmarshalCBOR(in)
					if (freshErr == nil) != (usedErr == nil) {
						t.Fatalf("input %x: into a new value: %v; into a used one: %v", in, freshErr, usedErr)
					}
					if freshErr != nil {
						continue
					}
					a, _ := fresh.Interface().(generated).MarshalCBOR()
					b, _ := used.Interface().(generated).MarshalCBOR()
					if !bytes.Equal(a, b) {
						t.Fatalf("input %x decoded into a used value differs from a new one:\nnew  %x %+v\nused %x %+v", in, a, fresh.Elem().Interface(), b, used.Elem().Interface())
					}
				}
			}
		})
	}
}

// reshape re-encodes data (read by fxamacker as a tree of any) with
// arrays and maps of indefinite length at random and, when drop is set,
// about a third of the entries of every map left out.
func reshape(t *testing.T, r *rand.Rand, data []byte, drop bool) []byte {
	t.Helper()
	var tree any
	if err := cbor.Unmarshal(data, &tree); err != nil {
		t.Fatalf("fxamacker reads %x: %v", data, err)
	}
	var out []byte
	var write func(v any)
	// container writes the head of an array or map of n items (pairs),
	// definite or not at random, then items, then the break if indefinite.
	container := func(major byte, n int, items func()) {
		indefinite := r.IntN(2) == 0
		if indefinite {
			out = append(out, major<<5|31)
		} else {
			out = runtime.AppendHead(out, major, uint64(n))
		}
		items()
		if indefinite {
			out = append(out, 0xff)
		}
	}
	write = func(v any) {
		switch v := v.(type) {
		case []any:
			container(runtime.MajorArray, len(v), func() {
				for _, e := range v {
					write(e)
				}
			})
		case map[any]any:
			keys := make([]any, 0, len(v))
			for k := range v {
				if !drop || r.IntN(3) != 0 {
					keys = append(keys, k)
				}
			}
			container(runtime.MajorMap, len(keys), func() {
				for _, k := range keys {
					write(k)
					write(v[k])
				}
			})
		default:
			b, err := cbor.Marshal(v)
			if err != nil {
				t.Fatalf("fxamacker writes %#v: %v", v, err)
			}
			out = append(out, b...)
		}
	}
	write(tree)
	return out
}
