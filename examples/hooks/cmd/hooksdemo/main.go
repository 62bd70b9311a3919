// Command hooksdemo shows the three hooks of the example package hooks
// around their generated bodies: a record's version defaulted on
// encoding and checked on decoding, a block that keeps the bytes it was
// decoded from for its hash, and an envelope whose payload decodes into
// the value the program put in it, each also nested in an Archive.
package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"log"

	"github.com/cborgen/cborgen/examples/hooks"
)

func main() {
	// A record without a version is written with the current one, under
	// its tag.
	rec := hooks.Record{ID: 7, Name: "seven", Labels: []string{"a"}}
	enc, err := rec.MarshalCBOR()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Record, version left 0 (tag %d, version %d written):\n  %s\n", hooks.RecordTag, hooks.RecordVersion, hex.EncodeToString(enc))

	// A record of another version is refused, also inside an archive.
	old := hooks.Record{Version: 1, ID: 7, Name: "seven"}
	archive := hooks.Archive{Head: old}
	data, err := archive.MarshalCBOR()
	if err != nil {
		log.Fatal(err)
	}
	var back hooks.Archive
	err = back.UnmarshalCBOR(data)
	fmt.Printf("an archive holding a version 1 record: %v (errors.Is ErrVersion: %t)\n", err, errors.Is(err, hooks.ErrVersion))

	// A block keeps the bytes it was decoded from: here a height written
	// with a longer head than needed, which a re-encoding would shorten.
	input, _ := hex.DecodeString("831900054080") // [5 (as 19 0005), h'', []]
	var b hooks.Block
	if err := b.UnmarshalCBOR(input); err != nil {
		log.Fatal(err)
	}
	again, _ := b.MarshalCBOR()
	h, _ := b.Hash()
	fmt.Printf("Block decoded from %x: kept %x, re-encoded %x, hash of the kept bytes %x...\n", input, b.Raw(), again, h[:8])

	// Nested in an archive, each block keeps its own item's bytes.
	archive = hooks.Archive{Head: rec, Blocks: []hooks.Block{{Height: 1}, {Height: 2, Prev: []byte{0xaa}}}}
	if data, err = archive.MarshalCBOR(); err != nil {
		log.Fatal(err)
	}
	back = hooks.Archive{}
	if err := back.UnmarshalCBOR(data); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Archive %x:\n  its blocks kept %x and %x\n", data, back.Blocks[0].Raw(), back.Blocks[1].Raw())

	// The envelope's extension point: the program puts its own value in
	// before decoding, and the payload is decoded into it.
	env := hooks.Envelope{Kind: "reading", Seq: 1, Ext: &hooks.Reading{Sensor: "t1", Value: -40}}
	if enc, err = env.MarshalCBOR(); err != nil {
		log.Fatal(err)
	}
	var reading hooks.Reading
	got := hooks.Envelope{Ext: &reading}
	if err := got.UnmarshalCBOR(enc); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Envelope %x:\n  payload %x decoded into the program's Reading: %+v\n", enc, []byte(got.Payload), reading)
}
