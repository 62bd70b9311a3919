package runtime

import (
	"hash/maphash"
	"math"
	"sync"
)

// checker is walk with the checks of Valid (and of a strict decoder's
// check) over a slice, built as the skipper is, with the decoder's
// limits, but without recursion: the containers open around the item it
// reads are frames on a stack of its own (a slice), so a deep item grows
// no goroutine stack, and a level costs a frame of a few words. It finds
// duplicate map keys as walk does, by the prints of the keys
// (walk_keys.go), so its time is linear in the input however deeply keys
// nest; a key is printed only where the print is compared (the keys of a
// map of more than one pair) or is part of such a key. It accepts a
// subset of what walk accepts and reports -1 for anything else: a date
// (tag 0) that is not a definite text string in the common RFC 3339
// form, two keys of one map with one print (equal, or a collision), and
// every error. The caller then runs walk over the same item, which
// judges it and words the error; being rare, that costs nothing in the
// common case.
type checker struct {
	buf      []byte
	maxDepth int
	maxStr   uint64
	maxArr   uint64
	maxMap   uint64
	strict   bool         // heads must be the shortest, lengths definite
	tags     bool         // tags 0-3 must hold what RFC 8949 requires
	indef    bool         // an indefinite length was met
	stacks   *checkStacks // where the stacks of item went when they outgrew their rooms
}

// checkFrame is a container open in the checker's walk, or a tag in a
// key (whose print is its content's, mixed with its number).
type checkFrame struct {
	print uint64 // with want: the print of what was read so far
	left  uint32 // items left (keys and values of a map); indefinite: the most that may come
	count uint32 // with want: the items read
	mark  uint32 // a map whose keys are noted: where its keys' prints start
	depth uint16 // the depth of its items
	kind  uint8
	want  bool // its print is wanted (it is in a key)
}

// Kinds of frame.
const (
	frameArray = iota
	frameMap   // a map of one pair: its key's print is not noted
	frameKeys  // a map of more pairs: its keys' prints are noted and compared
	frameTag   // a tag in a key

	frameIndef = 4 // with frameArray or frameKeys: an indefinite length
)

// checkStacks holds a checker's stacks that outgrew the rooms on its
// caller's stack, for the next checker that needs them.
type checkStacks struct {
	frames []checkFrame
	prints []uint64
}

var checkPool = sync.Pool{New: func() any { return new(checkStacks) }}

// The largest stacks kept in the pool: enough for the deepest item
// MaxDepth allows (a frame a level, and one a tag in a key).
const (
	keptFrames = 2*maxDepthCap + 2
	keptPrints = 1 << 16
)

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
	ok, _ := d.checkedIndef(tags)
	return ok
}

// checkedIndef is checked, and reports also whether the item has an
// indefinite length in it.
func (d *Decoder) checkedIndef(tags bool) (ok, indef bool) {
	if d.r != nil || d.checks&^(checkUTF8|checkDups) != 0 ||
		len(d.buf) > math.MaxInt32 || d.opts.MaxDepth > maxDepthCap {
		return false, false
	}
	var frames [16]checkFrame
	var prints [32]uint64
	c := newChecker(d, tags)
	end := c.item(d.off, d.depth, frames[:0], prints[:0])
	if c.stacks != nil {
		c.release()
	}
	if end < 0 {
		return false, false
	}
	d.off = end
	return true, c.indef
}

// item checks the item at off, at depth (the containers open around it),
// and returns the offset after it, or -1. frames and prints are its
// stacks, empty: the containers open and the prints of the keys of the
// maps open. (They are not fields of c, so that their rooms on the
// caller's stack stay there.)
func (c *checker) item(off, depth int, frames []checkFrame, prints []uint64) int {
	buf := c.buf
	want := false  // the item at off is in a key: its print is wanted
	inTag := false // the item at off is the content of a tag
	strip := true  // with want: a tag 55799 at off is no part of the value
	var p uint64   // with want: the print of the item that ended at off
items:
	for {
		if off >= len(buf) {
			return -1
		}
		ib := buf[off]
		ai := ib & 0x1f
		arg := uint64(ai)
		off++
		if ai >= 24 {
			if ai > 27 {
				if ai != 31 || c.strict { // reserved, or no indefinite lengths
					return -1
				}
				switch ib >> 5 {
				case MajorBytes, MajorText:
					if off, p = c.chunks(off, ib>>5, want); off < 0 {
						return -1
					}
					c.indef = true
				case MajorArray, MajorMap:
					if depth >= c.maxDepth {
						return -1
					}
					c.indef = true
					f := checkFrame{print: printArray, kind: frameArray | frameIndef, depth: uint16(depth + 1), want: want}
					f.left = uint32(min(c.maxArr, uint64(len(buf))))
					if ib>>5 == MajorMap {
						f.print, f.kind, f.mark = printMap, frameKeys|frameIndef, uint32(len(prints))
						f.left = 2 * uint32(min(c.maxMap, uint64(len(buf))))
						want = true
					}
					if len(frames) == cap(frames) {
						frames = c.growFrames(frames)
					}
					frames = append(frames, f)
					depth++
					inTag, strip = false, true
					continue
				case MajorSimple: // a break: the end of the indefinite length open
					if inTag || len(frames) == 0 {
						return -1
					}
					f := &frames[len(frames)-1]
					if f.kind&frameIndef == 0 || f.kind == frameKeys|frameIndef && f.left&1 != 0 {
						return -1
					}
					if f.kind == frameKeys|frameIndef {
						if prints = c.compare(prints, f.mark); prints == nil {
							return -1
						}
					}
					p = mixPrint(f.print, uint64(f.count))
					frames = frames[:len(frames)-1]
				default: // an indefinite integer or tag
					return -1
				}
				goto ended
			}
			w := 1 << (ai - 24)
			if len(buf)-off < w {
				return -1
			}
			arg = argOfWidth(buf, off-1, w)
			off += w
			if ib>>5 == MajorSimple {
				if ai == 24 && arg < 32 {
					return -1
				}
			} else if c.strict && SizeHead(arg) != 1+w {
				return -1
			}
		}
		switch ib >> 5 {
		case MajorBytes, MajorText:
			if arg > c.maxStr || arg > uint64(len(buf)-off) {
				return -1
			}
			end := off + int(arg)
			if ib>>5 == MajorText && !validUTF8(buf[off:end]) {
				return -1
			}
			if want {
				p = stringPrintOf(ib>>5, buf[off:end])
			}
			off = end
		case MajorArray:
			if depth >= c.maxDepth || arg > c.maxArr || arg > uint64(len(buf)-off) {
				return -1
			}
			if arg == 0 {
				p = mixPrint(printArray, 0)
				break
			}
			if len(frames) == cap(frames) {
				frames = c.growFrames(frames)
			}
			frames = append(frames, checkFrame{print: printArray, left: uint32(arg), kind: frameArray, depth: uint16(depth + 1), want: want})
			depth++
			inTag, strip = false, true
			continue
		case MajorMap:
			if depth >= c.maxDepth || arg > c.maxMap || arg > uint64(len(buf)-off)/2 {
				return -1
			}
			if arg == 0 {
				p = mixPrint(printMap, 0)
				break
			}
			if len(frames) == cap(frames) {
				frames = c.growFrames(frames)
			}
			f := checkFrame{print: printMap, left: 2 * uint32(arg), kind: frameMap, depth: uint16(depth + 1), want: want}
			if arg > 1 {
				// Keys to compare: each is printed, and its print noted.
				f.kind, f.mark = frameKeys, uint32(len(prints))
				want = true
			}
			frames = append(frames, f)
			depth++
			inTag, strip = false, true
			continue
		case MajorTag:
			if off >= len(buf) {
				return -1
			}
			b := buf[off]
			if c.tags && arg <= 3 {
				if arg == 0 {
					if !c.date(off) {
						return -1
					}
				} else if !tagContentOK(arg, b) {
					return -1
				}
			}
			if b>>5 == MajorTag {
				// A tag within a tag is a level, as in walk.
				if depth+1 > c.maxDepth {
					return -1
				}
				depth++
			}
			if want && (arg != TagSelfDescribed || !strip) {
				if len(frames) == cap(frames) {
					frames = c.growFrames(frames)
				}
				frames = append(frames, checkFrame{print: mixPrint(printTag, arg), kind: frameTag, want: true})
				strip = false
			}
			inTag = true
			continue
		default: // integers, simple values, floats
			if want {
				p = headPrint(ib, arg)
			}
		}
	ended:
		// An item ended at off, whose print (with want) is p: it is the
		// next item of the container open, which may end with it, and so
		// on out.
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			switch f.kind &^ frameIndef {
			case frameArray:
				if f.want {
					f.print = mixPrint(f.print, p)
					f.count++
				}
				if f.left--; f.left > 0 {
					depth, want = int(f.depth), f.want
					inTag, strip = false, true
					continue items
				}
			case frameMap, frameKeys:
				if f.want {
					f.print = mixPrint(f.print, p)
					f.count++
				}
				if f.left--; f.left&1 != 0 { // a key: its value follows
					if f.kind != frameMap {
						if len(prints) == cap(prints) {
							prints = c.growPrints(prints)
						}
						prints = append(prints, p)
					}
					depth, want = int(f.depth), f.want
					inTag, strip = false, true
					continue items
				}
				if f.left > 0 { // a value: the next key follows
					depth, want = int(f.depth), true
					inTag, strip = false, true
					continue items
				}
			default: // a tag in a key: its content ended
				p = mixPrint(f.print, p)
				frames = frames[:len(frames)-1]
				continue
			}
			// The container has had the most items it may have.
			if f.kind&frameIndef != 0 {
				if off >= len(buf) || buf[off] != byteBreak {
					return -1
				}
				off++
			}
			if f.kind&^frameIndef == frameKeys {
				if prints = c.compare(prints, f.mark); prints == nil {
					return -1
				}
			}
			p = mixPrint(f.print, uint64(f.count))
			frames = frames[:len(frames)-1]
		}
		return off
	}
}

// compare compares the prints of the keys of a map that ended, those
// from mark on, and drops them; it returns nil if two are equal.
func (c *checker) compare(prints []uint64, mark uint32) []uint64 {
	if !distinct(prints[mark:]) {
		return nil
	}
	return prints[:mark]
}

// chunks checks the chunks of an indefinite-length string (major) after
// its initial byte, ending at off, and returns the offset after its break
// and, with want, its print: that of the definite string of its bytes.
func (c *checker) chunks(off int, major byte, want bool) (int, uint64) {
	buf := c.buf
	total := uint64(0)
	var h maphash.Hash
	if want {
		h.SetSeed(printSeed)
	}
	for {
		if off >= len(buf) {
			return -1, 0
		}
		cb := buf[off]
		if cb == byteBreak {
			if !want {
				return off + 1, 0
			}
			return off + 1, stringPrint(major, total, h.Sum64())
		}
		// A chunk: a definite string of the same major type.
		hs := heads.size[cb]
		if cb>>5 != major || hs == 0 || int(hs) > len(buf)-off {
			return -1, 0
		}
		arg := argAt(buf, off, hs)
		off += int(hs)
		total += arg
		if arg > c.maxStr || total > c.maxStr || arg > uint64(len(buf)-off) {
			return -1, 0
		}
		chunk := buf[off : off+int(arg)]
		if major == MajorText && !validUTF8(chunk) {
			return -1, 0
		}
		if want {
			h.Write(chunk)
		}
		off += int(arg)
	}
}

// date reports whether the content of a tag 0 at off is a definite text
// string that time.Parse's fast path reads as RFC 3339 (walk, which asks
// time.Parse itself, judges any other).
func (c *checker) date(off int) bool {
	buf := c.buf
	ib := buf[off]
	if ib>>5 != MajorText {
		return false
	}
	hs := heads.size[ib]
	if hs == 0 || int(hs) > len(buf)-off {
		return false
	}
	n := argAt(buf, off, hs)
	if n > uint64(len(buf)-off-int(hs)) {
		return false
	}
	_, ok := scanRFC3339(buf[off+int(hs) : off+int(hs)+int(n)])
	return ok
}

// growFrames returns frames, full, moved to a stack with room for as many
// again (from the pool, or new).
//
//go:noinline
func (c *checker) growFrames(frames []checkFrame) []checkFrame {
	s := c.pooled()
	if cap(s.frames) <= len(frames) {
		s.frames = make([]checkFrame, 0, 2*len(frames))
	}
	s.frames = append(s.frames[:0], frames...)
	return s.frames
}

// growPrints returns prints, full, moved to a stack with room for as
// many again.
//
//go:noinline
func (c *checker) growPrints(prints []uint64) []uint64 {
	s := c.pooled()
	if cap(s.prints) <= len(prints) {
		s.prints = make([]uint64, 0, 2*len(prints))
	}
	s.prints = append(s.prints[:0], prints...)
	return s.prints
}

func (c *checker) pooled() *checkStacks {
	if c.stacks == nil {
		c.stacks = checkPool.Get().(*checkStacks)
	}
	return c.stacks
}

// release puts the stacks back in the pool (those of up to keptFrames
// frames and keptPrints prints).
func (c *checker) release() {
	s := c.stacks
	c.stacks = nil
	if cap(s.frames) > keptFrames {
		s.frames = nil
	}
	if cap(s.prints) > keptPrints {
		s.prints = nil
	}
	checkPool.Put(s)
}

// stringPrintOf is the print of the string (major) whose content is b.
// It is not inlined, so that the loop of item stays small.
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
