package genrt

import (
	"encoding/binary"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

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
		if major == MajorText && !validUTF8(d.buf[d.off:d.off+n]) && !d.laxUTF8() {
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
	if off := d.off; off < len(d.buf) {
		n := int(d.buf[off]) - base
		off++
		if uint(n) >= 24 {
			if n != 24 || d.opts.Strict || off >= len(d.buf) {
				return -1, 0
			}
			n = int(d.buf[off])
			off++
		}
		if n <= len(d.buf)-off && n <= d.opts.MaxStringLength {
			return off, n
		}
	}
	return -1, 0
}

// ReadString reads a text string, checked to be UTF-8. Outside strict
// mode a null or undefined reads as "", as fxamacker/cbor stores it into a
// map's value.
func (d *Decoder) ReadString() (string, error) { return d.ReadStringOr("") }

// ReadStringOr is ReadString for a value that keeps what it holds, old,
// when the item is null or undefined (behind any tags but 0-3) outside
// strict mode, as fxamacker/cbor leaves a string field. For generated
// code, after TryString: the null costs nothing until the general path.
func (d *Decoder) ReadStringOr(old string) (string, error) {
	// ASCII text of at most 16 bytes (most keys and short values), with
	// 17 bytes buffered: TryString's test of two masked words.
	if off := d.off; off+17 <= len(d.buf) {
		if n := uint(d.buf[off]) - 0x60; n <= 16 && n <= uint(d.opts.MaxStringLength) {
			if p := d.buf[off+1 : off+17]; binary.LittleEndian.Uint64(p)&textMasks[n][0]|binary.LittleEndian.Uint64(p[8:])&textMasks[n][1] == 0 {
				return d.takeText(p[:n], off+1+int(n)), nil
			}
		}
	}
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
			return d.takeText(b, at+n), nil
		}
	}
	return d.readStringSlow(old)
}

// takeText consumes the text b, checked, which ends at end in d.buf, and
// returns it: a view of the input under ZeroCopy over a buffer, else a
// copy (in the decoder's text block when it is short).
func (d *Decoder) takeText(b []byte, end int) string {
	d.off = end
	if d.opts.ZeroCopy && d.st == nil {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return d.copyText(b)
}

// copyText is takeText's copy, out of line so that takeText is inlined.
//
//go:noinline
func (d *Decoder) copyText(b []byte) string {
	if len(b) <= blockText {
		return d.keepChunk(b)
	}
	return string(b)
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

func (d *Decoder) readStringSlow(old string) (string, error) {
	if d.KeepNull() {
		return old, nil
	}
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
	if !validUTF8(b) && !d.laxUTF8() {
		return "", d.errAt(start, ErrUTF8, "text string is not valid UTF-8")
	}
	d.off += n
	if d.zeroCopy() && n > 0 {
		return unsafe.String(&b[0], n), nil
	}
	return string(b), nil
}

// ReuseSlice returns the slice into which an array whose head read n
// elements is decoded, as fxamacker/cbor chooses it: s emptied when it is
// not nil, n is above 0 and its capacity holds n elements, else a new
// slice with room for d.Hint(n) of them (a forged length on a stream so
// cannot allocate more than has arrived). Elements come from Grow, which
// hands out those of a reused s as they are, so that each is decoded in
// place (a map element keeps its entries, a null keeps a number), as
// fxamacker decodes into the slice's own array. An indefinite length not
// counted (n < 0) gets a new slice. For generated code.
func ReuseSlice[S ~[]E, E any](d *Decoder, s S, n int) S {
	if s == nil || n <= 0 || cap(s) < n {
		return make(S, 0, d.Hint(max(n, 0)))
	}
	return s[:0]
}

// ReuseCleared is ReuseSlice as code generated before in-place decoding
// calls it (generated code version 4): it also clears the elements a
// reused s will hand out again (the first n, or all of its capacity for an
// indefinite length), so that every element past the length is zero. A
// new slice is zero already.
//
// Deprecated: generated code decodes in place, through [ReuseSlice].
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

// Grow returns s one element longer: the next element of its array, as it
// is, when it has room (a slice from ReuseSlice, whose elements are then
// decoded in place), else a zero one appended. For generated code.
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
		if d.opts.ZeroCopy && d.st == nil {
			return d.buf[at : at+n : at+n], nil
		}
		// Short strings that do not go into buf's array (copyBytes's
		// first test) go into the text block, with their byte of room:
		// no allocation of their own.
		if len(buf) < cap(buf) && n < cap(buf) || n == 0 || n >= blockText {
			return copyBytes(buf, d.buf[at:at+n:len(d.buf)]), nil
		}
		return d.keepBytes(d.buf[at : at+n]), nil
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
	if b, done, err := d.bytesOther(buf); done {
		return b, err
	}
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
// (the encoding of a Go [N]byte). Outside strict mode it reads what
// fxamacker/cbor reads into a [N]byte: a byte string of another length
// (copied as far as it goes, the rest of dst zeroed), an array of integers
// (the same, element by element), and null or undefined (dst is left as it
// is); in strict mode another length is ErrLength, and the rest ErrType.
func (d *Decoder) ReadByteArray(dst []byte) error {
	if at, n := d.definiteString(0x40); at >= 0 && n == len(dst) {
		d.off = at + n
		copy(dst, d.buf[at:at+n])
		return nil
	}
	if done, err := d.byteArrayOther(dst); done {
		return err
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
			return d.lengthError(start, len(dst), len(s.scratch))
		}
		copy(dst, s.scratch)
		return nil
	}
	if n != len(dst) {
		return d.lengthError(start, len(dst), n)
	}
	copy(dst, d.buf[d.off:d.off+n])
	d.off += n
	return nil
}

// ReadBytesOf is ReadBytes for a slice of a named byte type.
func ReadBytesOf[E ~uint8](d *Decoder, buf []E) ([]E, error) {
	b, err := d.ReadBytes(asBytes(buf))
	return unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(b))), len(b)), err
}

// ReadByteArrayOf is ReadByteArray for an array of a named byte type
// (pass a[:]).
func ReadByteArrayOf[E ~uint8](d *Decoder, dst []E) error {
	return d.ReadByteArray(asBytes(dst))
}

// asBytes views a slice of a named byte type as []byte: the two have the
// same memory layout.
func asBytes[E ~uint8](b []E) []byte {
	if b == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), cap(b))[:len(b)]
}

// ReadBytesView reads a byte string and returns its content without
// copying when it has a definite length: the result aliases the decoder's
// buffer and is valid until the next read from d. Generated code hands it
// to UnmarshalBinary, whose contract forbids keeping it.
func (d *Decoder) ReadBytesView() ([]byte, error) {
	if b, err := d.peek(); err != nil {
		return nil, err
	} else if b>>5 == MajorTag {
		// fxamacker reads a bignum into a value that is no byte slice
		// or array (netip.Addr, url.URL) as an integer: a type error.
		at := d.Offset()
		if tag, err := d.stripTags(); err != nil {
			return nil, err
		} else if tag == 2 || tag == 3 {
			return nil, d.errAt(at, ErrType, "expected byte string, found bignum")
		}
	}
	return d.readBytesView()
}

// validUTF8 reports whether b is valid UTF-8. It checks for ASCII first
// a word at a time, reading the last word where the string ends (it may
// overlap the one before), so that a string of 4 to 16 bytes costs two
// loads; text with any other byte goes to utf8.Valid.
func validUTF8(b []byte) bool {
	const high = 0x8080808080808080
	var w uint64
	switch n := len(b); {
	case n >= 8:
		// The words are or-ed and tested once at the end: most text
		// is ASCII, and a test a word costs more than it saves on the
		// rest. Two words a turn, on a slice whose length the loop
		// tests, so that the loads need no bounds checks.
		p := b
		for ; len(p) > 16; p = p[16:] {
			w |= binary.LittleEndian.Uint64(p) | binary.LittleEndian.Uint64(p[8:])
		}
		if len(p) > 8 {
			w |= binary.LittleEndian.Uint64(p)
		}
		w |= binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		w = uint64(binary.LittleEndian.Uint32(b) | binary.LittleEndian.Uint32(b[n-4:]))
	default:
		for _, c := range b {
			w |= uint64(c)
		}
	}
	return w&high == 0 || utf8.Valid(b)
}

// laxUTF8 reports whether text that is not UTF-8 reads as it is
// (Options.UTF8 UTF8DecodeInvalid, which Strict overrides). It is asked
// only once text failed the check.
func (d *Decoder) laxUTF8() bool { return d.opts.UTF8 == UTF8DecodeInvalid && !d.opts.Strict }
