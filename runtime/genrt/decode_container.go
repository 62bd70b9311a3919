package genrt

import (
	"io"
	"strconv"
)

// ReadArrayHead reads the head of an array and returns its length. It
// enters one nesting level: call Leave once the elements are read. The
// length is checked against MaxArrayElements and, over a slice, against
// the bytes that remain. For an indefinite-length array it counts the
// elements first (see walk_count.go) and returns their number, so that the
// caller allocates once, and Leave consumes the break; when it cannot
// count them (bytes not well-formed, nesting beyond 64 levels) it returns
// -1, and NextElem finds the break.
func (d *Decoder) ReadArrayHead() (int, error) {
	return d.containerHead(MajorArray)
}

// NullKept is the count ReadStructHead and ReadStructMapHead return for
// a null or undefined in place of a struct, which keeps the value it
// decodes into (as fxamacker/cbor keeps a struct); the generated decoder
// returns at once.
const NullKept = -2

// ReadStructHead is the slow path of a generated struct's array head,
// after TryArrayHead missed: NullKept for a null or undefined (KeepNull),
// else ReadArrayHead's count. One call in place of both in each type's
// decoder: the head in line stays TryArrayHead alone.
func (d *Decoder) ReadStructHead() (int, error) {
	if d.KeepNull() {
		return NullKept, nil
	}
	return d.containerHead(MajorArray)
}

// ReadStructMapHead is ReadStructHead for a struct read as a map (the
// legacy format, //cborgen:map), after TryMapHead missed.
func (d *Decoder) ReadStructMapHead() (int, error) {
	if d.KeepNull() {
		return NullKept, nil
	}
	return d.containerHead(MajorMap)
}

// ReadMapHead reads the head of a map and returns its number of pairs, or
// as ReadArrayHead -1 for an indefinite-length map it cannot count. It
// enters one nesting level: call Leave once the pairs are read.
func (d *Decoder) ReadMapHead() (int, error) {
	return d.containerHead(MajorMap)
}

func (d *Decoder) containerHead(major byte) (int, error) {
	// Fast path: a buffered head with a length below 24 that passes the
	// checks below without a message, outside strict mode.
	if d.off < len(d.buf) && d.checks == 0 && d.depth < d.opts.MaxDepth {
		ib := d.buf[d.off]
		n, limit, per := int(ib&0x1f), d.opts.MaxArrayElements, 1
		if major == MajorMap {
			limit, per = d.opts.MaxMapPairs, 2
		}
		if ib>>5 == major && n < 24 && n <= limit && (d.st != nil || n*per < len(d.buf)-d.off) {
			d.off++
			d.depth++
			return n, nil
		}
	}
	if d.checks != 0 {
		if err := d.checkItem(); err != nil {
			return 0, err
		}
	}
	start := d.Offset()
	ib, arg, err := d.head()
	if err != nil {
		return 0, err
	}
	if ib>>5 != major {
		if ib>>5 == MajorTag {
			if _, err := d.tagChain(arg); err != nil {
				return 0, err
			}
			return d.containerHead(major)
		}
		return 0, d.typeError(start, ib, majorNames[major])
	}
	if d.depth >= d.opts.MaxDepth {
		return 0, d.errAt(start, ErrLimit, "nesting depth exceeds limit "+strconv.Itoa(d.opts.MaxDepth))
	}
	if ib&0x1f == 31 {
		if d.depth < 64 {
			if n, ok := d.countIndefinite(start); ok && n <= d.limit(major) {
				d.breaks |= 1 << d.depth
				d.depth++
				return n, nil
			}
		}
		d.depth++
		return -1, nil
	}
	if err := d.checkCount(major, arg, start); err != nil {
		return 0, err
	}
	d.depth++
	return int(arg), nil
}

// checkCount checks a definite container length against the limits and,
// over a slice, against the bytes left (each element takes at least one).
func (d *Decoder) checkCount(major byte, arg uint64, start int64) error {
	limit, what, per := d.opts.MaxArrayElements, "array elements", uint64(1)
	if major == MajorMap {
		limit, what, per = d.opts.MaxMapPairs, "map pairs", 2
	}
	if arg > uint64(limit) {
		return d.errAt(start, ErrLimit, what+" "+strconv.FormatUint(arg, 10)+" exceed limit "+strconv.Itoa(limit))
	}
	if d.st == nil && arg*per > uint64(len(d.buf)-d.off) {
		return d.errAt(start, io.ErrUnexpectedEOF, what+" "+strconv.FormatUint(arg, 10)+" exceed the "+count(len(d.buf)-d.off, "byte")+" left")
	}
	return nil
}

// limit is MaxArrayElements or MaxMapPairs.
func (d *Decoder) limit(major byte) int {
	if major == MajorMap {
		return d.opts.MaxMapPairs
	}
	return d.opts.MaxArrayElements
}

// Leave closes the array or map whose head was read last. For an
// indefinite-length one that ReadArrayHead or ReadMapHead counted, it
// consumes the break.
func (d *Decoder) Leave() {
	if d.depth > 0 {
		d.depth--
		if d.breaks != 0 && d.depth < 64 {
			bit := d.breaks >> uint(d.depth) & 1
			d.off += int(bit)
			d.breaks &^= bit << uint(d.depth)
		}
	}
}

// NextElem reports whether element i of an array of length n (-1 when
// indefinite) exists. Call it with i = 0, 1, 2, ... For an indefinite
// array it consumes the break and enforces MaxArrayElements.
func (d *Decoder) NextElem(n, i int) (bool, error) {
	if n >= 0 {
		return i < n, nil
	}
	return d.nextIndefiniteElem(i)
}

func (d *Decoder) nextIndefiniteElem(i int) (bool, error) {
	return d.nextIndefinite(i, d.opts.MaxArrayElements, "array elements")
}

// NextPair is NextElem for the pairs of a map, with MaxMapPairs.
func (d *Decoder) NextPair(n, i int) (bool, error) {
	if n >= 0 {
		return i < n, nil
	}
	return d.nextIndefinitePair(i)
}

func (d *Decoder) nextIndefinitePair(i int) (bool, error) {
	return d.nextIndefinite(i, d.opts.MaxMapPairs, "map pairs")
}

func (d *Decoder) nextIndefinite(i, limit int, what string) (bool, error) {
	brk, err := d.ReadBreak()
	if err != nil || brk {
		return false, err
	}
	if i >= limit {
		return false, d.errAt(d.Offset(), ErrLimit, what+" exceed limit "+strconv.Itoa(limit))
	}
	return true, nil
}

// ReadBreak consumes the break byte (ff) that ends an indefinite-length
// array or map and returns true, or returns false if another item follows.
func (d *Decoder) ReadBreak() (bool, error) {
	if d.off >= len(d.buf) {
		if err := d.need(1); err != nil {
			return false, d.eof(err, d.Offset(), "indefinite-length item")
		}
	}
	if d.buf[d.off] == byteBreak {
		d.off++
		return true, nil
	}
	return false, nil
}

// ReadTag reads a tag number; the tag content is the next item.
func (d *Decoder) ReadTag() (uint64, error) {
	start := d.Offset()
	ib, arg, err := d.head()
	if err != nil {
		return 0, err
	}
	if ib>>5 != MajorTag {
		return 0, d.typeError(start, ib, "tag")
	}
	d.tagAt = d.Offset() + 1 // the content must follow: no clean end here
	return arg, nil
}
