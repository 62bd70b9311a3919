// Command gen writes ../cbor_gen.go: whyrusleeping/cbor-gen's tuple
// encoders for the types of package wrcbg. Run it with go generate in the
// package directory.
package main

import (
	"log"

	cbg "github.com/whyrusleeping/cbor-gen"

	"github.com/cborgen/cborgen/bench/peers/wrcbg"
)

func main() {
	err := cbg.Gen{MaxArrayLength: 1 << 17, MaxStringLength: 1 << 20}.WriteTupleEncodersToFile("cbor_gen.go", "wrcbg",
		wrcbg.Request{},
		wrcbg.Graph{},
		wrcbg.Node{},
		wrcbg.Edge{},
		wrcbg.Location{},
		wrcbg.Composite{},
		wrcbg.Field{},
		wrcbg.Value{},
	)
	if err != nil {
		log.Fatal(err)
	}
}
