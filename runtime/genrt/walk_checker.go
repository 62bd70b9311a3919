package genrt

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
	"sync"
	"unicode/utf8"
)

// checker is walk with the checks of Valid (and of a strict decoder's
// check) over a slice, built as the skipper is, with the decoder's
// limits, but without recursion: the containers open around the item it
// reads are frames on a stack of its own, so a deep item grows no
// goroutine stack, and a level costs a frame of a few words. It finds
// duplicate map keys as walk does, by the prints of the keys
// (walk_keys.go), so its time is linear in the input however deeply keys
// nest. Keys are printed only where prints are compared: the keys of a
// map of more than one pair (or of an indefinite length), and what they
// hold. Two loops do the work: item, which prints nothing, and printed,
// which prints everything, for such a key. The checker accepts a subset
// of what walk accepts and reports -1 for anything else: a date (tag 0)
// that is not a definite text string in the common RFC 3339 form, two
// keys of one map with one print (equal, or a collision), and every
// error. The caller then runs walk over the same item, which judges it
// and words the error; being rare, that costs nothing in the common case.
type checker struct {
	buf      []byte
	maxDepth int
	maxStr   uint64
	maxArr   uint64
	maxMap   uint64
	strict   bool         // heads must be the shortest, lengths definite
	tags     bool         // tags 0-3 must hold what RFC 8949 requires
	indef    bool         // an indefinite length was met
	frames   []checkFrame // the containers open, a stack (its length, the number open)
	prints   []uint64     // the prints of the keys of the maps open, a stack
	// stacks is where frames and prints went when they outgrew their
	// rooms on the caller's stack (through a pointer to the caller's
	// variable, so that the rooms stay on its stack).
	stacks **checkStacks
}

// checkFrame is a container open in the checker's walk, or, in printed,
// a tag (whose print is its content's, mixed with its number).
type checkFrame struct {
	print uint64 // in printed: the print of what was read so far
	left  uint32 // items left (keys and values of a map); indefinite: the most that may come
	count uint32 // in printed: the items read
	mark  uint32 // a map whose keys are compared: where its keys' prints start
	depth uint16 // the depth of its items
	kind  uint8
}

// Kinds of frame.
const (
	frameArray = iota
	frameMap   // a map of one pair: its key is not compared
	frameKeys  // a map of more pairs: its keys' prints are noted and compared
	frameTag   // a tag, in printed

	frameIndef = 4 // with frameArray or frameKeys: an indefinite length
	// With frameKeys, in item: the keys so far came in increasing order
	// of their bytes, each in the one form of its value (sortedKey), so
	// they are all different; the map's entries on the prints stack are
	// where they are in the input (start<<32 | end), not prints.
	frameSorted = 8
)

// checkStacks holds a checker's stacks that outgrew the rooms on its
// caller's stack, for the next checker that needs them.
type checkStacks struct {
	frames []checkFrame
	prints []uint64
}

var checkPool = sync.Pool{New: func() any { return new(checkStacks) }}

// The largest stacks kept in the pool (1.5 MB of frames: a chain of
// 30,000 levels of a map and an array each; 512 KB of prints).
const (
	keptFrames = 1 << 16
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
	if d.st != nil || d.checks&^(checkUTF8|checkDups) != 0 ||
		len(d.buf) > math.MaxInt32 || d.opts.MaxDepth > maxDepthCap {
		return false, false
	}
	var frames [16]checkFrame
	var prints [32]uint64
	var stacks *checkStacks
	c := newChecker(d, tags)
	c.frames, c.prints, c.stacks = frames[:0], prints[:0], &stacks
	end := c.item(d.off, d.depth)
	if stacks != nil {
		release(stacks)
	}
	if end < 0 {
		return false, false
	}
	d.off = end
	return true, c.indef
}

// item checks the item at off, at depth (the containers open around it),
// and returns the offset after it, or -1. The keys it compares it hands
// to printed.
func (c *checker) item(off, depth int) int {
	buf := c.buf
	inTag := false // the item at off is the content of a tag
items:
	for {
		if off >= len(buf) {
			return -1
		}
		ib := buf[off]
		off++
		arg := uint64(ib & 0x1f)
		if arg >= 24 {
			if arg > 27 {
				if arg != 31 || c.strict { // reserved, or no indefinite lengths
					return -1
				}
				switch ib >> 5 {
				case MajorBytes, MajorText:
					if off, _ = c.chunks(off, ib>>5, false); off < 0 {
						return -1
					}
					c.indef = true
				case MajorArray:
					if depth >= c.maxDepth {
						return -1
					}
					c.indef = true
					c.push(checkFrame{left: uint32(min(c.maxArr, uint64(len(buf)))), kind: frameArray | frameIndef, depth: uint16(depth + 1)})
					depth++
					inTag = false
					continue
				case MajorMap:
					if depth >= c.maxDepth {
						return -1
					}
					c.indef = true
					// One more item than it has: the first key is read
					// as the ones after a value are.
					c.push(checkFrame{left: 2*uint32(min(c.maxMap, uint64(len(buf)))) + 1, kind: frameKeys | frameIndef | frameSorted,
						mark: uint32(len(c.prints)), depth: uint16(depth + 1)})
				case MajorSimple: // a break: the end of the indefinite array open
					n := len(c.frames)
					if inTag || n == 0 || c.frames[n-1].kind != frameArray|frameIndef {
						return -1
					}
					c.frames = c.frames[:n-1]
				default: // an indefinite integer or tag
					return -1
				}
				goto ended
			}
			w := 1 << (arg - 24)
			if len(buf)-off < w {
				return -1
			}
			arg = argOfWidth(buf, off-1, w)
			off += w
			if ib>>5 == MajorSimple {
				if ib == 0xf8 && arg < 32 {
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
			if ib>>5 == MajorText && !textOK(buf[off:end]) {
				return -1
			}
			off = end
		case MajorArray:
			if depth >= c.maxDepth || arg > c.maxArr || arg > uint64(len(buf)-off) {
				return -1
			}
			if arg == 0 {
				break
			}
			n := len(c.frames)
			if n == cap(c.frames) {
				c.growFrames()
			}
			c.frames = c.frames[:n+1]
			f := &c.frames[n]
			f.left, f.kind, f.depth = uint32(arg), frameArray, uint16(depth+1)
			depth++
			inTag = false
			continue
		case MajorMap:
			if depth >= c.maxDepth || arg > c.maxMap || arg > uint64(len(buf)-off)/2 {
				return -1
			}
			if arg == 0 {
				break
			}
			if arg == 1 {
				n := len(c.frames)
				if n == cap(c.frames) {
					c.growFrames()
				}
				c.frames = c.frames[:n+1]
				f := &c.frames[n]
				f.left, f.kind, f.depth = 2, frameMap, uint16(depth+1)
				depth++
				inTag = false
				continue
			}
			// Keys to compare; one more item than it has: the first
			// key is read as the ones after a value are.
			c.push(checkFrame{left: 2*uint32(arg) + 1, kind: frameKeys | frameSorted, mark: uint32(len(c.prints)), depth: uint16(depth + 1)})
		case MajorTag:
			if off >= len(buf) {
				return -1
			}
			if c.tags && arg <= 3 && !c.tagContent(off, arg) {
				return -1
			}
			if buf[off]>>5 == MajorTag {
				// A tag within a tag is a level, as in walk.
				if depth+1 > c.maxDepth {
					return -1
				}
				depth++
			}
			inTag = true
			continue
		}
		// Integers, simple values, floats: the head is the item.
	ended:
		// An item ended at off: it is the next item of the container
		// open, which may end with it, and so on out.
		for {
			n := len(c.frames)
			if n == 0 {
				return off
			}
			f := &c.frames[n-1]
			if f.left--; f.left != 0 {
				if f.kind&^(frameIndef|frameSorted) == frameKeys && f.left&1 == 0 {
					// A key follows (or the break of an indefinite
					// length). The common pairs are read here, up to a
					// key or a value they do not read or to the end of
					// the map: while the keys are in order, each
					// compared with the one before; else the common keys
					// printed.
					var st uint8
					if f.kind&frameSorted != 0 {
						off, st = c.sortedPairs(f, off)
					} else {
						off, st = c.printedPairs(f, off)
					}
					if st == pairsAtValue {
						goto value
					} else if st == pairsEnded {
						continue
					}
					if f.kind&frameIndef != 0 && off < len(buf) && buf[off] == byteBreak {
						off++
						if !c.keysEnd(f) {
							return -1
						}
						c.frames = c.frames[:n-1]
						continue
					}
					if f.kind&frameSorted != 0 {
						// A key out of order (or not in the one form of
						// its value): the keys so far are printed, and
						// the map's are compared by their prints.
						if !c.unsort(f.mark, int(f.depth)) {
							return -1
						}
						f = &c.frames[n-1] // printed may have moved the frames
						f.kind &^= frameSorted
					}
					// The key, printed and its print noted: an integer
					// or a definite string, as most keys are, here.
					end, p := -1, uint64(0)
					if off < len(buf) && buf[off] < 0x80 && buf[off]&0x1f < 28 {
						end, p = c.scalar(off)
					}
					if end < 0 {
						if end, p = c.printed(off, int(f.depth)); end < 0 {
							return -1
						}
					}
					off = end
					k := len(c.prints)
					if k == cap(c.prints) {
						c.growPrints()
					}
					c.prints = c.prints[:k+1]
					c.prints[k] = p
					f = &c.frames[n-1] // printed may have moved the frames
					f.left--
				}
			value:
				// The next item; an integer of one byte is read here.
				if off < len(buf) && isIntByte(buf[off]) {
					off++
					continue
				}
				depth = int(f.depth)
				inTag = false
				continue items
			}
			// The container has had the most items it may have.
			if f.kind&frameIndef != 0 {
				if off >= len(buf) || buf[off] != byteBreak {
					return -1
				}
				off++
			}
			if f.kind&^(frameIndef|frameSorted) == frameKeys && !c.keysEnd(f) {
				return -1
			}
			c.frames = c.frames[:n-1]
		}
	}
}

// keysEnd ends the keys of the map f, in item: it compares their prints
// (compare), unless they came in order, and drops them.
func (c *checker) keysEnd(f *checkFrame) bool {
	if f.kind&frameSorted != 0 {
		c.prints = c.prints[:f.mark]
		return true
	}
	return c.compare(f.mark)
}

// sortedKey checks the map key at off, at depth, if its bytes are the
// one form of its value: an integer or a definite string with the
// shortest head, or an array of up to 23 of them (so that two keys are
// equal if and only if their bytes are), and returns the offset after
// it; -1 for any other key, and for every fault (printed judges them).
func (c *checker) sortedKey(off, depth int) int {
	buf := c.buf
	if off >= len(buf) {
		return -1
	}
	n := 1 // the items to read: the key, or its elements
	if ib := buf[off]; ib-0x80 < 24 {
		n = int(ib - 0x80)
		if depth >= c.maxDepth || uint64(n) > c.maxArr {
			return -1
		}
		off++
	}
	for ; n > 0; n-- {
		// An integer or a definite string with the shortest head.
		if off >= len(buf) {
			return -1
		}
		ib := buf[off]
		h := int(heads.size[ib])
		if ib >= 0x80 || h == 0 || len(buf)-off < h {
			return -1
		}
		arg := uint64(ib & 0x1f)
		if h > 1 {
			if arg = wideArg(buf, off, ib); arg < shortestArg[h] {
				return -1
			}
		}
		off += h
		if ib < 0x40 {
			continue
		}
		if arg > c.maxStr || arg > uint64(len(buf)-off) {
			return -1
		}
		end := off + int(arg)
		if ib >= 0x60 && !textOK(buf[off:end]) {
			return -1
		}
		off = end
	}
	return off
}

// shortestArg[h] is the least argument whose shortest head has h bytes.
var shortestArg = [10]uint64{2: 24, 3: 1 << 8, 5: 1 << 16, 9: 1 << 32}

// How sortedPairs stopped: at a key it does not take (or a break), at
// a value it does not read, after the last value of the map.
const (
	pairsAtKey uint8 = iota
	pairsAtValue
	pairsEnded
)

// sortedPairs reads the pairs at off of the map f, in item, whose keys
// so far came in increasing order of their bytes (frameSorted; they start
// at f.mark on the prints stack), while each key is in the one form of
// its value (sortedKey) and comes after the key before; it notes where
// each key is. A value of one byte (an integer, a simple value) it reads
// too; at any other it stops, after its key. It returns the offset where
// it stopped and how; f.left counts what it read (at pairsEnded, all but
// the last value, which the caller ends as an item). Keys of up to 16
// bytes compare as two big-endian words, zero-filled (no item's bytes
// are the start of another's), the rest by their bytes.
func (c *checker) sortedPairs(f *checkFrame, off int) (int, uint8) {
	buf := c.buf
	places := c.prints
	// The key before: where it is, and its words if it is short.
	ps, pe := -1, -1
	var pa, pb uint64
	if k := len(places); k > int(f.mark) {
		ps, pe = int(places[k-1]>>32), int(uint32(places[k-1]))
		if pe-ps <= 16 {
			pa, pb = words16(buf[ps:pe])
			pa, pb = bits.ReverseBytes64(pa), bits.ReverseBytes64(pb)
		}
	}
	for {
		var a, b uint64
		end := -1
		if len(buf)-off >= 16 {
			// Text of up to 15 ASCII bytes, as most keys are: its head
			// and bytes from one window.
			w := (*[16]byte)(buf[off : off+16])
			if j := w[0] - 0x60; j < 16 && uint64(j) <= c.maxStr {
				a = binary.LittleEndian.Uint64(w[:8]) & keyMasks[0][j]
				b = binary.LittleEndian.Uint64(w[8:]) & keyMasks[1][j]
				if (a|b)&highBits == 0 {
					end = off + int(j) + 1
				}
			}
		}
		if end < 0 {
			if end = c.sortedKey(off, int(f.depth)); end < 0 {
				c.prints = places
				return off, pairsAtKey
			}
			if end-off <= 16 {
				a, b = words16(buf[off:end])
			}
		}
		if end-off <= 16 {
			a, b = bits.ReverseBytes64(a), bits.ReverseBytes64(b)
			if ps >= 0 && (pe-ps > 16 && bytes.Compare(buf[ps:pe], buf[off:end]) >= 0 ||
				pe-ps <= 16 && (a < pa || a == pa && b <= pb)) {
				c.prints = places
				return off, pairsAtKey
			}
			pa, pb = a, b
		} else if ps >= 0 && bytes.Compare(buf[ps:pe], buf[off:end]) >= 0 {
			c.prints = places
			return off, pairsAtKey
		}
		k := len(places)
		if k == cap(places) {
			c.prints = places
			c.growPrints()
			places = c.prints
		}
		places = places[:k+1]
		places[k] = uint64(off)<<32 | uint64(end)
		ps, pe, off = off, end, end
		f.left--
		// The value: of one byte here.
		if off >= len(buf) {
			c.prints = places
			return off, pairsAtValue
		}
		if v := buf[off]; !isIntByte(v) && v-0xf4 >= 4 {
			c.prints = places
			return off, pairsAtValue
		}
		off++
		if f.left == 1 {
			c.prints = places
			return off, pairsEnded
		}
		f.left--
	}
}

// printedPairs is sortedPairs for a map whose keys are compared by their
// prints: it reads the pairs at off while each key is an integer of one
// byte, text of up to 15 ASCII bytes (its head and bytes from one
// window) or an array of up to 23 integers and definite strings (flat),
// and notes their prints.
func (c *checker) printedPairs(f *checkFrame, off int) (int, uint8) {
	buf := c.buf
	prints := c.prints
	for {
		if off >= len(buf) {
			break
		}
		var p uint64
		if v := buf[off]; v < 0x18 {
			p = mixPrint(printUint, uint64(v))
			off++
		} else if v-0x20 < 0x18 {
			p = mixPrint(printNeg, uint64(v-0x20))
			off++
		} else if j := v - 0x60; j < 16 && uint64(j) <= c.maxStr && len(buf)-off >= 16 {
			w := (*[16]byte)(buf[off : off+16])
			a := binary.LittleEndian.Uint64(w[:8]) & keyMasks[0][j]
			b := binary.LittleEndian.Uint64(w[8:]) & keyMasks[1][j]
			if (a|b)&highBits != 0 {
				break
			}
			p = shortStringPrint(MajorText, int(j), a>>8|b<<56, b>>8)
			off += int(j) + 1
		} else if k := uint64(v - 0x80); k < 24 && int(f.depth) < c.maxDepth && k <= c.maxArr {
			// An array of up to 23 integers and definite strings.
			end, q, i := c.flat(off+1, k)
			if i != k {
				break
			}
			p, off = mixPrint(q, k), end
		} else {
			break
		}
		k := len(prints)
		if k == cap(prints) {
			c.prints = prints
			c.growPrints()
			prints = c.prints
		}
		prints = prints[:k+1]
		prints[k] = p
		f.left--
		// The value: of one byte here.
		if off >= len(buf) {
			c.prints = prints
			return off, pairsAtValue
		}
		if v := buf[off]; !isIntByte(v) && v-0xf4 >= 4 {
			c.prints = prints
			return off, pairsAtValue
		}
		off++
		if f.left == 1 {
			c.prints = prints
			return off, pairsEnded
		}
		f.left--
	}
	c.prints = prints
	return off, pairsAtKey
}

// unsort replaces the places of the keys of a map that were in order, on
// the prints stack from mark, by their prints, for a key out of order.
func (c *checker) unsort(mark uint32, depth int) bool {
	for i := int(mark); i < len(c.prints); i++ {
		start := int(c.prints[i] >> 32)
		end, p := c.scalar(start)
		if end < 0 {
			if end, p = c.printed(start, depth); end < 0 {
				return false
			}
		}
		c.prints[i] = p
	}
	return true
}

// printed is item for an item whose print is wanted: a key of a map
// whose keys are compared, or part of one. It returns the offset after
// the item and its print, or -1. It puts its frames above those of item,
// and returns when it has read the item at off.
func (c *checker) printed(off, depth int) (int, uint64) {
	buf := c.buf
	base := len(c.frames)
	inTag := false // the item at off is the content of a tag
	strip := true  // a tag 55799 at off is no part of the value (not the content of a tag)
	var p uint64   // the print of the item that ended at off
items:
	for {
		if off >= len(buf) {
			return -1, 0
		}
		ib := buf[off]
		off++
		arg := uint64(ib & 0x1f)
		if arg >= 24 {
			if arg > 27 {
				if arg != 31 || c.strict {
					return -1, 0
				}
				switch ib >> 5 {
				case MajorBytes, MajorText:
					if off, p = c.chunks(off, ib>>5, true); off < 0 {
						return -1, 0
					}
					c.indef = true
				case MajorArray, MajorMap:
					if depth >= c.maxDepth {
						return -1, 0
					}
					c.indef = true
					f := checkFrame{print: printArray, left: uint32(min(c.maxArr, uint64(len(buf)))), kind: frameArray | frameIndef, depth: uint16(depth + 1)}
					if ib>>5 == MajorMap {
						f = checkFrame{print: printMap, left: 2 * uint32(min(c.maxMap, uint64(len(buf)))), kind: frameKeys | frameIndef,
							mark: uint32(len(c.prints)), depth: uint16(depth + 1)}
					}
					c.push(f)
					depth++
					inTag, strip = false, true
					continue
				case MajorSimple: // a break: the end of the indefinite length open
					n := len(c.frames)
					if inTag || n == base {
						return -1, 0
					}
					f := &c.frames[n-1]
					if f.kind&frameIndef == 0 || f.kind == frameKeys|frameIndef && f.left&1 != 0 {
						return -1, 0
					}
					if f.kind == frameKeys|frameIndef && !c.compare(f.mark) {
						return -1, 0
					}
					p = mixPrint(f.print, uint64(f.count))
					c.frames = c.frames[:n-1]
				default:
					return -1, 0
				}
				goto ended
			}
			w := 1 << (arg - 24)
			if len(buf)-off < w {
				return -1, 0
			}
			arg = argOfWidth(buf, off-1, w)
			off += w
			if ib>>5 == MajorSimple {
				if ib == 0xf8 && arg < 32 {
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
			if ib>>5 == MajorText && !textOK(buf[off:end]) {
				return -1, 0
			}
			p = stringPrintOf(ib>>5, buf[off:end])
			off = end
		case MajorArray:
			if depth >= c.maxDepth || arg > c.maxArr || arg > uint64(len(buf)-off) {
				return -1, 0
			}
			// The elements that are integers or definite strings, as many
			// as lead, are read here, without a frame.
			var i uint64
			off, p, i = c.flat(off, arg)
			if i == arg {
				p = mixPrint(p, arg)
				break
			}
			n := len(c.frames)
			if n == cap(c.frames) {
				c.growFrames()
			}
			c.frames = c.frames[:n+1]
			c.frames[n] = checkFrame{print: p, left: uint32(arg - i), count: uint32(i), kind: frameArray, depth: uint16(depth + 1)}
			depth++
			inTag, strip = false, true
			continue
		case MajorMap:
			if depth >= c.maxDepth || arg > c.maxMap || arg > uint64(len(buf)-off)/2 {
				return -1, 0
			}
			if arg == 0 {
				p = mixPrint(printMap, 0)
				break
			}
			n := len(c.frames)
			if n == cap(c.frames) {
				c.growFrames()
			}
			c.frames = c.frames[:n+1]
			c.frames[n] = checkFrame{print: printMap, left: 2 * uint32(arg), kind: frameMap, depth: uint16(depth + 1)}
			if arg > 1 {
				c.frames[n].kind, c.frames[n].mark = frameKeys, uint32(len(c.prints))
			}
			depth++
			inTag, strip = false, true
			continue
		case MajorTag:
			if off >= len(buf) {
				return -1, 0
			}
			if c.tags && arg <= 3 && !c.tagContent(off, arg) {
				return -1, 0
			}
			if buf[off]>>5 == MajorTag {
				if depth+1 > c.maxDepth {
					return -1, 0
				}
				depth++
			}
			// A tag 55799 is no part of a key's value, but as the
			// content of a tag (as keyForm has it).
			if arg != TagSelfDescribed || !strip {
				c.push(checkFrame{print: mixPrint(printTag, arg), kind: frameTag})
				strip = false
			}
			inTag = true
			continue
		case MajorUint:
			p = mixPrint(printUint, arg)
		case MajorNeg:
			p = mixPrint(printNeg, arg)
		default: // simple values, floats
			p = headPrint(ib, arg)
		}
	ended:
		// An item ended at off, whose print is p: it is the next item of
		// the container open, which may end with it, and so on out.
		for {
			n := len(c.frames)
			if n == base {
				return off, p
			}
			f := &c.frames[n-1]
			if f.kind == frameTag { // its content ended
				p = mixPrint(f.print, p)
				c.frames = c.frames[:n-1]
				continue
			}
			f.print = mixPrint(f.print, p)
			f.count++
			if f.left--; f.left != 0 {
				if f.kind&^frameIndef == frameKeys && f.left&1 != 0 { // a key: noted
					k := len(c.prints)
					if k == cap(c.prints) {
						c.growPrints()
					}
					c.prints = c.prints[:k+1]
					c.prints[k] = p
				}
				// The next item; an integer of one byte is read here.
				if off < len(buf) {
					if b := buf[off]; b < 0x18 {
						off++
						p = mixPrint(printUint, uint64(b))
						continue
					} else if b-0x20 < 0x18 {
						off++
						p = mixPrint(printNeg, uint64(b-0x20))
						continue
					}
				}
				depth = int(f.depth)
				inTag, strip = false, true
				continue items
			}
			// The container has had the most items it may have.
			if f.kind&frameIndef != 0 {
				if off >= len(buf) || buf[off] != byteBreak {
					return -1, 0
				}
				off++
			}
			if f.kind&^frameIndef == frameKeys && !c.compare(f.mark) {
				return -1, 0
			}
			p = mixPrint(f.print, uint64(f.count))
			c.frames = c.frames[:n-1]
		}
	}
}

// flat reads up to n items at off, as printed does, while they are
// integers or definite strings (the elements of an array), and returns
// the offset after them, the print of an array of them (without its
// count), and their number. It leaves every other item, and every fault,
// to printed.
func (c *checker) flat(off int, n uint64) (int, uint64, uint64) {
	buf := c.buf
	p := printArray
	i := uint64(0)
	for ; i < n && off < len(buf); i++ {
		ib := buf[off]
		major := ib >> 5
		if major > MajorText {
			break
		}
		arg, h := uint64(ib&0x1f), 1
		if arg >= 24 {
			if arg > 27 {
				break
			}
			h += 1 << (arg - 24)
			if len(buf)-off < h {
				break
			}
			arg = argOfWidth(buf, off, h-1)
			if c.strict && SizeHead(arg) != h {
				break
			}
		}
		switch major {
		case MajorUint:
			p = mixPrint(p, mixPrint(printUint, arg))
		case MajorNeg:
			p = mixPrint(p, mixPrint(printNeg, arg))
		default:
			if arg > c.maxStr || arg > uint64(len(buf)-off-h) {
				return off, p, i
			}
			b := buf[off+h : off+h+int(arg)]
			if major == MajorText && !textOK(b) {
				return off, p, i
			}
			p = mixPrint(p, stringPrintOf(major, b))
			off += int(arg)
		}
		off += h
	}
	return off, p, i
}

// scalar reads the item at off, as printed does, if it is an integer or
// a definite string (a key), and returns the offset after it and its
// print; -1 for any other item, and for every fault (printed judges
// them).
func (c *checker) scalar(off int) (int, uint64) {
	buf := c.buf
	if off >= len(buf) {
		return -1, 0
	}
	ib := buf[off]
	major := ib >> 5
	if major > MajorText {
		return -1, 0
	}
	arg, h := uint64(ib&0x1f), 1
	if arg >= 24 {
		if arg > 27 {
			return -1, 0
		}
		h += 1 << (arg - 24)
		if len(buf)-off < h {
			return -1, 0
		}
		arg = argOfWidth(buf, off, h-1)
		if c.strict && SizeHead(arg) != h {
			return -1, 0
		}
	}
	off += h
	switch major {
	case MajorUint:
		return off, mixPrint(printUint, arg)
	case MajorNeg:
		return off, mixPrint(printNeg, arg)
	}
	if arg > c.maxStr || arg > uint64(len(buf)-off) {
		return -1, 0
	}
	b := buf[off : off+int(arg)]
	if len(b) <= 16 {
		// Its words are its print, and its UTF-8 check when they are
		// ASCII.
		w0, w1 := words16(b)
		if major == MajorText && (w0|w1)&0x8080808080808080 != 0 && !utf8.Valid(b) {
			return -1, 0
		}
		return off + int(arg), shortStringPrint(major, len(b), w0, w1)
	}
	if major == MajorText && !textOK(b) {
		return -1, 0
	}
	return off + int(arg), stringPrintOf(major, b)
}

// tagContent reports whether the content at off of a tag numbered num,
// 0 to 3, is what RFC 8949 requires (for tag 0, a date it reads; walk
// judges any other).
func (c *checker) tagContent(off int, num uint64) bool {
	if num == 0 {
		return c.date(off)
	}
	return tagContentOK(num, c.buf[off])
}

// push opens the container (or tag) f.
func (c *checker) push(f checkFrame) {
	n := len(c.frames)
	if n == cap(c.frames) {
		c.growFrames()
	}
	c.frames = c.frames[:n+1]
	c.frames[n] = f
}

// compare compares the prints of the keys of a map that ended, those
// from mark on, and drops them; it reports false if two are equal.
func (c *checker) compare(mark uint32) bool {
	keys := c.prints[mark:]
	if len(keys) == 2 {
		if keys[0] == keys[1] {
			return false
		}
	} else if !distinct(keys) {
		return false
	}
	c.prints = c.prints[:mark]
	return true
}

// growFrames moves the frames, full, to a stack with room for as many
// again (from the pool, or new).
//
//go:noinline
func (c *checker) growFrames() {
	s := c.pooled()
	if cap(s.frames) <= len(c.frames) {
		s.frames = make([]checkFrame, 0, 2*len(c.frames))
	}
	s.frames = append(s.frames[:0], c.frames...)
	c.frames = s.frames
}

// growPrints moves the prints, full, to a stack with room for as many
// again.
//
//go:noinline
func (c *checker) growPrints() {
	s := c.pooled()
	if cap(s.prints) <= len(c.prints) {
		s.prints = make([]uint64, 0, 2*len(c.prints))
	}
	s.prints = append(s.prints[:0], c.prints...)
	c.prints = s.prints
}

// chunks checks the chunks of an indefinite-length string (major) after
// its initial byte, ending at off, and returns the offset after its break
// and, with want, its print: that of the definite string of its bytes.
func (c *checker) chunks(off int, major byte, want bool) (int, uint64) {
	buf := c.buf
	total := uint64(0)
	var h maphash.Hash
	var short [16]byte // the bytes, while they are 16 or fewer
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
			if total <= 16 {
				w0, w1 := words16(short[:total])
				return off + 1, shortStringPrint(major, int(total), w0, w1)
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
		if major == MajorText && !textOK(chunk) {
			return -1, 0
		}
		if want {
			h.Write(chunk)
			if total <= 16 {
				copy(short[total-arg:], chunk)
			}
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

func (c *checker) pooled() *checkStacks {
	if *c.stacks == nil {
		*c.stacks = checkPool.Get().(*checkStacks)
	}
	return *c.stacks
}

// release puts stacks back in the pool (those of up to keptFrames frames
// and keptPrints prints).
func release(s *checkStacks) {
	if cap(s.frames) > keptFrames {
		s.frames = nil
	}
	if cap(s.prints) > keptPrints {
		s.prints = nil
	}
	checkPool.Put(s)
}

// stringPrintOf is the print of the string (major) whose content is b:
// up to 16 bytes, its two words (little-endian, zero-filled) mixed in as
// numbers are (mixPrint is keyed, as maphash is); longer, its maphash.
func stringPrintOf(major byte, b []byte) uint64 {
	if len(b) > 16 {
		return stringPrint(major, uint64(len(b)), maphash.Bytes(printSeed, b))
	}
	w0, w1 := words16(b)
	return shortStringPrint(major, len(b), w0, w1)
}

// shortStringPrint is the print of the string (major) of n bytes, up to
// 16, whose words are w0 and w1.
func shortStringPrint(major byte, n int, w0, w1 uint64) uint64 {
	return mixPrint(w0^shortSeeds[major&1][n], w1)
}

// shortSeeds[m][n] is the first print of a string of n bytes, up to 16,
// byte (m 0) or text (m 1): one keyed multiplication then mixes in its
// two words.
var shortSeeds = func() (s [2][17]uint64) {
	for n := range 17 {
		s[0][n] = mixPrint(mixPrint(printBytes, uint64(n)), 0)
		s[1][n] = mixPrint(mixPrint(printText, uint64(n)), 0)
	}
	return s
}()

// words16 returns the bytes of b, up to 16, as two little-endian words,
// zero-filled, by loads that may overlap (each byte lands where it
// belongs).
func words16(b []byte) (w0, w1 uint64) {
	switch n := len(b); {
	case n >= 8:
		w0 = binary.LittleEndian.Uint64(b)
		w1 = binary.LittleEndian.Uint64(b[n-8:]) >> (8 * (16 - n))
	case n >= 4:
		w0 = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<(8*(n-4))
	case n > 0:
		w0 = uint64(b[0]) | uint64(b[n/2])<<(8*(n/2)) | uint64(b[n-1])<<(8*(n-1))
	}
	return w0, w1
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

// textOK reports whether b is valid UTF-8. Text is mostly ASCII: its
// words are or-ed, 64 bytes a turn in four accumulators, and tested
// once at the end; only text with a high bit set goes to utf8.Valid.
func textOK(b []byte) bool {
	const high = 0x8080808080808080
	n := len(b)
	switch {
	case n >= 8 && n <= 16: // two words, which may overlap
		return (binary.LittleEndian.Uint64(b)|binary.LittleEndian.Uint64(b[n-8:]))&high == 0 || utf8.Valid(b)
	case n >= 4 && n < 8:
		return (binary.LittleEndian.Uint32(b)|binary.LittleEndian.Uint32(b[n-4:]))&0x80808080 == 0 || utf8.Valid(b)
	case n < 4:
		for _, c := range b {
			if c >= 0x80 {
				return utf8.Valid(b)
			}
		}
		return true
	}
	var x, y, z, u uint64
	i := 0
	for ; n-i >= 64; i += 64 {
		q := (*[64]byte)(b[i:])
		x |= binary.LittleEndian.Uint64(q[:8]) | binary.LittleEndian.Uint64(q[32:40])
		y |= binary.LittleEndian.Uint64(q[8:16]) | binary.LittleEndian.Uint64(q[40:48])
		z |= binary.LittleEndian.Uint64(q[16:24]) | binary.LittleEndian.Uint64(q[48:56])
		u |= binary.LittleEndian.Uint64(q[24:32]) | binary.LittleEndian.Uint64(q[56:])
	}
	for ; n-i >= 8; i += 8 {
		x |= binary.LittleEndian.Uint64(b[i:])
	}
	x |= binary.LittleEndian.Uint64(b[n-8:])
	return (x|y|z|u)&high == 0 || utf8.Valid(b)
}
