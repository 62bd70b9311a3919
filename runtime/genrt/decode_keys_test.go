package genrt_test

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"unicode/utf8"

	"github.com/cborgen/cborgen/runtime/genrt"
)

func TestReadKey(t *testing.T) {
	// {"name": 1, 7: 2, -3: 3, (_ "a", "b"): 4}
	data := mustHex("a4 646e616d65 01 07 02 22 03 7f61616162ff 04")
	for _, k := range decoderKinds {
		d := k.new(data)
		n, err := d.ReadMapHead()
		if err != nil || n != 4 {
			t.Fatalf("%s ReadMapHead = %d, %v", k.name, n, err)
		}
		want := []genrt.Key{
			{Kind: genrt.KeyText, Text: []byte("name")},
			{Kind: genrt.KeyInt, Int: 7},
			{Kind: genrt.KeyInt, Int: -3},
			{Kind: genrt.KeyText, Text: []byte("ab")},
		}
		for i, w := range want {
			key, err := d.ReadKey()
			if err != nil {
				t.Fatalf("%s key %d: %v", k.name, i, err)
			}
			if key.Kind != w.Kind || (w.Kind == genrt.KeyText && string(key.Text) != string(w.Text)) ||
				(w.Kind == genrt.KeyInt && key.Int != w.Int) {
				t.Errorf("%s key %d = %+v, want %+v", k.name, i, key, w)
			}
			v, err := d.ReadUint64()
			if err != nil || v != uint64(i+1) {
				t.Errorf("%s value %d = %d, %v", k.name, i, v, err)
			}
		}
		d.Leave()
		checkAtEnd(t, d, len(data))
	}
	// Every small integer key, in its head alone (the fast path) and
	// beyond, read alike by every kind of decoder, strict or not, which
	// leave the decoder after the key.
	for i := int64(-30); i < 300; i++ {
		var data []byte
		if i >= 0 {
			data = genrt.AppendUint(nil, uint64(i))
		} else {
			data = genrt.AppendInt(nil, i)
		}
		for _, k := range decoderKinds {
			for _, strict := range []bool{false, true} {
				d := k.new(data)
				d.SetOptions(genrt.Options{Strict: strict})
				key, err := d.ReadKey()
				if err != nil || key.Kind != genrt.KeyInt || key.Int != i {
					t.Fatalf("%s (strict %v) ReadKey(%x) = %+v, %v; want %d", k.name, strict, data, key, err, i)
				}
				checkAtEnd(t, d, len(data))
			}
		}
	}
	// Text keys of every length up to 30, ASCII, multi-byte and not
	// UTF-8 (one byte changed at each place), followed by 0 to 20 bytes,
	// strict or not, with no limit and a limit of 5 bytes: the fast paths
	// (16 bytes checked as two words, a one-byte head) read them as the
	// general path does, and never look at the bytes after the key.
	for n := 0; n <= 30; n++ {
		for _, content := range textKeyContents(n) {
			key := genrt.AppendString(nil, content)
			for tail := 0; tail <= 20; tail += 4 {
				data := append(append([]byte(nil), key...), bytes.Repeat([]byte{0xc3}, tail)...)
				for _, k := range decoderKinds {
					for _, o := range []genrt.Options{{}, {Strict: true}, {MaxStringLength: 5}} {
						d := k.new(data)
						d.SetOptions(o)
						got, err := d.ReadKey()
						switch {
						case o.MaxStringLength != 0 && n > o.MaxStringLength:
							if !errors.Is(err, genrt.ErrLimit) {
								t.Fatalf("%s %+v ReadKey(%x) = %+v, %v; want ErrLimit", k.name, o, data, got, err)
							}
						case !utf8.ValidString(content):
							if !errors.Is(err, genrt.ErrUTF8) {
								t.Fatalf("%s %+v ReadKey(%x) = %+v, %v; want ErrUTF8", k.name, o, data, got, err)
							}
						default:
							if err != nil || got.Kind != genrt.KeyText || string(got.Text) != content {
								t.Fatalf("%s %+v ReadKey(%x) = %+v, %v; want %q", k.name, o, data, got, err, content)
							}
							if d.Offset() != int64(len(key)) {
								t.Fatalf("%s %+v ReadKey(%x) left the decoder at %d, want %d", k.name, o, data, d.Offset(), len(key))
							}
						}
					}
				}
			}
		}
	}
	// Integer keys at the int64 edges.
	for _, c := range []struct {
		hex  string
		want int64
	}{{"1b7fffffffffffffff", math.MaxInt64}, {"3b7fffffffffffffff", math.MinInt64}} {
		key, err := genrt.NewBytesDecoder(mustHex(c.hex)).ReadKey()
		if err != nil || key.Kind != genrt.KeyInt || key.Int != c.want {
			t.Errorf("ReadKey(%s) = %+v, %v; want %d", c.hex, key, err, c.want)
		}
	}
	// A key that cannot name a struct field is an error, as in
	// fxamacker/cbor: other types are ErrType, integers beyond int64
	// ErrRange, and what is not well-formed ErrSyntax.
	for _, c := range []struct {
		hex  string
		want error
	}{
		{"4101", genrt.ErrType}, {"8101", genrt.ErrType}, {"a0", genrt.ErrType},
		{"f5", genrt.ErrType}, {"f6", genrt.ErrType}, {"f93e00", genrt.ErrType}, {"c16161", genrt.ErrType},
		{"1bffffffffffffffff", genrt.ErrRange}, {"3b8000000000000000", genrt.ErrRange},
		{"ff", genrt.ErrSyntax}, {"fc", genrt.ErrSyntax}, {"5f4101ff00", genrt.ErrType},
	} {
		for _, k := range decoderKinds {
			_, err := k.new(mustHex(c.hex)).ReadKey()
			if !errors.Is(err, c.want) {
				t.Errorf("%s ReadKey(%s) = %v, want %v", k.name, c.hex, err, c.want)
			}
			asError(t, err)
		}
	}
}
