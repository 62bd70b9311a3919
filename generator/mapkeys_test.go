package generator_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/floatnone"
	"github.com/cborgen/cborgen/testdata/golden/mapkeys"
	"github.com/cborgen/cborgen/testdata/golden/sortlength"
	"github.com/cborgen/cborgen/testdata/golden/sortnone"
)

// Maps keyed by the comparable types beyond strings, integers and bools,
// against fxamacker/cbor in each key order: the bytes of random maps, the
// values decoded from them and from maps whose keys come more than once.
// (Mutated inputs: examples/internal/kindsdiff, whose oracle knows the
// documented departures.)

// mapKeyCases are the types under test, each with the encoding mode of
// its run (nil: -sort=none, checked by value).
func mapKeyCases(t *testing.T) []struct {
	value generated
	em    cbor.EncMode
} {
	return []struct {
		value generated
		em    cbor.EncMode
	}{
		{new(mapkeys.Ledger), encMode(t, cbor.SortCoreDeterministic)},
		{new(mapkeys.Curve), encMode(t, cbor.SortCoreDeterministic)},
		{new(mapkeys.Index), encMode(t, cbor.SortCoreDeterministic)},
		{new(mapkeys.Chain), encMode(t, cbor.SortCoreDeterministic)},
		{new(sortlength.Keys), encMode(t, cbor.SortLengthFirst)},
		{new(sortnone.Keys), nil},
		{new(floatnone.Keys), floatNoneMode(t)},
	}
}

// floatNoneMode is fxamacker's encoding under -float none.
func floatNoneMode(t testing.TB) cbor.EncMode {
	opts := cbor.CoreDetEncOptions()
	opts.ShortestFloat = cbor.ShortestFloatNone
	em, err := opts.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	return em
}

// mapKeyValues is the number of random values of each case: thousands of
// maps in a full run, since each value holds several.
func mapKeyValues() int {
	if testing.Short() {
		return 150
	}
	return 2000
}

func TestMapKeys(t *testing.T) {
	bytewise := encMode(t, cbor.SortCoreDeterministic)
	for _, tc := range mapKeyCases(t) {
		typ := reflect.TypeOf(tc.value).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(27, uint64(len(typ.String()))))
			m := newMirrors()
			arrayT, mapT := m.mirror(typ, true), m.mirror(typ, false)
			for i := 0; i < mapKeyValues() && !t.Failed(); i++ {
				x := reflect.New(typ)
				fillKeyed(r, x.Elem(), bytewise, arrayT)
				switch {
				case tc.em == nil:
					checkUnsorted(t, x.Interface().(generated), bytewise, arrayT)
				case neverSameKey(x.Elem()):
					checkMerged(t, x.Interface().(generated), tc.em, arrayT, mapT)
				default:
					checkValue(t, x.Interface().(generated), tc.em, arrayT, mapT)
				}
			}
		})
	}
}

// neverSameKey reports whether a map field of the struct v holds a key
// that no decoded key is equal to: a NaN, a non-nil pointer. Decoding
// into a value that holds such a map adds pairs to it, as fxamacker
// does, so the bytes do not survive a second decode into it.
func neverSameKey(v reflect.Value) bool {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Map {
			continue
		}
		for _, k := range f.MapKeys() {
			switch k.Kind() {
			case reflect.Float32, reflect.Float64:
				if k.Float() != k.Float() {
					return true
				}
			case reflect.Pointer:
				if !k.IsNil() {
					return true
				}
			}
		}
	}
	return false
}

// checkMerged checks a value that neverSameKey holds: its bytes are
// fxamacker's, and decoding them (and its legacy encoding) into a new
// value and then into that value again gives what fxamacker's decoder
// gives into its mirror each time.
func checkMerged(t *testing.T, x generated, em cbor.EncMode, arrayT, mapT reflect.Type) {
	t.Helper()
	xv := reflect.ValueOf(x).Elem()
	got, err := x.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	want, err := em.Marshal(convert(xv, arrayT).Interface())
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("array format differs from fxamacker for %#v\n got %x\nwant %x (%v)", xv.Interface(), got, want, err)
	}
	legacy, err := em.Marshal(convert(xv, mapT).Interface())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in     []byte
		mirror reflect.Type
	}{{got, arrayT}, {legacy, mapT}} {
		y, oracle := reflect.New(xv.Type()), reflect.New(c.mirror)
		for range 2 {
			in := c.in
			if err := y.Interface().(generated).UnmarshalCBOR(in); err != nil {
				t.Fatalf("UnmarshalCBOR(%x): %v", in, err)
			}
			if err := cbor.Unmarshal(in, oracle.Interface()); err != nil {
				t.Fatalf("fxamacker cannot read %x: %v", in, err)
			}
			if !samePairs(t, convert(y.Elem(), c.mirror), oracle.Elem(), em) {
				t.Fatalf("decoding %x: generated %#v, fxamacker %#v", in, y.Elem().Interface(), oracle.Elem().Interface())
			}
		}
	}
}

// fillKeyed is fill, then each map field of the struct v loses the keys
// that encode as an earlier key does (two pointers to equal values, two
// NaNs): fxamacker and the generated code may write such pairs in either
// order.
func fillKeyed(r *rand.Rand, v reflect.Value, em cbor.EncMode, mirror reflect.Type) {
	fill(r, v, map[reflect.Type]int{})
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Map || f.IsNil() {
			continue
		}
		mt, _ := mirror.FieldByName(v.Type().Field(i).Name)
		seen := map[string]bool{}
		kept := reflect.MakeMap(f.Type()) // a NaN key cannot be deleted
		for it := f.MapRange(); it.Next(); {
			b, err := em.Marshal(convert(it.Key(), mt.Type.Key()).Interface())
			if err != nil {
				panic(err)
			}
			if !seen[string(b)] {
				kept.SetMapIndex(it.Key(), it.Value())
			}
			seen[string(b)] = true
		}
		f.Set(kept)
	}
}

// checkSameDecode decodes data into a new value of typ with the generated
// decoder and into its mirror with fxamacker's default decoder: both
// refuse it, or both read the same value.
func checkSameDecode(t *testing.T, typ, mirror reflect.Type, em cbor.EncMode, data []byte) {
	t.Helper()
	y := reflect.New(typ)
	err := y.Interface().(generated).UnmarshalCBOR(data)
	oracle := reflect.New(mirror)
	fxErr := cbor.Unmarshal(data, oracle.Interface())
	if (err == nil) != (fxErr == nil) {
		t.Fatalf("decoding %x: generated: %v; fxamacker: %v", data, err, fxErr)
	}
	if err != nil {
		return
	}
	if !samePairs(t, convert(y.Elem(), mirror), oracle.Elem(), em) {
		t.Fatalf("decoding %x: generated %#v, fxamacker %#v", data, y.Elem().Interface(), oracle.Elem().Interface())
	}
}

// samePairs compares two values of a mirror struct whose fields are maps:
// the same pairs, each as fxamacker encodes its key and value. Pointer
// keys decoded from equal items are distinct Go keys, so maps are
// compared as multisets of encoded pairs, not by looking keys up.
func samePairs(t *testing.T, a, b reflect.Value, em cbor.EncMode) bool {
	t.Helper()
	pairs := func(m reflect.Value) []string {
		var out []string
		iter := m.MapRange()
		for iter.Next() {
			k, err := em.Marshal(iter.Key().Interface())
			if err != nil {
				t.Fatal(err)
			}
			v, err := em.Marshal(iter.Value().Interface())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(k)+"\x00"+string(v))
		}
		slices.Sort(out)
		return out
	}
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		if !a.Type().Field(i).IsExported() {
			continue
		}
		if fa.Kind() != reflect.Map {
			if !rwEqual(fa, fb) {
				return false
			}
			continue
		}
		if fa.IsNil() != fb.IsNil() || !slices.Equal(pairs(fa), pairs(fb)) {
			return false
		}
	}
	return true
}

// TestMapKeysDuplicate decodes maps whose keys come more than once, each
// map field in turn: the generated decoder keeps what fxamacker's default
// decoder (DupMapKeyQuiet) keeps (every NaN key, none equal to another;
// 0.0 and -0.0 as one key; each pointer key a new pointer), and
// runtime.Valid refuses the input where fxamacker refuses it with
// duplicate detection (but for float and pointer keys).
func TestMapKeysDuplicate(t *testing.T) {
	bytewise := encMode(t, cbor.SortCoreDeterministic)
	for _, tc := range mapKeyCases(t) {
		typ := reflect.TypeOf(tc.value).Elem()
		t.Run(typ.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(29, uint64(len(typ.String()))))
			arrayT := newMirrors().mirror(typ, true)
			for i := 0; i < mapKeyValues()/2 && !t.Failed(); i++ {
				field := i % typ.NumField()
				data := duplicateKeys(t, r, typ, arrayT, field, bytewise)
				checkSameDecode(t, typ, arrayT, bytewise, data)
				validErr := genrt.Valid(data)
				fxErr := dupMode.Unmarshal(data, reflect.New(arrayT).Interface())
				var dup *cbor.DupMapKeyError
				// Valid compares CBOR values, Go maps Go keys: for floats
				// and pointers they differ (NaN twice is two Go keys,
				// 0.0 and -0.0 one; two pointers decoded from equal
				// items are two keys).
				ft := arrayT.Field(field + 1).Type
				if ft.Kind() != reflect.Map {
					continue // no duplicates there
				}
				switch ft.Key().Kind() {
				case reflect.Float32, reflect.Float64, reflect.Pointer:
					continue
				}
				if errors.As(fxErr, &dup) != errors.Is(validErr, genrt.ErrDuplicateKey) {
					t.Fatalf("%x: runtime.Valid: %v; fxamacker with duplicate detection: %v", data, validErr, fxErr)
				}
			}
		})
	}
}

// duplicateKeys is the encoding of a value of typ whose map field number
// field holds pairs with keys drawn from a few random keys, so that most
// come more than once; the other fields are zero.
func duplicateKeys(t *testing.T, r *rand.Rand, typ, mirror reflect.Type, field int, em cbor.EncMode) []byte {
	t.Helper()
	out := genrt.AppendArrayHead(nil, typ.NumField())
	for i := 0; i < typ.NumField(); i++ {
		mt := mirror.Field(i + 1).Type // after the toarray marker
		if i != field || mt.Kind() != reflect.Map {
			zero, err := em.Marshal(reflect.New(mt).Elem().Interface())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, zero...)
			continue
		}
		var keys [][]byte
		for range 1 + r.IntN(3) {
			k := reflect.New(mt.Key()).Elem()
			fill(r, k, map[reflect.Type]int{})
			b, err := em.Marshal(k.Interface())
			if err != nil {
				t.Fatal(err)
			}
			keys = append(keys, b)
		}
		n := 2 + r.IntN(5)
		out = genrt.AppendMapHead(out, n)
		for range n {
			e := reflect.New(mt.Elem()).Elem()
			fill(r, e, map[reflect.Type]int{})
			b, err := em.Marshal(e.Interface())
			if err != nil {
				t.Fatal(err)
			}
			out = append(append(out, keys[r.IntN(len(keys))]...), b...)
		}
	}
	return out
}

// TestMapKeysLastWins pins what the differential tests find: of a key
// that comes twice, the last value is kept, as fxamacker's default
// DupMapKeyQuiet keeps it.
func TestMapKeysLastWins(t *testing.T) {
	// [{h'0102': 1, h'0102': 2, h'0304': 3}] into sortlength.Keys.
	data := []byte{0x81, 0xa3, 0x42, 1, 2, 0x01, 0x42, 1, 2, 0x02, 0x42, 3, 4, 0x03}
	var got sortlength.Keys
	if err := got.UnmarshalCBOR(data); err != nil {
		t.Fatal(err)
	}
	want := map[[2]byte]int{{1, 2}: 2, {3, 4}: 3}
	if !reflect.DeepEqual(got.Hashes, want) {
		t.Errorf("got %v, want %v", got.Hashes, want)
	}
	if err := genrt.Valid(data); !errors.Is(err, genrt.ErrDuplicateKey) {
		t.Errorf("runtime.Valid = %v, want a duplicate key error", err)
	}

	// [null, {1.5: 1, 1.5 in 9 bytes: 2, NaN: 3, NaN: 4}]: one key, the
	// last value; two NaN keys, as in any Go map.
	data = []byte{0x82, 0xf6, 0xa4, 0xf9, 0x3e, 0x00, 0x01, 0xfb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x02,
		0xf9, 0x7e, 0x00, 0x03, 0xf9, 0x7e, 0x00, 0x04}
	if err := got.UnmarshalCBOR(data); err != nil {
		t.Fatal(err)
	}
	nans := 0
	for k, v := range got.Floats {
		if math.IsNaN(k) {
			nans++
		} else if k != 1.5 || v != 2 {
			t.Errorf("pair %v: %v, want 1.5: 2", k, v)
		}
	}
	if len(got.Floats) != 3 || nans != 2 {
		t.Errorf("got %v, want 1.5 and two NaN keys", got.Floats)
	}
}

// TestMapKeysLimits: a map keyed by byte arrays is held to the pair limit
// and to the bytes that remain, as every map is.
func TestMapKeysLimits(t *testing.T) {
	for _, data := range [][]byte{
		{0x81, 0xbb, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, // 2^32-1 pairs, none there
		{0x81, 0xa2, 0x42, 1, 2, 0x01},                   // the second pair missing
		{0x81, 0xa1, 0x42, 1},                            // a key cut short
	} {
		var v sortlength.Keys
		err := v.UnmarshalCBOR(data)
		fxErr := cbor.Unmarshal(data, &struct {
			_      struct{} `cbor:",toarray"`
			Hashes map[[2]byte]int
		}{})
		if err == nil || fxErr == nil {
			t.Errorf("%x: generated: %v; fxamacker: %v", data, err, fxErr)
		}
	}
	d := genrt.NewBytesDecoder(append([]byte{0x81, 0xb9, 0x00, 0x03}, bytes.Repeat([]byte{0x42, 1, 2, 0x01}, 3)...))
	opts := genrt.DefaultOptions()
	opts.MaxMapPairs = 2
	d.SetOptions(opts)
	var v sortlength.Keys
	if err := v.DecodeCBOR(d); err == nil {
		t.Error("a map of 3 pairs decoded under a limit of 2")
	}
}

// TestMapKeysErrorPath: an error in a value names its byte array key.
func TestMapKeysErrorPath(t *testing.T) {
	// [null, {h'010203': 1}, null, null, null]: a number for a string.
	data := []byte{0x85, 0xf6, 0xa1, 0x43, 1, 2, 3, 0x01, 0xf6, 0xf6, 0xf6}
	var v mapkeys.Ledger
	err := v.UnmarshalCBOR(data)
	if want := "Ledger.ByFixed[h'010203']: expected"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error at %s", err, want)
	}
}

// TestMapKeysInterfaceArgument decodes into a map whose key type
// parameter is any, as fxamacker's default decoder does: a byte string
// key is a cbor.ByteString, a key no Go map can hold (an array, a map)
// an error.
func TestMapKeysInterfaceArgument(t *testing.T) {
	em := encMode(t, cbor.SortCoreDeterministic)
	mirror := newMirrors().mirror(reflect.TypeFor[mapkeys.Chain](), true)
	for _, h := range []string{
		"83f682f60082a3420102016161021903e80300",                 // {h'0102': 1, "a": 2, 1000: 3}
		"83f682f60082a2f6014001" + "00",                          // {null: 1, h'': 1}
		"83f682f60082a2420102018101" + "0200",                    // {h'0102': 1, [1]: 2}: refused
		"83f682f60082a1a0" + "0100",                              // {{}: 1}: refused
		"83f682f60082a2fb3ff8000000000000" + "01f93e00" + "0200", // 1.5 twice: the last value
	} {
		data, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		checkSameDecode(t, reflect.TypeFor[mapkeys.Chain](), mirror, em, data)
	}
	var c mapkeys.Chain
	if err := c.UnmarshalCBOR([]byte{0x83, 0xf6, 0x82, 0xf6, 0x00, 0x82, 0xa1, 0x42, 1, 2, 0x01, 0x00}); err != nil {
		t.Fatal(err)
	}
	if got := c.Anys.Rows[cbor.ByteString([]byte{1, 2})]; got != 1 {
		t.Errorf("h'0102' read as %v, want the key cbor.ByteString(\"\\x01\\x02\")", c.Anys.Rows)
	}
}

// BenchmarkMapKeys encodes and decodes a map of 64 hash keys, generated
// and through fxamacker (the route the type took before it generated).
func BenchmarkMapKeys(b *testing.B) {
	v := mapkeys.Ledger{ByHash: map[mapkeys.Hash]uint64{}}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 64 {
		var h mapkeys.Hash
		for j := range h {
			h[j] = byte(r.Uint32())
		}
		v.ByHash[h] = uint64(i) << 20
	}
	data, err := v.MarshalCBOR()
	if err != nil {
		b.Fatal(err)
	}
	type mirror struct {
		_       struct{} `cbor:",toarray"`
		ByHash  map[mapkeys.Hash]uint64
		ByFixed map[[3]byte]string
		ByPair  map[mapkeys.Pair][]byte
		Nested  map[mapkeys.Hash]map[[1]byte]bool
		Empty   map[[0]byte]int
	}
	em := encMode(b, cbor.SortCoreDeterministic)
	m := mirror{ByHash: v.ByHash}
	b.Run("encode/generated", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for b.Loop() {
			if _, err := v.AppendCBOR(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode/fxamacker", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := em.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var y mapkeys.Ledger
			if err := y.UnmarshalCBOR(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/fxamacker", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var y mirror
			if err := cbor.Unmarshal(data, &y); err != nil {
				b.Fatal(err)
			}
		}
	})
}
