package generator_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/realworld"
)

// TestDefaultOptionsThroughFxamacker: fxamacker's Unmarshal calls the
// generated UnmarshalCBOR without options, so a program whose data is
// deeper or longer than the built-in limits sets them once with
// runtime.SetDefaultOptions. A DecMode that allows depth 256 and ten
// million elements then decodes what the generated decoder refused with
// the defaults, to the value that was encoded; the zero Options restore
// the defaults.
func TestDefaultOptionsThroughFxamacker(t *testing.T) {
	t.Cleanup(func() { genrt.SetDefaultOptions(genrt.Options{}) })
	dm, err := cbor.DecOptions{MaxNestedLevels: 256, MaxArrayElements: 10_000_000}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	deep := &realworld.Tree{Value: 1}
	for i := 0; i < 100; i++ {
		deep = &realworld.Tree{Value: i, Left: deep}
	}
	long := &realworld.Tree{Kids: make([]realworld.Tree, 200_000)}
	for i := range long.Kids {
		long.Kids[i].Value = i
	}
	for _, in := range []*realworld.Tree{deep, long} {
		b, err := in.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var out realworld.Tree
		if err := dm.Unmarshal(b, &out); !errors.Is(err, genrt.ErrLimit) {
			t.Fatalf("with the built-in limits: %v, want ErrLimit", err)
		}
		genrt.SetDefaultOptions(genrt.Options{MaxDepth: 256, MaxArrayElements: 10_000_000})
		out = realworld.Tree{}
		if err := dm.Unmarshal(b, &out); err != nil {
			t.Fatalf("with SetDefaultOptions: %v", err)
		}
		if !reflect.DeepEqual(&out, in) {
			t.Fatal("decoded a different tree")
		}
		if got := genrt.NewBytesDecoder(nil).Options(); got.MaxDepth != 256 || got.MaxMapPairs != genrt.DefaultMaxMapPairs || genrt.DefaultOptions().MaxDepth != genrt.DefaultMaxDepth {
			t.Fatalf("a new decoder has %+v", got)
		}
		// Explicit options still win: runtime.Unmarshal takes its own,
		// and its zero fields the process defaults (so the long tree,
		// within depth 16, decodes with the process's element limit).
		err = genrt.Unmarshal(b, &out, genrt.Options{MaxDepth: 16})
		if in == deep && !errors.Is(err, genrt.ErrLimit) || in == long && err != nil {
			t.Fatalf("explicit MaxDepth 16: %v", err)
		}
		genrt.SetDefaultOptions(genrt.Options{})
		if err := dm.Unmarshal(b, &out); !errors.Is(err, genrt.ErrLimit) {
			t.Fatalf("after restoring the defaults: %v, want ErrLimit", err)
		}
	}
}
