package runtime

// The Try methods are the fast paths that generated code calls in line.
// Each is small enough for the Go compiler to inline and calls nothing:
// it handles only the commonest encodings of a value whose bytes are all
// buffered, and consumes them. When it reports false it has consumed
// nothing, and the caller reads the item with the matching Read method,
// which handles every other case (other head sizes, refills of a stream,
// limits, strict mode) and reports errors. A Try method accepts only
// what its Read method accepts and returns the same value; the heads it
// takes are one byte long, or for TryUint two with an argument of at
// least 24, so they are the shortest in strict mode too.

// TryUint reads a non-negative integer below 256 with a one-byte head
// (below 24) or a head and one byte (24 to 255). Every unsigned Go type
// holds it.
func (d *Decoder) TryUint() (uint64, bool) {
	if off := d.off; off < len(d.buf) {
		if b := d.buf[off]; b < 24 {
			d.off = off + 1
			return uint64(b), true
		} else if b == 24 && off+1 < len(d.buf) && d.buf[off+1] >= 24 {
			d.off = off + 2
			return uint64(d.buf[off+1]), true
		}
	}
	return 0, false
}

// TryInt reads an integer from -24 to 23, which has a one-byte head and
// fits every signed Go type.
func (d *Decoder) TryInt() (int64, bool) {
	if off := d.off; off < len(d.buf) {
		if b := d.buf[off]; b < 24 {
			d.off = off + 1
			return int64(b), true
		} else if b-0x20 < 24 {
			d.off = off + 1
			return int64(0x1f) - int64(b), true
		}
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
// nothing and reports false; ok is false when no byte is buffered.
func (d *Decoder) TryNull() (null, ok bool) {
	if off := d.off; off < len(d.buf) {
		null = d.buf[off]|1 == byteUndefined
		if null {
			d.off = off + 1
		}
		return null, true
	}
	return false, false
}

// TryString reads a text string of fewer than 24 bytes, all ASCII (so
// valid UTF-8), within MaxStringLength.
func (d *Decoder) TryString() (string, bool) {
	p := d.buf[d.off:]
	if len(p) != 0 {
		if n := int(p[0]) - 0x60; uint(n) < 24 && n < len(p) && n <= d.opts.MaxStringLength {
			for _, c := range p[1 : 1+n] {
				if c >= 0x80 {
					return "", false
				}
			}
			d.off += 1 + n
			return string(p[1 : 1+n]), true
		}
	}
	return "", false
}

// TryArrayHead reads the head of a definite-length array of exactly n
// elements (n below 24) and enters one nesting level, as ReadArrayHead
// does, when the depth and element limits allow it, the bytes that
// remain can hold the elements and strict mode is off (whose check of
// the whole item ReadArrayHead makes at the top level).
func (d *Decoder) TryArrayHead(n int) bool {
	if off := d.off; off < len(d.buf) && int(d.buf[off]) == 0x80+n && n < len(d.buf)-off &&
		d.depth < d.opts.MaxDepth && n <= d.opts.MaxArrayElements && !d.opts.Strict {
		d.off = off + 1
		d.depth++
		return true
	}
	return false
}

// NextIsArray reports whether the next item is buffered and is an array,
// without consuming it.
func (d *Decoder) NextIsArray() bool {
	return d.off < len(d.buf) && d.buf[d.off]>>5 == MajorArray
}
