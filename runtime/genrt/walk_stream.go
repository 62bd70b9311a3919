package genrt

// Skip over a stream (the slice path is walk_slice.go): one loop over heads
// with an explicit stack of open containers, no call per item. It handles
// the common case (definite lengths, within the limits, well-formed),
// refills the buffer keeping the current item's first byte, and hands any
// item it is not sure of to walk, the general walker, which then decides
// and words the error; after that item the loop goes on. Both agree on
// what they accept, so Skip's behaviour (errors, offsets, limits) is
// walk's.
//
// Most containers lie wholly in the buffer: the loop hands the content of
// each to the slice skipper (walk_slice.go), which skips it at the speed
// of Skip over a slice, and goes on head by head only where that fails,
// at the buffer's end (or on anything the skipper refuses). A failed try
// reads bytes the loop then reads again, so after one the loop tries no
// more until as many new bytes have arrived as the try read: the bytes
// read twice are at most the stream's, however the reads are cut.

// skipLevel is an open container: the items it still holds and the depth
// of those items.
type skipLevel struct {
	left  uint64
	depth int
}

// skipStack is the stack's room on the goroutine stack: enough for the
// default MaxDepth, so that Skip allocates only for deeper nesting under a
// larger limit.
const skipStack = DefaultMaxDepth + 1

// skip consumes one item at depth depth, as walk(0, depth) does; Skip
// calls it over a stream. An item goes to walk from its first byte (the
// tags before it included) on anything unusual, or when the stream cannot
// deliver its head; a tag within a tag counts as a level, as in walk.
func (d *Decoder) skip(depth int) error {
	var room [skipStack]skipLevel
	stack := room[:0]
	maxDepth, maxStr := d.opts.MaxDepth, uint64(d.opts.MaxStringLength)
	maxArr, maxMap := uint64(d.opts.MaxArrayElements), uint64(d.opts.MaxMapPairs)
	left, cur := uint64(1), depth // items left at this level, and their depth
	buf, off := d.buf, d.off
	var tryAt int64 // tries of the slice skipper wait until the buffer ends here (absolute)
	if off < len(buf) {
		if end := d.trySlice(off, 1, depth, &tryAt); end >= 0 {
			d.off = end
			return nil
		}
	}
next:
	for {
		for left == 0 {
			if len(stack) == 0 {
				d.off = off
				return nil
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			left, cur = top.left, top.depth
		}
		left--
		start, at, want := off, cur, 0 // want: the bytes from start the loop needs buffered
		for {
			if off >= len(buf) {
				want = off + 1 - start
				break
			}
			h, ib := off, buf[off]
			ai, arg := ib&0x1f, uint64(ib&0x1f)
			if ai < 24 {
				off++
			} else if ai <= 27 {
				w := 1 << (ai - 24)
				if len(buf)-off <= w {
					want = off + 1 + w - start
					break
				}
				arg = argOfWidth(buf, off, w)
				off += 1 + w
			} else { // indefinite length, break, reserved
				break
			}
			switch ib >> 5 {
			case MajorUint, MajorNeg:
				continue next
			case MajorBytes, MajorText:
				if arg > maxStr {
					break
				} else if arg <= uint64(len(buf)-off) {
					off += int(arg)
				} else if err := d.discard(off, int(arg), h); err != nil {
					return err
				} else {
					buf, off = d.buf, d.off
				}
				continue next
			case MajorArray, MajorMap:
				limit, n := maxArr, arg
				if ib>>5 == MajorMap {
					limit, n = maxMap, 2*arg
				}
				if at >= maxDepth || arg > limit {
					break
				}
				if n > 0 && n <= uint64(len(buf)-off) && d.base+int64(len(buf)) >= tryAt {
					if end := d.trySlice(off, n, at+1, &tryAt); end >= 0 {
						off = end
						continue next
					}
				}
				if n > 0 {
					stack = append(stack, skipLevel{left, cur})
					left, cur = n, at+1
				}
				continue next
			case MajorTag: // the content is the next head of this item
				if off < len(buf) && buf[off]>>5 == MajorTag {
					if at+1 > maxDepth {
						break
					}
					at++
				}
				continue
			default: // major type 7
				if ai == 24 && arg < 32 {
					break
				}
				continue next
			}
			break
		}
		if want > 0 && d.refill(start, want) {
			buf, off = d.buf, d.off
			left++
			continue
		}
		d.off = start
		if err := d.walk(0, cur); err != nil {
			return err
		}
		buf, off = d.buf, d.off
	}
}

// trySlice skips n items at off, at depth, by the slice skipper over the
// bytes buffered, and returns the offset after them; if it cannot (the
// items run past the buffer, or the skipper refuses them), it returns -1
// and moves *tryAt, the buffer's end before which no other try is made,
// past the buffer's end by as many bytes as the try read.
//
//go:noinline
func (d *Decoder) trySlice(off int, n uint64, depth int, tryAt *int64) int {
	s := newSliceSkipper(d)
	if end := s.items(off, n, depth); end >= 0 {
		return end
	}
	end := d.base + int64(len(d.buf))
	*tryAt = end + int64(len(d.buf)-off)
	return -1
}

// refill makes want bytes from start available on a stream, keeping
// buf[start:] (start becomes the read position). It reports false when the
// stream cannot deliver them; the slow path then words the error.
func (d *Decoder) refill(start, want int) bool {
	d.off = start
	return d.fill(want) == nil
}

// discard consumes the n bytes at off of a string whose head is at h
// through the stream's buffer, as walk does.
func (d *Decoder) discard(off, n, h int) error {
	d.off = off
	return d.skipBytes(n, false, d.base+int64(h))
}
