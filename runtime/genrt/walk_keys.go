package genrt

import (
	"bytes"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
)

// Duplicate map keys are found in time linear in the input, however
// deeply keys nest: each item of a key gets a print (a 64-bit fingerprint
// of its value) once, while the walk passes it, from the prints of its
// items (keyPrints in walk), so a key that holds maps is never read again
// for the maps around it. A map's keys are compared by their prints; only
// two keys with one print are compared by value (keyForm), which for
// different keys happens with a chance of about 2^-64 per pair: the prints
// are keyed with a secret chosen per process, so input cannot be made to
// collide on purpose.

// keyChecker holds the keys of the maps being walked, as a stack: a
// nested map's keys sit above its parent's and are dropped when it ends.
type keyChecker struct {
	spans []keySpan
	print uint64 // the print of the item walked last, with keyPrints
	work  int    // items printed plus bytes hashed or compared (for the tests)
	buf   []byte // key forms of two keys being compared
}

// keySpan is a key of an open map: where its bytes are in the input
// (absolute offsets: over a stream the item is pinned, so they stay in
// the buffer) and its print.
type keySpan struct {
	start, end int64
	print      uint64
}

func (k *keyChecker) reset() {
	k.spans, k.buf, k.print, k.work = k.spans[:0], k.buf[:0], 0, 0
	if cap(k.buf) > 1<<16 {
		k.buf = nil
	}
}

func (k *keyChecker) truncate(mark int) { k.spans = k.spans[:mark] }

// note notes the key from start to end, whose print is k.print. It is
// not inlined, so that the frame of walkMap, which recurses, stays small.
//
//go:noinline
func (k *keyChecker) note(start, end int64) {
	k.spans = append(k.spans, keySpan{start: start, end: end, print: k.print})
}

// duplicate reports whether two of the keys from spans[mark:] are equal,
// and the offset of the first key that repeats an earlier one; the key
// bytes are in d's buffer. Keys are compared by value only when their
// prints are equal, and then only as often as it takes to find the first
// repeat: once per group of keys with one print (but after a collision of
// two different keys, which the keyed prints make a matter of chance), so
// a map of many equal keys costs one comparison, not one per pair.
func (k *keyChecker) duplicate(d *Decoder, mark int) (int64, bool) {
	s := k.spans[mark:]
	if len(s) < 2 {
		return 0, false
	}
	if len(s) <= 8 {
		for i := 1; i < len(s); i++ {
			for j := range i {
				if s[i].print == s[j].print && k.same(d, s[j], s[i]) {
					return s[i].start, true
				}
			}
		}
		return 0, false
	}
	slices.SortFunc(s, func(a, b keySpan) int {
		if a.print != b.print {
			if a.print < b.print {
				return -1
			}
			return 1
		}
		return int(a.start - b.start)
	})
	found, at := false, int64(0)
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j].print == s[i].print {
			j++
		}
		if g := s[i:j]; len(g) > 1 {
			if off, ok := k.firstRepeat(d, g); ok && (!found || off < at) {
				found, at = true, off
			}
		}
		i = j
	}
	return at, found
}

// firstRepeat returns the offset of the first key of g, keys with one
// print in the order of their offsets, that equals an earlier one.
func (k *keyChecker) firstRepeat(d *Decoder, g []keySpan) (int64, bool) {
	if k.same(d, g[0], g[1]) {
		return g[1].start, true
	}
	for i := 2; i < len(g); i++ { // after a collision
		for j := range i {
			if k.same(d, g[j], g[i]) {
				return g[i].start, true
			}
		}
	}
	return 0, false
}

// same reports whether the keys a and b, with one print, are equal.
func (k *keyChecker) same(d *Decoder, a, b keySpan) bool {
	ka := d.buf[a.start-d.base : a.end-d.base]
	kb := d.buf[b.start-d.base : b.end-d.base]
	k.buf, _ = keyForm(k.buf[:0], ka)
	n := len(k.buf)
	k.buf, _ = keyForm(k.buf, kb)
	k.work += len(k.buf)
	return bytes.Equal(k.buf[:n], k.buf[n:])
}

// The key of the prints and the first print of each kind of item.
var (
	printSeed    = maphash.MakeSeed()
	printK0      = maphash.Bytes(printSeed, []byte{0}) | 1
	printK1      = maphash.Bytes(printSeed, []byte{1}) | 1
	printUint    = mixPrint(1, 0)
	printNeg     = mixPrint(2, 0)
	printBytes   = mixPrint(3, 0)
	printText    = mixPrint(4, 0)
	printArray   = mixPrint(5, 0)
	printMap     = mixPrint(6, 0)
	printTag     = mixPrint(7, 0)
	printSimple  = mixPrint(8, 0)
	printFloat   = mixPrint(9, 0)
	printNaNBits = uint64(0x7ff8000000000001) // no float64 value has this print but NaN
)

// mixPrint mixes x into the print h: a multiplication of the two, keyed,
// whose 128 bits are folded (so every bit of h and x moves the result).
func mixPrint(h, x uint64) uint64 {
	hi, lo := bits.Mul64(h^printK0, x^printK1)
	return hi ^ lo
}

// headPrint is the print of an integer, a simple value or a float, from
// its initial byte and argument: equal values have one print, whatever
// the width of their heads (floats by value: every NaN is one).
func headPrint(ib byte, arg uint64) uint64 {
	switch ib >> 5 {
	case MajorUint:
		return mixPrint(printUint, arg)
	case MajorNeg:
		return mixPrint(printNeg, arg)
	}
	var f float64
	switch ib & 0x1f {
	case 25:
		f = float16ToFloat64(uint16(arg))
	case 26:
		f = float64(math.Float32frombits(uint32(arg)))
	case 27:
		f = math.Float64frombits(arg)
	default:
		return mixPrint(printSimple, arg)
	}
	if f != f {
		return mixPrint(printFloat, printNaNBits)
	}
	return mixPrint(printFloat, math.Float64bits(f))
}

// stringPrint is the print of a byte or text string (major) of n bytes
// whose content hashed with printSeed is h.
func stringPrint(major byte, n, h uint64) uint64 {
	p := printBytes
	if major == MajorText {
		p = printText
	}
	return mixPrint(mixPrint(p, n), h)
}

// keyForm appends a form of the well-formed item at the start of src in
// which two encodings of one value are the same bytes, and returns the
// rest of src: shortest heads, shortest floats (every NaN f97e00), a
// string's chunks joined into one definite string, and every array and
// map written with indefinite length, so that no count has to be known
// before its items are written (the form is built in one pass, whatever
// the nesting). Map pairs keep their order. Tag 55799 is left out, as
// fxamacker/cbor strips it before it compares keys, except as the content
// of another tag, where fxamacker keeps it (6(55799(1)) is not 6(1)).
func keyForm(dst, src []byte) ([]byte, []byte) {
	return keyFormItem(dst, src, true)
}

// keyFormItem is keyForm; strip says whether a leading tag 55799 is left
// out (everywhere but in the content of a tag).
func keyFormItem(dst, src []byte, strip bool) ([]byte, []byte) {
	if len(src) == 0 {
		return dst, src
	}
	ib := src[0]
	major, ai := ib>>5, ib&0x1f
	arg, n := uint64(ai), 1
	if s := heads.size[ib]; s > 1 {
		if int(s) > len(src) {
			return dst, nil
		}
		arg, n = argAt(src, 0, s), int(s)
	}
	src = src[n:]
	switch major {
	case MajorUint, MajorNeg:
		return AppendHead(dst, major, arg), src
	case MajorBytes, MajorText:
		if ai != 31 {
			dst = AppendHead(dst, major, arg)
			if arg > uint64(len(src)) {
				return dst, nil
			}
			return append(dst, src[:arg]...), src[arg:]
		}
		// The chunks are definite strings: sum their lengths, then
		// write their bytes after one head.
		total, p := uint64(0), src
		for len(p) > 0 && p[0] != byteBreak {
			if int(heads.size[p[0]]) > len(p) {
				return dst, nil
			}
			c, h := headLen(p)
			if c > uint64(len(p)-h) {
				return dst, nil
			}
			total, p = total+c, p[h+int(c):]
		}
		dst = AppendHead(dst, major, total)
		for len(src) > 0 && src[0] != byteBreak {
			c, h := headLen(src)
			dst, src = append(dst, src[h:h+int(c)]...), src[h+int(c):]
		}
		if len(src) > 0 {
			src = src[1:]
		}
		return dst, src
	case MajorArray, MajorMap:
		dst = append(dst, major<<5|31)
		if ai != 31 {
			if major == MajorMap {
				arg *= 2
			}
			for i := uint64(0); i < arg && len(src) > 0; i++ {
				dst, src = keyForm(dst, src)
			}
		} else {
			for len(src) > 0 && src[0] != byteBreak {
				dst, src = keyForm(dst, src)
			}
			if len(src) > 0 {
				src = src[1:]
			}
		}
		return append(dst, byteBreak), src
	case MajorTag:
		if strip && arg == TagSelfDescribed {
			return keyFormItem(dst, src, true)
		}
		return keyFormItem(AppendHead(dst, major, arg), src, false)
	}
	switch ai {
	case 25:
		return AppendFloat64(dst, float16ToFloat64(uint16(arg))), src
	case 26:
		return AppendFloat64(dst, float64(math.Float32frombits(uint32(arg)))), src
	case 27:
		return AppendFloat64(dst, math.Float64frombits(arg)), src
	}
	return AppendHead(dst, MajorSimple, arg), src
}
