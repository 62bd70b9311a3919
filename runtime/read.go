package runtime

import (
	"encoding/binary"
	"io"
	"math"
	"strconv"
	"unsafe"
)

// Typed reads. Each reads one whole item and returns a *Error when the
// item is of another type (ErrType), does not fit the Go type (ErrRange),
// breaks a limit (ErrLimit), is not well-formed (ErrSyntax) or is cut
// short (io.ErrUnexpectedEOF). On error the read position is unspecified.

// ReadNull consumes the next item and returns true if it is null or
// undefined, with or without 55799 tags in front (fxamacker strips them
// before it looks for a null); otherwise it consumes nothing and returns
// false.
func (d *Decoder) ReadNull() (bool, error) {
	if d.off < len(d.buf) {
		b := d.buf[d.off]
		null := b|1 == byteUndefined // f6 or f7
		if null {
			d.off++
		}
		if b>>5 != MajorTag {
			return null, nil
		}
	}
	return d.readNullSlow()
}

func (d *Decoder) readNullSlow() (bool, error) {
	b, err := d.peek()
	if err != nil {
		return false, err
	}
	if b == byteNull || b == byteUndefined {
		d.off++
		return true, nil
	}
	if b>>5 == MajorTag {
		return d.tagsBeforeNull()
	}
	return false, nil
}

// ReadBool reads true or false.
func (d *Decoder) ReadBool() (bool, error) {
	if d.off < len(d.buf) {
		switch d.buf[d.off] {
		case byteTrue:
			d.off++
			return true, nil
		case byteFalse:
			d.off++
			return false, nil
		}
	}
	return d.readBoolSlow()
}

func (d *Decoder) readBoolSlow() (bool, error) {
	b, err := d.peek()
	if err != nil {
		return false, err
	}
	switch b {
	case byteTrue:
		d.off++
		return true, nil
	case byteFalse:
		d.off++
		return false, nil
	}
	if b>>5 == MajorTag {
		if _, err := d.stripTags(); err != nil {
			return false, err
		}
		return d.readBoolSlow()
	}
	return false, d.typeError(d.Offset(), b, "bool")
}

// readInt reads an unsigned or negative integer: the value is mag when
// neg is false and -1-mag when it is true.
func (d *Decoder) readInt(want string) (neg bool, mag uint64, start int64, err error) {
	start = d.Offset()
	ib, arg, err := d.head()
	if err != nil {
		return false, 0, start, err
	}
	switch ib >> 5 {
	case MajorUint:
		return false, arg, start, nil
	case MajorNeg:
		return true, arg, start, nil
	case MajorTag:
		tag, err := d.tagChain(arg)
		if err != nil {
			return false, 0, start, err
		}
		if tag == 2 || tag == 3 {
			neg, mag, err = d.bignum(tag, want)
			return neg, mag, start, err
		}
		return d.readInt(want)
	}
	return false, 0, start, d.typeError(start, ib, want)
}

// smallInt is the fast path of the integer reads: it decodes, without
// consuming it, a buffered integer head (major type 0 or 1) whose argument
// takes no more than two bytes, which covers every value of -65536 to
// 65535, with one call instead of the generic readInt and head. size is
// the length of the head, or 0 for anything else (longer arguments, other
// types, and for a head longer than one byte fewer than three bytes left
// in the buffer or strict mode), which the slow paths handle.
func (d *Decoder) smallInt() (neg bool, mag uint64, size int) {
	p := d.buf[d.off:]
	if len(p) != 0 && p[0] < 0x40 && p[0]&0x1f < 24 {
		return p[0] >= 0x20, uint64(p[0] & 0x1f), 1 // any buffer, any mode
	}
	if len(p) < 3 || p[0] >= 0x40 || p[0]&0x1f > 25 || d.opts.Strict {
		return false, 0, 0
	}
	mag, size = uint64(p[0]&0x1f), 1
	if mag >= 24 {
		size = int(mag) - 22 // 24: one byte follows, 25: two
		mag = uint64(p[1])
		if size == 3 {
			mag = mag<<8 | uint64(p[2])
		}
	}
	return p[0] >= 0x20, mag, size
}

func (d *Decoder) rangeError(start int64, neg bool, mag uint64, typ string) error {
	v := strconv.FormatUint(mag, 10)
	if neg {
		if mag == math.MaxUint64 {
			v = "-18446744073709551616"
		} else {
			v = "-" + strconv.FormatUint(mag+1, 10)
		}
	}
	return d.errAt(start, ErrRange, "integer "+v+" overflows "+typ)
}

// ReadUint64 reads a non-negative integer.
func (d *Decoder) ReadUint64() (uint64, error) {
	// smallInt's fast path, written out for the most common reads.
	if p := d.buf[d.off:]; len(p) >= 3 && !d.opts.Strict {
		switch b := p[0]; {
		case b < 24:
			d.off++
			return uint64(b), nil
		case b == 24:
			d.off += 2
			return uint64(p[1]), nil
		case b == 25:
			d.off += 3
			return uint64(p[1])<<8 | uint64(p[2]), nil
		}
	} else if len(p) > 0 && p[0] < 24 {
		d.off++
		return uint64(p[0]), nil
	}
	return d.readUint64Slow()
}

func (d *Decoder) readUint64Slow() (uint64, error) {
	return d.readUint(math.MaxUint64, "uint64")
}

func (d *Decoder) readUint(max uint64, typ string) (uint64, error) {
	neg, mag, start, err := d.readInt("integer")
	if err != nil {
		return 0, err
	}
	if neg || mag > max {
		return 0, d.rangeError(start, neg, mag, typ)
	}
	return mag, nil
}

// ReadUint32 reads an integer in the range of uint32.
func (d *Decoder) ReadUint32() (uint32, error) {
	if neg, mag, n := d.smallInt(); n > 0 && !neg {
		d.off += n
		return uint32(mag), nil
	}
	v, err := d.readUint(math.MaxUint32, "uint32")
	return uint32(v), err
}

// ReadUint16 reads an integer in the range of uint16.
func (d *Decoder) ReadUint16() (uint16, error) {
	if neg, mag, n := d.smallInt(); n > 0 && !neg {
		d.off += n
		return uint16(mag), nil
	}
	v, err := d.readUint(math.MaxUint16, "uint16")
	return uint16(v), err
}

// ReadUint8 reads an integer in the range of uint8.
func (d *Decoder) ReadUint8() (uint8, error) {
	if neg, mag, n := d.smallInt(); n > 0 && !neg && mag <= math.MaxUint8 {
		d.off += n
		return uint8(mag), nil
	}
	v, err := d.readUint(math.MaxUint8, "uint8")
	return uint8(v), err
}

// ReadUint reads an integer in the range of uint.
func (d *Decoder) ReadUint() (uint, error) {
	if neg, mag, n := d.smallInt(); n > 0 && !neg {
		d.off += n
		return uint(mag), nil
	}
	v, err := d.readUint(math.MaxUint, "uint")
	return uint(v), err
}

// ReadInt64 reads an integer in the range of int64.
func (d *Decoder) ReadInt64() (int64, error) {
	if d.off < len(d.buf) {
		if b := d.buf[d.off]; b < 24 {
			d.off++
			return int64(b), nil
		}
	}
	if neg, mag, n := d.smallInt(); n > 0 {
		d.off += n
		if neg {
			return -1 - int64(mag), nil
		}
		return int64(mag), nil
	}
	return d.readInt64Slow()
}

func (d *Decoder) readInt64Slow() (int64, error) {
	return d.readSigned(math.MinInt64, math.MaxInt64, "int64")
}

func (d *Decoder) readSigned(min, max int64, typ string) (int64, error) {
	neg, mag, start, err := d.readInt("integer")
	if err != nil {
		return 0, err
	}
	if !neg {
		if mag > uint64(max) {
			return 0, d.rangeError(start, neg, mag, typ)
		}
		return int64(mag), nil
	}
	// The value is -1-mag; it fits when mag <= -1-min.
	if mag > uint64(-1-min) {
		return 0, d.rangeError(start, neg, mag, typ)
	}
	return -1 - int64(mag), nil
}

// ReadInt32 reads an integer in the range of int32.
func (d *Decoder) ReadInt32() (int32, error) {
	if neg, mag, n := d.smallInt(); n > 0 {
		d.off += n
		if neg {
			return -1 - int32(mag), nil
		}
		return int32(mag), nil
	}
	v, err := d.readSigned(math.MinInt32, math.MaxInt32, "int32")
	return int32(v), err
}

// ReadInt16 reads an integer in the range of int16.
func (d *Decoder) ReadInt16() (int16, error) {
	if neg, mag, n := d.smallInt(); n > 0 && mag <= math.MaxInt16 {
		d.off += n
		if neg {
			return -1 - int16(mag), nil
		}
		return int16(mag), nil
	}
	v, err := d.readSigned(math.MinInt16, math.MaxInt16, "int16")
	return int16(v), err
}

// ReadInt8 reads an integer in the range of int8.
func (d *Decoder) ReadInt8() (int8, error) {
	if neg, mag, n := d.smallInt(); n > 0 && mag <= math.MaxInt8 {
		d.off += n
		if neg {
			return -1 - int8(mag), nil
		}
		return int8(mag), nil
	}
	v, err := d.readSigned(math.MinInt8, math.MaxInt8, "int8")
	return int8(v), err
}

// ReadInt reads an integer in the range of int.
func (d *Decoder) ReadInt() (int, error) {
	if neg, mag, n := d.smallInt(); n > 0 {
		d.off += n
		if neg {
			return -1 - int(mag), nil
		}
		return int(mag), nil
	}
	v, err := d.readSigned(math.MinInt, math.MaxInt, "int")
	return int(v), err
}

// ReadFloat64 reads a float of any width, or an integer (converted to the
// nearest float64, as fxamacker/cbor does).
func (d *Decoder) ReadFloat64() (float64, error) {
	start := d.Offset()
	b, err := d.peek()
	if err != nil {
		return 0, err
	}
	switch b {
	case byteFloat16:
		if err := d.need(3); err != nil {
			return 0, d.eof(err, start, "float")
		}
		h := uint16(d.buf[d.off+1])<<8 | uint16(d.buf[d.off+2])
		d.off += 3
		return float16ToFloat64(h), nil
	case byteFloat32:
		if err := d.need(5); err != nil {
			return 0, d.eof(err, start, "float")
		}
		p := d.buf[d.off+1 : d.off+5]
		d.off += 5
		return float64(math.Float32frombits(uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3]))), nil
	case byteFloat64:
		if err := d.need(9); err != nil {
			return 0, d.eof(err, start, "float")
		}
		var u uint64
		for _, c := range d.buf[d.off+1 : d.off+9] {
			u = u<<8 | uint64(c)
		}
		d.off += 9
		return math.Float64frombits(u), nil
	}
	switch b >> 5 {
	case MajorUint, MajorNeg:
		neg, mag, _, err := d.readInt("float")
		if err != nil {
			return 0, err
		}
		return d.floatOfInt(neg, mag, start)
	case MajorTag:
		tag, err := d.stripTags()
		if err != nil {
			return 0, err
		}
		if tag == 2 || tag == 3 {
			at := d.Offset()
			neg, mag, err := d.bignum(tag, "float")
			if err != nil {
				return 0, err
			}
			return d.floatOfInt(neg, mag, at)
		}
		return d.ReadFloat64()
	}
	return 0, d.typeError(start, b, "float")
}

// ReadFloat32 reads a float as ReadFloat64 does and converts it to the
// nearest float32; a finite value beyond the float32 range is ErrRange.
func (d *Decoder) ReadFloat32() (float32, error) {
	start := d.Offset()
	f, err := d.ReadFloat64()
	if err != nil {
		return 0, err
	}
	if !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
		return 0, d.errAt(start, ErrRange, "float "+strconv.FormatFloat(f, 'g', -1, 64)+" overflows float32")
	}
	return float32(f), nil
}

// stringHead reads the head of a byte (major 2) or text (major 3) string
// and returns its length, or -1 for indefinite length.
func (d *Decoder) stringHead(major byte, want string) (n int, start int64, err error) {
	start = d.Offset()
	ib, arg, err := d.head()
	if err != nil {
		return 0, start, err
	}
	if ib>>5 != major {
		if ib>>5 == MajorTag {
			if _, err := d.tagChain(arg); err != nil {
				return 0, start, err
			}
			return d.stringHead(major, want)
		}
		return 0, start, d.typeError(start, ib, want)
	}
	if ib&0x1f == 31 {
		return -1, start, nil
	}
	if arg > uint64(d.opts.MaxStringLength) {
		return 0, start, d.errAt(start, ErrLimit, want+" length "+strconv.FormatUint(arg, 10)+" exceeds limit "+strconv.Itoa(d.opts.MaxStringLength))
	}
	n = int(arg)
	if err := d.need(n); err != nil {
		return 0, start, d.eof(err, start, want+" of "+count(n, "byte"))
	}
	return n, start, nil
}

// chunks reads the chunks of an indefinite-length string of the given
// major type and appends their bytes to dst.
func (d *Decoder) chunks(dst []byte, major byte, want string, start int64) ([]byte, error) {
	total := 0
	for {
		if err := d.need(1); err != nil {
			return dst, d.eof(err, d.Offset(), "indefinite-length "+want)
		}
		if d.buf[d.off] == byteBreak {
			d.off++
			return dst, nil
		}
		cs := d.Offset()
		ib, arg, err := d.head()
		if err != nil {
			return dst, err
		}
		if ib>>5 != major || ib&0x1f == 31 {
			return dst, d.errAt(cs, ErrSyntax, "chunk of an indefinite-length "+want+" is "+describe(ib)+", not a definite-length "+want)
		}
		if arg > uint64(d.opts.MaxStringLength-total) {
			return dst, d.errAt(start, ErrLimit, want+" length exceeds limit "+strconv.Itoa(d.opts.MaxStringLength))
		}
		n := int(arg)
		if err := d.need(n); err != nil {
			return dst, d.eof(err, cs, want+" chunk")
		}
		if major == MajorText && !validUTF8(d.buf[d.off:d.off+n]) {
			return dst, d.errAt(cs, ErrUTF8, "text string chunk is not valid UTF-8")
		}
		dst = append(dst, d.buf[d.off:d.off+n]...)
		d.off += n
		total += n
	}
}

// definiteString is the fast path of the string reads: a definite-length
// string whose head is base (0x40 for a byte string, 0x60 for text) plus
// its length below 24, or base+24 and a one-byte length, within
// MaxStringLength, with all its bytes buffered. It returns where its bytes
// start in d.buf and how many there are, without consuming them; at is -1
// for anything else, and the callers then take the general path, which
// reports errors. It indexes d.buf rather than slicing it, so that the
// callers slice once, and is small enough to be inlined into them. The
// one-byte length form stands aside in strict mode, whose heads must be
// the shortest.
func (d *Decoder) definiteString(base int) (at, n int) {
	if off := d.off; off+1 < len(d.buf) {
		n, h := int(d.buf[off])-base, 1
		if uint(n) >= 24 {
			if n != 24 || d.opts.Strict {
				return -1, 0
			}
			n, h = int(d.buf[off+1]), 2
		}
		if n <= len(d.buf)-off-h && n <= d.opts.MaxStringLength {
			return off + h, n
		}
	}
	return -1, 0
}

// ReadString reads a text string, checked to be UTF-8.
func (d *Decoder) ReadString() (string, error) {
	if at, n := d.definiteString(0x60); at >= 0 {
		b := d.buf[at : at+n]
		// Up to 32 bytes: ASCII is checked in line with at most four
		// word loads that overlap (a call cost more than the check);
		// anything else goes to validUTF8.
		const high = 0x8080808080808080
		var w uint64
		switch n := len(b); {
		case n >= 16 && n <= 32:
			w = binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:]) |
				binary.LittleEndian.Uint64(b[n-16:]) | binary.LittleEndian.Uint64(b[n-8:])
		case n >= 8 && n < 16:
			w = binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[n-8:])
		case n < 8:
			w = asciiShort(b)
		default:
			w = high // longer: validUTF8
		}
		if w&high == 0 || validUTF8(b) {
			d.off = at + n
			if d.opts.ZeroCopy && d.r == nil {
				return unsafe.String(unsafe.SliceData(b), len(b)), nil
			}
			return string(b), nil
		}
	}
	return d.readStringSlow()
}

// asciiShort ORs the bytes of b, shorter than 8, into one value whose
// top bit of each byte says whether some byte is not ASCII.
func asciiShort(b []byte) uint64 {
	if n := len(b); n >= 4 {
		return uint64(binary.LittleEndian.Uint32(b) | binary.LittleEndian.Uint32(b[n-4:]))
	}
	var w uint64
	for _, c := range b {
		w |= uint64(c)
	}
	return w
}

func (d *Decoder) readStringSlow() (string, error) {
	n, start, err := d.stringHead(MajorText, "text string")
	if err != nil {
		return "", err
	}
	if n < 0 {
		s := d.slowPath()
		s.scratch, err = d.chunks(s.scratch[:0], MajorText, "text string", start)
		if err != nil {
			return "", err
		}
		return string(s.scratch), nil
	}
	b := d.buf[d.off : d.off+n]
	if !validUTF8(b) {
		return "", d.errAt(start, ErrUTF8, "text string is not valid UTF-8")
	}
	d.off += n
	if d.zeroCopy() && n > 0 {
		return unsafe.String(&b[0], n), nil
	}
	return string(b), nil
}

// ReuseSlice returns s emptied when its capacity holds n elements, else a
// new slice with room for d.Hint(n) of them, for an array whose head read
// n (negative: indefinite, a hint of 0). A decoded slice so reuses what
// the value held, and a forged length on a stream cannot allocate more
// than has arrived. For generated code.
func ReuseSlice[S ~[]E, E any](d *Decoder, s S, n int) S {
	if s == nil || cap(s) < n {
		return make(S, 0, d.Hint(max(n, 0)))
	}
	return s[:0]
}

// ReuseCleared is ReuseSlice for a slice whose elements the decoder grows
// by Grow: it also clears the elements a reused s will hand out again
// (the first n, or all of its capacity for an indefinite length), so that
// every element past the length is zero. A new slice is zero already.
// For generated code.
func ReuseCleared[S ~[]E, E any](d *Decoder, s S, n int) S {
	if s == nil || cap(s) < n {
		return make(S, 0, d.Hint(max(n, 0)))
	}
	if n >= 0 {
		clear(s[:n])
	} else {
		clear(s[:cap(s)])
	}
	return s[:0]
}

// Grow returns s one element longer, for a slice from ReuseCleared (or
// grown by Grow) whose elements past the length are zero: the new element
// is zero without being written, where append(s, E{}) would clear it a
// second time (for a struct with pointers, through the write barrier while
// the collector runs). For generated code.
func Grow[S ~[]E, E any](s S) S {
	if len(s) < cap(s) {
		return s[:len(s)+1]
	}
	var zero E
	return append(s, zero)
}

// ReadBytes reads a byte string. Pass buf, the slice the destination
// holds, as it is (not buf[:0]): ReadBytes writes the string into buf's
// array only when buf has room past its length (len(buf) < cap(buf)) and
// past the string (its length < cap(buf)), as every slice that ReadBytes
// itself makes has; the result then keeps that room, so a value decoded
// record after record reuses one array. A slice without it, such as every
// byte slice a zero-copy decode returns (capped at its length, in the
// array of that earlier input), is never written: ReadBytes makes a new
// one. With Options.ZeroCopy, over a byte slice, a string of definite
// length is returned as a view of the input, capped at its length. The
// result is never nil.
func (d *Decoder) ReadBytes(buf []byte) ([]byte, error) {
	if at, n := d.definiteString(0x40); at >= 0 {
		d.off = at + n
		if d.opts.ZeroCopy && d.r == nil {
			return d.buf[at : at+n : at+n], nil
		}
		return copyBytes(buf, d.buf[at:at+n:len(d.buf)]), nil
	}
	return d.readBytesSlow(buf)
}

// copyBytes returns a copy of b in buf's array when buf has room past its
// length and past len(b) (see ReadBytes), else in a new array with one
// byte of room, which marks it as the decoder's own for the next call.
// The room is filled with the byte after b when b's capacity holds one
// (callers cap b at the end of the input read, so it is the input byte
// that follows the string), so that the array is copied whole, not zeroed
// first; it is never part of the result.
func copyBytes(buf, b []byte) []byte {
	n := len(b)
	if len(buf) < cap(buf) && n < cap(buf) {
		buf = buf[:n]
		copy(buf, b)
		return buf
	}
	if n == 0 {
		return []byte{} // not nil, and no room: nothing to reuse
	}
	if cap(b) > n {
		// make of the length of what is copied, then copy: the
		// compiler makes the two one allocation that is not zeroed,
		// and calls nothing else.
		src := b[:n+1]
		nb := make([]byte, len(src))
		copy(nb, src)
		return nb[:n]
	}
	nb := make([]byte, n+1) // the string ends the input
	copy(nb, b)
	return nb[:n]
}

func (d *Decoder) readBytesSlow(buf []byte) ([]byte, error) {
	n, start, err := d.stringHead(MajorBytes, "byte string")
	if err != nil {
		return buf, err
	}
	if n < 0 {
		// The chunks are joined in the scratch buffer, then copied as a
		// definite string is: never appended to buf, whose array may be
		// an earlier input's.
		s := d.slowPath()
		if s.scratch, err = d.chunks(s.scratch[:0], MajorBytes, "byte string", start); err != nil {
			return buf, err
		}
		return copyBytes(buf, s.scratch[:len(s.scratch):len(s.scratch)]), nil
	}
	at := d.off
	d.off += n
	if d.zeroCopy() {
		return d.buf[at : at+n : at+n], nil
	}
	return copyBytes(buf, d.buf[at:at+n:len(d.buf)]), nil
}

// readBytesView reads a byte string, as ReadBytes does, and returns its
// content without copying it: a view of the decoder's buffer, or for an
// indefinite length of its scratch buffer, valid until the next read.
func (d *Decoder) readBytesView() ([]byte, error) {
	n, start, err := d.stringHead(MajorBytes, "byte string")
	if err != nil {
		return nil, err
	}
	if n < 0 {
		s := d.slowPath()
		s.scratch, err = d.chunks(s.scratch[:0], MajorBytes, "byte string", start)
		return s.scratch, err
	}
	b := d.buf[d.off : d.off+n : d.off+n]
	d.off += n
	return b, nil
}

// ReadByteArray reads a byte string of exactly len(dst) bytes into dst
// (the encoding of a Go [N]byte). Any other length is ErrLength.
func (d *Decoder) ReadByteArray(dst []byte) error {
	if at, n := d.definiteString(0x40); at >= 0 && n == len(dst) {
		d.off = at + n
		copy(dst, d.buf[at:at+n])
		return nil
	}
	n, start, err := d.stringHead(MajorBytes, "byte string")
	if err != nil {
		return err
	}
	if n < 0 {
		s := d.slowPath()
		s.scratch, err = d.chunks(s.scratch[:0], MajorBytes, "byte string", start)
		if err != nil {
			return err
		}
		if len(s.scratch) != len(dst) {
			return d.errAt(start, ErrLength, "expected byte string of "+count(len(dst), "byte")+", found "+strconv.Itoa(len(s.scratch)))
		}
		copy(dst, s.scratch)
		return nil
	}
	if n != len(dst) {
		return d.errAt(start, ErrLength, "expected byte string of "+count(len(dst), "byte")+", found "+strconv.Itoa(n))
	}
	copy(dst, d.buf[d.off:d.off+n])
	d.off += n
	return nil
}

// ReadArrayHead reads the head of an array and returns its length. It
// enters one nesting level: call Leave once the elements are read. The
// length is checked against MaxArrayElements and, over a slice, against
// the bytes that remain. For an indefinite-length array it counts the
// elements first (see indef.go) and returns their number, so that the
// caller allocates once, and Leave consumes the break; when it cannot
// count them (bytes not well-formed, nesting beyond 64 levels) it returns
// -1, and NextElem finds the break.
func (d *Decoder) ReadArrayHead() (int, error) {
	return d.containerHead(MajorArray)
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
	if d.off < len(d.buf) && !d.opts.Strict && d.depth < d.opts.MaxDepth {
		ib := d.buf[d.off]
		n, limit, per := int(ib&0x1f), d.opts.MaxArrayElements, 1
		if major == MajorMap {
			limit, per = d.opts.MaxMapPairs, 2
		}
		if ib>>5 == major && n < 24 && n <= limit && (d.r != nil || n*per < len(d.buf)-d.off) {
			d.off++
			d.depth++
			return n, nil
		}
	}
	if d.opts.Strict && d.depth == 0 {
		if err := d.checkStrict(); err != nil {
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
	if d.r == nil && arg*per > uint64(len(d.buf)-d.off) {
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

// KeyKind tells what a Key holds.
type KeyKind uint8

const (
	KeyOther KeyKind = iota // the zero Key; ReadKey never returns it
	KeyText                 // Key.Text holds the text
	KeyInt                  // Key.Int holds the integer
)

// Key is a map key as a legacy-map decoder sees it.
type Key struct {
	Kind KeyKind
	Text []byte // valid until the next read from the Decoder
	Int  int64
}

// ReadKey reads the key of a map that encodes a struct: a text string
// (UTF-8 checked, without copying when it has a definite length) or an
// integer within int64 (keyasint). A key of any other type cannot name a
// field and is ErrType; an integer beyond int64 is ErrRange. fxamacker/cbor
// refuses both when it decodes a map into a struct.
func (d *Decoder) ReadKey() (Key, error) {
	kind, text, n, err := d.ReadKeyParts()
	return Key{Kind: kind, Text: text, Int: n}, err
}

// ReadKeyParts is ReadKey with the key's fields as results, for generated
// code: a Key is five words, which the compiler keeps in memory rather than
// in registers.
func (d *Decoder) ReadKeyParts() (kind KeyKind, text []byte, n int64, err error) {
	// The common keys, without a frame of the size the general path
	// needs: ASCII text of up to 16 bytes with 16 bytes after the head
	// buffered, checked as two words as TryString does (within
	// shortText, which also keeps small length limits out); a small
	// unsigned integer (keyasint) in its head alone; and a short text
	// string with a one-byte head, whole in the buffer, with no call but
	// the UTF-8 check. Strict mode takes the general path.
	if p := d.buf[d.off:]; len(p) > 0 && !d.opts.Strict {
		b := p[0]
		if n := uint(b) - 0x60; n < d.shortText && len(p) >= 17 &&
			binary.LittleEndian.Uint64(p[1:])&textMasks[n&31][0]|binary.LittleEndian.Uint64(p[9:])&textMasks[n&31][1] == 0 {
			d.off += int(1 + n)
			return KeyText, p[1 : 1+n : 1+n], 0, nil
		}
		if b < 0x18 {
			d.off++
			return KeyInt, nil, int64(b), nil
		}
		if n := int(b) - 0x60; uint(n) < 24 && n < len(p) && n <= d.opts.MaxStringLength {
			if t := p[1 : 1+n : 1+n]; validUTF8(t) {
				d.off += 1 + n
				return KeyText, t, 0, nil
			}
		}
	}
	k, err := d.readKey()
	return k.Kind, k.Text, k.Int, err
}

// readKey is ReadKey's general path.
func (d *Decoder) readKey() (Key, error) {
	start := d.Offset()
	b, err := d.peek()
	if err != nil {
		return Key{}, err
	}
	switch b >> 5 {
	case MajorText:
		n, _, err := d.stringHead(MajorText, "text string")
		if err != nil {
			return Key{}, err
		}
		var t []byte
		if n < 0 {
			s := d.slowPath()
			s.scratch, err = d.chunks(s.scratch[:0], MajorText, "text string", start)
			if err != nil {
				return Key{}, err
			}
			t = s.scratch
		} else {
			t = d.buf[d.off : d.off+n : d.off+n]
			if !validUTF8(t) {
				return Key{}, d.errAt(start, ErrUTF8, "text string is not valid UTF-8")
			}
			d.off += n
		}
		return Key{Kind: KeyText, Text: t}, nil
	case MajorUint, MajorNeg:
		neg, mag, _, err := d.readInt("integer")
		if err != nil {
			return Key{}, err
		}
		if mag > math.MaxInt64 {
			return Key{}, d.rangeError(start, neg, mag, "int64 map key")
		}
		if neg {
			return Key{Kind: KeyInt, Int: -1 - int64(mag)}, nil
		}
		return Key{Kind: KeyInt, Int: int64(mag)}, nil
	}
	if err := d.Skip(); err != nil {
		return Key{}, err // not well-formed: that is the worse news
	}
	return Key{}, d.typeError(start, b, "text string or integer map key")
}
