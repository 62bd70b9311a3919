package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// keyMaps returns maps of n pairs with keys of several kinds, some with a
// duplicate (also in another encoding of the same value).
func keyMaps(rng *rand.Rand) [][]byte {
	var out [][]byte
	for _, n := range []int{1, 2, 5, 15, 16, 17, 40, 128, 129, 300} {
		for variant := 0; variant < 6; variant++ {
			keys := make([][]byte, n)
			for i := range keys {
				switch (i + variant) % 4 {
				case 0:
					keys[i] = genrt.AppendString(nil, fmt.Sprintf("key-%d", i))
				case 1:
					keys[i] = genrt.AppendUint(nil, uint64(i*7919))
				case 2:
					keys[i] = genrt.AppendInt(nil, -int64(i)-1)
				default:
					keys[i] = genrt.AppendBytes(nil, []byte(fmt.Sprintf("k%05d-long-enough-key", i)))
				}
			}
			if n > 1 && variant > 0 {
				i, j := rng.Intn(n), rng.Intn(n)
				if i != j {
					keys[i] = bytes.Clone(keys[j])
					if variant == 2 && keys[j][0] < 0x18 { // the same integer, longer head
						keys[i] = []byte{0x18, keys[j][0]}
					}
				}
			}
			var b []byte
			b = genrt.AppendMapHead(b, n)
			for i, k := range keys {
				b = append(b, k...)
				if i%3 == 0 {
					b = genrt.AppendMapHead(b, 2)
					b = genrt.AppendString(b, "a")
					b = genrt.AppendTag(b, 0)
					b = genrt.AppendString(b, "2026-11-30T21:00:00.5+01:00")
					b = genrt.AppendString(b, "b")
					b = genrt.AppendString(b, "x")
				} else {
					b = genrt.AppendUint(b, uint64(i))
				}
			}
			out = append(out, b)
		}
	}
	return out
}

// TestValidDuplicateAtEnd: a key at the very end of the input, read
// byte by byte, and its duplicate earlier, read as a word, are found equal.
func TestValidDuplicateAtEnd(t *testing.T) {
	for _, h := range []string{
		"82 74 000102030405060708090a0b0c0d0e0f10111213 a2 62 6162 01 62 6162 02",
		"82 00 a3 61 61 00 62 6162 01 62 6162 02",
		"a2 41 00 00 41 00 00",
		"a2 28 01 38 08 02",
	} {
		if err := genrt.Valid(mustHex(h)); err == nil {
			t.Errorf("Valid(%s) = nil, want a duplicate key", h)
		}
		checkValidAgrees(t, mustHex(h))
	}
}

// TestValidAllocs: Valid allocates nothing for maps that fit its stack
// buffer, however many of them, and nested however deep.
func TestValidAllocs(t *testing.T) {
	var b []byte
	b = genrt.AppendArrayHead(b, 50)
	for i := 0; i < 50; i++ {
		b = genrt.AppendMapHead(b, 100)
		for j := 0; j < 100; j++ {
			b = genrt.AppendString(b, fmt.Sprintf("key %d", j))
			b = append(b, nestedItem[:0]...)
			b = genrt.AppendMapHead(b, 1)
			b = genrt.AppendUint(b, 1)
			b = genrt.AppendString(b, "ü")
		}
	}
	if err := genrt.Valid(b); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = genrt.Valid(b) }); n != 0 {
		t.Errorf("Valid allocates %v times", n)
	}
}

// sortedKeyMap returns a map of the keys in order, each with a value.
func sortedKeyMap(keys [][]byte) []byte {
	b := genrt.AppendMapHead(nil, len(keys))
	for i, k := range keys {
		b = append(b, k...)
		if i%2 == 0 {
			b = genrt.AppendString(b, "v")
		} else {
			b = genrt.AppendArrayHead(b, 1)
			b = genrt.AppendUint(b, uint64(i))
		}
	}
	return b
}

// TestValidOrderedKeys: maps whose keys come in the order of their bytes
// (as deterministic encoders write them) are compared key by key with the
// one before; a duplicate next to its twin, a key out of order that
// repeats an earlier one, and long keys that agree in their first 16
// bytes are judged as the general walker judges them, on both sides of
// every map size the validator treats apart.
func TestValidOrderedKeys(t *testing.T) {
	for _, n := range []int{2, 3, 16, 17, 18, 31, 32, 33, 64, 127, 128, 129, 200} {
		for _, kind := range []string{"short", "ints", "long", "mixed"} {
			keys := make([][]byte, n)
			for i := range keys {
				switch kind {
				case "short":
					keys[i] = genrt.AppendString(nil, fmt.Sprintf("k%04d", i))
				case "ints":
					keys[i] = genrt.AppendUint(nil, uint64(i*3))
				case "long": // the first 16 bytes of all keys are the same
					keys[i] = genrt.AppendString(nil, fmt.Sprintf("a-common-prefix-of-keys-%04d", i))
				default:
					keys[i] = genrt.AppendString(nil, fmt.Sprintf("%0*d", 1+i%20, i))
				}
			}
			slices.SortFunc(keys, bytes.Compare)
			name := fmt.Sprintf("%s keys, %d pairs", kind, n)
			check := func(what string, keys [][]byte, want error) {
				t.Helper()
				data := sortedKeyMap(keys)
				if err := genrt.Valid(data); !errors.Is(err, want) && (want != nil || err != nil) {
					t.Errorf("%s, %s: Valid = %v, want %v", name, what, err, want)
				}
				checkValidAgrees(t, data)
			}
			check("in order", keys, nil)
			for _, i := range []int{0, (n - 2) / 2, n - 2} {
				dup := slices.Clone(keys)
				dup[i+1] = dup[i]
				check(fmt.Sprintf("key %d twice in a row", i), dup, genrt.ErrDuplicateKey)
			}
			check("the first key again at the end", append(slices.Clone(keys), keys[0]), genrt.ErrDuplicateKey)
			check("the last key again at the start", append([][]byte{keys[n-1]}, keys...), genrt.ErrDuplicateKey)
			swapped := slices.Clone(keys)
			swapped[0], swapped[n-1] = swapped[n-1], swapped[0]
			check("first and last swapped", swapped, nil)
			swapped = append(swapped, keys[n/2])
			check("first and last swapped, the middle one again", swapped, genrt.ErrDuplicateKey)
		}
	}
}

// TestValidIntKeys: maps of up to 16 pairs whose first key is an integer
// of one byte (checked by a bit per key until another kind of key comes)
// find a duplicate integer, text or byte key wherever it is, and keys of
// other kinds after the integers, as the general walker does.
func TestValidIntKeys(t *testing.T) {
	others := [][]byte{
		genrt.AppendString(nil, "k"),
		genrt.AppendBytes(nil, []byte{1}),
		genrt.AppendUint(nil, 24),
		genrt.AppendInt(nil, -25),
		{0xf5},
		{0x18, 0x02}, // 2, not in canonical form
	}
	for n := 1; n <= 16; n++ {
		for _, value := range [][]byte{{0x00}, genrt.AppendString(nil, "a value of some length")} {
			ints := make([][]byte, n)
			for i := range ints {
				ints[i] = genrt.AppendInt(nil, int64(i*5%48-24))
			}
			check := func(keys [][]byte, want error) {
				t.Helper()
				data := genrt.AppendMapHead(nil, len(keys))
				for _, k := range keys {
					data = append(append(data, k...), value...)
				}
				data = append(genrt.AppendArrayHead(nil, 1), data...)
				if err := genrt.Valid(data); !errors.Is(err, want) && (want != nil || err != nil) {
					t.Errorf("% x: Valid = %v, want %v", data, err, want)
				}
				checkValidAgrees(t, data)
			}
			check(ints, nil)
			check(append(slices.Clone(ints), ints[n-1]), genrt.ErrDuplicateKey)
			check(append(slices.Clone(ints), ints[0]), genrt.ErrDuplicateKey)
			for _, o := range others {
				if n < 16 {
					check(append(slices.Clone(ints), o), nil)
					check(append(append(slices.Clone(ints[:n/2]), o), ints[n/2:]...), nil)
				}
				if n < 15 {
					check(append(slices.Clone(ints), o, o), genrt.ErrDuplicateKey)
					check(append(slices.Clone(ints), o, ints[0]), genrt.ErrDuplicateKey)
					check(append(append(slices.Clone(ints[:1]), o), ints...), genrt.ErrDuplicateKey)
				}
			}
		}
	}
}

// TestValidIntKeysNested: a map whose integer keys are followed by a text
// key is checked on from that key, not again from its start: maps nested
// 31 deep, each {0: the next, "k": 0}, take one pass, not 2^31.
func TestValidIntKeysNested(t *testing.T) {
	inner := genrt.AppendUint(nil, 0)
	for range genrt.DefaultMaxDepth - 1 {
		b := genrt.AppendMapHead(nil, 2)
		b = append(genrt.AppendUint(b, 0), inner...)
		b = genrt.AppendUint(genrt.AppendString(b, "k"), 0)
		inner = b
	}
	if err := genrt.Valid(inner); err != nil {
		t.Fatal(err)
	}
	checkValidAgrees(t, inner)
}
