// Command storagedemo prints the sample records of package storage in the
// current CBOR format, then reads each one as version 1 of the store wrote it
// (a CBOR map per struct, made here with fxamacker/cbor from the version 1
// types) and shows that writing it back gives the current bytes.
//
//	go generate ./examples/storage && go run ./examples/storage/cmd/storagedemo
package main

import (
	"bytes"
	"fmt"
	"log"
	"maps"
	"os"
	"slices"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/examples/storage/internal/fixture"
	"github.com/fxamacker/cbor/v2"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("storagedemo: ")

	// The encoder version 1 used; deterministic so the output is stable.
	v1, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		log.Fatal(err)
	}

	ok := true
	samples := fixture.Composites()
	for _, name := range slices.Sorted(maps.Keys(samples)) {
		rec := samples[name]
		current, err := rec.MarshalCBOR()
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		fmt.Printf("Composite %q, %d bytes:\n  %x\n", name, len(current), current)

		var old fixture.LegacyComposite
		mirror.Convert(&old, rec)
		legacy, err := v1.Marshal(old)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		fmt.Printf("  version 1 map format, %d bytes:\n  %x\n", len(legacy), legacy)

		var read storage.Composite
		if err := read.UnmarshalCBOR(legacy); err != nil {
			log.Fatalf("%s: reading the version 1 record: %v", name, err)
		}
		again, err := read.AppendCBOR(nil)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		same := bytes.Equal(again, current)
		ok = ok && same
		fmt.Printf("  read and written back: equal to the current bytes: %v\n\n", same)
	}

	limits := fixture.LimitsSamples()
	for _, name := range slices.Sorted(maps.Keys(limits)) {
		l := limits[name]
		b, err := l.MarshalCBOR()
		if err != nil {
			log.Fatalf("limits %s: %v", name, err)
		}
		fmt.Printf("Limits %q, %d bytes:\n  %x\n", name, len(b), b)
	}
	if !ok {
		fmt.Fprintln(os.Stderr, "storagedemo: a version 1 record did not come back as the current bytes")
		os.Exit(1)
	}
}
