package kindsdiff_test

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/testdata/golden/anonymous"
)

// Anonymous struct fields against fxamacker/cbor: random values of the
// golden anonymous.Doc, whose fields are anonymous structs of every shape,
// encoded by the generated code and by fxamacker from a mirror that holds
// the same anonymous types (fxamacker writes them by reflection: maps, or
// an array under toarray), and decoded by both from those bytes, from the
// legacy map of the holder and from mutations of either.

// The anonymous types of anonymous.Doc, by name, for its two mirrors (an
// alias is the type itself, so fxamacker sees the same anonymous types).
type (
	docMeta = struct {
		Author string `cbor:"author"`
		Rev    uint16 `cbor:"rev,omitempty"`
		Tags   []string
	}
	docPart = struct {
		Name string
		Size int32 `cbor:"1,keyasint"`
	}
	docCover = struct {
		URL    string
		Width  int
		Height int
	}
	docNote = struct {
		At   time.Time `cbor:"at"`
		Text string    `cbor:"text"`
	}
	docPoint = struct {
		_    struct{} `cbor:",toarray"`
		X, Y float64
	}
	docTree = struct {
		Label string
		Kids  []struct {
			Label string
			Leaf  *struct{ Weight float32 }
		}
	}
)

type (
	aDoc struct {
		_     struct{} `cbor:",toarray"`
		ID    int64
		Meta  docMeta
		Parts []docPart
		Cover *docCover
		Seen  map[string]struct{}
		Notes map[string]docNote
		Point docPoint
		Tree  docTree
	}
	// mDoc is the legacy format: the mirror without toarray.
	mDoc struct {
		ID    int64
		Meta  docMeta
		Parts []docPart
		Cover *docCover
		Seen  map[string]struct{}
		Notes map[string]docNote
		Point docPoint
		Tree  docTree
	}
)

// cCard is the mirror of the map-format anonymous.Card: the same type
// without the generated methods.
type cCard struct {
	Title string `cbor:"t"`
	Meta  struct {
		A string `cbor:"a,omitempty"`
		B []int  `cbor:"b,omitempty"`
	} `cbor:"meta,omitempty"`
	Z struct {
		N int
		S string
	} `cbor:"z,omitzero"`
	Keep struct{ N int }     `cbor:"keep,omitempty"`
	Ps   []struct{ V uint8 } `cbor:"ps,omitempty"`
}

func TestAnonymousAgainstFxamacker(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 400
	}
	r := rand.New(rand.NewPCG(27, 4))
	fill := mirror.Filler{Rand: r}
	for i := range n {
		var v anonymous.Doc
		fill.Fill(&v)
		for k, note := range v.Notes {
			note.At = time.Unix(note.At.Unix()%(1<<40), 0) // whole seconds within RFC 3339, as the time mode writes them
			v.Notes[k] = note
		}
		var a aDoc
		var m mDoc
		mirror.Convert(&a, v)
		mirror.Convert(&m, v)
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatalf("%+v: %v", v, err)
		}
		want, err := cborEnc.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%+v:\ngenerated %x\nfxamacker %x", v, got, want)
		}
		legacy, err := cborEnc.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back anonymous.Doc
		if err := back.UnmarshalCBOR(got); err != nil {
			t.Fatalf("%x: %v", got, err)
		}
		if d := mirror.Diff(back, v); d != "" {
			t.Fatalf("%x decodes to another value: %s", got, d)
		}
		for _, in := range [][]byte{got, legacy, cbortest.Mutate(r, got), cbortest.Mutate(r, legacy)} {
			if d := cbortest.Differ[anonymous.Doc, aDoc, mDoc](in); d != "" {
				t.Fatalf("value %d: %s", i, d)
			}
		}

		var c anonymous.Card
		fill.Fill(&c)
		if r.IntN(2) == 0 {
			c.Meta.A, c.Meta.B = "", nil // left out by its fields' omitempty
		}
		if r.IntN(2) == 0 {
			c.Z.N, c.Z.S = 0, "" // left out by omitzero
		}
		cc := cCard(c)
		got, err = c.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if want, err = cborEnc.Marshal(cc); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%+v:\ngenerated %x\nfxamacker %x %v", c, got, want, err)
		}
		for _, in := range [][]byte{got, cbortest.Mutate(r, got)} {
			if d := cbortest.Differ[anonymous.Card, cCard, cCard](in); d != "" {
				t.Fatalf("value %d: %s", i, d)
			}
		}
	}
}

// TestAnonymousDecodeDiag: cbor-gen -decode reads random values of Doc,
// current and legacy, from the golden schema record, which records each
// hidden copy as a type of its own.
func TestAnonymousDecodeDiag(t *testing.T) {
	decodetest.DecodeRandom[anonymous.Doc, mDoc](t, "../../../testdata/golden/anonymous", "Doc", 300, 27, mirror.Filler{})
}

// aArr is the mirror of anonymous.Arr; its U holds only the field on the
// wire (an unexported field makes the types of two packages differ).
type aArr struct {
	_ struct{} `cbor:",toarray"`
	A [2]struct{ X int8 }
	E struct {
		_ struct{} `cbor:",toarray"`
	}
	ME map[string]struct {
		_ struct{} `cbor:",toarray"`
		K bool
	}
	MS map[string]struct {
		_ struct{} `cbor:",toarray"`
	}
	U struct{ B int }
}

// TestAnonymousEdges: the set idiom as a value type, an anonymous struct
// in a generic type, arrays of them, empty ones under toarray, and one
// with an unexported field, against fxamacker on random values.
func TestAnonymousEdges(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	f := mirror.Filler{Rand: rand.New(rand.NewPCG(27, 5))}
	check := func(what string, got []byte, err error, mirrorValue any, decode func([]byte) error, fxInto, fromGen any) {
		t.Helper()
		want, fxErr := cborEnc.Marshal(mirrorValue)
		if err != nil || fxErr != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: generated %x (%v), fxamacker %x (%v)", what, got, err, want, fxErr)
		}
		if err := decode(got); err != nil {
			t.Fatalf("%s: %x: %v", what, got, err)
		}
		if err := cbor.Unmarshal(got, fxInto); err != nil {
			t.Fatal(err)
		}
		if d := mirror.Diff(fromGen, fxInto); d != "" {
			t.Fatalf("%s: %x decodes differently: %s", what, got, d)
		}
	}
	for range n {
		var s anonymous.Set
		f.Fill(&s)
		got, err := s.MarshalCBOR()
		var fxSet, genSet map[string]struct{}
		check("Set", got, err, map[string]struct{}(s), func(b []byte) error {
			var back anonymous.Set
			err := back.UnmarshalCBOR(b)
			genSet = back
			return err
		}, &fxSet, &genSet)

		var p anonymous.Page[string]
		f.Fill(&p)
		type pageMirror struct {
			_    struct{} `cbor:",toarray"`
			Meta struct{ N int }
			V    string
		}
		got, err = p.MarshalCBOR()
		var pb anonymous.Page[string]
		var fxPage, genPage pageMirror
		check("Page", got, err, pageMirror{Meta: p.Meta, V: p.V}, func(b []byte) error {
			err := pb.UnmarshalCBOR(b)
			genPage = pageMirror{Meta: pb.Meta, V: pb.V}
			return err
		}, &fxPage, &genPage)

		var a anonymous.Arr
		f.Fill(&a)
		var am aArr
		mirror.Convert(&am, a)
		got, err = a.MarshalCBOR()
		var ab anonymous.Arr
		var fxArr, genArr aArr
		check("Arr", got, err, am, func(b []byte) error {
			err := ab.UnmarshalCBOR(b)
			mirror.Convert(&genArr, ab)
			return err
		}, &fxArr, &genArr)
	}
}

// The anonymous types of anonymous.Ver, which embed the marker
// anonymous.StructAsArray (a field "_" with the toarray option, promoted).
type (
	verProtocol = struct {
		anonymous.StructAsArray
		Major uint
		Minor uint
	}
	verCert = struct {
		anonymous.StructAsArray
		Kind uint8
		Pool *[]byte
	}
	verPool = struct {
		anonymous.StructAsArray
		Owners []string
		Margin struct {
			anonymous.StructAsArray
			Num, Den uint64
		}
	}
	verMeta = struct {
		Slot uint64 `cbor:"1,keyasint"`
	}
)

type (
	aVer struct {
		_        struct{} `cbor:",toarray"`
		Protocol verProtocol
		Certs    []verCert
		Pools    map[string]verPool
		Meta     verMeta
	}
	mVer struct {
		Protocol verProtocol
		Certs    []verCert
		Pools    map[string]verPool
		Meta     verMeta
	}
)

// TestAnonymousMarker: anonymous structs that embed a method-less marker
// type carrying fxamacker's toarray option (the Cardano libraries'
// cbor.StructAsArray) are arrays, byte for byte as fxamacker writes them
// under CoreDetEncOptions, and read back as fxamacker's default DecMode
// reads them (and refuses their map form, as fxamacker does).
func TestAnonymousMarker(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(27, 6))
	fill := mirror.Filler{Rand: r}
	for i := range n {
		var v anonymous.Ver
		fill.Fill(&v)
		var a aVer
		var m mVer
		mirror.Convert(&a, v)
		mirror.Convert(&m, v)
		got, err := v.MarshalCBOR()
		if err != nil {
			t.Fatalf("%+v: %v", v, err)
		}
		want, err := cborEnc.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%+v:\ngenerated %x\nfxamacker %x", v, got, want)
		}
		if i == 0 && got[1] != 0x82 { // Protocol: [Major, Minor]
			t.Fatalf("Protocol is not a two-element array: %x", got)
		}
		legacy, err := cborEnc.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{got, legacy, cbortest.Mutate(r, got), cbortest.Mutate(r, legacy)} {
			if d := cbortest.Differ[anonymous.Ver, aVer, mVer](in); d != "" {
				t.Fatalf("value %d: %s", i, d)
			}
		}
	}
	// A map where the marker says array: both refuse it.
	var v anonymous.Ver
	var a aVer
	in := []byte{0x84, 0xa1, 0x65, 'M', 'a', 'j', 'o', 'r', 0x01, 0xf6, 0xf6, 0xa0}
	if err, fxErr := v.UnmarshalCBOR(in), cbor.Unmarshal(in, &a); err == nil || fxErr == nil {
		t.Fatalf("%x: generated %v, fxamacker %v; want both to refuse the map", in, err, fxErr)
	}
}
