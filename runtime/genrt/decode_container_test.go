package genrt_test

import (
	"errors"
	"io"
	"math"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

func TestReadTag(t *testing.T) {
	for _, k := range decoderKinds {
		d := k.new(mustHex("c11a514b67b0 d9d9f7 00 db ffffffffffffffff 01"))
		if tag, err := d.ReadTag(); err != nil || tag != 1 {
			t.Errorf("%s ReadTag = %d, %v", k.name, tag, err)
		}
		if v, err := d.ReadUint64(); err != nil || v != 1363896240 {
			t.Errorf("%s tag content = %d, %v", k.name, v, err)
		}
		if tag, err := d.ReadTag(); err != nil || tag != 55799 {
			t.Errorf("%s ReadTag = %d, %v", k.name, tag, err)
		}
		if err := d.Skip(); err != nil {
			t.Errorf("%s Skip: %v", k.name, err)
		}
		if tag, err := d.ReadTag(); err != nil || tag != math.MaxUint64 {
			t.Errorf("%s ReadTag = %d, %v", k.name, tag, err)
		}
		if err := d.Skip(); err != nil {
			t.Errorf("%s Skip: %v", k.name, err)
		}
		if _, err := k.new(mustHex("01")).ReadTag(); !errors.Is(err, genrt.ErrType) {
			t.Errorf("%s ReadTag(01) = %v, want ErrType", k.name, err)
		}
	}
}

func TestReadBreak(t *testing.T) {
	for _, k := range decoderKinds {
		// A whole indefinite-length array is counted; Leave consumes
		// its break.
		d := k.new(mustHex("9f0102ff"))
		if n, err := d.ReadArrayHead(); err != nil || n != 2 {
			t.Fatalf("%s ReadArrayHead = %d, %v; want 2 (counted)", k.name, n, err)
		}
		for i := uint64(1); i <= 2; i++ {
			if v, err := d.ReadUint64(); v != i || err != nil {
				t.Fatalf("%s element = %d, %v", k.name, v, err)
			}
		}
		d.Leave()
		checkAtEnd(t, d, 4)

		// One that cannot be counted (cut short inside) is read to the
		// break.
		d = k.new(mustHex("9f01029f"))
		if n, err := d.ReadArrayHead(); err != nil || n != -1 {
			t.Fatalf("%s ReadArrayHead = %d, %v; want -1", k.name, n, err)
		}
		for i := uint64(1); i <= 2; i++ {
			if brk, err := d.ReadBreak(); brk || err != nil {
				t.Fatalf("%s ReadBreak before %d = %v, %v", k.name, i, brk, err)
			}
			if v, err := d.ReadUint64(); v != i || err != nil {
				t.Fatalf("%s element = %d, %v", k.name, v, err)
			}
		}
		if brk, err := d.ReadBreak(); brk || err != nil {
			t.Fatalf("%s ReadBreak before the last = %v, %v", k.name, brk, err)
		}

		// Missing break: truncated.
		d = k.new(mustHex("9f01"))
		d.ReadArrayHead()
		d.ReadBreak()
		d.ReadUint64()
		if _, err := d.ReadBreak(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s ReadBreak at end = %v, want io.ErrUnexpectedEOF", k.name, err)
		}
	}
}

// TestReadStructHead: the slow path of a struct's head. A null or
// undefined (behind a tag too) is NullKept and consumed; an array or map
// gives its count and enters a level; in strict mode a null is an error
// of type, as is the other container kind.
func TestReadStructHead(t *testing.T) {
	for _, k := range decoderKinds {
		for _, in := range []string{"f6", "f7", "c6f6"} {
			d := k.new(mustHex(in + "01"))
			if n, err := d.ReadStructHead(); err != nil || n != genrt.NullKept {
				t.Errorf("%s: ReadStructHead(%s) = %d, %v; want NullKept", k.name, in, n, err)
			}
			if n, err := d.ReadUint64(); err != nil || n != 1 {
				t.Errorf("%s: after %s: %d, %v; want the null consumed", k.name, in, n, err)
			}
		}
		d := k.new(mustHex("9803010203 a10102"))
		if n, err := d.ReadStructHead(); err != nil || n != 3 {
			t.Errorf("%s: ReadStructHead(98 03) = %d, %v", k.name, n, err)
		}
		d = k.new(mustHex("a10102"))
		if n, err := d.ReadStructMapHead(); err != nil || n != 1 {
			t.Errorf("%s: ReadStructMapHead(a1) = %d, %v", k.name, n, err)
		}
		d = k.new(mustHex("a10102"))
		if _, err := d.ReadStructHead(); !errors.Is(err, genrt.ErrType) {
			t.Errorf("%s: ReadStructHead of a map: %v, want ErrType", k.name, err)
		}
		d = k.new(mustHex("f6"))
		d.SetOptions(genrt.Options{Strict: true})
		if _, err := d.ReadStructHead(); !errors.Is(err, genrt.ErrType) {
			t.Errorf("%s: strict ReadStructHead of null: %v, want ErrType", k.name, err)
		}
	}
}
