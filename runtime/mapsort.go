package runtime

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"
)

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
//	dst = runtime.AppendMapHead(dst, len(m))
//	s := runtime.GetMapSorter()
//	for k, v := range m {
//		s.Key(dst)
//		dst = runtime.AppendString(dst, k)
//		s.Value(dst)
//		dst = runtime.AppendInt(dst, v)
//	}
//	dst = s.Finish(dst, runtime.SortBytewise)
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

// StringKeys sorts the keys of a map with string keys, the common case,
// faster than MapSorter: for text keys both KeyOrders are the same order
// (shorter first, then bytewise), because a text head grows with the
// length. Pooled like MapSorter:
//
//	ks := runtime.GetStringKeys()
//	for k := range m {
//		ks.Keys = append(ks.Keys, k)
//	}
//	ks.Sort()
//	for _, k := range ks.Keys {
//		dst = runtime.AppendString(dst, k)
//		dst = appendValue(dst, m[k])
//	}
//	ks.Release()
type StringKeys struct{ Keys []string }

var stringKeysPool = sync.Pool{New: func() any { return new(StringKeys) }}

// GetStringKeys returns an empty StringKeys from the pool.
func GetStringKeys() *StringKeys { return stringKeysPool.Get().(*StringKeys) }

// Sort puts Keys in the order of their encodings (RFC 8949 §4.2.1, which
// for text keys is also the length-first order).
func (k *StringKeys) Sort() { slices.SortFunc(k.Keys, compareTextKeys) }

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

// load8 returns bytes [p, p+8) of s as a big-endian number.
func load8(s string, p int) uint64 {
	t := s[p : p+8]
	return uint64(t[0])<<56 | uint64(t[1])<<48 | uint64(t[2])<<40 | uint64(t[3])<<32 |
		uint64(t[4])<<24 | uint64(t[5])<<16 | uint64(t[6])<<8 | uint64(t[7])
}

// Release clears Keys and returns k to the pool; k must not be used after.
func (k *StringKeys) Release() {
	clear(k.Keys)
	k.Keys = k.Keys[:0]
	if cap(k.Keys) > 1<<16 {
		k.Keys = nil
	}
	stringKeysPool.Put(k)
}

// IntKeys does for integer keys what StringKeys does for text keys. The
// order depends on the KeyOrder: bytewise puts every non-negative key
// before every negative one; length-first goes by encoded size first.
type IntKeys struct{ Keys []int64 }

var intKeysPool = sync.Pool{New: func() any { return new(IntKeys) }}

// GetIntKeys returns an empty IntKeys from the pool.
func GetIntKeys() *IntKeys { return intKeysPool.Get().(*IntKeys) }

// Sort puts Keys in the order of their encodings under order.
func (k *IntKeys) Sort(order KeyOrder) {
	if order == SortLengthFirst {
		slices.SortFunc(k.Keys, compareIntKeysLengthFirst)
		return
	}
	// Bytewise, the order is that of (major type, argument): map each key
	// to an unsigned integer in that order, sort, and map back.
	// Flipping the top bit makes the signed order of int64 the unsigned
	// order of the mapped values.
	for i, v := range k.Keys {
		k.Keys[i] = int64(bytewiseInt(v) ^ 1<<63)
	}
	slices.Sort(k.Keys)
	for i, v := range k.Keys {
		k.Keys[i] = intOfBytewise(uint64(v) ^ 1<<63)
	}
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

// intOfBytewise is the inverse of bytewiseInt.
func intOfBytewise(x uint64) int64 {
	if x>>63 == 0 {
		return int64(x)
	}
	return int64(^(x &^ (1 << 63)))
}

// intHead returns the major type and argument that encode v.
func intHead(v int64) (byte, uint64) {
	if v >= 0 {
		return MajorUint, uint64(v)
	}
	return MajorNeg, uint64(-(v + 1))
}

func compareIntKeys(a, b int64) int {
	ma, xa := intHead(a)
	mb, xb := intHead(b)
	if ma != mb {
		return int(ma) - int(mb)
	}
	return cmp.Compare(xa, xb)
}

func compareIntKeysLengthFirst(a, b int64) int {
	ma, xa := intHead(a)
	mb, xb := intHead(b)
	if sa, sb := SizeHead(xa), SizeHead(xb); sa != sb {
		return sa - sb
	}
	if ma != mb {
		return int(ma) - int(mb)
	}
	return cmp.Compare(xa, xb)
}

// Release clears Keys and returns k to the pool.
func (k *IntKeys) Release() {
	k.Keys = k.Keys[:0]
	if cap(k.Keys) > 1<<16 {
		k.Keys = nil
	}
	intKeysPool.Put(k)
}

// UintKeys is IntKeys for unsigned keys; both orders agree for them.
type UintKeys struct{ Keys []uint64 }

var uintKeysPool = sync.Pool{New: func() any { return new(UintKeys) }}

// GetUintKeys returns an empty UintKeys from the pool.
func GetUintKeys() *UintKeys { return uintKeysPool.Get().(*UintKeys) }

// Sort puts Keys in ascending order, the order of their encodings.
func (k *UintKeys) Sort() { slices.Sort(k.Keys) }

// Release clears Keys and returns k to the pool.
func (k *UintKeys) Release() {
	k.Keys = k.Keys[:0]
	if cap(k.Keys) > 1<<16 {
		k.Keys = nil
	}
	uintKeysPool.Put(k)
}
