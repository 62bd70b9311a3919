package genrt

import "strconv"

// What the default options accept beyond the CBOR data model, because
// fxamacker/cbor's default DecOptions accept it for the same Go type:
// null and undefined into a value that cannot hold them (KeepNull, and
// the zero value from the Read methods), simple values into integers and
// floats (their code), a byte string of another length into a [N]byte
// (zero-filled or cut), an array of integers into a byte string type, and
// a tag around null into a byte slice (nil). Options.Strict refuses all of
// it. Everything here runs after the fast paths have missed.

// KeepNull consumes the next item and reports true when it is null or
// undefined, behind any tags but 0-3 (whose content a null never is), and
// strict mode is off: the value being decoded is then left as it is, as
// fxamacker/cbor leaves a value that cannot be nil (a number, a string, a
// struct, an array). Otherwise, under Strict or for any other item, it
// consumes nothing and reports false, and the Read that follows decodes
// the item or says what is wrong with it. For generated code, on the slow
// path of a value that is not a pointer, slice, map or interface.
func (d *Decoder) KeepNull() bool {
	// In line: an item of major type 0-5 or a float or simple value in
	// two bytes or more, buffered, is no null (nor a tag before one).
	// (0xc0 to 0xf7 in one unsigned comparison.)
	return (d.off >= len(d.buf) || d.buf[d.off]-0xc0 <= byteUndefined-0xc0) && d.keepNull()
}

func (d *Decoder) keepNull() bool {
	if d.opts.Strict {
		return false
	}
	for i, tags := 0, 0; ; tags++ {
		ib, arg, size, ok := d.peekHead(i)
		switch {
		case !ok:
			return false
		case ib == byteNull || ib == byteUndefined:
			if tags > 1 && d.depth+tags-1 > d.opts.MaxDepth {
				return false // tags within tags beyond the limit: the Read says so
			}
			d.off += i + 1
			return true
		case ib>>5 != MajorTag || arg <= 3 || tags > d.opts.MaxDepth:
			return false
		}
		i += size
	}
}

// lenientNull consumes a null or undefined at the read position (tags
// already read) outside strict mode, for a Read method that returns the
// zero value for it.
func (d *Decoder) lenientNull(b byte) bool {
	if !d.opts.Strict && (b == byteNull || b == byteUndefined) {
		d.off++
		return true
	}
	return false
}

// simpleCode reports the number fxamacker/cbor reads from the simple
// value (major type 7) whose head ib, arg was just read, for an integer
// or float outside strict mode: its code for simple values 0-19 and
// 32-255, and 0 for null and undefined (a value that is not kept).
// False, true and floats are not numbers there either.
func (d *Decoder) simpleCode(ib byte, arg uint64) (uint64, bool) {
	if d.opts.Strict {
		return 0, false
	}
	switch ai := ib & 0x1f; {
	case ai < 20 || ai == 24:
		return arg, true
	case ai == 22 || ai == 23:
		return 0, true
	}
	return 0, false
}

// byteArrayOther reads into dst, a [N]byte, what fxamacker/cbor reads into
// one outside strict mode when it is not a byte string of len(dst) bytes:
// null (dst is left as it is), a byte string of another length (copied as
// far as it goes, the rest of dst zero), or an array of integers (element
// by element, the rest of dst zero, elements past it skipped). done is
// false for anything else, and then nothing was consumed.
func (d *Decoder) byteArrayOther(dst []byte) (done bool, err error) {
	if d.opts.Strict {
		return false, nil
	}
	if d.KeepNull() {
		return true, nil
	}
	switch d.contentMajor() {
	case MajorBytes:
		b, err := d.readBytesView()
		if err == nil {
			clear(dst[copy(dst, b):])
		}
		return true, err
	case MajorArray:
		n, err := d.ReadArrayHead()
		if err != nil {
			return true, err
		}
		return true, d.byteElems(dst, n)
	}
	return false, nil
}

// bytesOther reads into a byte slice (buf, the one the value holds) what
// fxamacker/cbor reads into one outside strict mode besides a byte string
// and null: a tag around null (nil) and an array of integers. done is false
// for anything else, and then nothing was consumed.
//
// fxamacker decodes an array into the slice's own array when its capacity
// holds the elements, so that a null element keeps the byte that was
// there. The bytes are written into a new array here (the slice may be a
// view of an earlier input, which a decoder never writes: see the package
// doc), which starts as a copy of what fxamacker would have reused.
func (d *Decoder) bytesOther(buf []byte) (b []byte, done bool, err error) {
	if d.opts.Strict {
		return buf, false, nil
	}
	if d.KeepNull() {
		return nil, true, nil // a nil slice, also for a tag around null
	}
	if d.contentMajor() != MajorArray {
		return buf, false, nil
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return buf, true, err
	}
	// Grown as the elements come (Hint), so that a forged length on a
	// stream allocates no more than has arrived.
	reuse := n > 0 && n <= cap(buf)
	out := make([]byte, 0, d.Hint(max(n, 0)))
	for i := 0; i != n; i++ {
		if more, err := d.NextElem(n, i); err != nil {
			return buf, true, err
		} else if !more {
			break
		}
		var x byte
		if reuse {
			x = buf[:n][i]
		}
		if !d.KeepNull() {
			if x, err = d.ReadUint8(); err != nil {
				return buf, true, AtIndex(err, i)
			}
		}
		out = append(out, x)
	}
	d.Leave()
	if len(out) == cap(out) {
		out = append(out, 0)[:len(out)] // room: the decoder's own array (ReadBytes)
	}
	return out, true, nil
}

// byteElems reads the n elements (-1: up to a break) of an array whose
// head was just read, integers, each into a byte of dst as fxamacker/cbor
// reads a uint8 (a null keeps the byte), the first len(dst) of them,
// skipping the rest, and zeroes the bytes of dst past the last element.
func (d *Decoder) byteElems(dst []byte, n int) error {
	i := 0
	for ; i != n; i++ {
		if n < 0 {
			if more, err := d.NextElem(n, i); err != nil {
				return err
			} else if !more {
				break
			}
		}
		if i >= len(dst) {
			if err := d.Skip(); err != nil {
				return err
			}
			continue
		}
		if d.KeepNull() {
			continue
		}
		x, err := d.ReadUint8()
		if err != nil {
			return AtIndex(err, i)
		}
		dst[i] = x
	}
	if i < len(dst) {
		clear(dst[i:])
	}
	d.Leave()
	return nil
}

// lengthError is the error for a byte string of n bytes where a [want]byte
// needs want, in strict mode.
func (d *Decoder) lengthError(start int64, want, n int) error {
	return d.errAt(start, ErrLength, "expected byte string of "+count(want, "byte")+", found "+strconv.Itoa(n))
}

// ArrayExtra is called for each element of an array past the want that a
// Go array [want]T holds: outside strict mode it skips the element, as
// fxamacker/cbor does; in strict mode it is an ErrLength. For generated
// code.
func (d *Decoder) ArrayExtra(want int) error {
	if d.opts.Strict {
		return d.Errorf(ErrLength, "expected array of %s, found more", count(want, "element"))
	}
	return d.Skip()
}

// ArrayShort is called after an array of got elements, fewer than the
// want of a Go array [want]T: outside strict mode it returns nil (the
// caller zeroes the rest, as fxamacker/cbor does); in strict mode it is an
// ErrLength. For generated code.
func (d *Decoder) ArrayShort(want, got int) error {
	if d.opts.Strict {
		return d.wrongLength(want, got)
	}
	return nil
}

// ReadNil is ReadNull for a slice or a map: outside strict mode the tags
// in front of the null may be any but 0-3 (KeepNull), as fxamacker/cbor
// sets a slice or map to nil for a tag around null; in strict mode, and
// for a pointer (ReadNull), only 55799 is. For generated code.
func (d *Decoder) ReadNil() (bool, error) {
	if d.KeepNull() {
		return true, nil
	}
	return d.ReadNull()
}

// ReadBytesUnmarshal is ReadBytesOf for a slice of a named byte type with
// an UnmarshalCBOR method of its own: a byte string is read as bytes, and
// outside strict mode an array element by element through the method, as
// fxamacker/cbor reads both. As in bytesOther, the elements go into a new
// array that starts as a copy of what fxamacker would have reused. For
// generated code.
func ReadBytesUnmarshal[E ~uint8, P interface {
	*E
	UnmarshalCBOR([]byte) error
}](d *Decoder, buf []E) ([]E, error) {
	if d.opts.Strict || d.contentMajor() != MajorArray {
		return ReadBytesOf(d, buf)
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return buf, err
	}
	reuse := n > 0 && n <= cap(buf)
	out := make([]E, 0, d.Hint(max(n, 0)))
	for i := 0; i != n; i++ {
		if more, err := d.NextElem(n, i); err != nil {
			return buf, err
		} else if !more {
			break
		}
		var x E
		if reuse {
			x = buf[:n][i]
		}
		off := d.Offset()
		raw, err := d.ReadRawChecked()
		if err != nil {
			return buf, AtIndex(err, i)
		}
		if err := P(&x).UnmarshalCBOR(raw); err != nil {
			return buf, AtIndex(MethodError(off, err), i)
		}
		out = append(out, x)
	}
	d.Leave()
	if len(out) == cap(out) {
		out = append(out, 0)[:len(out)]
	}
	return out, nil
}

// skipFieldMap skips a map read into a struct none of whose fields it can
// name, as fxamacker/cbor reads one: each key must be a text string or an
// integer within int64 (ReadKey), each value is skipped.
func (d *Decoder) skipFieldMap() error {
	n, err := d.ReadMapHead()
	if err != nil {
		return err
	}
	for i := 0; i != n; i++ {
		if more, err := d.NextPair(n, i); err != nil {
			return err
		} else if !more {
			break
		}
		if _, err := d.ReadKey(); err != nil {
			return err
		}
		if err := d.Skip(); err != nil {
			return err
		}
	}
	d.Leave()
	return nil
}

// KeepBinary is for a value that cannot be nil read through UnmarshalBinary
// (a struct, number or array type): outside strict mode fxamacker/cbor
// leaves such a value as it is for a null or undefined (also in a tag), as
// it leaves any struct or number, and with fieldless, for a type whose fields
// are all unexported (netip.Addr), it skips a map, finding no field to set.
// KeepBinary consumes either and reports true; otherwise it reads nothing,
// and the generated code reads the byte string. For generated code.
func (d *Decoder) KeepBinary(fieldless bool) (bool, error) {
	if d.KeepNull() {
		return true, nil
	}
	if !fieldless || d.opts.Strict || d.contentMajor() != MajorMap {
		return false, nil
	}
	return true, d.skipFieldMap()
}
