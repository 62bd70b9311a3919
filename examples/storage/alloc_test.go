package storage_test

import (
	"bytes"
	"encoding/hex"
	"runtime"
	"testing"

	cbor "github.com/cborgen/cborgen/runtime"

	"github.com/cborgen/cborgen/examples/storage"
)

// allocation decodes data with decode and returns the bytes allocated in
// all and the bytes the decoded value keeps (live after a collection).
func allocation(decode func() any) (total, retained uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := decode()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return after.TotalAlloc - before.TotalAlloc, after.HeapAlloc - before.HeapAlloc
}

// TestIndefiniteAllocation: a Composite whose Fields are 84,022 empty maps
// allocates at most twice what the decoded value keeps, in an
// indefinite-length array or a definite one, over a byte slice or a
// stream (the growth of a slice element by element leaves its old backing
// arrays behind: five times the value).
func TestIndefiniteAllocation(t *testing.T) {
	const n = 84022
	head, _ := hex.DecodeString("868248000000000000000060400060")
	empties := bytes.Repeat([]byte{0xa0}, n)
	inputs := map[string][]byte{
		"indefinite": bytes.Join([][]byte{head, {0x9f}, empties, {0xff, 0x00}}, nil),
		"definite":   bytes.Join([][]byte{head, cbor.AppendArrayHead(nil, n), empties, {0x00}}, nil),
	}
	for name, data := range inputs {
		for _, stream := range []bool{false, true} {
			total, retained := allocation(func() any {
				var c storage.Composite
				var err error
				if stream {
					err = c.DecodeCBOR(cbor.NewDecoder(bytes.NewReader(data)))
				} else {
					err = c.UnmarshalCBOR(data)
				}
				if err != nil || len(c.Fields) != n {
					t.Fatalf("%s (stream %v): %d fields, %v", name, stream, len(c.Fields), err)
				}
				return &c
			})
			t.Logf("%s, stream %v: %d bytes in, %d allocated (%.0f B/B), %d retained (%.0f B/B)",
				name, stream, len(data), total, float64(total)/float64(len(data)), retained, float64(retained)/float64(len(data)))
			if total > 2*retained {
				t.Errorf("%s, stream %v: allocated %d bytes, more than twice the %d retained", name, stream, total, retained)
			}
		}
	}
}
