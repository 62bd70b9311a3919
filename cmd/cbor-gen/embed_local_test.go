package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmbeddingInsideFunctions: the idiom `type alias TxOrder` in a
// hand-written MarshalCBOR drops TxOrder's methods and keeps its
// embedding of Payload, so once Payload is generated Go would promote
// Payload's methods to alias and fxamacker/cbor would write and read a
// TxOrder as its Payload alone. cbor-gen refuses that run; with Payload
// //cborgen:embeddable, fxamacker keeps every field, in both directions.
func TestEmbeddingInsideFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	src := `package tx

import "github.com/fxamacker/cbor/v2"

type Payload struct {
	Amount uint64
	To     string
}

type TxOrder struct {
	Payload
	Version int
}

func (t *TxOrder) MarshalCBOR() ([]byte, error) {
	type alias TxOrder
	if t.Version == 0 {
		t.Version = 1
	}
	return cbor.Marshal(cbor.Tag{Number: 1016, Content: (*alias)(t)})
}

func (t *TxOrder) UnmarshalCBOR(data []byte) error {
	type alias TxOrder
	var tag cbor.Tag
	if err := cbor.Unmarshal(data, &tag); err != nil {
		return err
	}
	content, err := cbor.Marshal(tag.Content)
	if err != nil {
		return err
	}
	return cbor.Unmarshal(content, (*alias)(t))
}
`
	dir := newModule(t, map[string]string{
		"tx/tx.go": src,
		"tx/tx_test.go": `package tx

import (
	"testing"

	"github.com/fxamacker/cbor/v2"
)

func TestOrderKeepsItsFields(t *testing.T) {
	in := &TxOrder{Payload: Payload{Amount: 7, To: "x"}, Version: 3}
	b, err := cbor.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var tag cbor.Tag
	if err := cbor.Unmarshal(b, &tag); err != nil {
		t.Fatal(err)
	}
	m, ok := tag.Content.(map[any]any)
	if !ok || len(m) != 3 || m["Version"] != uint64(3) {
		t.Fatalf("fxamacker wrote %x: %v", b, tag.Content)
	}
	var out TxOrder
	if err := cbor.Unmarshal(b, &out); err != nil || out != *in {
		t.Fatalf("read back %+v, %v", out, err)
	}
	// The generated methods of Payload still work on their own.
	pb, err := in.Payload.AppendCBOR(nil)
	if err != nil || len(pb) == 0 || pb[0] != 0x82 {
		t.Fatalf("Payload: %x %v", pb, err)
	}
}
`,
	})
	d := filepath.Join(dir, "tx")
	mustFail(t, d, []string{
		"tx.go:16:7: the type alias declared inside a function gets the MarshalCBOR and UnmarshalCBOR that cbor-gen generates for Payload",
		"drop its other fields",
		"Mark Payload //cborgen:embeddable",
		"tx.go:24:7: the type alias declared inside a function",
	}, "-type", "Payload")
	write(t, filepath.Join(d, "tx.go"), strings.Replace(src, "type Payload struct", "//cborgen:embeddable\ntype Payload struct", 1))
	mustGenerate(t, d, "-type", "Payload")
	goCmd(t, dir, "test", "./tx")
}

// TestEmbeddingInTestFiles: a tag library's users extend its generated
// types by embedding them; in a test file (of the package, or of its
// external test package) that loses every field of the extension, since
// Go promotes the generated methods and fxamacker/cbor calls them.
// cbor-gen refuses the run, naming the test file; -check ./... refuses a
// package of the module that embeds the type, in any build
// configuration; with the type //cborgen:embeddable the tests keep
// every field.
func TestEmbeddingInTestFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	attrs := `package attrs

//cborgen:array
type GlobalAttributes struct {
	ID    string ` + "`cbor:\"1,keyasint\"`" + `
	Class string ` + "`cbor:\"2,keyasint\"`" + `
}
`
	roundTrip := `
	in := Ext{Bing: "b"}
	in.ID = "x"
	data, err := cbor.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Ext
	if err := cbor.Unmarshal(data, &out); err != nil || out != in {
		t.Fatalf("%x read back as %+v, %v", data, out, err)
	}
}
`
	dir := newModule(t, map[string]string{
		"attrs/attrs.go": attrs,
		"attrs/ext_test.go": `package attrs

import (
	"testing"

	"github.com/fxamacker/cbor/v2"
)

type Ext struct {
	GlobalAttributes
	Bing string ` + "`cbor:\"32768,keyasint\"`" + `
}

func TestExt(t *testing.T) {` + roundTrip,
		"attrs/ext_x_test.go": `package attrs_test

import (
	"testing"

	"example.com/m/attrs"
)

func TestWrap(t *testing.T) {
	type wrap struct {
		*attrs.GlobalAttributes
		N int
	}
	_ = wrap{}
}
`,
		"use/use.go": "package use\n",
		"use/later.go": `//go:build go1.99

package use

import "example.com/m/attrs"

type Page struct {
	attrs.GlobalAttributes
	Title string
}
`,
	})
	d := filepath.Join(dir, "attrs")
	mustFail(t, d, []string{
		"ext_test.go:10:2: Ext, in ext_test.go (a test file), embeds GlobalAttributes, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates",
		"drop its other fields",
		"Give Ext MarshalCBOR and UnmarshalCBOR of its own, name the field (GlobalAttributes GlobalAttributes), or mark GlobalAttributes //cborgen:embeddable",
		"ext_x_test.go:10:7: the type wrap declared inside a function, in ext_x_test.go (a test file of the external package attrs_test), embeds attrs.GlobalAttributes",
	}, "-type", "GlobalAttributes")

	// The run cannot see package use; -check ./... can. Generate with
	// the test files' fields named.
	ext, _ := os.ReadFile(filepath.Join(d, "ext_test.go"))
	write(t, filepath.Join(d, "ext_test.go"), strings.Replace(string(ext), "\tGlobalAttributes\n", "\tGA GlobalAttributes\n", 1))
	os.Remove(filepath.Join(d, "ext_x_test.go"))
	mustGenerate(t, d, "-type", "GlobalAttributes")
	code, _, stderr := run(t, dir, "-check", "./...")
	if code != 1 || !strings.Contains(stderr, "later.go:8:2: Page, in later.go (built only with //go:build go1.99), embeds attrs.GlobalAttributes") {
		t.Fatalf("-check ./... exited %d:\n%s", code, stderr)
	}

	// Embeddable: every field is kept, in the test file and in use.
	write(t, filepath.Join(d, "ext_test.go"), string(ext))
	write(t, filepath.Join(d, "attrs.go"), strings.Replace(attrs, "type GlobalAttributes struct", "//cborgen:embeddable\ntype GlobalAttributes struct", 1))
	mustGenerate(t, d, "-type", "GlobalAttributes")
	if code, _, stderr := run(t, dir, "-check", "./..."); code != 0 {
		t.Fatalf("-check ./... exited %d:\n%s", code, stderr)
	}
	goCmd(t, dir, "test", "./attrs")
}
