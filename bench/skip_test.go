package bench

import (
	"bytes"
	"io"
	"testing"

	"github.com/cborgen/cborgen/bench/workload"
	"github.com/cborgen/cborgen/runtime"
	"github.com/fxamacker/cbor/v2"
)

// Skipping and validating a whole document: the generated code's runtime
// (Decoder.Skip over a slice and over a stream, runtime.Valid) against
// fxamacker/cbor (cbor.Wellformed for the slice and for Valid, which does
// more work: UTF-8, duplicate keys, tag content; Decoder.Skip over the
// stream). The shapes are the encoded CompositeLarge and a document of
// nested tagged maps with many text keys (workload.NewDocument).

func BenchmarkSkipCompositeLarge(b *testing.B) { benchSkip(b, skipDoc("CompositeLarge")) }
func BenchmarkSkipDocument(b *testing.B)       { benchSkip(b, skipDoc("Document")) }
func BenchmarkSkipRealRecord(b *testing.B)     { benchSkip(b, skipDoc("RealRecord")) }

func skipDoc(name string) []byte {
	switch name {
	case "Document":
		return workload.NewDocument()
	case "StoreDocument":
		_, data, _ := storeDocument(nil)
		return data
	case "RealRecord":
		data, err := realRecord()
		if err != nil {
			panic(err)
		}
		return data
	}
	s := getShape(name)
	enc, err := s.codec(implGenerated).encode(nil)
	if err != nil {
		panic(err)
	}
	return bytes.Clone(enc)
}

func benchSkip(b *testing.B, doc []byte) {
	run := func(impl, op string, f func() error) {
		b.Run("impl="+impl+"/op="+op, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run(implGenerated, "Skip", func() error { return runtime.NewBytesDecoder(doc).Skip() })
	gs := runtime.NewDecoder(&loop{data: doc})
	run(implGenerated, "SkipReader", gs.Skip)
	run(implGenerated, "Valid", func() error { return runtime.Valid(doc) })
	run(implFxamacker, "Skip", func() error { return cbor.Wellformed(doc) })
	fs := cbor.NewDecoder(&loop{data: doc})
	run(implFxamacker, "SkipReader", fs.Skip)
	run(implFxamacker, "Valid", func() error { return cbor.Wellformed(doc) })
}

// TestSkipDocuments: the documents are valid to both implementations, and
// the streams skip whole items.
func TestSkipDocuments(t *testing.T) {
	for _, name := range []string{"CompositeLarge", "Document"} {
		doc := skipDoc(name)
		if err := runtime.Valid(doc); err != nil {
			t.Errorf("%s: Valid: %v", name, err)
		}
		if err := cbor.Wellformed(doc); err != nil {
			t.Errorf("%s: Wellformed: %v", name, err)
		}
		var v any
		if err := cbor.Unmarshal(doc, &v); err != nil {
			t.Errorf("%s: fxamacker Unmarshal: %v", name, err)
		}
		d := runtime.NewDecoder(io.MultiReader(bytes.NewReader(doc), bytes.NewReader(doc)))
		for i := 0; i < 2; i++ {
			if err := d.Skip(); err != nil {
				t.Fatalf("%s: Skip item %d: %v", name, i, err)
			}
			if d.Offset() != int64((i+1)*len(doc)) {
				t.Fatalf("%s: item %d ends at %d, want %d", name, i, d.Offset(), (i+1)*len(doc))
			}
		}
		if len(doc) < 700_000 {
			t.Errorf("%s: %d bytes, want a large document", name, len(doc))
		}
	}
}
