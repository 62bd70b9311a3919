package hooks_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator"

	"github.com/cborgen/cborgen/examples/hooks"
	"github.com/cborgen/cborgen/examples/internal/decodetest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
)

// TestDecodeRandom: cbor-gen -decode reads random records and blocks
// from the schema record without a problem: the record describes the
// bodies that the types' own methods write.
func TestDecodeRandom(t *testing.T) {
	decodetest.DecodeRandom[hooks.Record, hooks.Record](t, ".", "Record", 300, 27, mirror.Filler{})
	decodetest.DecodeRandom[hooks.Block, hooks.Block](t, ".", "Block", 300, 27, mirror.Filler{})
}

// TestDecodeAgrees: on mutants of a stored archive, -decode takes every
// input the generated decoder takes. It may take more: the hooks check
// what the record does not say (a record's version), so the agreement is
// one way.
func TestDecodeAgrees(t *testing.T) {
	decodetest.Agree[hooks.Archive](t, ".", "Archive", "testdata/Archive.nested.hex", 5000, 27, false)
}

// TestDecodeNotesBody: -decode names a body type's values as read by
// their own methods, and -cddl says what the record leaves to them.
func TestDecodeNotesBody(t *testing.T) {
	data, err := os.ReadFile("testdata/Archive.nested.hex")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := generator.Read(generator.ReadConfig{Decode: "Archive", Dir: "."}, bytes.NewReader(data), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/ Archive (current format) /", "Head: Record (current format, read by its own methods) /", "Block (current format, read by its own methods) /"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-decode lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := generator.Read(generator.ReadConfig{CDDL: true, Dir: "."}, nil, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"; Record is //cborgen:body: its own MarshalCBOR and UnmarshalCBOR", "; Block is //cborgen:body", "; Envelope is //cborgen:body"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-cddl lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "; Archive is //cborgen:body") || strings.Contains(out.String(), "; Reading is //cborgen:body") {
		t.Errorf("-cddl calls a generated type a body type:\n%s", out.String())
	}
}
