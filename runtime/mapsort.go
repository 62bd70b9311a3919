package runtime

import (
	"bytes"
	"sort"
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
