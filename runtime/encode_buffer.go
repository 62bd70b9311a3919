package runtime

import "sync"

// A Buffer is a pooled buffer to encode into, for the Marshal functions
// of values whose size costs as much to compute as to encode (a union's
// values, which hold maps and slices of values): the encoding is
// appended to B, and Finish copies it out at its exact size. For
// generated code:
//
//	b := runtime.GetBuffer()
//	return b.Finish(AppendValueCBOR(b.B, x))
type Buffer struct{ B []byte }

// maxPooledBuffer bounds the buffers the pool keeps.
const maxPooledBuffer = 4 << 20

var bufferPool = sync.Pool{New: func() any { return new(Buffer) }}

// GetBuffer returns an empty buffer from the pool; Finish returns it.
func GetBuffer() *Buffer { return bufferPool.Get().(*Buffer) }

// Finish returns a copy of enc (b.B with an encoding appended) in a new
// slice of its length (rounded up only to the allocator's size class),
// or nil and err if err is not nil, and puts b back
// into the pool: b must not be used after.
func (b *Buffer) Finish(enc []byte, err error) ([]byte, error) {
	var out []byte
	if err == nil {
		out = append([]byte(nil), enc...)
	}
	if cap(enc) <= maxPooledBuffer {
		b.B = enc[:0]
	} else {
		b.B = nil
	}
	bufferPool.Put(b)
	return out, err
}
