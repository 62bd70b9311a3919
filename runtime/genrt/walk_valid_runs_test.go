package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// runValues are map values and array elements of the kinds the
// validator reads from a window (textPairs, commonValue, the text case of
// items), and some next to them that it must leave to items: the ones
// marked bad make the item invalid.
var runValues = []struct {
	hex string
	bad bool
}{
	{"00", false},
	{"17", false},
	{"18ff", false},
	{"1a00010000", false},
	{"3b0000000000000000", false},
	{"f4", false},
	{"f6", false},
	{"f93c00", false},
	{"fb3ff8000000000000", false},
	{"f81f", true}, // a simple value below 32 in two bytes
	{"f820", false},
	{"60", false},
	{"6161", false},
	{"6f" + hexString([]byte("fifteen bytes..")), false},
	{"70" + hexString([]byte("sixteen bytes...")), false},
	{"76" + hexString([]byte("twenty-two bytes......")), false},
	{"77" + hexString([]byte("twenty-three bytes.....")), false},
	{"7818" + hexString([]byte("twenty-four bytes.......")), false},
	{"77" + hexString([]byte("twenty-two bytes......")) + "ff", true},
	{"77" + hexString([]byte("twenty-one bytes.....")) + "c3a9", false},
	{"74" + hexString([]byte("seventeen bytes.")) + "80" + hexString([]byte("..")), true},
	{"62c3a9", false}, // é
	{"62ff61", true},  // not UTF-8
	{"6f" + hexString([]byte("fourteen bytes")) + "ff", true},
	{"6f" + hexString([]byte("thirteen byte")) + "c3a9", false},
	{"69" + hexString([]byte("eight by")) + "ff", true},
	{"63e282", true},          // a rune cut short
	{"6161ff", true},          // a break where an item is due (as a map, the text is a key)
	{"d8a31a00010000", false}, // tag 163, as the store writes a uint32
	{"d8a300", false},
	{"d8a36161", false},
	{"d804f5", false},
	{"d80300", true}, // tag 3 (in two bytes) with an integer
	{"d80100", false},
	{"d80161", true},      // tag 1 with text
	{"d80061", true},      // tag 0 with text that is no date
	{"d8a3d8a300", false}, // a tag within a tag
	{"d8a3c300", true},
	{"c400", false},
	{"c300", true},
	{"8100", false},
	{"a0", false},
	{"a16161f5", false},
	{"a2616100616100", true}, // a duplicate key
	{"4100", false},
	{"5f4100ff", false},
	{"7f6161ff", false},
	{"ff", true},
	{"1c", true},
}

// goodValues and badValues are the values of runValues that are valid
// and those that are not, as bytes.
var goodValues, badValues = func() (good, bad [][]byte) {
	for _, v := range runValues {
		if v.bad {
			bad = append(bad, mustHex(v.hex))
		} else {
			good = append(good, mustHex(v.hex))
		}
	}
	return good, bad
}()

// runMap returns a map of the keys, its values taken from goodValues
// from first on, but for the value of key at, which is value.
func runMap(keys [][]byte, first, at int, value []byte) []byte {
	b := genrt.AppendMapHead(nil, len(keys))
	for i, k := range keys {
		v := goodValues[(first+i)%len(goodValues)]
		if i == at {
			v = value
		}
		b = append(append(b, k...), v...)
	}
	return b
}

// runArray is runMap for an array of n items.
func runArray(n, first, at int, value []byte) []byte {
	b := genrt.AppendArrayHead(nil, n)
	for i := range n {
		v := goodValues[(first+i)%len(goodValues)]
		if i == at {
			v = value
		}
		b = append(b, v...)
	}
	return b
}

// checkValidMutations checks data as checkValidAgrees does, then (as the
// first item of an array, with enough after it that the runs read their
// windows up to its last byte) every prefix of it and every byte of it
// changed to a few others.
func checkValidMutations(t *testing.T, data []byte) {
	t.Helper()
	checkValidAgrees(t, data)
	pad := append(genrt.AppendString(nil, "padding of 40 bytes so that windows fit"), make([]byte, 48)...)
	wrap := func(item []byte) []byte {
		b := append(genrt.AppendArrayHead(nil, 2), item...)
		return append(b, pad...)
	}
	for i := range len(data) {
		checkValidAgrees(t, data[:i])
		checkValidAgrees(t, wrap(data[:i]))
		for _, c := range []byte{0x00, 0x18, 0x60, 0x61, 0x6f, 0x7f, 0x80, 0xc3, 0xd8, 0xf8, 0xff, data[i] + 1, data[i] - 1} {
			m := bytes.Clone(data)
			m[i] = c
			checkValidAgrees(t, wrap(m))
		}
	}
}

// wantInvalid checks that Valid rejects data (and wrapped as the first
// of two items of an array, with padding after it) as the walker does.
func wantInvalid(t *testing.T, what string, data []byte) {
	t.Helper()
	wrapped := append(append(genrt.AppendArrayHead(nil, 2), data...), make([]byte, 40)...)
	wrapped = append(wrapped[:len(wrapped)-40], genrt.AppendBytes(nil, make([]byte, 38))...)
	for _, d := range [][]byte{data, wrapped} {
		if genrt.Valid(d) == nil {
			t.Errorf("%s: Valid(%x) = nil, want an error", what, d)
		}
		checkValidAgrees(t, d)
	}
}

// TestValidTextPairs: maps of short ASCII text keys in order (read by
// textPairs a pair at a time), of every size the validator treats apart,
// with every kind of value, are judged as the general walker judges
// them: a bad value at any pair, a duplicate key next to its twin or
// anywhere else, a key out of order, a key that is not ASCII or not
// UTF-8, and every truncation and change of a byte.
func TestValidTextPairs(t *testing.T) {
	for _, n := range []int{1, 2, 3, 15, 16, 17, 32, 33, 128, 129} {
		keys := make([][]byte, n)
		for i := range keys {
			keys[i] = genrt.AppendString(nil, fmt.Sprintf("k%0*d", 1+i%22, i))
		}
		slices.SortFunc(keys, bytes.Compare)
		for first := range goodValues {
			data := runMap(keys, first, -1, nil)
			if err := genrt.Valid(data); err != nil {
				t.Errorf("%d keys, values from %d: Valid = %v", n, first, err)
			}
			if n <= 17 || first == 0 {
				checkValidMutations(t, data)
			} else {
				checkValidAgrees(t, data)
			}
		}
		for _, at := range []int{0, n / 2, n - 1} {
			for j, bad := range badValues {
				wantInvalid(t, fmt.Sprintf("%d keys, bad value %d at %d", n, j, at), runMap(keys, at, at, bad))
			}
		}
		check := func(what string, keys [][]byte, want error) {
			t.Helper()
			for first := range goodValues {
				data := runMap(keys, first, -1, nil)
				for len(data) < 40 { // a map short enough to be read near its end too
					data = append(genrt.AppendArrayHead(nil, 1), data...)
				}
				if err := genrt.Valid(data); !errors.Is(err, want) && (want != nil || err != nil) {
					t.Errorf("%d keys, %s: Valid = %v, want %v", n, what, err, want)
				}
				checkValidAgrees(t, data)
				wrapped := append(append(genrt.AppendArrayHead(nil, 2), data...), genrt.AppendBytes(nil, make([]byte, 38))...)
				checkValidAgrees(t, wrapped)
			}
		}
		if n < 2 {
			continue
		}
		for _, i := range []int{0, (n - 2) / 2, n - 2} {
			dup := slices.Clone(keys)
			dup[i+1] = dup[i]
			check(fmt.Sprintf("key %d twice in a row", i), dup, genrt.ErrDuplicateKey)
			dup = slices.Clone(keys)
			dup[n-1] = dup[i]
			check(fmt.Sprintf("key %d again at the end", i), dup, genrt.ErrDuplicateKey)
			swapped := slices.Clone(keys)
			swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
			check(fmt.Sprintf("keys %d and %d swapped", i, i+1), swapped, nil)
			other := slices.Clone(keys)
			other[i] = mustHex("62ff61")
			check(fmt.Sprintf("key %d not UTF-8", i), other, genrt.ErrUTF8)
			other[i] = mustHex("6f" + hexString([]byte("fourteen bytes")) + "ff")
			check(fmt.Sprintf("key %d not UTF-8 in its last byte", i), other, genrt.ErrUTF8)
			other[i] = mustHex("69" + hexString([]byte("eight by")) + "80")
			check(fmt.Sprintf("key %d not UTF-8 in its ninth byte", i), other, genrt.ErrUTF8)
			other[i] = mustHex("62c3a9")
			check(fmt.Sprintf("key %d not ASCII", i), other, nil)
			other[i] = genrt.AppendString(nil, "a key of more than 23 bytes")
			check(fmt.Sprintf("key %d long", i), other, nil)
			other[i] = mustHex("76" + hexString([]byte("twenty-one bytes.....")) + "ff")
			check(fmt.Sprintf("key %d of 22 bytes not UTF-8 in its last byte", i), other, genrt.ErrUTF8)
			// Keys of 16 to 23 bytes are ordered by their first 16 (the
			// head and 15): keys alike there go to the fingerprints.
			alike := slices.Clone(keys)
			alike[i] = genrt.AppendString(nil, "a key of twenty bytes")
			alike[i+1] = genrt.AppendString(nil, "a key of twenty bytez")
			check(fmt.Sprintf("keys %d and %d alike in their first 16 bytes", i, i+1), alike, nil)
			alike[i+1] = alike[i]
			check(fmt.Sprintf("keys %d and %d of 20 bytes equal", i, i+1), alike, genrt.ErrDuplicateKey)
			other[i] = mustHex("7801" + hexString(keys[i][1:2])) // a long head
			check(fmt.Sprintf("key %d with a long head", i), other, nil)
		}
	}
}

// TestValidArrayItems: arrays of the items read from a window and of
// the others, in every order, are judged as the general walker judges
// them: a bad item anywhere, every truncation and change of a byte.
func TestValidArrayItems(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 40} {
		for first := range goodValues {
			data := runArray(n, first, -1, nil)
			if err := genrt.Valid(data); err != nil {
				t.Errorf("%d items from %d: Valid = %v", n, first, err)
			}
			if n <= 10 || first == 0 {
				checkValidMutations(t, data)
			} else {
				checkValidAgrees(t, data)
			}
		}
		for _, at := range []int{0, n / 2, n - 1} {
			for j, bad := range badValues {
				wantInvalid(t, fmt.Sprintf("%d items, bad item %d at %d", n, j, at), runArray(n, at, at, bad))
			}
		}
	}
}

// TestValidLargeMapAllocs: a map of more than 128 pairs in order takes
// the notes of where its keys start from a pool, so validating it again
// allocates nothing.
func TestValidLargeMapAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	const pairs = 1000
	data := genrt.AppendMapHead(nil, pairs)
	for i := range pairs {
		data = genrt.AppendString(data, fmt.Sprintf("key %04d", i))
		data = genrt.AppendString(data, "a value")
	}
	if err := genrt.Valid(data); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = genrt.Valid(data) }); n > 0.1 {
		t.Errorf("Valid of a map of %d pairs: %v allocations a call", pairs, n)
	}
}
