package genrt_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// TestValueOptionsTopLevel: IndefLength, TagsMd, NaN and Inf hold for an
// item at the top level whatever read starts it (the fast paths stand
// aside, the slow ones check the whole item first), over a slice and over
// a stream, with fxamacker's words; and the defaults read the same items.
func TestValueOptionsTopLevel(t *testing.T) {
	indef := genrt.Options{IndefLength: genrt.IndefLengthForbidden}
	tags := genrt.Options{TagsMd: genrt.TagsForbidden}
	nan := genrt.Options{NaN: genrt.NaNDecodeForbidden}
	inf := genrt.Options{Inf: genrt.InfDecodeForbidden}
	float := func(d *genrt.Decoder) error {
		if _, ok := d.TryFloat64(); ok {
			return nil
		}
		_, err := d.ReadFloat64()
		return err
	}
	float32 := func(d *genrt.Decoder) error {
		if _, ok := d.TryFloat32(); ok {
			return nil
		}
		_, err := d.ReadFloat32()
		return err
	}
	for _, tc := range []struct {
		name string
		hex  string
		opts genrt.Options
		read func(*genrt.Decoder) error
		msg  string
	}{
		{"a NaN float64", "fb 7ff8000000000000", nan, float, "floating-point NaN"},
		{"a NaN float32", "fa 7fc00000", nan, float32, "floating-point NaN"},
		{"a NaN float16", "f9 7e00", nan, float, "floating-point NaN"},
		{"an infinity float64", "fb fff0000000000000", inf, float, "floating-point infinity"},
		{"an infinity float32", "fa 7f800000", inf, float32, "floating-point infinity"},
		{"a NaN behind a tag", "c6 f97e00", nan, float, "floating-point NaN"},
		{"a NaN in an array", "81 f97e00", nan, func(d *genrt.Decoder) error { _, err := d.ReadArrayHead(); return err }, "floating-point NaN"},
		{"a NaN skipped", "82 01 f97e00", nan, (*genrt.Decoder).Skip, "floating-point NaN"},
		{"a NaN kept raw", "82 01 f97e00", nan, func(d *genrt.Decoder) error { _, err := d.ReadRawBytes(nil); return err }, "floating-point NaN"},
		{"an indefinite text string", "7f 6161 ff", indef, func(d *genrt.Decoder) error { _, err := d.ReadString(); return err },
			"indefinite-length UTF-8 text string isn't allowed"},
		{"an indefinite byte string", "5f 4161 ff", indef, func(d *genrt.Decoder) error { _, err := d.ReadBytes(nil); return err },
			"indefinite-length byte string isn't allowed"},
		{"an indefinite array", "9f ff", indef, func(d *genrt.Decoder) error { _ = d.TryArrayHead(0); _, err := d.ReadArrayHead(); return err },
			"indefinite-length array isn't allowed"},
		{"an indefinite map in an array", "81 bf ff", indef, func(d *genrt.Decoder) error {
			if d.TryArrayHead(1) {
				return nil
			}
			_, err := d.ReadArrayHead()
			return err
		}, "indefinite-length map isn't allowed"},
		{"an indefinite map peeked", "bf ff", indef, func(d *genrt.Decoder) error { _, err := d.PeekMajor(); return err },
			"indefinite-length map isn't allowed"},
		{"a tag on an integer", "c6 01", tags, func(d *genrt.Decoder) error {
			if _, ok := d.TryUint(math.MaxUint64); ok {
				return nil
			}
			_, err := d.ReadUint64()
			return err
		}, "CBOR tag isn't allowed"},
		{"a type's tag", "d9 07d0 01", tags, func(d *genrt.Decoder) error { return d.ReadTypeTag(2000, false) }, "CBOR tag isn't allowed"},
		{"55799 before null", "d9d9f7 f6", tags, func(d *genrt.Decoder) error {
			if d.KeepNull() {
				return nil
			}
			_, err := d.ReadUint64()
			return err
		}, "CBOR tag isn't allowed"},
		{"a tagged union variant", "c6 01", tags, func(d *genrt.Decoder) error {
			if _, ok := d.TryKind(); ok {
				return errors.New("TryKind did not stand aside")
			}
			_, err := d.PeekKind()
			return err
		}, "CBOR tag isn't allowed"},
		{"a tag deep inside", "81 81 c1 00", tags, (*genrt.Decoder).Skip, "CBOR tag isn't allowed"},
	} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(tc.hex))
			if err := tc.read(d); err != nil {
				t.Errorf("%s, %s, default options: %v", tc.name, k.name, err)
			}
			d = k.new(mustHex(tc.hex))
			d.SetOptions(tc.opts)
			err := tc.read(d)
			if !errors.Is(err, genrt.ErrForbidden) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%s, %s: %v, want ErrForbidden: %s", tc.name, k.name, err, tc.msg)
			}
		}
	}
}

// TestValueOptionsStream: on a stream of items the whole-item checks run
// item by item, and items before a forbidden one decode.
func TestValueOptionsStream(t *testing.T) {
	for _, k := range decoderKinds {
		d := k.new(mustHex("82 01 02 81 03 82 9f ff 04"))
		d.SetOptions(genrt.Options{IndefLength: genrt.IndefLengthForbidden, NaN: genrt.NaNDecodeForbidden})
		for i := range 2 {
			if err := d.Skip(); err != nil {
				t.Fatalf("%s item %d: %v", k.name, i, err)
			}
		}
		if _, err := d.ReadArrayHead(); !errors.Is(err, genrt.ErrForbidden) {
			t.Errorf("%s item 2: %v, want ErrForbidden", k.name, err)
		}
	}
}

// TestUTF8DecodeInvalid: text that is not UTF-8 reads as it is into
// strings and keys under UTF8DecodeInvalid, and is ErrUTF8 by default,
// under Strict and in Valid.
func TestUTF8DecodeInvalid(t *testing.T) {
	lax := genrt.Options{UTF8: genrt.UTF8DecodeInvalid}
	for _, h := range []string{"62 ff61", "7f 61ff 6161 ff", "78 1a 61616161616161616161616161616161616161616161616161ff"} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(h))
			if _, err := d.ReadString(); !errors.Is(err, genrt.ErrUTF8) {
				t.Errorf("%s %s default: %v, want ErrUTF8", h, k.name, err)
			}
			d = k.new(mustHex(h))
			d.SetOptions(lax)
			s, err := d.ReadString()
			if err != nil || !strings.Contains(s, "\xff") {
				t.Errorf("%s %s UTF8DecodeInvalid: %q, %v", h, k.name, s, err)
			}
			d = k.new(mustHex(h))
			d.SetOptions(genrt.Options{UTF8: genrt.UTF8DecodeInvalid, Strict: true})
			if _, err := d.ReadString(); !errors.Is(err, genrt.ErrUTF8) && !errors.Is(err, genrt.ErrStrict) {
				t.Errorf("%s %s UTF8DecodeInvalid and Strict: %v", h, k.name, err)
			}
		}
		if err := genrt.Valid(mustHex(h)); !errors.Is(err, genrt.ErrUTF8) {
			t.Errorf("Valid(%s) = %v", h, err)
		}
	}
	d := genrt.NewBytesDecoder(mustHex("a1 62ff61 01"))
	d.SetOptions(lax)
	if _, err := d.ReadMapHead(); err != nil {
		t.Fatal(err)
	}
	if key, err := d.ReadKey(); err != nil || string(key.Text) != "\xffa" {
		t.Errorf("a key not UTF-8 under UTF8DecodeInvalid: %+v, %v", key, err)
	}
}

// TestValueOptionsDefaults: the zero settings take the process defaults,
// and SetDefaultOptions reaches decoders made without options.
func TestValueOptionsDefaults(t *testing.T) {
	defer genrt.SetDefaultOptions(genrt.Options{})
	genrt.SetDefaultOptions(genrt.Options{NaN: genrt.NaNDecodeForbidden, UTF8: genrt.UTF8DecodeInvalid})
	p := genrt.ProcessOptions()
	if p.NaN != genrt.NaNDecodeForbidden || p.UTF8 != genrt.UTF8DecodeInvalid || p.Inf != genrt.InfDecodeDefault {
		t.Errorf("ProcessOptions() = %+v", p)
	}
	d := genrt.NewBytesDecoder(mustHex("f97e00"))
	if _, err := d.ReadFloat64(); !errors.Is(err, genrt.ErrForbidden) {
		t.Errorf("NaN with the process default NaNDecodeForbidden: %v", err)
	}
	d = genrt.NewBytesDecoder(mustHex("f97e00"))
	d.SetOptions(genrt.Options{NaN: genrt.NaNDecodeAllowed})
	if _, err := d.ReadFloat64(); err != nil {
		t.Errorf("NaN with NaNDecodeAllowed over the process default: %v", err)
	}
	d = genrt.NewDecoder(strings.NewReader("\x62\xff\x61"))
	if s, err := d.ReadString(); err != nil || s != "\xffa" {
		t.Errorf("a stream with the process default UTF8DecodeInvalid: %q, %v", s, err)
	}
}
