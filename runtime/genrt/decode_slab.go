package genrt

import (
	"sync/atomic"
	"unsafe"
)

// Slabs: the values a union's dispatcher allocates for its pointer
// variants (new(Composite) for a *Composite variant) and the slices a
// decoder makes for the arrays of a union's values, carved from blocks
// the decoder allocates a few at a time instead of one heap object each:
// &block[i] for a value, block[i:i+n:i+n] for a slice. A block is a
// make([]T, n), typed memory the collector scans as T.
//
// Every element is handed out once and never again, so two values (or
// two slices) never share memory, and a slice's capacity is its length:
// a program's append to it copies, and writes nothing of another value.
// A value or slice kept keeps its whole block alive: at most slabBytes
// (about 4 KB) or, for a type larger than that, one value. Blocks grow
// from slabFirst elements, doubling, as their elements are handed out
// (so at most about twice as many are made as handed out), and a block
// never holds more elements than the input that remains when it is made
// has bytes (buffered bytes, on a stream), or than the one value or slice
// it is made for: each value and each element stands for an item of at least
// one byte, so a hostile input of many tiny items cannot make a decoder
// allocate more than a few elements per input byte. A decoder keeps the
// rest of its blocks across Reset and the reuse of Unmarshal's pooled
// decoder, for its next input's values, and drops them with the decoder.
//
// A decoder keeps the blocks of slabWays types at once, in a small cache
// indexed by the slab's id (ids are handed out in the order the generated
// packages' variables are initialized, so one package's slabs take
// consecutive ids and share the cache only past slabWays types); a type
// that finds another in its place takes it over as for a first value: an
// allocation of its own, then blocks from the next value on. Two types
// taken by turns thus cost an allocation a value, as new(T) does.

const (
	slabWays  = 4    // the types a decoder keeps blocks of at once
	slabFirst = 4    // elements in a type's first block
	slabBytes = 4088 // a block's largest size: 4 KB with the allocator's header
)

// slabIDs hands out the slabs' ids.
var slabIDs atomic.Uint32

// Slab is where a decoder takes the values of type T (Value) and the
// slices of T (Slice) from: one per type, a package-level variable of the
// generated code made by NewSlab. The zero Slab is ready to use, with id 0.
type Slab[T any] struct{ id uint32 }

// NewSlab returns a Slab of T with an id of its own. For generated code,
// once per type, at package initialization.
func NewSlab[T any]() Slab[T] {
	return Slab[T]{id: slabIDs.Add(1) - 1}
}

// slabBlock is a decoder's block of T: the elements of block from next on
// are free; made is the length of the last block, which the next doubles.
type slabBlock[T any] struct {
	block []T
	next  int
	made  int
}

// New returns a pointer to a new zero T, an element of a block of d's.
// For generated code: the dispatcher of a union calls it for a pointer
// variant, just before it decodes the variant's item, which is next in d.
func (s Slab[T]) New(d *Decoder) *T {
	if b, ok := d.slabs[s.id&(slabWays-1)].(*slabBlock[T]); ok && b != nil && b.next < len(b.block) {
		p := &b.block[b.next]
		b.next++
		return p
	}
	return s.newMore(d)
}

// newMore is New when d has no free element of T: the first T a decoder
// takes is an allocation of its own (a decode of one value makes no
// block), the second starts the blocks.
func (s Slab[T]) newMore(d *Decoder) *T {
	slot := &d.slabs[s.id&(slabWays-1)]
	b, ok := (*slot).(*slabBlock[T])
	if !ok {
		// A nil *slabBlock[T] marks the type as seen.
		*slot = (*slabBlock[T])(nil)
		return new(T)
	}
	if b == nil {
		b = new(slabBlock[T])
		*slot = b
	}
	b.grow(d, 1)
	b.next = 1
	return &b.block[0]
}

// Slice returns a slice of T of length 0 and capacity n, the room for
// the n elements of an array whose head was just read, for a destination
// that holds dst: dst itself (emptied) when it has room, as ReuseSlice
// does, else n elements of a block of d's. An indefinite length (n < 0),
// a forged one (more elements than Hint grants) and a large one (more
// than a quarter of a block) get ReuseSlice's new slice, which grows as
// elements arrive. For generated code.
func (s Slab[T]) Slice(d *Decoder, dst []T, n int) []T {
	if dst != nil && n > 0 && cap(dst) >= n {
		return dst[:0]
	}
	h := d.Hint(max(n, 0))
	if b, ok := d.slabs[s.id&(slabWays-1)].(*slabBlock[T]); ok && b != nil && n > 0 && h == n && n <= len(b.block)-b.next {
		p := b.block[b.next : b.next : b.next+n]
		b.next += n
		return p
	}
	return s.sliceMore(d, n, h)
}

// sliceMore is Slice when d's block of T has no room for n elements; h
// is what Hint granted.
func (s Slab[T]) sliceMore(d *Decoder, n, h int) []T {
	slot := &d.slabs[s.id&(slabWays-1)]
	b, ok := (*slot).(*slabBlock[T])
	if n <= 0 || h < n || n > slabMost[T]()/4 {
		return make([]T, 0, h)
	}
	if !ok {
		// The first slice of T a decoder takes is its own (a decode of
		// one such array makes no block); a nil *slabBlock[T] marks the
		// type as seen.
		*slot = (*slabBlock[T])(nil)
		return make([]T, 0, n)
	}
	if b == nil {
		b = new(slabBlock[T])
		*slot = b
	}
	b.grow(d, n)
	b.next = n
	return b.block[0:0:n]
}

// grow gives b a new block with room for at least n elements (n at most a
// quarter of slabMost): twice the last block's, from slabFirst, at most
// slabMost, and no more than the bytes of input that remain (n of them
// at least, granted by Hint or the one item's).
func (b *slabBlock[T]) grow(d *Decoder, n int) {
	size := max(slabFirst, 2*b.made)
	size = min(size, slabMost[T](), len(d.buf)-d.off)
	size = max(size, n)
	b.block, b.next, b.made = make([]T, size), 0, size
}

// slabMost is the largest number of Ts in a block: as many as slabBytes
// hold, and at least one.
func slabMost[T any]() int {
	var zero T
	return max(1, slabBytes/max(1, int(unsafe.Sizeof(zero))))
}
