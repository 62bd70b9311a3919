package runtime

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
		h := heads[ib]
		if int(h.size) > len(buf)-off {
			return -1
		}
		if h.scalar != 0 {
			off += int(h.scalar)
			continue
		}
		if h.size == 0 {
			if h.starts != startsIndef {
				return -1
			}
			if off = s.indefinite(off+1, ib, depth); off < 0 {
				return -1
			}
			continue
		}
		arg := argAt(buf, off, h.size)
		off += int(h.size)
		switch ib >> 5 {
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
		default: // f8: a simple value in two bytes
			if arg < 32 {
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
			h := int(heads[c].size)
			if c>>5 != major || h == 0 || h > len(buf)-off {
				return -1
			}
			arg := argAt(buf, off, heads[c].size)
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
