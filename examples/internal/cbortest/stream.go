package cbortest

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
)

// stream checks DecodeCBOR over a stream of items, as a server reads
// requests from a connection: one Decoder reads item after item, in both
// formats, through readers that return everything, one byte at a time,
// half of what is asked, or the last data together with io.EOF; the stream
// ends with io.EOF itself. A stream cut anywhere inside an item is
// io.ErrUnexpectedEOF, and a reader's error is wrapped where it happens.
func (s Suite[T, A, M]) stream(t *testing.T) {
	_, arrays, legacies := s.bases(t)
	var seq []byte
	var ends []int
	var want []T
	for i := range arrays {
		for _, enc := range [][]byte{arrays[i], legacies[i]} {
			var v T
			if err := any(&v).(Codec).UnmarshalCBOR(enc); err != nil {
				t.Fatalf("UnmarshalCBOR(%x): %v", enc, err)
			}
			seq = append(seq, enc...)
			ends = append(ends, len(seq))
			want = append(want, v)
		}
	}
	readers := []struct {
		name string
		new  func([]byte) io.Reader
	}{
		{"bytes.Reader", func(b []byte) io.Reader { return bytes.NewReader(b) }},
		{"one byte at a time", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
		{"half reads", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
		{"data with io.EOF", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	}
	for _, r := range readers {
		for _, opts := range []runtime.Options{{}, {Strict: true}} {
			d := runtime.NewDecoder(r.new(seq))
			d.SetOptions(opts)
			for i, w := range want {
				var v T
				if err := any(&v).(Codec).DecodeCBOR(d); err != nil {
					t.Fatalf("%s, strict %v: item %d: %v", r.name, opts.Strict, i, err)
				}
				if diff := mirror.Diff(w, v); diff != "" {
					t.Fatalf("%s: item %d differs at %s%s", r.name, i, typeName[T](), diff)
				}
				if d.Offset() != int64(ends[i]) {
					t.Fatalf("%s: after item %d at offset %d, want %d", r.name, i, d.Offset(), ends[i])
				}
			}
			for range 2 {
				var v T
				if err := any(&v).(Codec).DecodeCBOR(d); err != io.EOF {
					t.Fatalf("%s: at the end of the stream: %v, want io.EOF itself", r.name, err)
				}
			}
		}
	}

	// Cut the stream, or make the reader fail, at every offset of the
	// first items.
	short := 4
	if len(ends) < short {
		short = len(ends)
	}
	seq = seq[:ends[short-1]]
	errBroken := errors.New("connection reset")
	for k := 0; k <= len(seq); k++ {
		for _, fail := range []bool{false, true} {
			var r io.Reader = iotest.OneByteReader(bytes.NewReader(seq[:k]))
			if fail {
				r = &failingReader{data: seq[:k], err: errBroken}
			}
			d := runtime.NewDecoder(r)
			for i := 0; ; i++ {
				var v T
				err := any(&v).(Codec).DecodeCBOR(d)
				if i < short && ends[i] <= k {
					if err != nil {
						t.Fatalf("first %d bytes, reader fails %v: item %d: %v", k, fail, i, err)
					}
					continue
				}
				atBoundary := k == 0 || (i > 0 && ends[i-1] == k)
				var rerr *runtime.Error
				switch {
				case !fail && atBoundary:
					if err != io.EOF {
						t.Fatalf("first %d bytes: after item %d: %v, want io.EOF", k, i, err)
					}
				case !errors.As(err, &rerr):
					t.Fatalf("first %d bytes, reader fails %v: item %d: %v (%T), want a *runtime.Error", k, fail, i, err, err)
				case fail && !errors.Is(err, errBroken):
					t.Fatalf("first %d bytes then the reader's error: item %d: %v, want it to wrap the reader's error", k, i, err)
				case !fail && !errors.Is(err, io.ErrUnexpectedEOF):
					t.Fatalf("first %d bytes: item %d: %v, want io.ErrUnexpectedEOF", k, i, err)
				}
				break
			}
		}
	}
}

// failingReader returns data one byte at a time, then err.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.data[0]
	r.data = r.data[1:]
	return 1, nil
}
