package genrt

import "encoding/binary"

// The head table: what every walker knows of an initial byte before it
// reads on. walk (walk.go) is the specification; the fast walkers (Skip
// over a slice and over a stream, Valid, the indefinite-length counter,
// canonical) decode heads through this table and its helpers, so that a
// head's width and what the byte can start are written once. The three
// hottest loops (Skip over a slice and over a stream, Valid's items) keep
// a switch on the additional information of their own: reading the width
// from the table cost them 3-10% of their instructions.

// headTable describes each initial byte, one column per fact (a column
// is indexed by the byte alone, which the hot loops need).
type headTable struct {
	// size is the head's bytes (1, 2, 3, 5 or 9) for a definite head;
	// 0 for an indefinite length, a break and the reserved additional
	// information 28-30.
	size [256]uint8
	// scalar is the bytes of the whole item when the head is all of it
	// and the item is valid whatever the argument (integers, floats, the
	// simple values of one byte); 0 otherwise.
	scalar [256]uint8
	// starts is what the byte can start.
	starts [256]headStart
}

// headStart is what an initial byte can start.
type headStart uint8

const (
	startsItem    headStart = iota // a definite head
	startsIndef                    // an indefinite-length string, array or map
	startsBreak                    // a break: only the end of an indefinite length
	startsNothing                  // reserved additional information, or an indefinite integer or tag
	startsSimple8                  // f8: a simple value, valid from 32 on
)

// heads is the head table.
var heads = func() (t headTable) {
	for ib := range 256 {
		major, ai := byte(ib>>5), byte(ib&0x1f)
		switch {
		case ai < 24:
			t.size[ib] = 1
		case ai <= 27:
			t.size[ib] = 1 + 1<<(ai-24)
		case ai == 31 && major >= MajorBytes && major <= MajorMap:
			t.starts[ib] = startsIndef
		case ib == byteBreak:
			t.starts[ib] = startsBreak
		default:
			t.starts[ib] = startsNothing
		}
		switch {
		case t.size[ib] == 0:
		case major == MajorUint || major == MajorNeg:
			t.scalar[ib] = t.size[ib]
		case major == MajorSimple && ai == 24:
			t.starts[ib] = startsSimple8
		case major == MajorSimple:
			t.scalar[ib] = t.size[ib]
		}
	}
	return t
}()

// argAt returns the argument of the definite head of size bytes at
// buf[off], all of which are in buf.
func argAt(buf []byte, off int, size uint8) uint64 {
	switch size {
	case 1:
		return uint64(buf[off] & 0x1f)
	case 2:
		return uint64(buf[off+1])
	case 3:
		return uint64(binary.BigEndian.Uint16(buf[off+1:]))
	case 5:
		return uint64(binary.BigEndian.Uint32(buf[off+1:]))
	}
	return binary.BigEndian.Uint64(buf[off+1:])
}

// wideArg returns the argument of the definite head at buf[off] whose
// initial byte ib has additional information 24-27, all in buf.
func wideArg(buf []byte, off int, ib byte) uint64 {
	switch ib & 0x1f {
	case 24:
		return uint64(buf[off+1])
	case 25:
		return uint64(binary.BigEndian.Uint16(buf[off+1:]))
	case 26:
		return uint64(binary.BigEndian.Uint32(buf[off+1:]))
	}
	return binary.BigEndian.Uint64(buf[off+1:])
}

// headLen returns the argument and size of the definite head at the start
// of b, all of which is in b.
func headLen(b []byte) (uint64, int) {
	s := heads.size[b[0]]
	return argAt(b, 0, s), int(s)
}

// argOfWidth returns the argument of w bytes (1, 2, 4 or 8) that follows
// the initial byte at buf[off], all of which is in buf.
func argOfWidth(buf []byte, off, w int) uint64 {
	switch w {
	case 1:
		return uint64(buf[off+1])
	case 2:
		return uint64(binary.BigEndian.Uint16(buf[off+1:]))
	case 4:
		return uint64(binary.BigEndian.Uint32(buf[off+1:]))
	}
	return binary.BigEndian.Uint64(buf[off+1:])
}
