package runtime_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/cborgen/cborgen/runtime"
)

// legacyLoop reads a struct's map from d as a generated legacy decoder
// does: fields named by keys (text, case folded) or by ints (keyasint),
// each value an unsigned integer, unknown keys and repeated fields skipped.
// It returns the values by field index.
func legacyLoop(d *runtime.Decoder, keys []string, ints map[int64]int) (map[int]uint64, error) {
	got := map[int]uint64{}
	var m runtime.LegacyPairs
	var seen uint64
	for d.NextKey(&m) {
		field := -1
		switch m.Kind {
		case runtime.KeyText:
			for i, k := range keys {
				if k != "" && k == string(m.Text) {
					field = i
				}
			}
		case runtime.KeyInt:
			if i, ok := ints[m.Num]; ok {
				field = i
			}
		}
		if field < 0 {
			if field = d.OtherKey(&m, keys); field < 0 {
				continue
			}
		}
		if seen&(1<<field) != 0 {
			d.DuplicateKey(&m, "F")
			continue
		}
		seen |= 1 << field
		x, err := d.ReadUint64()
		if err != nil {
			return got, err
		}
		got[field] = x
	}
	return got, m.Err()
}

func TestLegacyPairs(t *testing.T) {
	keys := []string{"a", "b", ""}
	ints := map[int64]int{1: 2, -1: 0}
	cases := []struct {
		name, hex string
		want      map[int]uint64
		strictErr error // the error in strict mode, where it differs
	}{
		{"definite, folded, unknown", "a3 6161 01 6142 02 637a7a7a 03", map[int]uint64{0: 1, 1: 2}, nil},
		{"indefinite", "bf 6161 01 6162 02 ff", map[int]uint64{0: 1, 1: 2}, runtime.ErrStrict},
		{"null keeps the value", "f6", map[int]uint64{}, runtime.ErrType},
		{"undefined keeps the value", "f7", map[int]uint64{}, runtime.ErrType},
		{"empty", "a0", map[int]uint64{}, nil},
		{"empty indefinite", "bf ff", map[int]uint64{}, runtime.ErrStrict},
		{"integer keys", "a3 01 05 20 06 1818 07", map[int]uint64{2: 5, 0: 6}, nil},
		{"integer key in a longer head", "a1 1801 05", map[int]uint64{2: 5}, runtime.ErrStrict},
		{"duplicate keeps the first", "a3 6161 01 6141 02 6162 03", map[int]uint64{0: 1, 1: 3}, runtime.ErrDuplicateKey},
		{"unknown value of any kind skipped", "a2 6178 82 a1 01 02 63616263 6162 04", map[int]uint64{1: 4}, nil},
	}
	for _, c := range cases {
		data := mustHex(c.hex)
		for _, k := range decoderKinds {
			d := k.new(data)
			got, err := legacyLoop(d, keys, ints)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s (%s) = %v, %v; want %v", c.name, k.name, got, err, c.want)
				continue
			}
			checkAtEnd(t, d, len(data))
			d = k.new(data)
			d.SetOptions(runtime.Options{Strict: true})
			if got, err := legacyLoop(d, keys, ints); c.strictErr == nil && (err != nil || !reflect.DeepEqual(got, c.want)) ||
				c.strictErr != nil && !errors.Is(err, c.strictErr) {
				t.Errorf("%s (%s, strict) = %v, %v; want %v", c.name, k.name, got, err, c.strictErr)
			}
			// Every truncation is an error (never a panic or a value
			// taken as whole), except where a whole item ends.
			for n := 1; n < len(data); n++ {
				if _, err := legacyLoop(k.new(data[:n]), keys, ints); err == nil {
					t.Errorf("%s (%s) cut to %d bytes: no error", c.name, k.name, n)
				}
			}
		}
	}
	// The loop leaves the map's nesting level at its end: maps one
	// after another at a depth limit of 1.
	data := mustHex("a0 bf ff a1 6161 01 a0 bf 6162 02 ff")
	for _, k := range decoderKinds {
		d := k.new(data)
		d.SetOptions(runtime.Options{MaxDepth: 1})
		for i := 0; i < 5; i++ {
			if _, err := legacyLoop(d, keys, ints); err != nil {
				t.Fatalf("%s map %d: %v", k.name, i, err)
			}
		}
		checkAtEnd(t, d, len(data))
	}
	// Errors end the loop and are its Err: not a map, a key that is
	// not text or an integer, an indefinite map over the pair limit.
	for _, c := range []struct {
		hex  string
		want error
	}{
		{"82 01 02", runtime.ErrType},
		{"a1 80 01", runtime.ErrType},
		{"bf 6161 01 6162 02 6178 03 ff", runtime.ErrLimit},
		{"a1 6161 61", runtime.ErrType},
	} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(c.hex))
			d.SetOptions(runtime.Options{MaxMapPairs: 2})
			if _, err := legacyLoop(d, keys, ints); !errors.Is(err, c.want) {
				t.Errorf("%s (%s) = %v, want %v", c.hex, k.name, err, c.want)
			}
		}
	}
}
