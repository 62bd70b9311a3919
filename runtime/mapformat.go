package runtime

import (
	"encoding"
)

// SetMapHead rewrites the head of the map that starts at dst[start],
// written for more pairs than were then appended, to count n pairs. When
// the new head is shorter, the pairs move up to follow it.
func SetMapHead(dst []byte, start, n int) []byte {
	old := 1
	switch dst[start] & 0x1f {
	case 24:
		old = 2
	case 25:
		old = 3
	case 26:
		old = 5
	case 27:
		old = 9
	}
	var buf [9]byte
	head := AppendHead(buf[:0], MajorMap, uint64(n))
	copy(dst[start:], head)
	if gap := old - len(head); gap > 0 {
		copy(dst[start+len(head):], dst[start+old:])
		dst = dst[:len(dst)-gap]
	}
	return dst
}

// EmptyBinary reports whether m's MarshalBinary returns no bytes, as
// omitempty tests a type that fxamacker/cbor writes through it.
func EmptyBinary(m encoding.BinaryMarshaler) (bool, error) {
	b, err := m.MarshalBinary()
	return len(b) == 0, err
}
