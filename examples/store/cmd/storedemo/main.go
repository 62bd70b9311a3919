// Command storedemo prints the sample values of package store in the
// current CBOR format, each value under the tag of its kind, then reads
// each one as an older version of the store wrote it (composites as maps
// with integer keys, under the same tag; testdata/*.legacy.hex) and shows
// that writing it back gives the current bytes.
//
//	go generate ./examples/store && go run ./examples/store/cmd/storedemo
package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/cborgen/cborgen/examples/store"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("storedemo: ")
	_, file, _, _ := runtime.Caller(0)
	testdata := filepath.Join(filepath.Dir(file), "..", "..", "testdata")

	ok := true
	samples := store.Samples()
	for _, name := range slices.Sorted(maps.Keys(samples)) {
		current, err := store.MarshalValueCBOR(samples[name])
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		fmt.Printf("%-10s %3d bytes  %x\n", name, len(current), current)

		text, err := os.ReadFile(filepath.Join(testdata, name+".legacy.hex"))
		if err != nil {
			log.Fatal(err)
		}
		legacy, err := hex.DecodeString(strings.TrimSpace(string(text)))
		if err != nil {
			log.Fatal(err)
		}
		v, err := store.UnmarshalValueCBOR(legacy)
		if err != nil {
			log.Fatalf("%s: legacy: %v", name, err)
		}
		again, err := store.MarshalValueCBOR(v)
		if err != nil {
			log.Fatal(err)
		}
		same := bytes.Equal(again, current)
		ok = ok && same
		fmt.Printf("  legacy   %3d bytes  read as %T, written back equal to the current bytes: %v\n", len(legacy), v, same)
	}
	if !ok {
		os.Exit(1)
	}
}
