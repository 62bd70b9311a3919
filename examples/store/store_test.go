package store_test

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/store"
)

// updating reports -update: rewrite testdata from fxamacker/cbor's encoding
// of the mirror types. Package cbortest defines the flag for every
// example's tests.
func updating() bool { return flag.Lookup("update").Value.(flag.Getter).Get().(bool) }

// The oracle: fxamacker/cbor with mirror types in a TagSet. The current
// composite is an array (its retired slot null); the legacy one, as
// version 1 of the store wrote it, a map with integer keys, including the
// retired key 2, which the generated decoder skips.
type (
	mComposite struct {
		_        struct{} `cbor:",toarray"`
		Kind     string
		Reserved any
		Fields   []mField
		Metadata mDict
	}
	mField struct {
		_     struct{} `cbor:",toarray"`
		Name  string
		Value any
	}
	lComposite struct {
		Kind     string   `cbor:"1,keyasint"`
		Location string   `cbor:"2,keyasint"`
		Fields   []lField `cbor:"3,keyasint"`
		Metadata mDict    `cbor:"4,keyasint,omitempty"`
	}
	lField struct {
		Name  string `cbor:"1,keyasint"`
		Value any    `cbor:"2,keyasint"`
	}
	mDict map[string]any
	mU64  uint64
	mI64  int64
	mU8   uint8
)

func modes(t *testing.T, legacy bool) cbor.EncMode {
	t.Helper()
	set := cbor.NewTagSet()
	opts := cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagRequired}
	comp := any(mComposite{})
	if legacy {
		comp = lComposite{}
	}
	for _, add := range []struct {
		v any
		n uint64
	}{{comp, 132}, {mDict(nil), 133}, {mU64(0), 164}, {mI64(0), 165}, {mU8(0), 160}} {
		if err := set.Add(opts, reflect.TypeOf(add.v), add.n); err != nil {
			t.Fatal(err)
		}
	}
	em, err := cbor.CoreDetEncOptions().EncModeWithTags(set)
	if err != nil {
		t.Fatal(err)
	}
	return em
}

// mirror converts a Value to the oracle's types.
func mirror(v store.Value, legacy bool) any {
	switch v := v.(type) {
	case nil:
		return nil
	case *store.Composite:
		var md mDict
		if v.Metadata != nil {
			md = mirror(v.Metadata, legacy).(mDict)
		}
		if legacy {
			c := &lComposite{Kind: v.Kind, Location: "retired", Metadata: md}
			for _, f := range v.Fields {
				c.Fields = append(c.Fields, lField{Name: f.Name, Value: mirror(f.Value, legacy)})
			}
			return c
		}
		c := &mComposite{Kind: v.Kind, Metadata: md}
		for _, f := range v.Fields {
			c.Fields = append(c.Fields, mField{Name: f.Name, Value: mirror(f.Value, legacy)})
		}
		return c
	case store.Dict:
		d := mDict{}
		for k, x := range v {
			d[k] = mirror(x, legacy)
		}
		return d
	case store.UInt64Value:
		return mU64(v)
	case store.Int64Value:
		return mI64(v)
	case store.UInt8Value:
		return mU8(v)
	case store.StringValue:
		return string(v)
	case store.BoolValue:
		return bool(v)
	}
	panic("no mirror")
}

// TestSamples: each sample encodes as fxamacker/cbor writes it with a
// TagSet (the committed testdata/NAME.hex), decodes back equal, and its
// legacy form (testdata/NAME.legacy.hex, a map with integer keys under
// the composite's tag) decodes and re-encodes into the current bytes.
func TestSamples(t *testing.T) {
	cur, old := modes(t, false), modes(t, true)
	for name, v := range store.Samples() {
		curPath := filepath.Join("testdata", name+".hex")
		oldPath := filepath.Join("testdata", name+".legacy.hex")
		if updating() {
			for path, em := range map[string]cbor.EncMode{curPath: cur, oldPath: old} {
				b, err := em.Marshal(mirror(v, path == oldPath))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(hex.EncodeToString(b)+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		want, legacy := readHex(t, curPath), readHex(t, oldPath)
		got, err := store.MarshalValueCBOR(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: generated %x\nwant (fxamacker) %x", name, got, want)
		}
		back, err := store.UnmarshalValueCBOR(got)
		if err != nil || !reflect.DeepEqual(back, v) {
			t.Errorf("%s: decoded %#v (%v)", name, back, err)
		}
		fromOld, err := store.UnmarshalValueCBOR(legacy)
		if err != nil {
			t.Fatalf("%s: legacy: %v", name, err)
		}
		if again, _ := store.MarshalValueCBOR(fromOld); !bytes.Equal(again, want) {
			t.Errorf("%s: legacy %x re-encodes as %x, want %x", name, legacy, again, want)
		}
	}
}

func readHex(t *testing.T, path string) []byte {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	b, err := hex.DecodeString(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
