package cbortest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/runtime"
)

// Hostile is one input a decoder must refuse: Is is a cause errors.Is
// must find in the error (nil: any *runtime.Error will do). SliceOnly
// marks an input that only a decoder over a slice refuses, such as bytes
// after the item, which a stream leaves for the next call.
type Hostile struct {
	Name      string
	Data      []byte
	Is        error
	SliceOnly bool
}

// Damaged returns hostile inputs made from valid encodings, for the
// decoders of types that a Suite cannot check (unions, and types without
// a mirror): every proper prefix of each encoding (io.ErrUnexpectedEOF),
// every item of it replaced by each forged head (a length far beyond the
// input or the limits, an indefinite container never closed), and the
// encoding with a byte after it (runtime.ErrTrailing, over a slice). With
// go test -short, an even sample of about 300 of them.
func Damaged(encs [][]byte) []Hostile {
	var cases []Hostile
	for e, enc := range encs {
		for n := 1; n < len(enc); n++ {
			cases = append(cases, Hostile{fmt.Sprintf("encoding %d cut to %d bytes", e, n), enc[:n], io.ErrUnexpectedEOF, false})
		}
		for _, it := range flatten(parse(enc, 0)) {
			for _, h := range forgedHeads {
				if bytes.Equal(h, []byte{0xdb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}) {
					continue // a tag number: read through where the type has no use for it
				}
				cases = append(cases, Hostile{fmt.Sprintf("encoding %d, item at %d replaced by head %x", e, it.start, h),
					splice(enc, it.start, it.end, h), nil, false})
			}
		}
		cases = append(cases, Hostile{fmt.Sprintf("encoding %d and a byte after it", e), append(bytes.Clone(enc), 0x00), runtime.ErrTrailing, true})
	}
	return shortSample(cases, shortHostile)
}

// CheckDecoder runs each case through decode, over the slice, and through
// stream, over a one-byte-at-a-time reader of it: each must return an
// error, a *runtime.Error that errors.Is matches with the case's cause,
// without a panic and within the allocation bound of the examples' hostile
// tables. It stops at the first case that fails.
func CheckDecoder(t *testing.T, cases []Hostile, decode func([]byte) error, stream func(*runtime.Decoder) error) {
	t.Helper()
	for _, c := range cases {
		bound := uint64(allocPerByte*len(c.Data) + allocFixed)
		for _, overStream := range []bool{false, true} {
			if overStream && c.SliceOnly {
				continue
			}
			how := "over a slice"
			if overStream {
				how = "over a one-byte reader"
			}
			var err error
			var panicked any
			n := allocated(func() {
				defer func() { panicked = recover() }()
				if overStream {
					err = stream(runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(c.Data))))
				} else {
					err = decode(c.Data)
				}
			}, bound)
			var rerr *runtime.Error
			switch {
			case panicked != nil:
				t.Errorf("%s, %s: decoding %x panicked: %v", c.Name, how, c.Data, panicked)
			case n > bound:
				t.Errorf("%s, %s: decoding %d bytes allocated %d bytes, more than %d", c.Name, how, len(c.Data), n, bound)
			case err == nil:
				t.Errorf("%s, %s: decoding %x = nil, want an error", c.Name, how, c.Data)
			case !errors.As(err, &rerr):
				t.Errorf("%s, %s: decoding %x = %v (%T), not a *runtime.Error", c.Name, how, c.Data, err, err)
			case c.Is != nil && !errors.Is(err, c.Is):
				t.Errorf("%s, %s: decoding %x = %v, want %v", c.Name, how, c.Data, err, c.Is)
			}
			if t.Failed() {
				return // one clear failure beats thousands
			}
		}
	}
}
