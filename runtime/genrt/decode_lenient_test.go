package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// strict sets strict mode on d.
func strict(d *genrt.Decoder) *genrt.Decoder {
	d.SetOptions(genrt.Options{Strict: true})
	return d
}

// fxDefault is fxamacker/cbor's decoder with its default options, the
// reference of what the runtime's reads accept outside strict mode.
var fxDefault, _ = cbor.DecOptions{}.DecMode()

// lenientReads are the runtime's reads of one Go type each, with the Go
// value fxamacker/cbor decodes into for comparison: each returns the value
// read into a copy of old (a value that held data before), as the
// generated code leaves it (a null keeps it, KeepNull).
var lenientReads = []struct {
	name string
	old  any
	read func(d *genrt.Decoder, old any) (any, error)
}{
	{"uint8", uint8(7), func(d *genrt.Decoder, old any) (any, error) {
		if d.KeepNull() {
			return old, nil
		}
		return d.ReadUint8()
	}},
	{"int64", int64(-7), func(d *genrt.Decoder, old any) (any, error) {
		if d.KeepNull() {
			return old, nil
		}
		return d.ReadInt64()
	}},
	{"uint64", uint64(7), func(d *genrt.Decoder, old any) (any, error) {
		if d.KeepNull() {
			return old, nil
		}
		return d.ReadUint64()
	}},
	{"float64", 1.5, func(d *genrt.Decoder, old any) (any, error) {
		if d.KeepNull() {
			return old, nil
		}
		return d.ReadFloat64()
	}},
	{"bool", true, func(d *genrt.Decoder, old any) (any, error) {
		if d.KeepNull() {
			return old, nil
		}
		return d.ReadBool()
	}},
	{"string", "old", func(d *genrt.Decoder, old any) (any, error) {
		if d.KeepNull() {
			return old, nil
		}
		return d.ReadString()
	}},
	{"big.Int", *big.NewInt(-77), func(d *genrt.Decoder, old any) (any, error) {
		z := old.(big.Int)
		z = *new(big.Int).Set(&z)
		err := d.ReadBigInt(&z)
		return z, err
	}},
	{"[3]byte", [3]byte{7, 8, 9}, func(d *genrt.Decoder, old any) (any, error) {
		a := old.([3]byte)
		err := d.ReadByteArray(a[:])
		return a, err
	}},
	{"[]byte", []byte{7, 8, 9}, func(d *genrt.Decoder, old any) (any, error) {
		if null, err := d.ReadNull(); err != nil || null {
			return []byte(nil), err
		}
		return d.ReadBytes(bytes.Clone(old.([]byte)))
	}},
}

// lenientInputs are what fxamacker/cbor's default options take beyond the
// data model, or refuse, for the types of lenientReads: nulls, in tags
// too, simple values, byte strings of other lengths, arrays of integers
// (with nulls, tags and bignums inside), and items they refuse.
var lenientInputs = []string{
	"f6", "f7", "c6f6", "d9d9f7f6", "c6c6f7", "c0f6", "c2f6",
	"e0", "e5", "f3", "f820", "f8ff", "f4", "f5", "f93c00",
	"40", "4101", "43010203", "4401020304", "5f4101420203ff",
	"80", "8101", "83010203", "8401020304", "9f0102ff", "82f602", "82c60102", "82c24101e5", "821901000102",
	"8120", "816161", "82f4f5", "a0", "6161", "01", "1901ff", "20", "c24101", "c3420100",
	"a1616101", "a2016161f6f6", "c6a0", "a1c6616101", "a11bffffffffffffffff01", "a1416101", "bf616101ff",
}

// TestLenientReads: outside strict mode, each read accepts what
// fxamacker/cbor's default options accept into its Go type, with the same
// value, and into a value that held data the same value as fxamacker
// leaves there; strict mode refuses each of these inputs that is not in
// the CBOR data model of the type.
func TestLenientReads(t *testing.T) {
	for _, in := range lenientInputs {
		data := mustHex(in)
		for _, r := range lenientReads {
			want := reflect.New(reflect.TypeOf(r.old))
			want.Elem().Set(reflect.ValueOf(r.old))
			fxErr := fxDefault.Unmarshal(data, want.Interface())
			for _, k := range decoderKinds {
				d := k.new(data)
				got, err := r.read(d, r.old)
				if err == nil && d.More() {
					err = fmt.Errorf("stopped at offset %d", d.Offset())
				}
				switch {
				case (err == nil) != (fxErr == nil):
					t.Errorf("%s %s(%s): %v; fxamacker: %v", k.name, r.name, in, err, fxErr)
				case err == nil && !sameRead(got, want.Elem().Interface()):
					t.Errorf("%s %s(%s) = %#v, fxamacker %#v", k.name, r.name, in, got, want.Elem().Interface())
				case err != nil:
					var e *genrt.Error
					if !errors.As(err, &e) {
						t.Errorf("%s %s(%s): %v is not a *genrt.Error", k.name, r.name, in, err)
					}
				}
			}
		}
	}
}

// TestStrictReads: strict mode refuses what the default options take
// beyond the data model of the Go type: a null into a value that cannot be
// nil, a simple value into a number, a byte string of another length into
// a [N]byte, an array or a tagged null into a byte string.
func TestStrictReads(t *testing.T) {
	cases := []struct {
		read string
		in   string
		is   error
	}{
		{"uint8", "f6", genrt.ErrType}, {"int64", "f7", genrt.ErrType}, {"int64", "c6f6", genrt.ErrType},
		{"uint64", "e5", genrt.ErrType}, {"uint64", "f8ff", genrt.ErrType}, {"float64", "e0", genrt.ErrType},
		{"float64", "f6", genrt.ErrType}, {"bool", "f6", genrt.ErrType}, {"string", "f7", genrt.ErrType},
		{"[3]byte", "f6", genrt.ErrType}, {"[3]byte", "4101", genrt.ErrLength}, {"[3]byte", "83010203", genrt.ErrType},
		{"[]byte", "c6f6", genrt.ErrType}, {"[]byte", "83010203", genrt.ErrType},
		{"big.Int", "a1616101", genrt.ErrType}, {"big.Int", "e5", genrt.ErrType},
	}
	for _, c := range cases {
		for _, r := range lenientReads {
			if r.name != c.read {
				continue
			}
			for _, k := range decoderKinds {
				if _, err := r.read(strict(k.new(mustHex(c.in))), r.old); !errors.Is(err, c.is) {
					t.Errorf("%s %s(%s), strict: %v, want %v", k.name, r.name, c.in, err, c.is)
				}
				if _, err := r.read(k.new(mustHex(c.in)), r.old); err != nil {
					t.Errorf("%s %s(%s), default options: %v", k.name, r.name, c.in, err)
				}
			}
		}
	}
}

// TestLenientByteArrays: arrays of random integers, nulls and other items,
// and byte strings of random lengths, into [N]byte and []byte that held
// random bytes, read as fxamacker/cbor reads them.
func TestLenientByteArrays(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	n := 3000
	if testing.Short() {
		n = 300
	}
	elems := []string{"00", "17", "1818", "18ff", "190100", "f6", "f7", "e3", "f8ff", "c6 05", "c24101", "20", "6161", "f4", "80"}
	for range n {
		var b []byte
		count := r.IntN(6)
		if r.IntN(3) == 0 {
			b = genrt.AppendBytes(nil, bytes.Repeat([]byte{byte(r.Uint32())}, count))
		} else {
			if r.IntN(4) == 0 {
				b = []byte{0x9f}
			} else {
				b = genrt.AppendArrayHead(nil, count)
			}
			for range count {
				b = append(b, mustHex(elems[r.IntN(len(elems))])...)
			}
			if b[0] == 0x9f {
				b = append(b, 0xff)
			}
		}
		oldArr := [4]byte{byte(r.Uint32()), byte(r.Uint32()), 3, 4}
		base := bytes.Repeat([]byte{9}, r.IntN(6))
		ln := r.IntN(len(base) + 1)
		oldSlice, fxSlice := bytes.Clone(base)[:ln], bytes.Clone(base)[:ln] // the same contents and capacity
		// [4]byte
		wantArr := oldArr
		fxErr := fxDefault.Unmarshal(b, &wantArr)
		gotArr := oldArr
		err := genrt.NewBytesDecoder(b).ReadByteArray(gotArr[:])
		if (err == nil) != (fxErr == nil) || err == nil && gotArr != wantArr {
			t.Fatalf("[4]byte %x from %x: %x, %v; fxamacker %x, %v", oldArr, b, gotArr, err, wantArr, fxErr)
		}
		// []byte, with fxamacker's reuse of the slice's array
		wantSlice := fxSlice
		fxErr = fxDefault.Unmarshal(b, &wantSlice)
		gotSlice, err := genrt.NewBytesDecoder(b).ReadBytes(oldSlice)
		if (err == nil) != (fxErr == nil) || err == nil && !bytes.Equal(gotSlice, wantSlice) {
			t.Fatalf("[]byte %x (cap %d) from %x: %x, %v; fxamacker %x, %v", oldSlice, cap(oldSlice), b, gotSlice, err, wantSlice, fxErr)
		}
	}
}

// sameRead compares two values read, big.Int by value.
func sameRead(a, b any) bool {
	if x, ok := a.(big.Int); ok {
		y := b.(big.Int)
		return x.Cmp(&y) == 0
	}
	return reflect.DeepEqual(a, b)
}
