package storage_test

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/runtime"
)

// Decoding records in a loop into one value, as a reader of a log of
// records does: the byte slices, slices and pointees the value holds are
// reused from one record to the next.

func benchDecodeReuse(b *testing.B, file string, opts *runtime.Options) {
	data := readSample(b, file)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	var c storage.Composite
	for b.Loop() {
		var err error
		if opts != nil {
			err = runtime.Unmarshal(data, &c, *opts)
		} else {
			err = c.UnmarshalCBOR(data)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeCompositeReuse(b *testing.B) { benchDecodeReuse(b, "Composite.vault.hex", nil) }
func BenchmarkDecodeCompositeLegacyReuse(b *testing.B) {
	benchDecodeReuse(b, "Composite.vault.legacy.hex", nil)
}
func BenchmarkDecodeCompositeLegacyReuseZeroCopy(b *testing.B) {
	benchDecodeReuse(b, "Composite.vault.legacy.hex", &runtime.Options{ZeroCopy: true})
}

// readSample reads the golden file testdata/file (hex, spaces and lines
// ignored).
func readSample(tb testing.TB, file string) []byte {
	tb.Helper()
	h, err := os.ReadFile("testdata/" + file)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := hex.DecodeString(strings.Join(strings.Fields(string(h)), ""))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}
