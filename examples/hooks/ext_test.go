package hooks_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/hooks"
	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
)

// TestLegacyRecord: DecodeCBORBody reads the legacy map form of a
// record's content as DecodeCBOR reads it for any generated type, under
// the tag, alone and nested, to the value the same hook over fxamacker
// reads; the version hook runs on it too.
func TestLegacyRecord(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewPCG(27, 2))
	for i := 0; i < n; i++ {
		var m fxRecordMap
		(&mirror.Filler{Rand: r}).Fill(&m)
		if r.IntN(4) != 0 {
			m.Version = hooks.RecordVersion
		}
		item, err := fxEnc.Marshal(cbor.Tag{Number: hooks.RecordTag, Content: m})
		if err != nil {
			t.Fatal(err)
		}
		var got hooks.Record
		gerr := got.UnmarshalCBOR(item)
		var want fxRecord
		ferr := fxDec.Unmarshal(item, &want)
		if (gerr == nil) != (ferr == nil) || gerr != nil && !errors.Is(gerr, hooks.ErrVersion) {
			t.Fatalf("record %d %x: generated %v, fxamacker %v", i, item, gerr, ferr)
		}
		if gerr != nil {
			continue
		}
		var back hooks.Record
		mirror.Convert(&back, want)
		if d := mirror.Diff(got, back); d != "" {
			t.Fatalf("record %d %x: Record%s", i, item, d)
		}
		// Nested: the archive's head, and a record of its latest block.
		data := bytes.Join([][]byte{{0x85}, item, {0xf6, 0xf6, 0x83, 0x03, 0x40, 0x81}, item, cbortest.MustHex("836000f6")}, nil)
		var a hooks.Archive
		if err := a.UnmarshalCBOR(data); err != nil {
			t.Fatalf("record %d nested %x: %v", i, data, err)
		}
		var fa fxArchive
		if err := fxDec.Unmarshal(data, &fa); err != nil {
			t.Fatalf("record %d nested: fxamacker: %v", i, err)
		}
		if d := mirror.Diff(a, fromFx(&fa)); d != "" {
			t.Fatalf("record %d nested: Archive%s", i, d)
		}
	}
}

// TestVersionNested: a record of another version is refused wherever it
// is held, through either route (the archive's Head through Record's
// DecodeCBOR, a block's records through Block's UnmarshalCBOR), with
// ErrVersion and the path to it; one without a version is written with
// the current one wherever it is held.
func TestVersionNested(t *testing.T) {
	old := hooks.Record{Version: 1}
	for _, tc := range []struct {
		a    hooks.Archive
		path string
	}{
		{hooks.Archive{Head: old}, "Archive.Head:"},
		{hooks.Archive{Index: map[string]hooks.Record{"k": old}}, `Archive.Index["k"]:`},
		{hooks.Archive{Blocks: []hooks.Block{{}, {Records: []hooks.Record{{}, old}}}}, "Archive.Blocks[1]: Block.Records[1]:"},
		{hooks.Archive{Latest: &hooks.Block{Records: []hooks.Record{old}}}, "Archive.Latest: Block.Records[0]:"},
	} {
		data, err := tc.a.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var got hooks.Archive
		err = got.UnmarshalCBOR(data)
		var rerr *runtime.Error
		// The path is in the text of the error of a DecodeCBOR, and in
		// the Detail of one that an UnmarshalCBOR returned, whose text
		// is the method's own, as fxamacker returns it.
		if !errors.Is(err, hooks.ErrVersion) || !errors.As(err, &rerr) || !strings.Contains(rerr.Detail(), tc.path) {
			t.Errorf("%s: error %v (%s)", tc.path, err, rerr.Detail())
		}
		if err := got.DecodeCBOR(runtime.NewDecoder(bytes.NewReader(data))); !errors.Is(err, hooks.ErrVersion) {
			t.Errorf("%s, over a stream: error %v", tc.path, err)
		}
	}
	a := hooks.Archive{Index: map[string]hooks.Record{"k": {}}, Latest: &hooks.Block{Records: []hooks.Record{{}}}}
	data, err := a.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var got hooks.Archive
	if err := got.UnmarshalCBOR(data); err != nil {
		t.Fatal(err)
	}
	if got.Head.Version != hooks.RecordVersion || got.Index["k"].Version != hooks.RecordVersion || got.Latest.Records[0].Version != hooks.RecordVersion {
		t.Errorf("versions not defaulted: %+v", got)
	}
	if a.Index["k"].Version != 0 || a.Latest.Records[0].Version != 0 {
		t.Errorf("encoding changed the value: %+v", a)
	}
}

// TestExtension: the program puts its own value in an envelope's
// extension point before decoding, alone and inside an archive; the
// payload is decoded into it, as the same hook over fxamacker decodes it
// into the program's value there, and an envelope whose Ext is set is
// written with the extension as its payload.
func TestExtension(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewPCG(27, 3))
	for i := 0; i < n; i++ {
		var reading hooks.Reading
		(&mirror.Filler{Rand: r}).Fill(&reading)
		env := hooks.Envelope{Kind: "reading", Seq: r.Uint64(), Ext: &reading}
		var fr fxReading
		mirror.Convert(&fr, reading)
		data, err := env.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		want, err := fxEnc.Marshal(fxEnvelope{Kind: env.Kind, Seq: env.Seq, Ext: &fr})
		if err != nil || !bytes.Equal(data, want) {
			t.Fatalf("envelope %d: generated %x, fxamacker %x (%v)", i, data, want, err)
		}
		var got hooks.Reading
		into := hooks.Envelope{Ext: &got}
		var fgot fxReading
		finto := fxEnvelope{Ext: &fgot}
		if err := into.UnmarshalCBOR(data); err != nil {
			t.Fatal(err)
		}
		if err := fxDec.Unmarshal(data, &finto); err != nil {
			t.Fatal(err)
		}
		var back hooks.Reading
		mirror.Convert(&back, fgot)
		if d := mirror.Diff(got, reading); d != "" || mirror.Diff(back, reading) != "" {
			t.Fatalf("envelope %d: Reading%s (fxamacker %+v)", i, d, fgot)
		}
		// Nested: the program fills the archive's envelope first.
		a := hooks.Archive{Note: env}
		if data, err = a.MarshalCBOR(); err != nil {
			t.Fatal(err)
		}
		var nested hooks.Reading
		ga := hooks.Archive{Note: hooks.Envelope{Ext: &nested}}
		var fnested fxReading
		fa := fxArchive{Note: fxEnvelope{Ext: &fnested}}
		if err := ga.UnmarshalCBOR(data); err != nil {
			t.Fatal(err)
		}
		if err := fxDec.Unmarshal(data, &fa); err != nil {
			t.Fatal(err)
		}
		mirror.Convert(&back, fnested)
		if d := mirror.Diff(nested, reading); d != "" || mirror.Diff(back, reading) != "" || ga.Note.Ext != hooks.Extension(&nested) {
			t.Fatalf("envelope %d nested: Reading%s (fxamacker %+v)", i, d, fnested)
		}
	}
}

// TestExtensionLegacy: the extension point in the legacy map form, as
// older data was written (fxamacker's default struct encoding: maps keyed
// by field name, the payload a map too), alone and inside an archive's
// map: the payload is decoded into the program's value, and encoding the
// decoded envelope again gives exactly the array form of the same values.
func TestExtensionLegacy(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	type readingMap struct {
		Sensor string
		Value  int64
	}
	type envelopeMap struct {
		Kind    string
		Seq     uint64
		Payload cbor.RawMessage
	}
	type archiveMap struct{ Note envelopeMap }
	r := rand.New(rand.NewPCG(27, 5))
	for i := 0; i < n; i++ {
		var reading hooks.Reading
		(&mirror.Filler{Rand: r}).Fill(&reading)
		env := hooks.Envelope{Kind: "reading", Seq: r.Uint64(), Ext: &reading}
		want, err := env.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		payload, err := fxEnc.Marshal(readingMap(reading))
		if err != nil {
			t.Fatal(err)
		}
		legacy, err := fxEnc.Marshal(envelopeMap{Kind: env.Kind, Seq: env.Seq, Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		var got hooks.Reading
		into := hooks.Envelope{Ext: &got}
		if err := into.UnmarshalCBOR(legacy); err != nil {
			t.Fatalf("envelope %d: %v (% x)", i, err, legacy)
		}
		if d := mirror.Diff(got, reading); d != "" || into.Kind != env.Kind || into.Seq != env.Seq {
			t.Fatalf("envelope %d: Reading%s, %q %d", i, d, into.Kind, into.Seq)
		}
		if again, err := into.MarshalCBOR(); err != nil || !bytes.Equal(again, want) {
			t.Fatalf("envelope %d: re-encoded % x (%v), want % x", i, again, err, want)
		}
		// Nested: the archive's legacy map, the program's value set first.
		if legacy, err = fxEnc.Marshal(archiveMap{Note: envelopeMap{Kind: env.Kind, Seq: env.Seq, Payload: payload}}); err != nil {
			t.Fatal(err)
		}
		var nested hooks.Reading
		a := hooks.Archive{Note: hooks.Envelope{Ext: &nested}}
		if err := a.UnmarshalCBOR(legacy); err != nil {
			t.Fatalf("archive %d: %v (% x)", i, err, legacy)
		}
		if d := mirror.Diff(nested, reading); d != "" || a.Note.Ext != hooks.Extension(&nested) || a.Note.Seq != env.Seq {
			t.Fatalf("archive %d: Reading%s", i, d)
		}
		wantArchive, err := hooks.Archive{Note: env}.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if again, err := a.MarshalCBOR(); err != nil || !bytes.Equal(again, wantArchive) {
			t.Fatalf("archive %d: re-encoded % x (%v), want % x", i, again, err, wantArchive)
		}
	}
}

// TestHostile: the archive's decoder, hooks and all, refuses every
// damaged encoding of random archives with a *runtime.Error of the right
// cause, over a slice and over a one-byte stream, within the allocation
// bound.
func TestHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	var encs [][]byte
	for len(encs) < 4 {
		a := randomArchive(r)
		if slices.ContainsFunc(versions(&a), func(v uint16) bool { return v != 0 && v != hooks.RecordVersion }) {
			continue
		}
		data, err := a.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		encs = append(encs, data)
	}
	cbortest.CheckDecoder(t, cbortest.Damaged(encs),
		func(b []byte) error { return new(hooks.Archive).UnmarshalCBOR(b) },
		func(d *runtime.Decoder) error { return new(hooks.Archive).DecodeCBOR(d) })
}

// FuzzArchive: on any input the archive's decoders, hooks and all, do not
// panic and return *runtime.Error values; what UnmarshalCBOR accepts
// reads the same over a one-byte stream and in strict mode (which
// accepts no more), and encodes to bytes that read back the same
// (cbortest.Fuzz). Seeded with the stored archive and random ones.
func FuzzArchive(f *testing.F) {
	stored, err := os.ReadFile("testdata/Archive.nested.hex")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(cbortest.MustHex(strings.TrimSpace(string(stored))))
	r := rand.New(rand.NewPCG(27, 5))
	for range 8 {
		a := randomArchive(r)
		data, err := a.MarshalCBOR()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	cbortest.Fuzz[hooks.Archive](f)
}
