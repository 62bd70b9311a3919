package genrt

import (
	"hash/maphash"
	"sync"
)

// checker is walk with the checks of Valid (and of a strict decoder's
// check) over a slice, built as the skipper is: a loop over heads that
// recurses only into arrays, maps and tags, with the decoder's limits.
// It finds duplicate map keys as walk does, by the prints of the keys
// (walk_keys.go), so its time is linear in the input however deeply
// keys nest. It accepts a subset of what walk accepts and reports -1 for
// anything else: indefinite lengths, tag 0 (its content is a date to
// parse), tag 55799 inside a key, two keys of one map with one print
// (equal, or a collision), and every error. The caller then runs walk
// over the same item, which judges it and words the error; being rare,
// that costs nothing in the common case.
type checker struct {
	buf      []byte
	maxDepth int
	maxStr   uint64
	maxArr   uint64
	maxMap   uint64
	strict   bool     // heads must be the shortest for their argument
	tags     bool     // tags 1-3 must hold what RFC 8949 requires (tag 0: -1)
	prints   []uint64 // the prints of the keys of the maps open, a stack
}

// newChecker returns the checker of d's options; tags says whether it
// checks the content of tags 0-3.
func newChecker(d *Decoder, tags bool) checker {
	return checker{
		buf:      d.buf,
		maxDepth: d.opts.MaxDepth,
		maxStr:   uint64(d.opts.MaxStringLength),
		maxArr:   uint64(d.opts.MaxArrayElements),
		maxMap:   uint64(d.opts.MaxMapPairs),
		strict:   d.opts.Strict,
		tags:     tags,
	}
}

// checked runs the checker over the item at d's read position, at d's
// depth, and moves past it if the checker accepts it. It reports whether
// it did; if not, the caller walks the item. Over a stream, and under
// options that forbid what the checker does not look for (indefinite
// lengths, tags, NaN, infinity: d.checks), it does nothing.
func (d *Decoder) checked(tags bool) bool {
	if d.r != nil || d.checks&^(checkUTF8|checkDups) != 0 {
		return false
	}
	var room [32]uint64
	c := newChecker(d, tags)
	c.prints = room[:0]
	if end, _ := c.item(d.off, d.depth, false); end >= 0 {
		d.off = end
		return true
	}
	return false
}

// item checks the item at off, at depth (the containers open around it),
// and returns the offset after it, or -1; with want, also its print.
func (c *checker) item(off, depth int, want bool) (int, uint64) {
	buf := c.buf
	if off >= len(buf) {
		return -1, 0
	}
	ib := buf[off]
	ai := ib & 0x1f
	arg := uint64(ai)
	off++
	if ai >= 24 {
		if ai > 27 { // reserved, indefinite length, break
			return -1, 0
		}
		w := 1 << (ai - 24)
		if len(buf)-off < w {
			return -1, 0
		}
		arg = argOfWidth(buf, off-1, w)
		off += w
		if ib>>5 == MajorSimple {
			if ai == 24 && arg < 32 {
				return -1, 0
			}
		} else if c.strict && SizeHead(arg) != 1+w {
			return -1, 0
		}
	}
	switch ib >> 5 {
	case MajorBytes, MajorText:
		if arg > c.maxStr || arg > uint64(len(buf)-off) {
			return -1, 0
		}
		end := off + int(arg)
		if ib>>5 == MajorText && !validUTF8(buf[off:end]) {
			return -1, 0
		}
		if want {
			return end, stringPrintOf(ib>>5, buf[off:end])
		}
		return end, 0
	case MajorArray:
		if depth >= c.maxDepth || arg > c.maxArr || arg > uint64(len(buf)-off) {
			return -1, 0
		}
		p := printArray
		for i := uint64(0); i < arg; i++ {
			if !want && off < len(buf) && isIntByte(buf[off]) {
				off++
				continue
			}
			var q uint64
			if off, q = c.item(off, depth+1, want); off < 0 {
				return -1, 0
			}
			p = mixPrint(p, q)
		}
		return off, mixPrint(p, arg)
	case MajorMap:
		if depth >= c.maxDepth || arg > c.maxMap || arg > uint64(len(buf)-off)/2 {
			return -1, 0
		}
		return c.pairs(off, int(arg), depth+1, want)
	case MajorTag:
		return c.tag(off, arg, depth, want)
	}
	// Integers, simple values, floats.
	if want {
		return off, headPrint(ib, arg)
	}
	return off, 0
}

// pairs checks the n pairs of a map at off, whose keys and values are at
// depth, and that no two keys have one print.
func (c *checker) pairs(off, n, depth int, want bool) (int, uint64) {
	buf := c.buf
	if n == 1 {
		// One key has no other to repeat: no note of its print.
		var k, v uint64
		if off, k = c.item(off, depth, true); off < 0 {
			return -1, 0
		}
		if !want && off < len(buf) && isIntByte(buf[off]) {
			off++
		} else if off, v = c.item(off, depth, want); off < 0 {
			return -1, 0
		}
		return off, mixPrint(mixPrint(mixPrint(printMap, k), v), 1)
	}
	mark := len(c.prints)
	p := printMap
	for range n {
		var k, v uint64
		if off, k = c.item(off, depth, true); off < 0 {
			return -1, 0
		}
		c.push(k)
		if !want && off < len(buf) && isIntByte(buf[off]) {
			off++
		} else if off, v = c.item(off, depth, want); off < 0 {
			return -1, 0
		}
		p = mixPrint(mixPrint(p, k), v)
	}
	if !distinct(c.prints[mark:]) {
		return -1, 0
	}
	c.prints = c.prints[:mark]
	return off, mixPrint(p, uint64(n))
}

// push notes the print of a key. It is not inlined, so that the frame
// of pairs, which recurses, stays small.
//
//go:noinline
func (c *checker) push(k uint64) { c.prints = append(c.prints, k) }

// stringPrintOf is the print of the string (major) whose content is b.
// It is not inlined, so that the frame of item, which recurses, stays
// small.
//
//go:noinline
func stringPrintOf(major byte, b []byte) uint64 {
	return stringPrint(major, uint64(len(b)), maphash.Bytes(printSeed, b))
}

// distinct reports whether no two of prints are equal; it may reorder
// them. Up to 8 prints are compared pairwise, more go into a table of
// open addressing (the prints are keyed hashes: their top bits are the
// slot), in time linear in their number.
func distinct(prints []uint64) bool {
	if len(prints) <= 8 {
		for i := 1; i < len(prints); i++ {
			for j := range i {
				if prints[i] == prints[j] {
					return false
				}
			}
		}
		return true
	}
	bits := uint(4)
	for 1<<bits < 2*len(prints) {
		bits++
	}
	var room [64]uint64
	var slots []uint64
	if 1<<bits <= len(room) {
		slots = room[:1<<bits]
	} else {
		t := printTables.Get().(*[]uint64)
		if cap(*t) < 1<<bits {
			*t = make([]uint64, 1<<bits)
		}
		slots = (*t)[:1<<bits]
		clear(slots)
		if cap(*t) <= 1<<16 { // a larger one is not kept
			defer printTables.Put(t)
		}
	}
	mask := uint64(len(slots) - 1)
	zero := false // 0 marks an empty slot: a print of 0 is noted apart
	for _, p := range prints {
		if p == 0 {
			if zero {
				return false
			}
			zero = true
			continue
		}
		for h := p >> (64 - bits); ; h = (h + 1) & mask {
			if slots[h] == 0 {
				slots[h] = p
				break
			}
			if slots[h] == p {
				return false
			}
		}
	}
	return true
}

// printTables holds the tables of distinct for maps of more than 32 pairs
// (those of up to 1<<16 slots are kept for the next).
var printTables = sync.Pool{New: func() any { return new([]uint64) }}

// tag checks the content of a tag numbered num at off, as walk does: a
// tag within a tag is a level, tags 1-3 hold what they must (tag 0, a
// date to parse, and tag 55799 in a key, which is no part of its value,
// are walk's).
func (c *checker) tag(off int, num uint64, depth int, want bool) (int, uint64) {
	if off >= len(c.buf) {
		return -1, 0
	}
	b := c.buf[off]
	if c.tags && num <= 3 && (num == 0 || !tagContentOK(num, b)) || want && num == TagSelfDescribed {
		return -1, 0
	}
	if b>>5 == MajorTag {
		if depth+1 > c.maxDepth {
			return -1, 0
		}
		depth++
	}
	off, q := c.item(off, depth, want)
	if off < 0 {
		return -1, 0
	}
	return off, mixPrint(mixPrint(printTag, num), q)
}
