package genrt

import (
	"bytes"
	"encoding"
	"slices"
	"sort"
	"sync"
)

// SetMapHead rewrites the head of the map that starts at dst[start],
// written for more pairs than were then appended, to count n pairs. When
// the new head is shorter, the pairs move up to follow it.
func SetMapHead(dst []byte, start, n int) []byte {
	old := 1
	switch dst[start] & 0x1f {
	case 24:
		old = 2
	case 25:
		old = 3
	case 26:
		old = 5
	case 27:
		old = 9
	}
	var buf [9]byte
	head := AppendHead(buf[:0], MajorMap, uint64(n))
	copy(dst[start:], head)
	if gap := old - len(head); gap > 0 {
		copy(dst[start+len(head):], dst[start+old:])
		dst = dst[:len(dst)-gap]
	}
	return dst
}

// EmptyBinary reports whether m's MarshalBinary returns no bytes, as
// omitempty tests a type that fxamacker/cbor writes through it.
func EmptyBinary(m encoding.BinaryMarshaler) (bool, error) {
	b, err := m.MarshalBinary()
	return len(b) == 0, err
}

// KeyOrder is the order in which an encoder writes the pairs of a Go map.
type KeyOrder uint8

const (
	// SortBytewise orders pairs by the bytewise lexicographic order of
	// their encoded keys: RFC 8949 §4.2.1 Core Deterministic Encoding, and
	// fxamacker/cbor's CoreDetEncOptions. The default.
	SortBytewise KeyOrder = iota
	// SortLengthFirst orders shorter encoded keys first, then bytewise:
	// RFC 7049 canonical CBOR (fxamacker/cbor's SortLengthFirst).
	SortLengthFirst
	// SortNone keeps Go's map iteration order: fastest, not deterministic.
	SortNone
)

// MapSorter puts the pairs of an encoded map into a KeyOrder after they
// were appended in Go's iteration order. It works on offsets into the
// output buffer, and sorters are pooled, so a map encoder allocates
// nothing in steady state:
//
//	dst = genrt.AppendMapHead(dst, len(m))
//	s := genrt.GetMapSorter()
//	for k, v := range m {
//		s.Key(dst)
//		dst = genrt.AppendString(dst, k)
//		s.Value(dst)
//		dst = genrt.AppendInt(dst, v)
//	}
//	dst = s.Finish(dst, genrt.SortBytewise)
type MapSorter struct {
	pairs   []pairSpan
	scratch []byte
	buf     []byte // the output during Finish
	length  bool   // SortLengthFirst
}

type pairSpan struct{ key, value, end int }

var sorterPool = sync.Pool{New: func() any { return new(MapSorter) }}

// GetMapSorter returns an empty sorter from the pool; Finish returns it.
func GetMapSorter() *MapSorter { return sorterPool.Get().(*MapSorter) }

// Key records that the next key starts at len(dst).
func (s *MapSorter) Key(dst []byte) {
	if n := len(s.pairs); n > 0 {
		s.pairs[n-1].end = len(dst)
	}
	s.pairs = append(s.pairs, pairSpan{key: len(dst)})
}

// Value records that the key just appended ends, and its value starts, at
// len(dst).
func (s *MapSorter) Value(dst []byte) { s.pairs[len(s.pairs)-1].value = len(dst) }

// Finish reorders the pairs appended since the first Key into order,
// returns dst, and puts s back into the pool: s must not be used after.
func (s *MapSorter) Finish(dst []byte, order KeyOrder) []byte {
	if n := len(s.pairs); n > 1 && order != SortNone {
		s.pairs[n-1].end = len(dst)
		s.buf, s.length = dst, order == SortLengthFirst
		if v := (*pairSort)(s); !sort.IsSorted(v) {
			sort.Sort(v)
			start := s.pairs[0].key
			for _, p := range s.pairs {
				if p.key < start {
					start = p.key
				}
			}
			s.scratch = append(s.scratch[:0], dst[start:]...)
			out := dst[:start]
			for _, p := range s.pairs {
				out = append(out, s.scratch[p.key-start:p.end-start]...)
			}
		}
		s.buf = nil
	}
	s.pairs = s.pairs[:0]
	if cap(s.scratch) > 1<<20 {
		s.scratch = nil
	}
	sorterPool.Put(s)
	return dst
}

// pairSort is the sort.Interface view of a MapSorter; a pointer
// conversion, so sorting allocates nothing.
type pairSort MapSorter

func (s *pairSort) Len() int      { return len(s.pairs) }
func (s *pairSort) Swap(i, j int) { s.pairs[i], s.pairs[j] = s.pairs[j], s.pairs[i] }
func (s *pairSort) Less(i, j int) bool {
	a := s.buf[s.pairs[i].key:s.pairs[i].value]
	b := s.buf[s.pairs[j].key:s.pairs[j].value]
	if s.length && len(a) != len(b) {
		return len(a) < len(b)
	}
	return bytes.Compare(a, b) < 0
}

// load8 returns bytes [p, p+8) of s as a big-endian number.
func load8(s string, p int) uint64 {
	t := s[p : p+8]
	return uint64(t[0])<<56 | uint64(t[1])<<48 | uint64(t[2])<<40 | uint64(t[3])<<32 |
		uint64(t[4])<<24 | uint64(t[5])<<16 | uint64(t[6])<<8 | uint64(t[7])
}

// bytewiseInt maps v to an unsigned integer whose order is that of the
// encodings: non-negative values as they are, negative ones (major type 1,
// argument -1-v) above them.
func bytewiseInt(v int64) uint64 {
	if v >= 0 {
		return uint64(v)
	}
	return 1<<63 | ^uint64(v)
}

// intHead returns the major type and argument that encode v.
func intHead(v int64) (byte, uint64) {
	if v >= 0 {
		return MajorUint, uint64(v)
	}
	return MajorNeg, uint64(-(v + 1))
}

// StringPairs sorts the pairs of a map with text keys, appended in Go's
// iteration order, by their encoded keys (for text both sorted KeyOrders
// are one order, as a text head grows with the length), so an encoder
// visits the map once. Pooled: no allocation in steady state.
//
//	dst = genrt.AppendMapHead(dst, len(m))
//	ps := genrt.GetStringPairs()
//	for k, x := range m {
//		ps.Add(dst, k)
//		dst = genrt.AppendString(dst, k)
//		dst = genrt.AppendInt(dst, x)
//	}
//	dst = ps.Finish(dst)
type StringPairs struct {
	keys     []string
	order    []int  // Order's result
	values   [4]any // *[]V: arrays of PairValues' slices, the newest first
	packed   []uint64
	orders   [4]rememberedPerm // the orders of the last maps sorted
	next     int               // the entry of orders to replace next
	recalled bool
	sets     [keySets]keySet // the last sets of keys sorted, by their bytes
	nextSet  int             // the entry of sets to replace next
	pairBuf
}

var stringPairsPool = sync.Pool{New: func() any { return new(StringPairs) }}

// GetStringPairs returns an empty StringPairs from the pool; Finish
// returns it.
func GetStringPairs() *StringPairs { return stringPairsPool.Get().(*StringPairs) }

// Add records that the pair of key k starts at len(dst); the previous
// pair, if any, ends there.
func (p *StringPairs) Add(dst []byte, k string) {
	p.keys = append(p.keys, k)
	p.starts = append(p.starts, len(dst))
}

// Finish reorders the pairs appended since the first Add, returns dst and
// puts p back into the pool: p must not be used after.
func (p *StringPairs) Finish(dst []byte) []byte {
	if len(p.keys) > 1 {
		p.sort()
		dst = p.permute(dst)
	}
	p.release()
	return dst
}

// sort sorts the keys recorded, more than one: p.ranks holds their
// indices in the order of their encodings.
func (p *StringPairs) sort() {
	if n := len(p.keys); n > 1 {
		r := p.rankBuf(n)
		long := 0
		for _, k := range p.keys {
			long = max(long, len(k))
		}
		p.recalled = false
		if n > fewPairs && p.recallSet(r) {
			// The keys of a set sorted before, in any order.
			p.recalled = true
		} else if n > fewPairs && p.recall(r) {
			// The keys of the last map sorted with n keys, in an order
			// that ranks follow from.
		} else if n <= fewPairs {
			// Few keys: an insertion sort comparing them in line.
			for i := range r {
				r[i] = pairRank{i: uint32(i)}
			}
			for i := 1; i < n; i++ {
				x := r[i]
				j := i
				for ; j > 0 && textLess(p.keys[x.i], p.keys[r[j-1].i]); j-- {
					r[j] = r[j-1]
				}
				r[j] = x
			}
		} else if long < shortKey {
			// Group the keys by length (a counting sort), then sort
			// each group by its bytes.
			// The counts and sums stop at the longest key.
			var start [shortKey + 1]uint32
			for _, k := range p.keys {
				start[len(k)+1]++
			}
			for i := 1; i <= long; i++ {
				start[i] += start[i-1]
			}
			for i, k := range p.keys {
				r[start[len(k)]] = pairRank{n: uint32(len(k)), i: uint32(i)}
				start[len(k)]++
			}
			// start[l] is now where the keys of length l end.
			for l, lo := 0, 0; lo < n; l++ {
				hi := int(start[l])
				if hi-lo > 1 {
					p.sortShort(r[lo:hi], 0)
				}
				lo = hi
			}
		} else {
			for i, k := range p.keys {
				r[i] = pairRank{w: textWord(k, 0), n: uint32(len(k)), i: uint32(i)}
			}
			sortRanks(r, p.aux)
			p.refine(r, 8)
		}
		if n > fewPairs && !p.recalled {
			p.remember(r)
			p.rememberSet(r)
		}
	}
}

// release empties p and puts it back into the pool.
func (p *StringPairs) release() {
	clear(p.keys)
	p.keys = p.keys[:0]
	if cap(p.keys) > 1<<16 {
		p.keys = nil
		p.orders = [4]rememberedPerm{}
		p.sets = [keySets]keySet{}
		p.order, p.values = nil, [4]any{}
	}
	p.reset()
	stringPairsPool.Put(p)
}

// Sorting before encoding: an encoder records the keys of a map with
// AddKey and its values in a slice from PairValues, visiting the map
// once, then encodes the pairs in the order Order returns, so that
// nothing encoded is moved (Finish moves the bytes of every pair, and of
// every map nested in one, again at each level).
//
//	dst = genrt.AppendMapHead(dst, len(m))
//	ps := genrt.GetStringPairs()
//	vs := genrt.PairValues[V](ps)
//	for k, x := range m {
//		ps.AddKey(k)
//		vs = append(vs, x)
//	}
//	for _, i := range ps.Order() {
//		k := ps.KeyAt(i)
//		dst = genrt.AppendString(dst, k)
//		dst = appendV(dst, vs[i])
//	}
//	genrt.ReleasePairs(ps, vs)

// AddKey records the key of the next pair of a map sorted before it is
// encoded.
func (p *StringPairs) AddKey(k string) { p.keys = append(p.keys, k) }

// KeyAt returns the i-th key recorded.
func (p *StringPairs) KeyAt(i int) string { return p.keys[i] }

// Order sorts the keys recorded by AddKey and returns their indices in
// the order of their encodings. The slice is p's, valid until
// ReleasePairs.
func (p *StringPairs) Order() []int {
	n := len(p.keys)
	o := slices.Grow(p.order[:0], n)[:n]
	p.order = o
	if n < 2 {
		for i := range o {
			o[i] = i
		}
		return o
	}
	p.sort()
	for j, r := range p.ranks[:n] {
		o[j] = int(r.i)
	}
	return o
}

// PairValues returns an empty slice for the values of the pairs whose
// keys p records, with the room of the slice ReleasePairs last gave p
// for values of type V.
func PairValues[V any](p *StringPairs) []V {
	for _, x := range &p.values {
		if s, ok := x.(*[]V); ok {
			return (*s)[:0]
		}
	}
	return nil
}

// ReleasePairs empties p and vs (so that neither keeps what they held
// alive), keeps vs's array in p for PairValues, and puts p back into the
// pool: neither must be used after. p keeps the arrays of a few value
// types (the maps of one type of record), the oldest giving way.
func ReleasePairs[V any](p *StringPairs, vs []V) {
	clear(vs)
	for _, x := range &p.values {
		if s, ok := x.(*[]V); ok {
			*s = vs[:0]
			p.release()
			return
		}
	}
	s := new([]V)
	*s = vs[:0]
	copy(p.values[1:], p.values[:])
	p.values[0] = s
	p.release()
}

// IntegerPairs does for integer keys what StringPairs does for text
// keys, in either sorted KeyOrder: int64 keys from GetIntPairs, uint64
// keys (for which both sorted orders agree) from GetUintPairs.
type IntegerPairs[K int64 | uint64] struct {
	keys []K
	pairBuf
}

var (
	intPairsPool  = sync.Pool{New: func() any { return new(IntegerPairs[int64]) }}
	uintPairsPool = sync.Pool{New: func() any { return new(IntegerPairs[uint64]) }}
)

// GetIntPairs returns an empty recorder of int64 keys from the pool.
func GetIntPairs() *IntegerPairs[int64] { return intPairsPool.Get().(*IntegerPairs[int64]) }

// GetUintPairs returns an empty recorder of uint64 keys from the pool.
func GetUintPairs() *IntegerPairs[uint64] { return uintPairsPool.Get().(*IntegerPairs[uint64]) }

// Add records that the pair of key k starts at len(dst).
func (p *IntegerPairs[K]) Add(dst []byte, k K) {
	p.keys = append(p.keys, k)
	p.starts = append(p.starts, len(dst))
}

// Finish reorders the pairs into order (SortNone keeps them as they are),
// returns dst and puts p back into the pool.
func (p *IntegerPairs[K]) Finish(dst []byte, order KeyOrder) []byte {
	if n := len(p.keys); n > 1 && order != SortNone {
		r := p.rankBuf(n)
		switch keys := any(p.keys).(type) {
		case []int64:
			for i, k := range keys {
				// Bytewise, the order is that of (major type, argument),
				// the unsigned order of bytewiseInt; length-first puts
				// the size of the head before that.
				r[i] = pairRank{w: bytewiseInt(k), i: uint32(i)}
				if order == SortLengthFirst {
					_, arg := intHead(k)
					r[i].n = uint32(SizeHead(arg))
				}
			}
		case []uint64:
			for i, k := range keys {
				r[i] = pairRank{w: k, i: uint32(i)}
			}
		}
		sortRanks(r, p.aux)
		dst = p.permute(dst)
	}
	p.keys = p.keys[:0]
	if cap(p.keys) > 1<<16 {
		p.keys = nil
	}
	p.reset()
	switch q := any(p).(type) {
	case *IntegerPairs[int64]:
		intPairsPool.Put(q)
	case *IntegerPairs[uint64]:
		uintPairsPool.Put(q)
	}
	return dst
}
