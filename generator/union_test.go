package generator_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/union"
)

// The oracle for unions: fxamacker/cbor encoding the same values with the
// tagged variants' mirrors in a TagSet. An interface field holding a
// registered type is written under its tag, which is what the union's
// dispatcher must read back.
type (
	uComposite struct {
		_      struct{} `cbor:",toarray"`
		Kind   string   `cbor:"1,keyasint"`
		Fields []any    `cbor:"2,keyasint"`
	}
	uLegacyComposite struct {
		Kind   string `cbor:"1,keyasint"`
		Fields []any  `cbor:"2,keyasint"`
	}
	uDict     map[string]any
	uUInt64   uint64
	uInt64    int64
	uDocument struct {
		_      struct{} `cbor:",toarray"`
		Root   any
		Values []any
		ByName map[string]any
		Ptr    *uComposite
		Ext    []any
	}
)

// unionModes returns fxamacker's encoders for the current format and for
// composites in the legacy (map) format.
func unionModes(t *testing.T) (current, legacy cbor.EncMode) {
	t.Helper()
	opts := cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagRequired}
	for i, comp := range []any{uComposite{}, uLegacyComposite{}} {
		set := cbor.NewTagSet()
		for _, add := range []struct {
			v   any
			num uint64
		}{{comp, 2000}, {uDict(nil), 2001}, {uUInt64(0), 2002}, {uInt64(0), 2003}} {
			if err := set.Add(opts, reflect.TypeOf(add.v), add.num); err != nil {
				t.Fatal(err)
			}
		}
		em, err := cbor.CoreDetEncOptions().EncModeWithTags(set)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			current = em
		} else {
			legacy = em
		}
	}
	return current, legacy
}

// randValue makes a random Value and its mirror, nesting composites and
// dictionaries up to depth levels.
func randValue(r *rand.Rand, depth int, legacy bool) (union.Value, any) {
	n := 6
	if depth == 0 {
		n = 4
	}
	switch r.IntN(n) {
	case 0:
		u := r.Uint64() >> r.IntN(64)
		return union.UInt64Value(u), uUInt64(u)
	case 1:
		i := int64(r.Uint64()>>r.IntN(64)) * int64(1-2*r.IntN(2))
		return union.Int64Value(i), uInt64(i)
	case 2:
		s := strings.Repeat("s", r.IntN(5))
		return union.StringValue(s), s
	case 3:
		if r.IntN(4) == 0 {
			return nil, nil
		}
		b := r.IntN(2) == 0
		return union.BoolValue(b), b
	case 4:
		c, m := &union.Composite{Kind: "k" + strings.Repeat("x", r.IntN(3))}, []any(nil)
		for i := r.IntN(4); i > 0; i-- {
			v, mv := randValue(r, depth-1, legacy)
			c.Fields, m = append(c.Fields, v), append(m, mv)
		}
		if legacy {
			return c, &uLegacyComposite{Kind: c.Kind, Fields: m}
		}
		return c, &uComposite{Kind: c.Kind, Fields: m}
	default:
		d, m := union.Dict{}, uDict{}
		for i := r.IntN(4); i > 0; i-- {
			v, mv := randValue(r, depth-1, legacy)
			k := strings.Repeat("d", i)
			d[k], m[k] = v, mv
		}
		return d, m
	}
}

// TestUnions: random documents of union values, nested through
// composites and dictionaries, encode byte for byte as fxamacker writes
// them with a TagSet, decode back equal, and composites written in the
// legacy map format under their tag decode and re-encode into the current
// bytes.
func TestUnions(t *testing.T) {
	em, lm := unionModes(t)
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		seed := uint64(i)
		var docs [2]union.Document
		var mirrors [2]uDocument
		for j, legacy := range []bool{false, true} {
			r := rand.New(rand.NewPCG(7, seed)) // the same value twice: current and legacy mirrors
			doc, m := &docs[j], &mirrors[j]
			doc.Root, m.Root = randValue(r, 3, legacy)
			for k := r.IntN(4); k > 0; k-- {
				v, mv := randValue(r, 3, legacy)
				doc.Values, m.Values = append(doc.Values, v), append(m.Values, mv)
			}
			if r.IntN(2) == 0 {
				doc.ByName, m.ByName = map[string]union.Value{}, map[string]any{}
				for k := r.IntN(3); k > 0; k-- {
					v, mv := randValue(r, 2, legacy)
					doc.ByName[strings.Repeat("n", k)], m.ByName[strings.Repeat("n", k)] = v, mv
				}
			}
		}
		in := docs[0]
		got, err := in.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := em.Marshal(mirrors[0])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("document %d: generated %x\nfxamacker %x", i, got, want)
		}
		var out union.Document
		if err := out.UnmarshalCBOR(got); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		if !reflect.DeepEqual(out, in) {
			t.Fatalf("document %d: decoded %#v, want %#v", i, out, in)
		}
		old, err := lm.Marshal(mirrors[1])
		if err != nil {
			t.Fatal(err)
		}
		var fromOld union.Document
		if err := fromOld.UnmarshalCBOR(old); err != nil {
			t.Fatalf("document %d: legacy %x: %v", i, old, err)
		}
		if again, _ := fromOld.MarshalCBOR(); !bytes.Equal(again, want) {
			t.Fatalf("document %d: legacy %x re-encodes as %x, want %x", i, old, again, want)
		}
	}
}

// TestUnionErrors: an item that no variant claims is a typed error naming
// its tag number or its type, at its offset and path; a bare union value
// reads and writes through the union's own functions.
func TestUnionErrors(t *testing.T) {
	var doc union.Document
	for _, tc := range []struct{ hex, want string }{
		{"8501f6f6f6f6", "cbor: Document.Root: no variant of Value for unsigned integer at offset 1"},
		{"85d9270f01f6f6f6f6", "cbor: Document.Root: no variant of Value for tag 9999 at offset 1"},
		{"85f68140f6f6f6", "cbor: Document.Values[0]: no variant of Value for byte string at offset 3"},
		{"85d9d9f7d907d201f6f6f6f6", ""}, // 55799 then tag 2002: a UInt64Value
	} {
		err := doc.UnmarshalCBOR(mustHex(t, tc.hex))
		if tc.want == "" {
			if err != nil || doc.Root != union.UInt64Value(1) {
				t.Errorf("%s: %v %#v", tc.hex, err, doc.Root)
			}
			continue
		}
		if !errors.Is(err, genrt.ErrType) || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.hex, err, tc.want)
		}
	}
	b, err := union.MarshalValueCBOR(union.Dict{"a": union.BoolValue(true), "b": nil})
	if err != nil || !bytes.Equal(b, mustHex(t, "d907d1a26161f56162f6")) {
		t.Fatalf("MarshalValueCBOR: %x %v", b, err)
	}
	v, err := union.UnmarshalValueCBOR(b)
	if err != nil || !reflect.DeepEqual(v, union.Dict{"a": union.BoolValue(true), "b": nil}) {
		t.Errorf("UnmarshalValueCBOR: %#v %v", v, err)
	}
	if _, err := union.UnmarshalValueCBOR(mustHex(t, "d907d1a0ff")); !errors.Is(err, genrt.ErrTrailing) {
		t.Errorf("trailing byte: %v", err)
	}
}

// TestUnionHostile: truncations of valid documents, tag bombs, unknown
// tags, wrong content under a known tag, forged lengths inside variants
// and nesting past the depth limit all give a *runtime.Error, never a
// panic or a value.
func TestUnionHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var inputs [][]byte
	for i := 0; i < 50; i++ {
		var doc union.Document
		doc.Root, _ = randValue(r, 3, false)
		doc.Values = []union.Value{union.StringValue("x"), union.Dict{"a": union.UInt64Value(1)}}
		b, err := doc.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < len(b); n++ {
			inputs = append(inputs, b[:n]) // every truncation, after a tag head too
		}
	}
	bomb := append([]byte{0x85}, bytes.Repeat([]byte{0xd9, 0xd9, 0xf7}, 100000)...)
	deep := []byte{0x85}
	for i := 0; i < 100; i++ {
		deep = append(deep, 0xd9, 0x07, 0xd0, 0x82, 0x61, 0x6b, 0x81) // Composite{"k", [ ... ]}
	}
	inputs = append(inputs,
		bomb,
		append(append([]byte{}, deep...), 0xf6),
		mustHex(t, "84d907d001f6f6f6"), // tag 2000 on an integer
		mustHex(t, "84d907d1a16161d9270f00f6f6f6"),         // an unknown tag inside a Dict
		mustHex(t, "84d907d19b7fffffffffffffff"),           // a forged map length in a variant
		mustHex(t, "84d907d0829b7fffffffffffffff"),         // a forged text length in a Composite
		mustHex(t, "84d907d2c249010000000000000000f6f6f6"), // a bignum over uint64 in a UInt64Value
	)
	for _, in := range inputs {
		var doc union.Document
		err := doc.UnmarshalCBOR(in)
		var re *genrt.Error
		if !errors.As(err, &re) {
			t.Fatalf("%x: got %v, want a *runtime.Error", in[:min(len(in), 40)], err)
		}
	}
}

// FuzzUnionDocument: any input either fails with a *runtime.Error or
// decodes to a value whose encoding decodes to the same value.
func FuzzUnionDocument(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 20; i++ {
		var doc union.Document
		doc.Root, _ = randValue(r, 3, false)
		b, _ := doc.MarshalCBOR()
		f.Add(b)
	}
	f.Add(mustHex(f, "85d9270f01f6f6f6f6"))
	f.Add(mustHex(f, "85f6f6f6f683d9270f9f01ff6161c2410a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc union.Document
		if err := doc.UnmarshalCBOR(data); err != nil {
			var re *genrt.Error
			if !errors.As(err, &re) {
				t.Fatalf("not a *runtime.Error: %v", err)
			}
			return
		}
		b, err := doc.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var again union.Document
		if err := again.UnmarshalCBOR(b); err != nil || !reflect.DeepEqual(again, doc) {
			t.Fatalf("re-encoding %x does not read back: %v", b, err)
		}
	})
}

// TestUnionCatchAll: a union with a //cborgen:catchall variant keeps any
// item its other variants do not claim, tagged or not, indefinite lengths
// included, and writes it back byte for byte.
func TestUnionCatchAll(t *testing.T) {
	for _, item := range []string{"d9270f01", "4101", "9f0102ff", "d9270fbf6161f6ff", "f93c00", "a0"} {
		in := mustHex(t, "85f6f6f6f682"+"6173"+item) // Ext: ["s", item]
		var doc union.Document
		if err := doc.UnmarshalCBOR(in); err != nil {
			t.Fatalf("%s: %v", item, err)
		}
		if len(doc.Ext) != 2 || doc.Ext[0] != union.StringValue("s") || hex.EncodeToString(doc.Ext[1].(union.Unknown)) != item {
			t.Fatalf("%s: decoded %#v", item, doc.Ext)
		}
		out, err := doc.MarshalCBOR()
		if err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: written back as %x (%v), want %x", item, out, err, in)
		}
	}
	if _, err := (&union.Document{Ext: []union.Extension{union.Unknown{0x82, 0x01}}}).MarshalCBOR(); err == nil {
		t.Error("a catch-all holding half an item was written")
	}
}
