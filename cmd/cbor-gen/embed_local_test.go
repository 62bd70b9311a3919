package main

import (
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
