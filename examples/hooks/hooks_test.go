package hooks_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/hooks"
	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// The same types with the same hooks, written over fxamacker/cbor as a
// program that uses it writes them (an alias type without the methods
// for the body): the reference for every byte and value of package hooks.
var (
	fxEnc = mustEnc(cbor.CoreDetEncOptions())
	fxDec = mustDec(cbor.DecOptions{})
)

func mustEnc(o cbor.EncOptions) cbor.EncMode {
	m, err := o.EncMode()
	if err != nil {
		panic(err)
	}
	return m
}

func mustDec(o cbor.DecOptions) cbor.DecMode {
	m, err := o.DecMode()
	if err != nil {
		panic(err)
	}
	return m
}

var errFxVersion = errors.New("fx: record version not supported")

type (
	fxRecord struct {
		_       struct{} `cbor:",toarray"`
		Version uint16
		ID      uint64
		Name    string
		Labels  []string
	}
	fxRecordArray fxRecord
	fxRecordMap   struct { // the legacy form of the content
		Version uint16
		ID      uint64
		Name    string
		Labels  []string
	}
)

func (r fxRecord) MarshalCBOR() ([]byte, error) {
	if r.Version == 0 {
		r.Version = hooks.RecordVersion
	}
	return fxEnc.Marshal(cbor.Tag{Number: hooks.RecordTag, Content: fxRecordArray(r)})
}

func (r *fxRecord) UnmarshalCBOR(data []byte) error {
	var tag cbor.RawTag
	if err := fxDec.Unmarshal(data, &tag); err != nil {
		return err
	}
	if tag.Number != hooks.RecordTag {
		return errors.New("fx: wrong tag")
	}
	if len(tag.Content) > 0 && tag.Content[0]>>5 == genrt.MajorMap {
		var m fxRecordMap
		mirror.Convert(&m, *r)
		if err := fxDec.Unmarshal(tag.Content, &m); err != nil {
			return err
		}
		mirror.Convert(r, m)
	} else if err := fxDec.Unmarshal(tag.Content, (*fxRecordArray)(r)); err != nil {
		return err
	}
	if r.Version != hooks.RecordVersion {
		return errFxVersion
	}
	return nil
}

type (
	fxBlock struct {
		_       struct{} `cbor:",toarray"`
		Height  uint64
		Prev    []byte
		Records []fxRecord
		raw     []byte
	}
	fxBlockArray fxBlock
)

func (b fxBlock) MarshalCBOR() ([]byte, error) { return fxEnc.Marshal(fxBlockArray(b)) }

func (b *fxBlock) UnmarshalCBOR(data []byte) error {
	b.raw = nil
	if err := fxDec.Unmarshal(data, (*fxBlockArray)(b)); err != nil {
		return err
	}
	b.raw = slices.Clone(data)
	return nil
}

type (
	fxEnvelope struct {
		_       struct{} `cbor:",toarray"`
		Kind    string
		Seq     uint64
		Payload cbor.RawMessage
		Ext     hooks.Extension `cbor:"-"`
	}
	fxEnvelopeArray fxEnvelope
)

func (e fxEnvelope) MarshalCBOR() ([]byte, error) {
	if e.Ext != nil {
		p, err := e.Ext.MarshalCBOR()
		if err != nil {
			return nil, err
		}
		e.Payload = p
	}
	return fxEnc.Marshal(fxEnvelopeArray(e))
}

func (e *fxEnvelope) UnmarshalCBOR(data []byte) error {
	if err := fxDec.Unmarshal(data, (*fxEnvelopeArray)(e)); err != nil {
		return err
	}
	if e.Ext != nil {
		return e.Ext.UnmarshalCBOR(e.Payload)
	}
	return nil
}

// fxReading is the program's extension type, over fxamacker.
type (
	fxReading struct {
		_      struct{} `cbor:",toarray"`
		Sensor string
		Value  int64
	}
	fxReadingArray fxReading
)

func (r fxReading) MarshalCBOR() ([]byte, error) { return fxEnc.Marshal(fxReadingArray(r)) }
func (r *fxReading) UnmarshalCBOR(data []byte) error {
	return fxDec.Unmarshal(data, (*fxReadingArray)(r))
}

type fxArchive struct {
	_      struct{} `cbor:",toarray"`
	Head   fxRecord
	Blocks []fxBlock
	Index  map[string]fxRecord
	Latest *fxBlock
	Note   fxEnvelope
}

// toFx is the mirror of a (mirror.Convert copies all but the envelope,
// whose extension is an interface).
func toFx(a *hooks.Archive) fxArchive {
	var m fxArchive
	mirror.Convert(&m.Head, a.Head)
	mirror.Convert(&m.Blocks, a.Blocks)
	mirror.Convert(&m.Index, a.Index)
	mirror.Convert(&m.Latest, a.Latest)
	m.Note = fxEnvelope{Kind: a.Note.Kind, Seq: a.Note.Seq, Payload: a.Note.Payload}
	return m
}

// fromFx is the value of package hooks that m mirrors.
func fromFx(m *fxArchive) hooks.Archive {
	var a hooks.Archive
	mirror.Convert(&a.Head, m.Head)
	mirror.Convert(&a.Blocks, m.Blocks)
	mirror.Convert(&a.Index, m.Index)
	mirror.Convert(&a.Latest, m.Latest)
	a.Note = hooks.Envelope{Kind: m.Note.Kind, Seq: m.Note.Seq, Payload: m.Note.Payload}
	return a
}

// randomArchive is a random Archive whose records have no version (0),
// the current one, or mostly another, and whose payload is an encoded
// Reading or nil.
func randomArchive(r *rand.Rand) hooks.Archive {
	var a hooks.Archive
	(&mirror.Filler{Rand: r}).Fill(&a)
	version := func() uint16 {
		switch r.IntN(8) {
		case 0:
			return uint16(r.IntN(5))
		case 1, 2, 3:
			return 0
		}
		return hooks.RecordVersion
	}
	a.Head.Version = version()
	for k, rec := range a.Index {
		rec.Version = version()
		a.Index[k] = rec
	}
	blocks := slices.Clone(a.Blocks)
	if a.Latest != nil {
		blocks = append(blocks, *a.Latest)
	}
	for i := range a.Blocks {
		for j := range a.Blocks[i].Records {
			a.Blocks[i].Records[j].Version = version()
		}
	}
	if a.Latest != nil {
		for j := range a.Latest.Records {
			a.Latest.Records[j].Version = version()
		}
	}
	a.Note.Payload = nil
	if r.IntN(2) == 0 {
		var reading hooks.Reading
		(&mirror.Filler{Rand: r}).Fill(&reading)
		a.Note.Payload, _ = reading.MarshalCBOR()
	}
	return a
}

// versions lists the version of every record in a.
func versions(a *hooks.Archive) []uint16 {
	out := []uint16{a.Head.Version}
	for _, rec := range a.Index {
		out = append(out, rec.Version)
	}
	blocks := slices.Clone(a.Blocks)
	if a.Latest != nil {
		blocks = append(blocks, *a.Latest)
	}
	for _, b := range blocks {
		for _, rec := range b.Records {
			out = append(out, rec.Version)
		}
	}
	return out
}

// TestAgainstFxamacker: on random archives, the generated bodies inside
// the hooks of package hooks write the bytes that the same hooks write
// over fxamacker, and decode them to the same values: every version
// defaulted when it was 0, an archive with a record of another version
// refused by both (with ErrVersion, at the record's path, by the
// generated code), and each block's kept bytes those of its own item.
func TestAgainstFxamacker(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(27, 1))
	decoded := 0
	for i := 0; i < n; i++ {
		a := randomArchive(r)
		m := toFx(&a)
		got, err := a.MarshalCBOR()
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		want, err := fxEnc.Marshal(m)
		if err != nil {
			t.Fatalf("value %d: fxamacker: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("value %d: generated\n%x\nfxamacker\n%x", i, got, want)
		}
		var ga hooks.Archive
		gerr := ga.UnmarshalCBOR(got)
		var fa fxArchive
		ferr := fxDec.Unmarshal(got, &fa)
		if (gerr == nil) != (ferr == nil) {
			t.Fatalf("value %d: generated %v, fxamacker %v", i, gerr, ferr)
		}
		bad := slices.ContainsFunc(versions(&a), func(v uint16) bool { return v != 0 && v != hooks.RecordVersion })
		if gerr != nil {
			var rerr *runtime.Error
			if !bad || !errors.Is(gerr, hooks.ErrVersion) || !errors.As(gerr, &rerr) || !errors.Is(ferr, errFxVersion) {
				t.Fatalf("value %d (a record of another version: %t): generated %v, fxamacker %v", i, bad, gerr, ferr)
			}
			continue
		}
		if bad {
			t.Fatalf("value %d: a record of another version decoded", i)
		}
		decoded++
		back := fromFx(&fa)
		if d := mirror.Diff(ga, back); d != "" {
			t.Fatalf("value %d: decoded values differ: Archive%s", i, d)
		}
		for _, v := range versions(&ga) {
			if v != hooks.RecordVersion {
				t.Fatalf("value %d: decoded version %d", i, v)
			}
		}
		checkKept(t, i, &a, &ga, &fa, got)
	}
	if decoded < n/10 {
		t.Errorf("only %d of %d archives had only valid versions", decoded, n)
	}
}

// checkKept checks that each block of the decoded archive ga kept the
// bytes of its own item of data (the encoding of the block of a it was
// written from, found in data), and the same bytes as fxamacker's fa.
func checkKept(t *testing.T, i int, a, ga *hooks.Archive, fa *fxArchive, data []byte) {
	t.Helper()
	type pair struct {
		orig, got *hooks.Block
		fx        *fxBlock
	}
	var pairs []pair
	for j := range a.Blocks {
		pairs = append(pairs, pair{&a.Blocks[j], &ga.Blocks[j], &fa.Blocks[j]})
	}
	if a.Latest != nil {
		pairs = append(pairs, pair{a.Latest, ga.Latest, fa.Latest})
	}
	for j, p := range pairs {
		item, err := p.orig.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p.got.Raw(), item) || !bytes.Equal(p.fx.raw, item) || !bytes.Contains(data, item) {
			t.Fatalf("value %d, block %d: kept %x (fxamacker %x), want %x", i, j, p.got.Raw(), p.fx.raw, item)
		}
	}
}

// TestKeptBytes: a block keeps the exact bytes of its item where they are
// not the deterministic encoding (a head longer than needed, an
// indefinite-length array, a leading self-described tag, which fxamacker
// strips before it calls UnmarshalCBOR), alone and nested, as the same
// hook over fxamacker keeps them, and its hash is of those bytes.
func TestKeptBytes(t *testing.T) {
	for _, tc := range []struct{ name, item, kept string }{
		{"long head", "831b00000000000000054080", ""},
		{"indefinite records", "83054140" + "9f" + "d99ca4840201616180" + "ff", ""},
		{"self-described", "d9d9f7" + "83054080", "83054080"},
	} {
		item := cbortest.MustHex(tc.item)
		kept := item
		if tc.kept != "" {
			kept = cbortest.MustHex(tc.kept)
		}
		// Alone: UnmarshalCBOR keeps what it is handed; fxamacker's
		// Unmarshal hands either hook the item without a leading
		// self-described tag.
		var b hooks.Block
		if err := b.UnmarshalCBOR(item); err != nil || !bytes.Equal(b.Raw(), item) {
			t.Fatalf("%s: kept %x (%v), want %x", tc.name, b.Raw(), err, item)
		}
		var fb fxBlock
		if err := fxDec.Unmarshal(item, &fb); err != nil {
			t.Fatalf("%s: fxamacker: %v", tc.name, err)
		}
		if err := fxDec.Unmarshal(item, &b); err != nil || !bytes.Equal(b.Raw(), kept) || !bytes.Equal(fb.raw, kept) {
			t.Errorf("%s: through fxamacker kept %x (%v), fxamacker's hook %x, want %x", tc.name, b.Raw(), err, fb.raw, kept)
		}
		// Nested, as a block of an archive and as its latest.
		head, _ := (&hooks.Record{ID: 1}).MarshalCBOR()
		data := slices.Concat([]byte{0x85}, head, []byte{0x81}, item, []byte{0xf6}, item, cbortest.MustHex("8360 00 f6"))
		var a hooks.Archive
		if err := a.UnmarshalCBOR(data); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var fa fxArchive
		if err := fxDec.Unmarshal(data, &fa); err != nil {
			t.Fatalf("%s: fxamacker: %v", tc.name, err)
		}
		for _, got := range [][]byte{a.Blocks[0].Raw(), a.Latest.Raw()} {
			if !bytes.Equal(got, kept) || !bytes.Equal(fa.Blocks[0].raw, kept) || !bytes.Equal(fa.Latest.raw, kept) {
				t.Errorf("%s: nested kept %x (fxamacker %x, %x), want %x", tc.name, got, fa.Blocks[0].raw, fa.Latest.raw, kept)
			}
		}
		sum, err := a.Latest.Hash()
		if err != nil {
			t.Fatal(err)
		}
		if sum != sha256.Sum256(kept) {
			t.Errorf("%s: hash %x, not that of the kept bytes", tc.name, sum)
		}
		if again, _ := a.Latest.MarshalCBOR(); tc.kept == "" && bytes.Equal(again, kept) {
			t.Errorf("%s: the re-encoding %x equals the input: not a case of kept bytes", tc.name, again)
		}
	}
}
