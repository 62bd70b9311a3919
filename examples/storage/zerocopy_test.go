package storage_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/examples/storage/internal/fixture"
)

// Zero-copy then reuse (cbortest.ZeroCopyReuse): a record decoded with
// ZeroCopy holds byte slices in its input, in struct fields (ID, a
// pointee's ID), in slice elements (Fields[i].Value.Bytes,
// Value.Array[i].Bytes) and in map values (Value.Dict[k].Bytes);
// decoding the next record into it never writes into that input, whether
// the next record's strings are of definite or indefinite length, in the
// array or the legacy map format, over a slice, through runtime.Unmarshal
// or over a stream.

// reuseRecord is a record with a byte slice in every position, each
// filled with c and n bytes long.
func reuseRecord(c byte, n int) storage.Composite {
	b := func() []byte { return bytes.Repeat([]byte{c}, n) }
	return storage.Composite{
		ID:       b(),
		TypeName: string(bytes.Repeat([]byte{c}, n)),
		Fields: []storage.Field{
			{Name: "bytes", Value: storage.Value{Bytes: b()}},
			{Name: "dict", Value: storage.Value{Dict: map[string]storage.Value{"k": {Bytes: b()}}}},
			{Name: "array", Value: storage.Value{Array: []storage.Value{{Bytes: b()}, {Bytes: b()}}}},
			{Name: "inner", Value: storage.Value{Composite: &storage.Composite{ID: b(), TypeName: "T"}}},
		},
		Version: 1,
	}
}

// reuseInputs are the encodings of v: the array format and the legacy map
// format (fxamacker/cbor's encoding of the struct), each with its strings
// of definite and of indefinite length.
func reuseInputs(t testing.TB, v storage.Composite) map[string][]byte {
	arr, err := v.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := cbor.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"array": arr, "legacy": legacy}
	for name, b := range map[string][]byte{"array": arr, "legacy": legacy} {
		ind := cbortest.Indefinite(b)
		if ind == nil {
			t.Fatalf("%s %x: not made indefinite", name, b)
		}
		out[name+" indefinite"] = ind
	}
	return out
}

func TestZeroCopyReuse(t *testing.T) {
	firsts := reuseInputs(t, reuseRecord('a', 12))
	var seconds []map[string][]byte
	for _, n := range []int{0, 1, 5, 12} { // fits in the first's arrays, or as long
		seconds = append(seconds, reuseInputs(t, reuseRecord('b', n)))
	}
	for _, ro := range []bool{false, true} {
		for fname, first := range firsts {
			for _, s := range seconds {
				for sname, second := range s {
					if msg := cbortest.ZeroCopyReuse[storage.Composite](first, second, ro); msg != "" {
						t.Errorf("read-only %v, first %s, then %s: %s", ro, fname, sname, msg)
					}
				}
			}
		}
	}
}

// reuseSeeds are the first inputs of the fuzz target and of the mutation
// run: the samples and reuseRecord, in both formats and both lengths.
func reuseSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, v := range fixture.Composites() {
		for _, b := range reuseInputs(t, v) {
			seeds = append(seeds, b)
		}
	}
	for _, b := range reuseInputs(t, reuseRecord('a', 12)) {
		seeds = append(seeds, b)
	}
	return seeds
}

// TestZeroCopyReuseMutations: a zero-copy decode of a seed, then a
// mutation of a seed decoded into the same value.
func TestZeroCopyReuseMutations(t *testing.T) {
	seeds := reuseSeeds(t)
	n := 10000
	if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(seed, 0x7a65726f))
	for i := range n {
		first := seeds[r.IntN(len(seeds))]
		second := cbortest.Mutate(r, seeds[r.IntN(len(seeds))])
		if msg := cbortest.ZeroCopyReuse[storage.Composite](first, second, i%8 == 0); msg != "" {
			t.Fatalf("mutation %d: %s", i, msg)
		}
	}
}

// FuzzZeroCopyReuse: the fuzzer's input decoded into a value that a
// zero-copy decode of a seed filled, the first input read-only, and the
// same with the input's strings made of indefinite length.
func FuzzZeroCopyReuse(f *testing.F) {
	seeds := reuseSeeds(f)
	for _, b := range seeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		first := seeds[len(data)%len(seeds)]
		if msg := cbortest.ZeroCopyReuse[storage.Composite](first, data, true); msg != "" {
			t.Fatal(msg)
		}
		if ind := cbortest.Indefinite(data); ind != nil {
			if msg := cbortest.ZeroCopyReuse[storage.Composite](first, ind, true); msg != "" {
				t.Fatal(msg)
			}
		}
	})
}
