package genrt

import "encoding/binary"

// sliceSkipper is Skip over a slice: a loop over heads that moves an
// offset, with overflow-safe bounds checks, recursion only into arrays,
// maps and tags within tags, and the limits of the decoder's options. It
// accepts exactly what walk accepts and reports failure (-1) for
// everything else; Skip then runs walk over the same item, which finds
// and words the error. Errors being rare, that costs nothing in the
// common case.
type sliceSkipper struct {
	buf      []byte
	maxDepth int
	maxStr   uint64
	maxArr   uint64
	maxMap   uint64
}

func newSliceSkipper(d *Decoder) sliceSkipper {
	return sliceSkipper{
		buf:      d.buf,
		maxDepth: d.opts.MaxDepth,
		maxStr:   uint64(d.opts.MaxStringLength),
		maxArr:   uint64(d.opts.MaxArrayElements),
		maxMap:   uint64(d.opts.MaxMapPairs),
	}
}

// items skips n items at off, each at depth (the containers open around
// it), and returns the offset after them, or -1.
func (s *sliceSkipper) items(off int, n uint64, depth int) int {
	buf := s.buf
	for ; n > 0; n-- {
		if off >= len(buf) {
			return -1
		}
		ib := buf[off]
		ai := ib & 0x1f
		arg := uint64(ai)
		off++
		if ai >= 24 {
			switch ai {
			case 24:
				if off >= len(buf) {
					return -1
				}
				arg = uint64(buf[off])
				off++
			case 25:
				if len(buf)-off < 2 {
					return -1
				}
				arg = uint64(binary.BigEndian.Uint16(buf[off:]))
				off += 2
			case 26:
				if len(buf)-off < 4 {
					return -1
				}
				arg = uint64(binary.BigEndian.Uint32(buf[off:]))
				off += 4
			case 27:
				if len(buf)-off < 8 {
					return -1
				}
				arg = binary.BigEndian.Uint64(buf[off:])
				off += 8
			case 31:
				if off = s.indefinite(off, ib, depth); off < 0 {
					return -1
				}
				continue
			default: // reserved
				return -1
			}
		}
		switch ib >> 5 {
		case MajorUint, MajorNeg:
		case MajorBytes, MajorText:
			if arg > s.maxStr || arg > uint64(len(buf)-off) {
				return -1
			}
			off += int(arg)
		case MajorArray:
			if depth >= s.maxDepth || arg > s.maxArr || arg > uint64(len(buf)-off) {
				return -1
			}
			if arg > 0 {
				if off = s.items(off, arg, depth+1); off < 0 {
					return -1
				}
			}
		case MajorMap:
			if depth >= s.maxDepth || arg > s.maxMap || 2*arg > uint64(len(buf)-off) {
				return -1
			}
			if arg > 0 {
				if off = s.items(off, 2*arg, depth+1); off < 0 {
					return -1
				}
			}
		case MajorTag:
			// The content is the next item at this depth, unless it is a
			// tag: a tag within a tag counts as a level, as in walk.
			if off >= len(buf) {
				return -1
			}
			if buf[off]>>5 == MajorTag {
				if depth+1 > s.maxDepth {
					return -1
				}
				if off = s.items(off, 1, depth+1); off < 0 {
					return -1
				}
				continue
			}
			n++
		default: // major type 7
			if ai == 24 && arg < 32 {
				return -1
			}
		}
	}
	return off
}

// indefinite skips the rest of an indefinite-length item whose initial
// byte ib was just read, ending at off.
func (s *sliceSkipper) indefinite(off int, ib byte, depth int) int {
	buf := s.buf
	major := ib >> 5
	switch major {
	case MajorBytes, MajorText:
		total := uint64(0)
		for {
			if off >= len(buf) {
				return -1
			}
			c := buf[off]
			if c == byteBreak {
				return off + 1
			}
			// A chunk: a definite string of the same major type.
			h := int(heads.size[c])
			if c>>5 != major || h == 0 || h > len(buf)-off {
				return -1
			}
			arg := argAt(buf, off, heads.size[c])
			off += h
			total += arg
			if arg > s.maxStr || total > s.maxStr || arg > uint64(len(buf)-off) {
				return -1
			}
			off += int(arg)
		}
	case MajorArray, MajorMap:
		if depth >= s.maxDepth {
			return -1
		}
		limit, per := s.maxArr, uint64(1)
		if major == MajorMap {
			limit, per = s.maxMap, 2
		}
		for i := uint64(0); ; i++ {
			if off >= len(buf) {
				return -1
			}
			if buf[off] == byteBreak {
				return off + 1
			}
			if i >= limit {
				return -1
			}
			if off = s.items(off, per, depth+1); off < 0 {
				return -1
			}
		}
	}
	return -1 // indefinite integer, tag or break
}
