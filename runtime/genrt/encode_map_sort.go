package genrt

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"
)

// pairBuf is what every pair recorder holds: where each pair starts in
// the output, in the order appended, and the buffers of the sort.
type pairBuf struct {
	starts  []int
	ranks   []pairRank
	aux     []pairRank // the merge sort's second buffer
	scratch []byte     // a copy of the pairs while they are moved
}

// pairRank is a pair's place in the sort: the pair sorts by (n, w), and
// pairs equal in both by what follows (for text keys, the next eight
// bytes). i is the pair's index in the order appended. No pointers, so
// moving one costs two stores.
type pairRank struct {
	w    uint64
	n, i uint32
}

// fewPairs bounds the maps whose keys Finish sorts by insertion.
const fewPairs = 8

// textLess reports whether the encoding of text key a sorts before that
// of b: shorter first, then bytewise, eight bytes at a time.
func textLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	n := len(a)
	if n < 8 {
		return textWord(a, 0) < textWord(b, 0)
	}
	for i := 0; i+8 < n; i += 8 {
		if x, y := load8(a, i), load8(b, i); x != y {
			return x < y
		}
	}
	// The last eight bytes, which may overlap those compared equal.
	return load8(a, n-8) < load8(b, n-8)
}

// rememberedPerm is the sorted order of the keys of a map as they came, kept so
// that the same map encoded again (a common case: a map of metrics
// written every few seconds) skips the sort. keys are the keys in the
// order they were added; sorted[j] is the index in keys of the j-th key in
// order.
type rememberedPerm struct {
	keys   []string
	sorted []uint32
}

// recall fills r with the order of the keys from a remembered order, when
// the keys are those of a map sorted before, in the order Go iterated
// them then or rotated (Go starts an iteration at a random place of a
// table and wraps around): it checks every key, and reports false, having
// done no harm, for any other key set or order.
func (p *StringPairs) recall(r []pairRank) bool {
	p.recalled = false
	n := len(p.keys)
	for e := range p.orders {
		o := &p.orders[e]
		if len(o.keys) != n {
			continue
		}
		// Where the first key was last time: the rotation.
		k0, rot := p.keys[0], -1
		for i, k := range o.keys {
			if sameString(k, k0) {
				rot = i
				break
			}
		}
		if rot < 0 {
			continue
		}
		same := true
		for i, j := 0, rot; i < n; i++ {
			if !sameString(p.keys[i], o.keys[j]) {
				same = false
				break
			}
			if j++; j == n {
				j = 0
			}
		}
		if !same {
			continue
		}
		// keys[i] is o.keys[(i+rot) mod n].
		for j, x := range o.sorted {
			i := int(x) - rot
			if i < 0 {
				i += n
			}
			r[j] = pairRank{i: uint32(i)}
		}
		p.recalled = true
		return true
	}
	return false
}

// remember keeps the order r of the keys, in place of the oldest order
// kept.
func (p *StringPairs) remember(r []pairRank) {
	o := &p.orders[p.next]
	p.next = (p.next + 1) % len(p.orders)
	clear(o.keys)
	o.keys = append(o.keys[:0], p.keys...)
	o.sorted = o.sorted[:0]
	for _, x := range r {
		o.sorted = append(o.sorted, x.i)
	}
}

// sameString reports whether a == b, at once when they share their bytes,
// as the keys of one map do from one iteration to the next.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// shortKey bounds the length of the keys that Finish groups by length
// with a counting sort.
const shortKey = 64

// refine sorts each run of r whose ranks are equal: keys of the same
// length that agree up to off. It finds where the keys of the run first
// differ and sorts them by the seven bytes there, packed with their
// places in the run into one integer each, so that the sort compares
// integers; runs still equal go round again.
func (p *StringPairs) refine(r []pairRank, off int) {
	for lo := 0; lo < len(r); {
		hi := lo + 1
		for hi < len(r) && r[hi].n == r[lo].n && r[hi].w == r[lo].w {
			hi++
		}
		g := r[lo:hi]
		lo = hi
		if len(g) < 2 {
			continue
		}
		k0 := p.keys[g[0].i]
		d := len(k0)
		for _, x := range g[1:] {
			d = firstDiff(k0, p.keys[x.i], off, d)
		}
		if d == len(k0) {
			continue // equal keys: not from a map
		}
		if len(g) > 256 {
			for j := range g {
				g[j].w = textWord(p.keys[g[j].i], d)
			}
			sortRanks(g, p.aux)
			p.refine(g, d+8)
			continue
		}
		// The top seven bytes are the key's at d, the low byte the
		// place in g.
		packed := slices.Grow(p.packed[:0], len(g))[:len(g)]
		p.packed = packed
		for j, x := range g {
			packed[j] = textWord(p.keys[x.i], d)&^0xff | uint64(j)
		}
		slices.Sort(packed)
		old := append(p.aux[:0], g...)
		for j, x := range packed {
			g[j] = pairRank{w: x >> 8, n: uint32(len(k0)), i: old[x&0xff].i}
		}
		p.refine(g, d+7)
	}
}

// sortShort sorts g, keys of the same length (below shortKey) that
// agree before off. Where all the keys agree does not decide their
// order, so it finds the bytes from off on where some differ, packs the
// first seven of those (six in a group above 256 keys, with whatever
// agreeing bytes lie between them in the same word) into the top of an
// integer per key, its place in g below, and sorts the integers; keys
// still equal then are sorted again by the bytes after.
func (p *StringPairs) sortShort(g []pairRank, off int) {
	if len(g) < 2 {
		return
	}
	if len(g) <= fewPairs {
		p.insertShort(g, off)
		return
	}
	if len(g) > 1<<16 {
		p.sortWords(g, off)
		return
	}
	n := int(g[0].n)
	// The key as words: eight bytes at offs[j], the last one ending at
	// the key's end and masked (keep) to the bytes no other word has.
	var offs [shortKey/8 + 1]int
	var keep, w0, diff [shortKey/8 + 1]uint64
	nw := 0
	for o := off &^ 7; o+8 <= n; o += 8 {
		offs[nw], keep[nw] = o, ^uint64(0)
		nw++
	}
	if n%8 != 0 {
		offs[nw], keep[nw] = n-8, 1<<(8*(n%8))-1
		if n < 8 {
			offs[nw], keep[nw] = 0, ^uint64(0)
		}
		nw++
	}
	word := func(k string, j int) uint64 {
		if n < 8 {
			return textWord(k, 0)
		}
		return load8(k, offs[j])
	}
	k0 := p.keys[g[0].i]
	for j := range nw {
		w0[j] = word(k0, j)
	}
	for _, x := range g[1:] {
		k := p.keys[x.i]
		if len(k) != n {
			panic("cborgen/runtime: keys of unequal length grouped")
		}
		for j := range nw {
			diff[j] |= word(k, j) ^ w0[j]
		}
	}
	// Each word that differs gives the bytes from its first to its last
	// differing one: (w << lsh) >> rsh.
	idxBits, room := 8, 7
	if len(g) > 256 {
		idxBits, room = 16, 6
	}
	type part struct{ j, lsh, rsh, bits int }
	var parts [shortKey/8 + 1]part
	np, used, next := 0, 0, -1
	for j := range nw {
		d := diff[j] & keep[j]
		if d == 0 {
			continue
		}
		first, last := bits.LeadingZeros64(d)/8, 7-bits.TrailingZeros64(d)/8
		c := last - first + 1
		if used+c > room {
			c = room - used
			next = offs[j] + first + c
		}
		parts[np] = part{j: j, lsh: 8 * first, rsh: 64 - 8*c, bits: 8 * c}
		np++
		used += c
		if next >= 0 {
			break
		}
	}
	if np == 0 {
		return // equal keys: not from a map
	}
	packed := slices.Grow(p.packed[:0], len(g))[:len(g)]
	p.packed = packed
	for j, x := range g {
		k := p.keys[x.i]
		var v uint64
		for _, q := range parts[:np] {
			v = v<<q.bits | word(k, q.j)<<q.lsh>>q.rsh
		}
		packed[j] = v<<idxBits | uint64(j)
	}
	slices.Sort(packed)
	old := append(p.aux[:0], g...)
	mask := uint64(1)<<idxBits - 1
	for j, v := range packed {
		g[j] = old[v&mask]
		g[j].w = v >> idxBits
	}
	if next >= 0 { // some bytes that differ were not compared
		p.sortTies(g, next)
	}
}

// insertShort is sortShort for a few keys of one length, as in most maps
// of records: an insertion sort costs less than packing them. It compares
// the eight bytes from off as one integer, and only keys equal in those
// by the bytes after.
func (p *StringPairs) insertShort(g []pairRank, off int) {
	for j := range g {
		g[j].w = textWord(p.keys[g[j].i], off)
	}
	rest := off + 8 // where the bytes not in w start
	for i := 1; i < len(g); i++ {
		x := g[i]
		j := i
		for ; j > 0; j-- {
			y := g[j-1]
			if x.w > y.w || x.w == y.w && (rest >= int(x.n) || p.keys[x.i][rest:] >= p.keys[y.i][rest:]) {
				break
			}
			g[j] = y
		}
		g[j] = x
	}
}

// sortWords is sortShort for more keys than a packed integer has room to
// number: by their next eight bytes from off, then refined.
func (p *StringPairs) sortWords(g []pairRank, off int) {
	for j := range g {
		g[j].w = textWord(p.keys[g[j].i], off)
	}
	sortRanks(g, p.aux)
	p.refine(g, off+8)
}

// sortTies sorts each run of g whose packed bytes (w) are equal again by
// sortShort, from off on.
func (p *StringPairs) sortTies(g []pairRank, off int) {
	for lo := 0; lo < len(g); {
		hi := lo + 1
		for hi < len(g) && g[hi].w == g[lo].w {
			hi++
		}
		if hi-lo > 1 {
			p.sortShort(g[lo:hi], off)
		}
		lo = hi
	}
}

// firstDiff returns the first index in [from, limit) at which a and b
// differ, or limit; both are at least limit long.
func firstDiff(a, b string, from, limit int) int {
	i := from
	for ; i+8 <= limit; i += 8 {
		if x := load8(a, i) ^ load8(b, i); x != 0 {
			return i + bits.LeadingZeros64(x)/8
		}
	}
	for ; i < limit; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return limit
}

// textWord returns bytes [off, off+8) of s as a big-endian number, the
// bytes past the end of s as zeros.
func textWord(s string, off int) uint64 {
	if off+8 <= len(s) {
		return load8(s, off)
	}
	if len(s) >= 8 && off < len(s) {
		return load8(s, len(s)-8) << (8 * (off + 8 - len(s)))
	}
	if off == 0 {
		// Two loads that overlap, the bytes they share being the same.
		switch n := len(s); {
		case n >= 4:
			return uint64(load4(s, 0))<<32 | uint64(load4(s, n-4))<<(8*(8-n))
		case n >= 2:
			return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[n-2])<<(8*(9-n)) | uint64(s[n-1])<<(8*(8-n))
		case n == 1:
			return uint64(s[0]) << 56
		}
		return 0
	}
	var x uint64
	for i := off; i < off+8; i++ {
		x <<= 8
		if i < len(s) {
			x |= uint64(s[i])
		}
	}
	return x
}

// load4 returns bytes [p, p+4) of s as a big-endian number.
func load4(s string, p int) uint32 {
	t := s[p : p+4]
	return uint32(t[0])<<24 | uint32(t[1])<<16 | uint32(t[2])<<8 | uint32(t[3])
}

// rankBuf returns p.ranks with length n, and sizes p.aux to match.
func (p *pairBuf) rankBuf(n int) []pairRank {
	p.ranks = slices.Grow(p.ranks[:0], n)[:n]
	p.aux = slices.Grow(p.aux[:0], n)[:n]
	return p.ranks
}

// reset empties p for the pool, dropping buffers grown unusually large.
func (p *pairBuf) reset() {
	p.starts = p.starts[:0]
	if cap(p.starts) > 1<<16 {
		p.starts, p.ranks, p.aux = nil, nil, nil
	}
}

// The copy of the pairs that permute moves: in the recorder up to
// smallScratch bytes, else in one buffer shared by all recorders (taken
// by one at a time; the others allocate), kept up to maxScratch bytes.
const (
	smallScratch = 16 << 10
	maxScratch   = 4 << 20
)

type scratchBuf struct{ b []byte }

var bigScratch atomic.Pointer[scratchBuf]

// permute rewrites dst from the first pair's start with the pairs in the
// order of p.ranks. Pair i was appended at dst[starts[i]:starts[i+1]]
// (the last one up to the end of dst).
func (p *pairBuf) permute(dst []byte) []byte {
	base := p.starts[0]
	s := p.scratch[:0]
	var big *scratchBuf
	if n := len(dst) - base; n > smallScratch {
		// A large map's copy goes through the shared buffer, which
		// outlives the collections that empty the pools.
		if big = bigScratch.Swap(nil); big == nil {
			big = new(scratchBuf)
		}
		s = big.b[:0]
	}
	s = append(s, dst[base:]...)
	if big != nil {
		defer func() {
			if cap(s) <= maxScratch {
				big.b = s
				bigScratch.Store(big)
			}
		}()
	} else {
		p.scratch = s
	}
	t := dst[base:]
	last := len(p.starts) - 1
	k := 0
	for _, r := range p.ranks {
		end := len(s)
		if int(r.i) < last {
			end = p.starts[r.i+1] - base
		}
		from := p.starts[r.i] - base
		n := end - from
		// Short pairs go as one fixed-size copy; the bytes past the
		// pair are overwritten by the pairs after it.
		switch {
		case n <= 16 && from+16 <= len(s) && k+16 <= len(t):
			copy16((*[16]byte)(t[k:]), (*[16]byte)(s[from:]))
		case n <= 32 && from+32 <= len(s) && k+32 <= len(t):
			copy16((*[16]byte)(t[k:]), (*[16]byte)(s[from:]))
			copy16((*[16]byte)(t[k+16:]), (*[16]byte)(s[from+16:]))
		default:
			copy(t[k:], s[from:end])
		}
		k += n
	}
	return dst
}

// copy16 copies 16 bytes as two words.
func copy16(t, s *[16]byte) {
	binary.LittleEndian.PutUint64(t[:8], binary.LittleEndian.Uint64(s[:8]))
	binary.LittleEndian.PutUint64(t[8:], binary.LittleEndian.Uint64(s[8:]))
}

// sortRanks sorts r by (n, w), using aux (at least as long) as the merge
// buffer: a merge sort over runs put in order by insertion, with the
// comparison in line, since sorting is most of what a sorted map encoder
// costs.
func sortRanks(r, aux []pairRank) {
	const run = 8
	n := len(r)
	for lo := 0; lo < n; lo += run {
		hi := min(lo+run, n)
		for i := lo + 1; i < hi; i++ {
			x := r[i]
			j := i
			for ; j > lo && rankLess(x, r[j-1]); j-- {
				r[j] = r[j-1]
			}
			r[j] = x
		}
	}
	if n <= run {
		return
	}
	src, out := r, aux[:n]
	for width := run; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if rankLess(src[j], src[i]) {
					out[k] = src[j]
					j++
				} else {
					out[k] = src[i]
					i++
				}
				k++
			}
			k += copy(out[k:], src[i:mid])
			copy(out[k:], src[j:hi])
		}
		src, out = out, src
	}
	if &src[0] != &r[0] {
		copy(r, src)
	}
}

func rankLess(a, b pairRank) bool {
	return a.n < b.n || a.n == b.n && a.w < b.w
}

// keySet remembers, by their bytes, the sorted order of a set of 9 to
// 64 keys of at most 64 bytes each that a recorder sorted: maps of one
// type of record (a store's dictionaries of metadata, a document's
// objects) have the same keys in each, but Go iterates every map in an
// order of its own, which recall, looking for the order of one map
// encoded again, does not find. Each key is found in a table by its
// length and two words (and, above 16 bytes, its bytes), and its place is
// its rank, so that such a map costs a hash and a compare per key
// instead of a sort.
type keySet struct {
	n     int // keys in the set, 0 for none
	shift uint
	slots []keySlot // open addressing, a power of two of at least 4n
}

// keySlot is one key of a keySet: the key, its first and last bytes as
// two words (keyWords), its length plus one (0: an empty slot) and its
// rank. Keys of up to 16 bytes are told apart by the words alone.
type keySlot struct {
	k      string
	w0, w1 uint64
	n      uint32
	rank   uint32
}

// maxSetKey and maxSetKeys bound the keys and the sets a keySet keeps;
// a recorder keeps keySets of its last few sets (a record type's maps
// with and without an optional key, or two types of record nested).
const (
	maxSetKey  = shortKey
	maxSetKeys = 64
	keySets    = 4
)

// keyWords returns two words that, with its length, tell k from any other
// key of up to 16 bytes: its first and last eight bytes, four bytes, or
// its bytes.
func keyWords(k string) (w0, w1 uint64) {
	switch n := len(k); {
	case n >= 8:
		return load8(k, 0), load8(k, n-8)
	case n >= 4:
		return uint64(load4(k, 0)), uint64(load4(k, n-4))
	case n > 0:
		return uint64(k[0])<<16 | uint64(k[n/2])<<8 | uint64(k[n-1]), 0
	}
	return 0, 0
}

// slot returns the slot of key k, whose words are w0 and w1, or the
// empty slot where it would go.
func (s *keySet) slot(k string, w0, w1 uint64) *keySlot {
	mask := len(s.slots) - 1
	h := int((w0 ^ bits.RotateLeft64(w1, 29) ^ uint64(len(k))) * 0x9e3779b97f4a7c15 >> s.shift)
	for {
		e := &s.slots[h&mask]
		if e.n == 0 || e.n == uint32(len(k)+1) && e.w0 == w0 && e.w1 == w1 && (len(k) <= 16 || sameString(e.k, k)) {
			return e
		}
		h++
	}
}

// recallSet fills r with the order of the keys when they are, in any
// order, a set remembered, and reports whether they are; it gives up on
// a set at the first key not in it.
func (p *StringPairs) recallSet(r []pairRank) bool {
	n := len(p.keys)
	for j := range p.sets {
		if s := &p.sets[j]; s.n == n && s.recall(p.keys, r) {
			return true
		}
	}
	return false
}

// recall is recallSet for one set.
func (s *keySet) recall(keys []string, r []pairRank) bool {
	var hit uint64 // the ranks found, each once: the keys are the set's
	for i, k := range keys {
		if len(k) > maxSetKey {
			return false
		}
		w0, w1 := keyWords(k)
		e := s.slot(k, w0, w1)
		if e.n == 0 || hit&(1<<e.rank) != 0 {
			return false
		}
		hit |= 1 << e.rank
		r[e.rank] = pairRank{i: uint32(i)}
	}
	return true
}

// rememberSet keeps the keys, in the order r, in place of p's oldest
// set, when there are 9 to maxSetKeys of them, none longer than
// maxSetKey.
func (p *StringPairs) rememberSet(r []pairRank) {
	n := len(r)
	if n <= fewPairs || n > maxSetKeys {
		return
	}
	for _, k := range p.keys {
		if len(k) > maxSetKey {
			return
		}
	}
	s := &p.sets[p.nextSet]
	p.nextSet = (p.nextSet + 1) % keySets
	// A power of two of at least 4n slots: at most a quarter taken.
	size := 1 << bits.Len(uint(4*n-1))
	if cap(s.slots) < size {
		s.slots = make([]keySlot, size, 4*maxSetKeys)
	} else {
		s.slots = s.slots[:size]
		clear(s.slots)
	}
	s.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for rank, x := range r {
		k := p.keys[x.i]
		w0, w1 := keyWords(k)
		*s.slot(k, w0, w1) = keySlot{k: k, w0: w0, w1: w1, n: uint32(len(k) + 1), rank: uint32(rank)}
	}
	s.n = n
}
