package genrt

import (
	"math"
	"strconv"
)

// Typed reads. Each reads one whole item and returns a *Error when the
// item is of another type (ErrType), does not fit the Go type (ErrRange),
// breaks a limit (ErrLimit), is not well-formed (ErrSyntax) or is cut
// short (io.ErrUnexpectedEOF). On error the read position is unspecified.
// Outside strict mode they read what fxamacker/cbor's default options read
// into the Go type (decode_lenient.go): null and undefined as the zero
// value (generated code keeps the value instead, see KeepNull), and into
// integers and floats the code of a simple value (e0-f3, f8 20-f8 ff).

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

// ReadBool reads true or false. Outside strict mode a null or undefined
// reads as false, as fxamacker/cbor stores it into a map's value.
func (d *Decoder) ReadBool() (bool, error) { return d.ReadBoolOr(false) }

// ReadBoolOr is ReadBool for a value that keeps what it holds, old, when
// the item is null or undefined (behind any tags but 0-3) outside strict
// mode, as fxamacker/cbor leaves a bool field. The Read...Or methods are
// for generated code, after the Try fast path: a null costs nothing until
// their general path.
func (d *Decoder) ReadBoolOr(old bool) (bool, error) {
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
	if d.KeepNull() {
		return old, nil
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
	if d.lenientNull(b) {
		return false, nil
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
	case MajorSimple:
		if code, ok := d.simpleCode(ib, arg); ok {
			return false, code, start, nil
		}
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

// ReadUint64 reads a non-negative integer. Outside strict mode a null or
// undefined reads as 0, as fxamacker/cbor stores it into a map's value;
// so do the other integer reads.
func (d *Decoder) ReadUint64() (uint64, error) { return d.ReadUint64Or(0) }

// ReadUint64Or is ReadUint64 for a value that keeps what it holds, old,
// when the item is null or undefined (see ReadBoolOr); so are the other
// Read...Or methods of integers and floats.
func (d *Decoder) ReadUint64Or(old uint64) (uint64, error) {
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
	if d.KeepNull() {
		return old, nil
	}
	return d.readUint64Slow()
}

func (d *Decoder) readUint64Slow() (uint64, error) {
	return d.readUint(math.MaxUint64, "uint64")
}

// readUintOr is the body of the unsigned reads below 64 bits. (Not
// generic: a call of a generic function from another package lets the
// Decoder escape.)
func (d *Decoder) readUintOr(old, max uint64, typ string) (uint64, error) {
	if neg, mag, n := d.smallInt(); n > 0 && !neg && mag <= max {
		d.off += n
		return mag, nil
	}
	if d.KeepNull() {
		return old, nil
	}
	return d.readUint(max, typ)
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
	v, err := d.readUintOr(0, math.MaxUint32, "uint32")
	return uint32(v), err
}

// ReadUint32Or is ReadUint32 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadUint32Or(old uint32) (uint32, error) {
	v, err := d.readUintOr(uint64(old), math.MaxUint32, "uint32")
	return uint32(v), err
}

// ReadUint16 reads an integer in the range of uint16.
func (d *Decoder) ReadUint16() (uint16, error) {
	v, err := d.readUintOr(0, math.MaxUint16, "uint16")
	return uint16(v), err
}

// ReadUint16Or is ReadUint16 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadUint16Or(old uint16) (uint16, error) {
	v, err := d.readUintOr(uint64(old), math.MaxUint16, "uint16")
	return uint16(v), err
}

// ReadUint8 reads an integer in the range of uint8.
func (d *Decoder) ReadUint8() (uint8, error) {
	v, err := d.readUintOr(0, math.MaxUint8, "uint8")
	return uint8(v), err
}

// ReadUint8Or is ReadUint8 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadUint8Or(old uint8) (uint8, error) {
	v, err := d.readUintOr(uint64(old), math.MaxUint8, "uint8")
	return uint8(v), err
}

// ReadUint reads an integer in the range of uint.
func (d *Decoder) ReadUint() (uint, error) {
	v, err := d.readUintOr(0, math.MaxUint, "uint")
	return uint(v), err
}

// ReadUintOr is ReadUint for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadUintOr(old uint) (uint, error) {
	v, err := d.readUintOr(uint64(old), math.MaxUint, "uint")
	return uint(v), err
}

// ReadInt64 reads an integer in the range of int64.
func (d *Decoder) ReadInt64() (int64, error) { return d.ReadInt64Or(0) }

// ReadInt64Or is ReadInt64 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadInt64Or(old int64) (int64, error) {
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
	if d.KeepNull() {
		return old, nil
	}
	return d.readInt64Slow()
}

func (d *Decoder) readInt64Slow() (int64, error) {
	return d.readSigned(math.MinInt64, math.MaxInt64, "int64")
}

// readIntOr is the body of the signed reads below 64 bits (see readUintOr).
func (d *Decoder) readIntOr(old, min, max int64, typ string) (int64, error) {
	if neg, mag, n := d.smallInt(); n > 0 && mag <= uint64(max) {
		d.off += n
		if neg {
			return -1 - int64(mag), nil
		}
		return int64(mag), nil
	}
	if d.KeepNull() {
		return old, nil
	}
	return d.readSigned(min, max, typ)
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
	v, err := d.readIntOr(0, math.MinInt32, math.MaxInt32, "int32")
	return int32(v), err
}

// ReadInt32Or is ReadInt32 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadInt32Or(old int32) (int32, error) {
	v, err := d.readIntOr(int64(old), math.MinInt32, math.MaxInt32, "int32")
	return int32(v), err
}

// ReadInt16 reads an integer in the range of int16.
func (d *Decoder) ReadInt16() (int16, error) {
	v, err := d.readIntOr(0, math.MinInt16, math.MaxInt16, "int16")
	return int16(v), err
}

// ReadInt16Or is ReadInt16 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadInt16Or(old int16) (int16, error) {
	v, err := d.readIntOr(int64(old), math.MinInt16, math.MaxInt16, "int16")
	return int16(v), err
}

// ReadInt8 reads an integer in the range of int8.
func (d *Decoder) ReadInt8() (int8, error) {
	v, err := d.readIntOr(0, math.MinInt8, math.MaxInt8, "int8")
	return int8(v), err
}

// ReadInt8Or is ReadInt8 for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadInt8Or(old int8) (int8, error) {
	v, err := d.readIntOr(int64(old), math.MinInt8, math.MaxInt8, "int8")
	return int8(v), err
}

// ReadInt reads an integer in the range of int.
func (d *Decoder) ReadInt() (int, error) {
	v, err := d.readIntOr(0, math.MinInt, math.MaxInt, "int")
	return int(v), err
}

// ReadIntOr is ReadInt for a value that keeps old on null (see ReadUint64Or).
func (d *Decoder) ReadIntOr(old int) (int, error) {
	v, err := d.readIntOr(int64(old), math.MinInt, math.MaxInt, "int")
	return int(v), err
}

// ReadFloat64 reads a float of any width, or an integer (converted to the
// nearest float64, as fxamacker/cbor does). Outside strict mode a null or
// undefined reads as 0.
func (d *Decoder) ReadFloat64() (float64, error) { return d.ReadFloat64Or(0) }

// ReadFloat64Or is ReadFloat64 for a value that keeps old on null (see
// ReadUint64Or).
func (d *Decoder) ReadFloat64Or(old float64) (float64, error) {
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
	if d.KeepNull() {
		return old, nil
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
	case MajorSimple:
		if !d.opts.Strict {
			ib, arg, err := d.head()
			if err != nil {
				return 0, err
			}
			if code, ok := d.simpleCode(ib, arg); ok {
				return float64(code), nil
			}
		}
	}
	return 0, d.typeError(start, b, "float")
}

// ReadFloat32 reads a float as ReadFloat64 does and converts it to the
// nearest float32; a finite value beyond the float32 range is ErrRange.
func (d *Decoder) ReadFloat32() (float32, error) { return d.ReadFloat32Or(0) }

// ReadFloat32Or is ReadFloat32 for a value that keeps old on null (see
// ReadUint64Or).
func (d *Decoder) ReadFloat32Or(old float32) (float32, error) {
	if d.KeepNull() {
		return old, nil
	}
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
