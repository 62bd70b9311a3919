package genrt

// Indefinite-length arrays and maps are read with a count. A decoder that
// appends the elements of an indefinite-length array one by one to a
// slice grows it again and again, and each growth leaves the old backing
// array behind: five times the memory the value keeps, for large
// elements. ReadArrayHead and ReadMapHead therefore count the elements of
// an indefinite-length container first, with a quick pass over its bytes,
// and return the count as for a definite length, so that the caller
// allocates once; Leave then consumes the break. Over a stream the
// container is buffered first (as strict mode buffers an item), which the
// bytes that arrived justify. The pass records the counts of the
// indefinite-length containers nested in the one counted, so that each
// byte is counted over once, however deep they nest.

// indefCount is one counted indefinite-length container.
type indefCount struct {
	off int64 // offset of its head
	n   int   // elements, or pairs of a map
}

// countIndefinite returns the number of elements (pairs of a map) of the
// indefinite-length container whose one-byte head, at offset start, was
// just read, or false when it cannot tell (the bytes are not well-formed,
// too deep, or on a stream did not arrive): the caller then reads up to
// the break as usual, and meets the error there.
func (d *Decoder) countIndefinite(start int64) (int, bool) {
	s := d.slowPath()
	if s.countFailed {
		return 0, false
	}
	for s.countAt < len(s.counts) && s.counts[s.countAt].off < start {
		s.countAt++
	}
	if s.countAt == len(s.counts) {
		s.counts, s.countAt = s.counts[:0], 0
	} else if c := s.counts[s.countAt]; c.off == start {
		s.countAt++
		return c.n, c.n >= 0
	}
	end := len(d.buf)
	if d.st != nil {
		// Buffer the whole container, checked as Skip checks it.
		d.off--
		d.pinned, d.pin = true, d.off
		err := d.walk(0, d.depth)
		end = d.off
		d.off = d.pin + 1
		d.pinned = false
		if err != nil {
			s.countFailed = true
			return 0, false
		}
	}
	first := len(s.counts)
	if _, ok := d.countItem(d.off-1, end, d.depth); !ok {
		// The decode will fail there too. Counting the containers
		// nested in this one would pass over the same bytes again, for
		// each level: give up counting instead.
		s.counts = s.counts[:first]
		s.countFailed = true
		return 0, false
	}
	s.countAt = first + 1
	return s.counts[first].n, true
}

// countItem passes over the item at buf[pos:end] at the given depth and
// returns where it ends, recording the count of every indefinite-length
// array and map in it. ok is false for anything that is not well-formed
// within end, or nests deeper than MaxDepth.
func (d *Decoder) countItem(pos, end, depth int) (int, bool) {
	if pos >= end {
		return 0, false
	}
	ib := d.buf[pos]
	size, starts := heads.size[ib], heads.starts[ib]
	if starts == startsBreak || starts == startsNothing || int(size) > end-pos {
		return 0, false
	}
	major, h, indef := ib>>5, max(int(size), 1), size == 0
	var arg uint64
	if !indef {
		arg = argAt(d.buf, pos, size)
	}
	pos += h
	switch major {
	case MajorUint, MajorNeg:
		return pos, true
	case MajorSimple:
		// A break outside its container is not an item, nor is a simple
		// value below 32 in the two-byte form (head refuses it): the
		// decode meets it element by element, with the error head gives,
		// as over a stream.
		return pos, starts != startsSimple8 || arg >= 32
	case MajorBytes, MajorText:
		if indef {
			for pos < end && d.buf[pos] != byteBreak {
				var ok bool
				if d.buf[pos]>>5 != major || d.buf[pos]&0x1f == 31 {
					return 0, false
				}
				if pos, ok = d.countItem(pos, end, depth); !ok {
					return 0, false
				}
			}
			return pos + 1, pos < end
		}
		if arg > uint64(end-pos) {
			return 0, false
		}
		return pos + int(arg), true
	}
	if major == MajorTag {
		// A tag within a tag is a level, as the decoders count it.
		if pos >= end {
			return 0, false
		}
		if d.buf[pos]>>5 == MajorTag {
			if depth++; depth > d.opts.MaxDepth {
				return 0, false
			}
		}
		return d.countItem(pos, end, depth)
	}
	if depth >= d.opts.MaxDepth {
		return 0, false
	}
	per := 1
	if major == MajorMap {
		per = 2
	}
	if !indef {
		if arg > uint64(end-pos) {
			return 0, false
		}
		for i := 0; i < int(arg)*per; i++ {
			var ok bool
			if pos, ok = d.countItem(pos, end, depth+1); !ok {
				return 0, false
			}
		}
		return pos, true
	}
	s := d.slow
	at := len(s.counts)
	s.counts = append(s.counts, indefCount{off: d.base + int64(pos-h), n: -1})
	items := 0
	for pos < end && d.buf[pos] != byteBreak {
		var ok bool
		if pos, ok = d.countItem(pos, end, depth+1); !ok {
			return 0, false
		}
		items++
	}
	if pos >= end || items%per != 0 {
		return 0, false
	}
	s.counts[at].n = items / per
	return pos + 1, true
}
