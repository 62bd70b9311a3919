// Command rpcdemo prints the sample messages of package rpc in the current
// CBOR format, then plays a server reading a stream in which an old client's
// requests (CBOR maps, written here with fxamacker/cbor from the old types)
// and a new client's requests (CBOR arrays) are mixed. Each request read is
// written back and compared with the current bytes.
//
//	go generate ./examples/rpc && go run ./examples/rpc/cmd/rpcdemo
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"slices"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/rpc"
	"github.com/cborgen/cborgen/examples/rpc/internal/fixture"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("rpcdemo: ")

	requests := fixture.Requests()
	names := slices.Sorted(maps.Keys(requests))
	current := map[string][]byte{}
	for _, name := range names {
		req := requests[name]
		b, err := req.MarshalCBOR()
		if err != nil {
			log.Fatalf("request %s: %v", name, err)
		}
		current[name] = b
		fmt.Printf("Request %q, %d bytes:\n  %x\n", name, len(b), b)
	}
	responses := fixture.Responses()
	for _, name := range slices.Sorted(maps.Keys(responses)) {
		resp := responses[name]
		b, err := resp.MarshalCBOR()
		if err != nil {
			log.Fatalf("response %s: %v", name, err)
		}
		fmt.Printf("Response %q, %d bytes:\n  %x\n", name, len(b), b)
	}

	// One stream: each request as an old client sends it, then as a new
	// client does. Old clients used fxamacker/cbor's default options, so
	// header order varies from run to run; that does not matter here.
	var wire bytes.Buffer
	for _, name := range names {
		var old fixture.LegacyRequest
		mirror.Convert(&old, requests[name])
		legacy, err := cbor.Marshal(old)
		if err != nil {
			log.Fatalf("request %s: %v", name, err)
		}
		wire.Write(legacy)
		wire.Write(current[name])
	}
	fmt.Printf("\nA stream of %d requests, %d bytes, old and new clients mixed.\n", 2*len(names), wire.Len())

	ok := true
	d := runtime.NewDecoder(&wire)
	for i := 0; ; i++ {
		major, err := d.PeekMajor()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		format := "array (current)"
		if major == genrt.MajorMap {
			format = "map (legacy)"
		}
		var req rpc.Request
		if err := req.DecodeCBOR(d); err != nil {
			log.Fatalf("request %d: %v", i, err)
		}
		name := names[i/2]
		again, err := req.AppendCBOR(nil)
		if err != nil {
			log.Fatal(err)
		}
		same := bytes.Equal(again, current[name])
		ok = ok && same
		fmt.Printf("  %-16s %-7s id=%-10d %-8s written back equal to the current bytes: %v\n",
			format, name, req.ID, req.Method, same)
	}
	if !ok {
		fmt.Fprintln(os.Stderr, "rpcdemo: a request did not come back as the current bytes")
		os.Exit(1)
	}
}
