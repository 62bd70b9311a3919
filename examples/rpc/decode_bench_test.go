package rpc_test

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/rpc"
)

// Decoding benchmarks of the golden samples, for instruction counts of
// the generated decoders (see docs/performance.md and bench/icount.sh).

func benchDecode(b *testing.B, file string) {
	h, err := os.ReadFile("testdata/" + file)
	if err != nil {
		b.Fatal(err)
	}
	data, err := hex.DecodeString(strings.Join(strings.Fields(string(h)), ""))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var r rpc.Request
		if err := r.UnmarshalCBOR(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRequest(b *testing.B)       { benchDecode(b, "Request.put.hex") }
func BenchmarkDecodeRequestLegacy(b *testing.B) { benchDecode(b, "Request.put.legacy.hex") }
