package genrt_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

func TestOptionsLimits(t *testing.T) {
	withOpts := func(k decoderKind, hex string, f func(*genrt.Options)) *genrt.Decoder {
		d := k.new(mustHex(hex))
		o := genrt.DefaultOptions()
		f(&o)
		d.SetOptions(o)
		return d
	}
	arrays := func(o *genrt.Options) { o.MaxArrayElements = 3 }
	maps := func(o *genrt.Options) { o.MaxMapPairs = 2 }
	strs := func(o *genrt.Options) { o.MaxStringLength = 4 }
	for _, k := range decoderKinds {
		// Arrays.
		if n, err := withOpts(k, "83010203", arrays).ReadArrayHead(); n != 3 || err != nil {
			t.Errorf("%s 3 elements, limit 3: %d, %v", k.name, n, err)
		}
		if _, err := withOpts(k, "8401020304", arrays).ReadArrayHead(); !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("%s ReadArrayHead 4 elements, limit 3: %v", k.name, err)
		}
		for _, h := range []string{"8401020304", "9f01020304ff", "81 8401020304"} {
			if err := withOpts(k, h, arrays).Skip(); !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s Skip(%s), limit 3: %v, want ErrLimit", k.name, h, err)
			}
		}
		if err := withOpts(k, "9f010203ff", arrays).Skip(); err != nil {
			t.Errorf("%s Skip(indefinite 3), limit 3: %v", k.name, err)
		}
		// Maps.
		if n, err := withOpts(k, "a201020304", maps).ReadMapHead(); n != 2 || err != nil {
			t.Errorf("%s 2 pairs, limit 2: %d, %v", k.name, n, err)
		}
		if _, err := withOpts(k, "a3010203040506", maps).ReadMapHead(); !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("%s ReadMapHead 3 pairs, limit 2: %v", k.name, err)
		}
		for _, h := range []string{"a3010203040506", "bf010203040506ff"} {
			if err := withOpts(k, h, maps).Skip(); !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s Skip(%s), limit 2: %v, want ErrLimit", k.name, h, err)
			}
		}
		// Strings, definite and indefinite (the limit is on the total).
		if s, err := withOpts(k, "6449455446", strs).ReadString(); s != "IETF" || err != nil {
			t.Errorf("%s 4-byte string, limit 4: %q, %v", k.name, s, err)
		}
		for _, h := range []string{"656162636465", "7f6261626263646566ff", "7f6361626363636465ff"} {
			if _, err := withOpts(k, h, strs).ReadString(); !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s ReadString(%s), limit 4: %v, want ErrLimit", k.name, h, err)
			}
			if err := withOpts(k, h, strs).Skip(); !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s Skip(%s), limit 4: %v, want ErrLimit", k.name, h, err)
			}
		}
		if _, err := withOpts(k, "450102030405", strs).ReadBytes(nil); !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("%s ReadBytes(5 bytes), limit 4: %v, want ErrLimit", k.name, err)
		}
		if _, err := withOpts(k, "5f4301020343040506 ff", strs).ReadBytes(nil); !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("%s ReadBytes(indefinite 6 bytes), limit 4: %v, want ErrLimit", k.name, err)
		}
	}
	// Zero fields take the defaults.
	d := genrt.NewBytesDecoder(nil)
	d.SetOptions(genrt.Options{})
	def := genrt.DefaultOptions()
	if def.MaxDepth != 32 || def.MaxArrayElements != 131072 || def.MaxMapPairs != 131072 || def.Strict {
		t.Errorf("DefaultOptions() = %+v", def)
	}
	big := mustHex("9a00020001" + strings.Repeat("00", 131073))
	if err := genrt.Valid(big); !errors.Is(err, genrt.ErrLimit) {
		t.Errorf("Valid(array of 131073) = %v, want ErrLimit", err)
	}
	ok := mustHex("9a00020000" + strings.Repeat("00", 131072))
	if err := genrt.Valid(ok); err != nil {
		t.Errorf("Valid(array of 131072) = %v", err)
	}
}

func TestStrict(t *testing.T) {
	strict := func(k decoderKind, h string) *genrt.Decoder {
		d := k.new(mustHex(h))
		d.SetOptions(genrt.Options{Strict: true})
		return d
	}
	// Not the shortest head: rejected strict, accepted otherwise.
	longHeads := []struct {
		hex  string
		read func(*genrt.Decoder) error
	}{
		{"1817", func(d *genrt.Decoder) error { _, err := d.ReadUint64(); return err }},
		{"190017", func(d *genrt.Decoder) error { _, err := d.ReadUint64(); return err }},
		{"1a0000ffff", func(d *genrt.Decoder) error { _, err := d.ReadUint32(); return err }},
		{"1b00000000ffffffff", func(d *genrt.Decoder) error { _, err := d.ReadInt64(); return err }},
		{"3800", func(d *genrt.Decoder) error { _, err := d.ReadInt8(); return err }},
		{"580101", func(d *genrt.Decoder) error { _, err := d.ReadBytes(nil); return err }},
		{"79000161", func(d *genrt.Decoder) error { _, err := d.ReadString(); return err }},
		{"980101", func(d *genrt.Decoder) error { _, err := d.ReadArrayHead(); return err }},
		{"b8010101", func(d *genrt.Decoder) error { _, err := d.ReadMapHead(); return err }},
		{"d80100", func(d *genrt.Decoder) error { _, err := d.ReadTag(); return err }},
		{"81 1800", func(d *genrt.Decoder) error { return d.Skip() }},
		{"81 1800", func(d *genrt.Decoder) error { _, err := d.ReadArrayHead(); return err }},
		{"a1 1800 00", func(d *genrt.Decoder) error { _, err := d.ReadMapHead(); return err }},
	}
	for _, c := range longHeads {
		for _, k := range decoderKinds {
			if err := c.read(k.new(mustHex(c.hex))); err != nil {
				t.Errorf("%s non-strict %s: %v", k.name, c.hex, err)
			}
			if err := c.read(strict(k, c.hex)); err == nil {
				t.Errorf("%s strict %s accepted", k.name, c.hex)
			} else {
				asError(t, err)
			}
		}
	}
	// Indefinite lengths.
	for _, h := range []string{"9fff", "bfff", "5fff", "7fff", "81 9fff", "a1 00 5f ff", "c1 9fff"} {
		for _, k := range decoderKinds {
			if err := k.new(mustHex(h)).Skip(); err != nil {
				t.Errorf("%s non-strict Skip(%s): %v", k.name, h, err)
			}
			if err := strict(k, h).Skip(); err == nil {
				t.Errorf("%s strict Skip(%s) accepted", k.name, h)
			}
			if err := readByFirstByte(strict(k, h)); err == nil {
				t.Errorf("%s strict typed read of %s accepted", k.name, h)
			}
		}
	}
	// Duplicate keys: a map read at the top level in strict mode is checked
	// whole before its head is returned.
	for _, h := range []string{"a2 01 00 01 00", "a2 01 00 1801 00", "a2 6161 00 6161 01", "a2 6161 00 7f6161ff 01",
		"81 a2 00 00 00 00", "bf 01 00 01 00 ff", "a2 4100 00 5f4100ff 00", "a2 f93c00 00 fa3f800000 00"} {
		for _, k := range decoderKinds {
			if err := k.new(mustHex(h)).Skip(); err != nil {
				t.Errorf("%s non-strict Skip(%s): %v", k.name, h, err)
			}
			if err := strict(k, h).Skip(); !errors.Is(err, genrt.ErrDuplicateKey) && !errors.Is(err, genrt.ErrStrict) {
				t.Errorf("%s strict Skip(%s) = %v, want ErrDuplicateKey", k.name, h, err)
			}
			if err := readByFirstByte(strict(k, h)); err == nil {
				t.Errorf("%s strict typed read of %s accepted", k.name, h)
			}
		}
	}
	// Strict accepts what CoreDet writes.
	good := []string{"a2 01 00 02 00", "a2 6161 00 6162 00", "83 1818 f93c00 6161", "c1 1a514b67b0"}
	for _, h := range good {
		for _, k := range decoderKinds {
			d := strict(k, h)
			if err := d.Skip(); err != nil {
				t.Errorf("%s strict Skip(%s): %v", k.name, h, err)
			}
			if err := readByFirstByte(strict(k, h)); err != nil {
				t.Errorf("%s strict typed read of %s: %v", k.name, h, err)
			}
		}
	}
}

// TestStrictStream reads many maps from a stream in strict mode: each map
// is checked whole before its head is returned, across buffer refills, and
// decoding then starts again at the map's first byte.
func TestStrictStream(t *testing.T) {
	var data []byte
	const maps = 400
	for i := 0; i < maps; i++ {
		data = genrt.AppendMapHead(data, 2)
		data = genrt.AppendString(data, "id")
		data = genrt.AppendUint(data, uint64(i))
		data = genrt.AppendString(data, "name")
		data = genrt.AppendString(data, strings.Repeat("n", i%50))
	}
	// The last map repeats its key: strict mode must reject it, and only it.
	bad := mustHex("a2 626964 01 626964 02")
	data = append(data, bad...)
	for _, k := range decoderKinds {
		d := k.new(data)
		d.SetOptions(genrt.Options{Strict: true})
		for i := 0; i < maps; i++ {
			n, err := d.ReadMapHead()
			if err != nil || n != 2 {
				t.Fatalf("%s map %d: %d, %v", k.name, i, n, err)
			}
			for j := 0; j < n; j++ {
				key, err := d.ReadKey()
				if err != nil || key.Kind != genrt.KeyText {
					t.Fatalf("%s map %d key %d: %+v, %v", k.name, i, j, key, err)
				}
				switch string(key.Text) {
				case "id":
					if v, err := d.ReadUint64(); v != uint64(i) || err != nil {
						t.Fatalf("%s map %d id = %d, %v", k.name, i, v, err)
					}
				case "name":
					if s, err := d.ReadString(); len(s) != i%50 || err != nil {
						t.Fatalf("%s map %d name = %q, %v", k.name, i, s, err)
					}
				default:
					t.Fatalf("%s map %d: key %q", k.name, i, key.Text)
				}
			}
			d.Leave()
		}
		start := d.Offset()
		_, err := d.ReadMapHead()
		if !errors.Is(err, genrt.ErrDuplicateKey) {
			t.Fatalf("%s: duplicate in the last map: %v", k.name, err)
		}
		if e := asError(t, err); e.Offset != start+5 {
			t.Errorf("%s: duplicate reported at %d, want %d", k.name, e.Offset, start+5)
		}
	}
}
