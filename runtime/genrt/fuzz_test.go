package genrt_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// The seed corpora live in testdata/fuzz/<FuzzName>; the f.Add calls below
// add the RFC tables on top so that a plain `go test` runs every target on
// them too.

func FuzzValid(f *testing.F) {
	for _, ex := range appendixA {
		f.Add(mustHex(ex.hex))
	}
	for _, h := range allAppendixF() {
		f.Add(mustHex(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := genrt.Valid(data)
		fxErr := cbor.Wellformed(data)
		if err == nil {
			for _, k := range decoderKinds {
				off, serr := skipAll(k, data)
				if serr != nil || off != int64(len(data)) {
					t.Fatalf("Valid accepts %x but %s Skip = %v after %d bytes", data, k.name, serr, off)
				}
			}
			// Valid is well-formedness plus validity: fxamacker's
			// well-formedness check, with the same limits, must agree.
			if fxErr != nil {
				t.Fatalf("Valid accepts %x, fxamacker Wellformed says %v", data, fxErr)
			}
			return
		}
		var e *genrt.Error
		if !errors.As(err, &e) {
			t.Fatalf("Valid(%x) = %v (%T), not a *genrt.Error", data, err, err)
		}
		if fxErr == nil {
			// Well-formed to fxamacker: only a validity rule may fail.
			if !errors.Is(err, genrt.ErrUTF8) && !errors.Is(err, genrt.ErrDuplicateKey) && !errors.Is(err, genrt.ErrTag) {
				t.Fatalf("Valid(%x) = %v, but fxamacker finds it well-formed", data, err)
			}
		}
	})
}

// skipTrace skips items until the first error or the end of the data and
// records the offset after each item.
func skipTrace(d *genrt.Decoder, n int) (offsets []int64, err error) {
	for len(offsets) < 64 {
		if d.Offset() == int64(n) {
			return offsets, nil
		}
		if err = d.Skip(); err != nil {
			return offsets, err
		}
		offsets = append(offsets, d.Offset())
	}
	return offsets, nil
}

func FuzzSkip(f *testing.F) {
	for _, ex := range appendixA {
		f.Add(mustHex(ex.hex), false)
	}
	f.Add(mustHex("00 6161 80 a0 f6"), true)
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		var traces [2][]int64
		var errs [2]error
		for i, k := range decoderKinds {
			d := k.new(data)
			if strict {
				d.SetOptions(genrt.Options{Strict: true})
			}
			traces[i], errs[i] = skipTrace(d, len(data))
			if errs[i] != nil {
				var e *genrt.Error
				if !errors.As(errs[i], &e) {
					t.Fatalf("%s Skip(%x) = %v (%T), not a *genrt.Error", k.name, data, errs[i], errs[i])
				}
				if e.Offset < 0 || e.Offset > int64(len(data)) {
					t.Fatalf("%s Skip(%x): error offset %d outside the input", k.name, data, e.Offset)
				}
			}
		}
		if (errs[0] == nil) != (errs[1] == nil) || len(traces[0]) != len(traces[1]) {
			t.Fatalf("Skip(%x): bytes %v after %v, reader %v after %v", data, errs[0], traces[0], errs[1], traces[1])
		}
		for i := range traces[0] {
			if traces[0][i] != traces[1][i] {
				t.Fatalf("Skip(%x): item %d ends at %d (bytes) and %d (reader)", data, i, traces[0][i], traces[1][i])
			}
		}
		// A single item that Skip accepts in strict mode is one Valid accepts
		// up to validity (strict checks UTF-8 and duplicates as well).
		if strict && errs[0] == nil && len(traces[0]) == 1 {
			if err := genrt.Valid(data); err != nil && !errors.Is(err, genrt.ErrTag) {
				t.Fatalf("strict Skip accepts %x, Valid says %v", data, err)
			}
		}
	})
}

func FuzzFloatRoundTrip(f *testing.F) {
	for _, v := range floatEdges {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		for _, v := range []float64{math.Float64frombits(bits), float64(math.Float32frombits(uint32(bits))), halfToFloat(uint16(bits))} {
			got := genrt.AppendFloat64(nil, v)
			want, err := fxEnc.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("AppendFloat64(%v = %#x) = %x, fxamacker %x", v, math.Float64bits(v), got, want)
			}
			for _, k := range decoderKinds {
				back, err := k.new(got).ReadFloat64()
				if err != nil || !sameFloat(back, v) {
					t.Fatalf("%s ReadFloat64(%x) = %v, %v; want %v", k.name, got, back, err, v)
				}
			}
		}
		v32 := math.Float32frombits(uint32(bits >> 32))
		got := genrt.AppendFloat32(nil, v32)
		want, err := fxEnc.Marshal(v32)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("AppendFloat32(%v = %#x) = %x, fxamacker %x", v32, math.Float32bits(v32), got, want)
		}
		back, err := genrt.NewBytesDecoder(got).ReadFloat32()
		if err != nil || !sameFloat(float64(back), float64(v32)) {
			t.Fatalf("ReadFloat32(%x) = %v, %v; want %v", got, back, err, v32)
		}
	})
}
