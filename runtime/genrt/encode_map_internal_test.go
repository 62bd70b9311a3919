package genrt

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// randomKeySet returns n distinct strings: random lengths and bytes,
// shared prefixes, prefixes of one another, zero bytes and high bytes.
func randomKeySet(rng *rand.Rand, n int) []string {
	seen := make(map[string]bool, n)
	prefixes := []string{"", "http.GET./api/v1/r", "a", "\x00\x00", strings.Repeat("p", 20), "\xff\xfe"}
	for len(seen) < n {
		var b strings.Builder
		b.WriteString(prefixes[rng.Intn(len(prefixes))])
		for m := rng.Intn(12); m > 0; m-- {
			switch rng.Intn(4) {
			case 0:
				b.WriteByte(0)
			case 1:
				b.WriteByte(byte(0x80 + rng.Intn(0x80)))
			default:
				b.WriteByte(byte('a' + rng.Intn(4)))
			}
		}
		seen[b.String()] = true
	}
	out := make([]string, 0, n)
	for s := range seen {
		out = append(out, s)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestStringPairsSortMatchesComparison sorts key sets of every size class
// (few keys, groups of one length above 256 and above 65536 keys, keys
// past shortKey) through StringPairs and compares with the comparison.
func TestStringPairsSortMatchesComparison(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	sizes := []int{2, 3, 8, 9, 10, 100, 255, 256, 257, 1000}
	if !testing.Short() {
		sizes = append(sizes, 65536, 65537, 70000)
	}
	for _, n := range sizes {
		for round := 0; round < 5; round++ {
			keys := randomKeySet(rng, n)
			if round == 4 {
				for i := range keys {
					keys[i] = strings.Repeat("k", 70) + keys[i]
				}
			}
			want := slices.Clone(keys)
			slices.SortFunc(want, compareTextKeys)
			// Each pair is its key's index as a 6-byte string.
			var dst []byte
			ps := GetStringPairs()
			for i, k := range keys {
				ps.Add(dst, k)
				dst = AppendString(dst, fmt.Sprintf("%06x", i))
			}
			dst = ps.Finish(dst)
			for i := range want {
				j, _ := strconv.ParseUint(string(dst[7*i+1:7*i+7]), 16, 64)
				if keys[int(j)] != want[i] {
					t.Fatalf("%d keys: place %d holds %q, want %q", n, i, keys[j], want[i])
				}
			}
			// Sorted before encoding: the keys through AddKey, the
			// values (their indices) through PairValues, in Order's
			// order.
			ps = GetStringPairs()
			vs := PairValues[int](ps)
			for i, k := range keys {
				ps.AddKey(k)
				vs = append(vs, i)
			}
			order := ps.Order()
			if len(order) != n {
				t.Fatalf("%d keys: Order returned %d", n, len(order))
			}
			for place, i := range order {
				if ps.KeyAt(i) != want[place] || keys[vs[i]] != want[place] {
					t.Fatalf("%d keys, Order: place %d holds %q (value %d), want %q", n, place, ps.KeyAt(i), vs[i], want[place])
				}
			}
			ReleasePairs(ps, vs)
		}
	}
}

func TestPairsAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	var keys []string
	for i := 0; i < 100; i++ {
		keys = append(keys, fmt.Sprintf("http.%d./api/v1/r%02d", i%4, i))
	}
	ints := []int64{5, -3, 1 << 40, -1 << 40, 0, 24}
	dst := make([]byte, 0, 16<<10)
	run := func() {
		d := dst[:0]
		ps := GetStringPairs()
		for _, k := range keys {
			ps.Add(d, k)
			d = AppendInt(AppendString(d, k), 7)
		}
		d = ps.Finish(d)
		ps = GetStringPairs()
		vs := PairValues[int64](ps)
		for _, k := range keys {
			ps.AddKey(k)
			vs = append(vs, 7)
		}
		for _, i := range ps.Order() {
			d = AppendInt(AppendString(d, ps.KeyAt(i)), vs[i])
		}
		ReleasePairs(ps, vs)
		// Values of another type, as the next map of a record has.
		ps = GetStringPairs()
		ss := PairValues[string](ps)
		for _, k := range keys {
			ps.AddKey(k)
			ss = append(ss, k)
		}
		for _, i := range ps.Order() {
			d = AppendString(AppendString(d, ps.KeyAt(i)), ss[i])
		}
		ReleasePairs(ps, ss)
		is := GetIntPairs()
		for _, k := range ints {
			is.Add(d, k)
			d = AppendInt(AppendInt(d, k), k)
		}
		is.Finish(d, SortBytewise)
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("%v allocations per sort", n)
	}
}

// compareTextKeys is the order of encoded text keys, the oracle of the
// pair recorders' sorts.
func compareTextKeys(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	// Names share long prefixes: compare eight bytes at a time.
	p := 0
	for ; p+8 <= len(a); p += 8 {
		if x, y := load8(a, p), load8(b, p); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a[p:], b[p:])
}

// TestStringPairsKeySet: maps of the same keys, each in another order,
// sort as the comparison does, the second and later from the key set
// remembered (recallSet); a set that differs from it in one key by one
// byte, by length or by a key too long to keep, and a set of more keys
// than a keySet keeps, are sorted again and right.
func TestStringPairsKeySet(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	order := func(keys []string) []string {
		ps := GetStringPairs()
		defer ps.release()
		for _, k := range keys {
			ps.AddKey(k)
		}
		var out []string
		for _, i := range ps.Order() {
			out = append(out, ps.KeyAt(i))
		}
		return out
	}
	// One recorder throughout, as the pool gives a goroutine when nothing
	// else takes one: the test checks recallSet's hits through it.
	ps := new(StringPairs)
	sorted := func(keys []string) ([]string, bool) {
		for _, k := range keys {
			ps.AddKey(k)
		}
		var out []string
		for _, i := range ps.Order() {
			out = append(out, ps.KeyAt(i))
		}
		hit := ps.recalled
		clear(ps.keys)
		ps.keys = ps.keys[:0]
		return out, hit
	}
	short := func(n int) []string {
		seen := map[string]bool{}
		for len(seen) < n {
			k := make([]byte, rng.Intn(maxSetKey+1))
			for i := range k {
				k[i] = []byte{0, 'a', 'b', 0xff}[rng.Intn(4)]
			}
			seen[string(k)] = true
		}
		return slices.Collect(func(yield func(string) bool) {
			for k := range seen {
				if !yield(k) {
					return
				}
			}
		})
	}
	for _, n := range []int{9, 10, 25, 27, 64, 65} {
		for round := 0; round < 20; round++ {
			keys := short(n)
			want := slices.Clone(keys)
			slices.SortFunc(want, compareTextKeys)
			for pass := 0; pass < 3; pass++ {
				rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
				got, hit := sorted(keys)
				if !slices.Equal(got, want) {
					t.Fatalf("%d keys, pass %d: %q, want %q", n, pass, got, want)
				}
				if wantHit := pass > 0 && n <= maxSetKeys; hit != wantHit {
					t.Fatalf("%d keys, pass %d: recalled %v", n, pass, hit)
				}
			}
			// One key changed: a byte, its length, or a long key.
			changed := slices.Clone(keys)
			i := rng.Intn(n)
			switch round % 3 {
			case 0:
				if len(changed[i]) == 0 {
					changed[i] = "\x01"
				} else {
					b := []byte(changed[i])
					b[rng.Intn(len(b))] ^= 0x10
					changed[i] = string(b)
				}
			case 1:
				changed[i] += "\x00"
			case 2:
				changed[i] = strings.Repeat("z", maxSetKey+1)
			}
			if slices.Contains(keys, changed[i]) || len(changed[i]) > maxSetKey && round%3 != 2 {
				continue
			}
			want = slices.Clone(changed)
			slices.SortFunc(want, compareTextKeys)
			got, hit := sorted(changed)
			if hit || !slices.Equal(got, want) {
				t.Fatalf("%d keys, one changed: recalled %v, %q, want %q", n, hit, got, want)
			}
			if !slices.Equal(order(changed), want) {
				t.Fatalf("%d keys from the pool: wrong order", n)
			}
		}
	}
}
