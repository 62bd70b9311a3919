package genrt

import (
	"sync"
	"sync/atomic"
)

// A Buffer is a pooled buffer to encode into, for the Marshal functions
// of values whose size costs as much to compute as to encode (a union's
// values, which hold maps and slices of values): the encoding is
// appended to B, and Finish copies it out at its exact size. For
// generated code:
//
//	b := genrt.GetBuffer()
//	return b.Finish(AppendValueCBOR(b.B, x))
type Buffer struct{ B []byte }

// maxPooledBuffer bounds the buffers the pool keeps.
const maxPooledBuffer = 4 << 20

var bufferPool sync.Pool

// bufferSize is about the length of the encodings Finish copied out
// lately (within a factor of two, at most maxPooledBuffer): the capacity
// of a buffer made when the pool has none. A collection empties the pool
// (or leaves its buffer with another processor), and a large value
// encoded into a buffer made empty would grow it by doubling: copies and
// allocations of twice its size.
var bufferSize atomic.Int64

// GetBuffer returns an empty buffer from the pool, or a new one with
// room for an encoding of the length of those of late; Finish returns it.
func GetBuffer() *Buffer {
	if b, ok := bufferPool.Get().(*Buffer); ok {
		return b
	}
	return &Buffer{B: make([]byte, 0, bufferSize.Load())}
}

// Finish returns a copy of enc (b.B with an encoding appended) in a new
// slice of its length (rounded up only to the allocator's size class),
// or nil and err if err is not nil, and puts b back
// into the pool: b must not be used after.
func (b *Buffer) Finish(enc []byte, err error) ([]byte, error) {
	var out []byte
	if err == nil {
		out = append([]byte(nil), enc...)
	}
	if n, was := int64(len(enc)), bufferSize.Load(); n > 2*was || n < was/2 {
		// Stored only on a change of scale: the common case is one load
		// of a word that stays in every core's cache.
		bufferSize.Store(min(n, maxPooledBuffer))
	}
	if cap(enc) <= maxPooledBuffer {
		b.B = enc[:0]
	} else {
		b.B = nil
	}
	bufferPool.Put(b)
	return out, err
}
