package runtime

import "encoding/binary"

// The head table: what every walker knows of an initial byte before it
// reads on. walk (walk.go) is the specification; the fast walkers (Skip
// over a slice and over a stream, Valid, the indefinite-length counter,
// canonical) decode heads through this table, so that a head's width and
// what the byte can start are written once.

// headInfo describes one initial byte.
type headInfo struct {
	// size is the head's bytes (1, 2, 3, 5 or 9) for a definite head;
	// 0 for an indefinite length, a break and the reserved additional
	// information 28-30.
	size uint8
	// scalar is the bytes of the whole item when the head is all of it
	// and the item is valid whatever the argument (integers, floats, the
	// simple values of one byte); 0 otherwise.
	scalar uint8
	// starts is what the byte can start.
	starts headStart
}

// headStart is what an initial byte can start.
type headStart uint8

const (
	startsItem     headStart = iota // a definite head
	startsIndef                     // an indefinite-length string, array or map
	startsBreak                     // a break: only the end of an indefinite length
	startsNothing                   // reserved additional information, or an indefinite integer or tag
	startsSimple8                   // f8: a simple value, valid from 32 on
)

// heads is the head table.
var heads = func() (t [256]headInfo) {
	for ib := range 256 {
		major, ai := byte(ib>>5), byte(ib&0x1f)
		h := &t[ib]
		switch {
		case ai < 24:
			h.size = 1
		case ai <= 27:
			h.size = 1 + 1<<(ai-24)
		case ai == 31 && major >= MajorBytes && major <= MajorMap:
			h.starts = startsIndef
		case ib == byteBreak:
			h.starts = startsBreak
		default:
			h.starts = startsNothing
		}
		switch {
		case h.size == 0:
		case major == MajorUint || major == MajorNeg:
			h.scalar = h.size
		case major == MajorSimple && ai == 24:
			h.starts = startsSimple8
		case major == MajorSimple:
			h.scalar = h.size
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

// headLen returns the argument and size of the definite head at the start
// of b, all of which is in b.
func headLen(b []byte) (uint64, int) {
	s := heads[b[0]].size
	return argAt(b, 0, s), int(s)
}
