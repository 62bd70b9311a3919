package cbortest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// Zero-copy then reuse: a value decoded with runtime.Options{ZeroCopy:
// true} holds byte slices and strings that alias its input; decoding
// another input into the same value, in any mode, must leave that first
// input byte for byte as it was (it may be another buffer of the
// program's, or memory mapped read-only), and must give what decoding into
// a new value gives.

// reuseModes are the ways the second input is decoded into the value.
var reuseModes = []struct {
	name   string
	decode func(v Codec, data []byte) error
}{
	{"UnmarshalCBOR", func(v Codec, data []byte) error { return v.UnmarshalCBOR(data) }},
	{"Unmarshal zero-copy", func(v Codec, data []byte) error {
		return runtime.Unmarshal(data, v, runtime.Options{ZeroCopy: true})
	}},
	{"stream", func(v Codec, data []byte) error {
		d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(data)))
		if err := v.DecodeCBOR(d); err != nil {
			return err
		}
		if d.More() {
			return errors.New("data after the item") // as UnmarshalCBOR refuses it
		}
		return nil
	}},
}

// ZeroCopyReuse decodes first into a new T with ZeroCopy, then second into
// that value in each mode (UnmarshalCBOR, runtime.Unmarshal with ZeroCopy,
// a stream), and returns "" when first is unchanged after each and the
// value is what second decodes to in the same value decoded from a copy of
// first without ZeroCopy (in place, as fxamacker decodes: the aliasing of
// the earlier input changes nothing), or both decodes fail, else what went
// wrong. When readOnly is set, first is copied into memory
// mapped read-only (on Linux; elsewhere it is used as it is), where a
// write is a fault, reported as such. A first input that T refuses is
// nothing to reuse: "".
func ZeroCopyReuse[T any](first, second []byte, readOnly bool) (msg string) {
	if readOnly {
		ro, release := ReadOnlyCopy(first)
		defer release()
		first = ro
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprintf("%x then %x: a decode wrote into the read-only first input: %v", first, second, r)
			}
		}()
	}
	keep := bytes.Clone(first)
	var fresh T
	if err := any(&fresh).(Codec).UnmarshalCBOR(bytes.Clone(first)); err != nil {
		return ""
	}
	freshErr := any(&fresh).(Codec).UnmarshalCBOR(bytes.Clone(second))
	for _, m := range reuseModes {
		var used T
		if err := runtime.Unmarshal(first, any(&used).(Codec), runtime.Options{ZeroCopy: true}); err != nil {
			return ""
		}
		in := bytes.Clone(second)
		err := m.decode(any(&used).(Codec), in)
		if !bytes.Equal(first, keep) {
			return fmt.Sprintf("%x then %x (%s): the first input changed to %x", keep, second, m.name, first)
		}
		switch {
		case (err == nil) != (freshErr == nil):
			return fmt.Sprintf("%x then %x (%s): %v; into a copied value: %v", keep, second, m.name, err, freshErr)
		case err == nil:
			if d := mirror.Diff(used, fresh); d != "" {
				return fmt.Sprintf("%x then %x (%s): differs from a decode into a copied value at %s%s", keep, second, m.name, typeName[T](), d)
			}
		}
	}
	return ""
}

// Indefinite returns b, a well-formed item of definite lengths, with each
// byte and text string made of indefinite length: two chunks (one for a
// string shorter than two bytes, none for an empty one). A text string is
// cut at a rune boundary, as each chunk must be valid UTF-8. It returns
// nil when b is not a single well-formed item of definite lengths.
func Indefinite(b []byte) []byte {
	out, rest, ok := indefiniteStrings(nil, b, 0)
	if !ok || len(rest) != 0 {
		return nil
	}
	return out
}

func indefiniteStrings(dst, b []byte, depth int) (out, rest []byte, ok bool) {
	if len(b) == 0 || depth > 64 {
		return nil, nil, false
	}
	ib := b[0]
	major, ai := ib>>5, ib&0x1f
	size := 1
	var arg uint64
	switch {
	case ai < 24:
		arg = uint64(ai)
	case ai <= 27:
		n := 1 << (ai - 24)
		if len(b) < 1+n {
			return nil, nil, false
		}
		var w [8]byte
		copy(w[8-n:], b[1:1+n])
		arg, size = binary.BigEndian.Uint64(w[:]), 1+n
	default:
		return nil, nil, false // indefinite or reserved
	}
	head, b := b[:size], b[size:]
	switch major {
	case genrt.MajorBytes, genrt.MajorText:
		if arg > uint64(len(b)) {
			return nil, nil, false
		}
		s := b[:arg]
		cut := len(s) / 2
		if major == genrt.MajorText {
			for cut > 0 && cut < len(s) && s[cut]&0xc0 == 0x80 {
				cut--
			}
		}
		dst = append(dst, major<<5|31)
		for _, c := range [][]byte{s[:cut], s[cut:]} {
			if len(c) > 0 {
				dst = genrt.AppendHead(dst, major, uint64(len(c)))
				dst = append(dst, c...)
			}
		}
		return append(dst, 0xff), b[arg:], true
	case genrt.MajorArray, genrt.MajorMap, genrt.MajorTag:
		n := arg
		switch major {
		case genrt.MajorMap:
			n *= 2
		case genrt.MajorTag:
			n = 1
		}
		if n > uint64(len(b)) {
			return nil, nil, false
		}
		dst = append(dst, head...)
		for range n {
			if dst, b, ok = indefiniteStrings(dst, b, depth+1); !ok {
				return nil, nil, false
			}
		}
		return dst, b, true
	}
	return append(dst, head...), b, true
}
