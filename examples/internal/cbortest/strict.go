package cbortest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// strict checks Options.Strict on edits of valid encodings that the
// default options accept: each head one size longer than the shortest,
// each string, array and map with an indefinite length, each map with its
// first pair twice, and each legacy map with an unknown key twice. The
// default options read every edit as the original value (a pair twice
// keeps the first value, as fxamacker/cbor's default keeps it); strict
// mode refuses every one, over a slice and over a stream.
func (s Suite[T, A, M]) strict(t *testing.T) {
	_, arrays, legacies := s.bases(t)
	strictOpts := runtime.Options{Strict: true}
	checked := 0
	for e, enc := range append(append([][]byte(nil), arrays...), legacies...) {
		var want T
		if err := runtime.Unmarshal(enc, any(&want).(Codec), strictOpts); err != nil {
			t.Fatalf("strict UnmarshalCBOR(%x), core deterministic: %v", enc, err)
		}
		type edit struct {
			name string
			data []byte
			is   error
		}
		var edits []edit
		top := parse(enc, 0)
		for _, sp := range flatten(top) {
			if h, ok := longerHead(enc, sp); ok {
				edits = append(edits, edit{fmt.Sprintf("head at %d one size longer", sp.start), splice(enc, sp.start, sp.body, h), runtime.ErrStrict})
			}
			if b, ok := indefinite(enc, sp); ok {
				edits = append(edits, edit{fmt.Sprintf("item at %d with an indefinite length", sp.start), b, runtime.ErrStrict})
			}
			if sp.major == genrt.MajorMap && len(sp.kids) > 0 {
				first := enc[sp.kids[0].start:sp.kids[1].end]
				edits = append(edits, edit{fmt.Sprintf("map at %d with its first pair twice", sp.start), withPairs(enc, sp, 1, first), runtime.ErrDuplicateKey})
			}
		}
		if top.major == genrt.MajorMap {
			unknown := []byte{0x61, '~', 0x00}
			edits = append(edits, edit{"unknown key twice", withPairs(enc, top, 2, unknown, unknown), runtime.ErrDuplicateKey})
		}
		for _, ed := range shortSample(edits, 40) {
			checked++
			for _, stream := range []bool{false, true} {
				var got T
				err := decodeWith(&got, ed.data, runtime.Options{}, stream)
				switch {
				case err != nil:
					t.Errorf("base %d, %s, stream %v: default options: %v\n%x", e, ed.name, stream, err, ed.data)
				case err == nil:
					if d := mirror.Diff(want, got); d != "" {
						t.Errorf("base %d, %s, stream %v: default options read it differently at %s%s", e, ed.name, stream, typeName[T](), d)
					}
				}
				var strict T
				if err := decodeWith(&strict, ed.data, strictOpts, stream); !errors.Is(err, ed.is) {
					t.Errorf("base %d, %s, stream %v: strict: %v, want %v\n%x", e, ed.name, stream, err, ed.is, ed.data)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no edits")
	}
}

// decodeWith decodes data into v with opts: with runtime.Unmarshal, or
// with DecodeCBOR over a stream that returns one byte at a time (which
// must then end at the end of data).
func decodeWith[T any](v *T, data []byte, opts runtime.Options, stream bool) error {
	if !stream {
		return runtime.Unmarshal(data, any(v).(Codec), opts)
	}
	d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)))
	d.SetOptions(opts)
	if err := any(v).(Codec).DecodeCBOR(d); err != nil {
		return err
	}
	if d.Offset() != int64(len(data)) {
		return fmt.Errorf("stream decoder stopped at offset %d of %d", d.Offset(), len(data))
	}
	return nil
}
