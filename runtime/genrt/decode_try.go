package genrt

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// The Try methods are the fast paths that generated code calls in line.
// Each is small enough for the Go compiler to inline and calls nothing
// (but TryString, which calls the copy of the text):
// it handles only the commonest encodings of a value whose bytes are all
// buffered, and consumes them. When it reports false it has consumed
// nothing, and the caller reads the item with the matching Read method,
// which handles every other case (other head sizes, refills of a stream,
// limits, strict mode) and reports errors. A Try method accepts only
// what its Read method accepts and returns the same value. The integer
// and float fast paths stand aside in strict mode (whose heads must be
// the shortest) and when fewer than 9 bytes are buffered: they load the
// eight bytes after the head at once, whatever the width.

// TryUint reads a non-negative integer of at most max, with a head of
// any width. The generated code passes the largest value of the field's
// type, so that the caller converts without a check.
func (d *Decoder) TryUint(max uint64) (uint64, bool) {
	if p := d.buf[d.off:]; len(p) >= 9 && !d.opts.Strict {
		x, n := uint64(p[0]), 0
		if x >= 24 {
			if x > 27 {
				return 0, false
			}
			n = 1 << (x - 24)
			x = binary.BigEndian.Uint64(p[1:]) >> ((64 - 8*n) & 63) // n is 1, 2, 4 or 8
		}
		if x <= max {
			d.off += 1 + n
			return x, true
		}
	}
	return 0, false
}

// TryNeg reads a negative integer -1-x with x at most max and returns x;
// for a signed type of minimum min, max is -1-min.
func (d *Decoder) TryNeg(max uint64) (uint64, bool) {
	if p := d.buf[d.off:]; len(p) >= 9 && !d.opts.Strict {
		x, n := uint64(p[0]-0x20), 0
		if x >= 24 {
			if x > 27 {
				return 0, false
			}
			n = 1 << (x - 24)
			x = binary.BigEndian.Uint64(p[1:]) >> (64 - 8*n)
		}
		if x <= max {
			d.off += 1 + n
			return x, true
		}
	}
	return 0, false
}

// TryFloat64 reads a float64 or float32 (the shortest form of most
// values that are not integers). Half floats and integers go to
// ReadFloat64.
func (d *Decoder) TryFloat64() (float64, bool) {
	if p := d.buf[d.off:]; len(p) >= 9 && d.checks == 0 {
		switch p[0] {
		case byteFloat64:
			d.off += 9
			return math.Float64frombits(binary.BigEndian.Uint64(p[1:])), true
		case byteFloat32:
			d.off += 5
			return float64(math.Float32frombits(binary.BigEndian.Uint32(p[1:]))), true
		}
	}
	return 0, false
}

// TryFloat32 reads a float32, converted as ReadFloat32 converts it.
func (d *Decoder) TryFloat32() (float32, bool) {
	if p := d.buf[d.off:]; len(p) >= 5 && p[0] == byteFloat32 && d.checks == 0 {
		d.off += 5
		return float32(float64(math.Float32frombits(binary.BigEndian.Uint32(p[1:])))), true
	}
	return 0, false
}

// TryBool reads true or false.
func (d *Decoder) TryBool() (v, ok bool) {
	if off := d.off; off < len(d.buf) {
		if b := d.buf[off]; b|1 == byteTrue {
			d.off = off + 1
			return b == byteTrue, true
		}
	}
	return false, false
}

// TryNull consumes a null or undefined and reports true, or consumes
// nothing and reports false; ok is false when no byte is buffered or the
// next item is a tag (which ReadNull looks through).
func (d *Decoder) TryNull() (null, ok bool) {
	if off := d.off; off < len(d.buf) {
		b := d.buf[off]
		if b|1 == byteUndefined {
			d.off = off + 1
			return true, true
		}
		if b>>5 != MajorTag {
			return false, true
		}
	}
	return false, false
}

// TryString reads a text string of at most 23 bytes (a one-byte head), all
// ASCII (so valid UTF-8), within MaxStringLength, when 17 bytes and the
// whole string are buffered: it checks the sixteen bytes after the head as
// two words, each masked to keep only the string's bytes, and a string
// longer than 16 bytes also by its last eight bytes. Longer text goes to
// ReadString, whose check reads a word at a time. The string is copied
// into the decoder's text block (decode_cells.go): one allocation for
// many strings. Its work is out of line (tryShortText), a call where a
// string conversion was, so that what is inlined is a test of shortText,
// which costs nothing more under ZeroCopy.
func (d *Decoder) TryString() (string, bool) {
	if d.shortText != 0 {
		return d.tryShortText()
	}
	return "", false
}

// tryShortText is TryString when it copies text (shortText is not 0),
// out of line: TryString, inlined, then costs no call under ZeroCopy.
//
//go:noinline
func (d *Decoder) tryShortText() (string, bool) {
	if p := d.buf[d.off:]; len(p) >= 17 {
		if n, ok := asciiText(p, uint(d.shortText)); ok {
			d.off += int(1 + n)
			return d.keepText(p[1 : 1+n]), true
		}
	}
	return "", false
}

// TryText is TryString for the dispatchers of unions, whose text
// variants take most items of text-heavy documents, and for the text keys
// of maps: one call, out of line, that also reads short ASCII text under
// ZeroCopy, as a view of the input as ReadString returns it there
// (shortText is 0 then and only then on a decoder over a slice; the bound
// is MaxStringLength). With 25 bytes buffered, the head and the text (up
// to 23 bytes) are three words, checked as Valid checks them (shortText
// in walk_valid.go: a table row per length, no branch on it).
func (d *Decoder) TryText() (string, bool) {
	off := d.off
	if uint(off)+25 > uint(len(d.buf)) {
		return "", false
	}
	// The window is in bounds: its offset and 25 bytes checked above.
	w := (*[25]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.buf)), off))
	n := uint(w[0]) - 0x60
	if n >= 24 || !shortText((*[24]byte)(w[:24]), byte(n)) {
		return "", false
	}
	if limit := uint(d.shortText); limit == 0 {
		// A view, as ReadString's under ZeroCopy over a slice (the
		// only decoder whose shortText is 0).
		if !d.opts.ZeroCopy || n > uint(d.opts.MaxStringLength) {
			return "", false
		}
		d.off = off + 1 + int(n)
		return unsafe.String(&w[1], n), true
	} else if n >= limit {
		return "", false
	}
	d.off = off + 1 + int(n)
	if s, ok := d.chunkText(off+1, int(n)); ok {
		return s, true // a view of the decoder's copy of the input
	}
	if d.textLeft >= 24 {
		// keepText without a call to memmove: the 24 bytes that start
		// where the text starts, as one 16-byte store and one of 8 (see
		// Text blocks in decode_cells.go). Those past the text land in
		// bytes of the block not handed out yet, which the next text
		// overwrites.
		p := d.textFree()
		d.textLeft -= int(n)
		*(*[16]byte)(p) = *(*[16]byte)(w[1:17])
		*(*uint64)(unsafe.Add(p, 16)) = *(*uint64)(unsafe.Pointer(&w[17]))
		return unsafe.String((*byte)(p), n), true
	}
	return d.keepChunk(w[1 : 1+n]), true
}

// asciiText reports the length n of the text at the start of p, which
// holds at least 17 bytes, when it has a one-byte head, n is below limit
// (at most 24), p holds all of it and it is all ASCII: the sixteen bytes
// after the head checked as two words masked to the text's bytes, and
// text of 17 to 23 bytes also by its last eight, overlapping.
func asciiText(p []byte, limit uint) (uint, bool) {
	n := uint(p[0]) - 0x60
	if n >= limit || n >= uint(len(p)) {
		return 0, false
	}
	w := binary.LittleEndian.Uint64(p[1:])&textMasks[n&31][0] | binary.LittleEndian.Uint64(p[9:])&textMasks[n&31][1]
	if n > 16 {
		w |= binary.LittleEndian.Uint64(p[n-7:]) & 0x8080808080808080
	}
	return n, w == 0
}

// TryByteArray reads a byte string of exactly len(dst) bytes, below 24
// (a one-byte head), all buffered and within MaxStringLength, into dst:
// the encoding of a Go [N]byte. Anything else goes to ReadByteArray.
func (d *Decoder) TryByteArray(dst []byte) bool {
	if p, n := d.buf[d.off:], len(dst); n < 24 && n < len(p) && int(p[0]) == 0x40+n && n <= d.opts.MaxStringLength {
		copy(dst, p[1:])
		d.off += 1 + n
		return true
	}
	return false
}

// textMasks[n] holds, for the two words after a text head, the top bit
// of each of the text's first n bytes (n <= 16; above, of all 16).
var textMasks = func() (m [32][2]uint64) {
	for n := range m {
		for i := 0; i < min(n, 16); i++ {
			m[n][i/8] |= 0x80 << (8 * (i % 8))
		}
	}
	return m
}()

// TryArrayHead reads the head of a definite-length array of exactly n
// elements (n below 24) and enters one nesting level, as ReadArrayHead
// does, when the depth and element limits allow it, the bytes that
// remain can hold the elements and strict mode is off (whose check of
// the whole item ReadArrayHead makes at the top level).
func (d *Decoder) TryArrayHead(n int) bool {
	if off := d.off; off < len(d.buf) && int(d.buf[off]) == 0x80+n && n < len(d.buf)-off &&
		d.depth < d.opts.MaxDepth && n <= d.opts.MaxArrayElements && d.checks == 0 {
		d.off = off + 1
		d.depth++
		return true
	}
	return false
}

// TryMapHead reads the head of a definite-length map of fewer than 24
// pairs and enters one nesting level, as ReadMapHead does, when the depth
// and pair limits allow it, the bytes that remain can hold the pairs and
// strict mode is off. It returns the number of pairs.
func (d *Decoder) TryMapHead() (int, bool) {
	if off := d.off; off < len(d.buf) {
		if n := int(d.buf[off]) - 0xa0; uint(n) < 24 && 2*n < len(d.buf)-off &&
			d.depth < d.opts.MaxDepth && n <= d.opts.MaxMapPairs && d.checks == 0 {
			d.off = off + 1
			d.depth++
			return n, true
		}
	}
	return 0, false
}

// PeekIsArray reports whether the next item is buffered and is an array,
// without consuming it.
func (d *Decoder) PeekIsArray() bool {
	return d.off < len(d.buf) && d.buf[d.off]>>5 == MajorArray
}

// PeekIsMap reports whether the next item is buffered and is a map,
// without consuming it.
func (d *Decoder) PeekIsMap() bool {
	return d.off < len(d.buf) && d.buf[d.off]>>5 == MajorMap
}
