package genrt

import "unsafe"

// Cells: the pointees of pointer fields (*int64, *bool, *string...) that
// generated decoders allocate, carved from blocks the decoder allocates a
// few at a time instead of one heap object each. Every cell is handed out
// once and never reused, so distinct pointers never alias; a pointer kept
// keeps its whole block alive (at most 128 bytes of scalars, 4 KB of
// strings). A block of scalars takes at most 16 cells; blocks of strings
// double from 2 to 255 cells as a union's text variants fill them (a
// store's record boxes tens of thousands), at most three cells made for
// each one handed out. Every cell stands for an item of at least one
// input byte, so hostile input cannot make a decoder allocate more than
// a few cells per input byte.

// Scalar is the element type of a pointer field whose pointee NewScalar
// allocates: a bool, integer or float of at most 8 bytes (no pointers).
type Scalar interface {
	~bool | ~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// The first blocks are small, for the one struct most decoders read; the
// blocks after them, for decoders that read many, larger.
const (
	scalarsFirst = 4   // cells in a decoder's first block of scalars
	scalarsMore  = 16  // in each block after it
	stringsFirst = 2   // strings in a decoder's first block of strings
	stringsMost  = 255 // in its largest (5, 11, 23, 47, 95, 191, 255 between)
)

// NewScalar returns a pointer to a new zero T, one 8-byte cell of a
// block of the decoder's. For generated code.
func NewScalar[T Scalar](d *Decoder) *T {
	if d.scalarsLeft == 0 {
		d.moreScalars()
	}
	d.scalarsLeft--
	return (*T)(unsafe.Add(d.scalars, 8*d.scalarsLeft))
}

func (d *Decoder) moreScalars() {
	if d.scalars == nil {
		d.scalars, d.scalarsLeft = unsafe.Pointer(new([scalarsFirst]uint64)), scalarsFirst
		return
	}
	d.scalars, d.scalarsLeft = unsafe.Pointer(new([scalarsMore]uint64)), scalarsMore
}

// NewString returns a pointer to a new empty T, one string of a block of
// the decoder's. For generated code.
func NewString[T ~string](d *Decoder) *T {
	if d.stringsLeft == 0 {
		d.moreStrings()
	}
	d.stringsLeft--
	return (*T)(unsafe.Add(d.strings, unsafe.Sizeof("")*uintptr(d.stringsLeft)))
}

// moreStrings gives d a new block of strings: stringsFirst cells in
// the first, then twice the last block's and one more, up to stringsMost.
// The blocks grow only as their cells are handed out, so a decoder has
// made at most three cells for each string handed out (and stringsFirst).
// The sizes fill the allocator's size classes: 255 cells and the header
// of a word it puts in front of an object with pointers above 512 bytes
// are 4 KB (256 cells would take 4.75 KB).
func (d *Decoder) moreStrings() {
	n := uint16(stringsFirst)
	if d.strings != nil {
		n = min(2*d.stringsBlock+1, stringsMost)
	}
	d.strings = unsafe.Pointer(unsafe.SliceData(make([]string, n)))
	d.stringsLeft, d.stringsBlock = n, n
}

// Boxes: a union's dispatcher returns a variant of a string or scalar
// kind in an interface, and Go boxes such a value in a heap object of
// its own (two allocations for each text variant with its bytes). The
// dispatcher boxes it in a cell instead: the interface points to a cell
// of the decoder's, as it would to its own copy, and the cell is never
// written again.

// BoxString returns zero, an interface holding the zero value of a type
// whose underlying type is string, holding s instead, in a cell of d's.
// For generated code: zero must be such an interface value (a union's
// interface type converted from a constant, which Go stores statically).
func BoxString[I any](d *Decoder, zero I, s string) I {
	// NewString's work written out, so that the whole is inlined into
	// a dispatcher, which boxes most items of a text-heavy document.
	if d.stringsLeft == 0 {
		d.moreStrings()
	}
	d.stringsLeft--
	p := (*string)(unsafe.Add(d.strings, unsafe.Sizeof("")*uintptr(d.stringsLeft)))
	*p = s
	(*[2]unsafe.Pointer)(unsafe.Pointer(&zero))[1] = unsafe.Pointer(p) // setBoxed
	return zero
}

// BoxScalar is BoxString for a bool, integer or float type T: zero holds
// T's zero value, and the result holds v.
func BoxScalar[T Scalar, I any](d *Decoder, zero I, v T) I {
	p := NewScalar[T](d)
	*p = v
	setBoxed(unsafe.Pointer(&zero), unsafe.Pointer(p))
	return zero
}

// setBoxed points the interface at iface (of either kind: a type or
// method table word, then the data word) to data.
func setBoxed(iface, data unsafe.Pointer) {
	(*[2]unsafe.Pointer)(iface)[1] = data
}

// Text: a string the decoder copies out of its input (not under ZeroCopy)
// is, up to blockText bytes, not a heap object of its own.
//
// Read by TryText or ReadString on a decoder over a slice, it is a view of
// the decoder's copy of a stretch of the input, its chunk: when a string
// lies outside the chunk and at least textChunk bytes of input start where
// it starts, the decoder copies those bytes, and the strings after it that
// lie within the copy are views of it. The copy is one call that does not
// clear the memory first (make then copy, which the compiler joins), where
// a block would be cleared, then filled string by string; it is never
// written again, so the strings stay as they were read for as long as they
// live, across chunks, decodes and Reset, and the input is only read. Each
// chunk starts at a string the chunk before did not hold, so the chunks of
// a decode add up to about the input's length at most. Reset and the reuse
// of Unmarshal's decoder drop the chunk, whose bytes were those of the
// input before.
//
// Where less input is left (every input shorter than textChunk), on a
// decoder over a stream, whose buffer is refilled in place, and for the
// text TryString reads (a struct's string fields), a string is copied into
// a text block instead (TryText's too while the block has room), filled
// from its start, each string into bytes never handed out before and never
// written again. A short byte string ReadBytes copies goes to the text
// block too, on every decoder, with its byte of room: those bytes are
// handed out once, to the slice, whose holder may write them (so a small
// input's strings and byte strings take one allocation, not two). A block
// is never larger than the input that remains when it is made, whose
// strings it holds.
//
// Either way a string or slice kept keeps its whole chunk or block alive
// (at most textChunk or textBlock bytes), and a decode allocates for its
// short text and byte strings at most about twice the input's length.
//
// Filled upward, a short text copied by TryText into a text block starts
// with a 16-byte store at the string's start (the bytes past its end land
// in free bytes of the block, which the next text overwrites): a map
// hashes a key it has just been given from that address, 16 bytes at
// once, and a load that one earlier store holds whole is forwarded from
// it, where a load that spans several stores waits until they reach the
// cache. A view of a chunk has no such wait: the chunk was copied before.
const (
	textBlock = 4 << 10 // the largest block
	textChunk = 4 << 10 // the largest chunk
	blockText = 64      // the longest string put in a block or read from a chunk
)

// chunkText returns the n bytes of text at buf[at:] as a view of d's
// chunk, when the chunk holds them. Small enough to be inlined.
func (d *Decoder) chunkText(at, n int) (string, bool) {
	if at >= d.chunkAt && at+n <= d.chunkEnd {
		return unsafe.String((*byte)(unsafe.Add(d.chunk, at-d.chunkAt)), n), true
	}
	return "", false
}

// keepText returns a copy of b, at most blockText bytes, in d's text
// block.
func (d *Decoder) keepText(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > d.textLeft {
		d.moreText(n)
	}
	p := d.textFree()
	d.textLeft -= n
	copy(unsafe.Slice((*byte)(p), n), b)
	return unsafe.String((*byte)(p), n)
}

// keepChunk is keepText for TryText and ReadString, the readers of a
// document's many texts and keys: a view of d's chunk when b lies in the
// input of a decoder over a slice (a new chunk when the chunk does not
// hold b and textChunk bytes of input start where b starts), else
// keepText's copy.
func (d *Decoder) keepChunk(b []byte) string {
	n := len(b)
	if d.st == nil && n > 0 {
		// Where b starts in the input; b may also be scratch space (an
		// indefinite-length string put together), which lies outside.
		at := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(d.buf))))
		if uint(at) < uint(len(d.buf)) && n <= len(d.buf)-at {
			if s, ok := d.chunkText(at, n); ok {
				return s
			}
			if len(d.buf)-at >= textChunk {
				d.newChunk(at)
				return unsafe.String((*byte)(d.chunk), n)
			}
		}
	}
	return d.keepText(b)
}

// newChunk makes d's chunk a copy of the textChunk bytes of the input
// from offset at on (at most as many as the input holds after at).
func (d *Decoder) newChunk(at int) {
	end := at + min(textChunk, len(d.buf)-at)
	src := d.buf[at:end]
	c := make([]byte, len(src))
	copy(c, src) // with the make, one call that does not clear c first
	d.chunk, d.chunkAt, d.chunkEnd = unsafe.Pointer(unsafe.SliceData(c)), at, end
}

// keepBytes returns a copy of b (1 to blockText-1 bytes) in d's text
// block, with one byte of room past it, as copyBytes makes: the len(b)+1
// bytes are the slice's alone, never handed out again, so its holder may
// write them (and ReadBytes does, reusing the array for the next record)
// without touching the block's strings.
func (d *Decoder) keepBytes(b []byte) []byte {
	n := len(b) + 1
	if n > d.textLeft {
		d.moreText(n)
	}
	p := unsafe.Slice((*byte)(d.textFree()), n)
	d.textLeft -= n
	copy(p, b)
	return p[:len(b)]
}

// textFree is the first free byte of d's text block, whose last byte
// d.text points to (a pointer past the block's end would point to another
// object); textLeft must be at least 1.
func (d *Decoder) textFree() unsafe.Pointer {
	return unsafe.Add(d.text, 1-d.textLeft)
}

// moreText gives d a new text block with room for n bytes: textBlock
// bytes, or n and as many as the input holds after the read position.
func (d *Decoder) moreText(n int) {
	size := min(textBlock, n+len(d.buf)-d.off)
	d.text, d.textLeft = unsafe.Pointer(&make([]byte, size)[size-1]), size
}
