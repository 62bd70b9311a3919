package runtime

import (
	"bytes"
	"math"
	"slices"
)

// keyChecker holds the canonical encodings of the keys of the maps being
// walked, as a stack: a nested map's keys sit above its parent's and are
// dropped when it ends.
type keyChecker struct {
	buf   []byte
	spans []keySpan
}

type keySpan struct {
	start, end int
	off        int64 // offset of the key in the input, for the error
}

func (k *keyChecker) reset()                { k.buf, k.spans = k.buf[:0], k.spans[:0] }
func (k *keyChecker) truncate(mark, bm int) { k.spans, k.buf = k.spans[:mark], k.buf[:bm] }
func (k *keyChecker) add(raw []byte, o int64) {
	s := len(k.buf)
	k.buf, _ = canonical(k.buf, raw)
	k.spans = append(k.spans, keySpan{s, len(k.buf), o})
}

// duplicate reports whether two of the keys from spans[mark:] are equal,
// and the offset of the later one.
func (k *keyChecker) duplicate(mark int) (int64, bool) {
	s := k.spans[mark:]
	if len(s) < 2 {
		return 0, false
	}
	if len(s) <= 8 {
		for i := 1; i < len(s); i++ {
			for j := 0; j < i; j++ {
				if bytes.Equal(k.buf[s[i].start:s[i].end], k.buf[s[j].start:s[j].end]) {
					return s[i].off, true
				}
			}
		}
		return 0, false
	}
	buf := k.buf
	slices.SortFunc(s, func(a, b keySpan) int {
		return bytes.Compare(buf[a.start:a.end], buf[b.start:b.end])
	})
	for i := 1; i < len(s); i++ {
		if bytes.Equal(k.buf[s[i].start:s[i].end], k.buf[s[i-1].start:s[i-1].end]) {
			off := s[i].off
			if s[i-1].off > off {
				off = s[i-1].off
			}
			return off, true
		}
	}
	return 0, false
}

// canonical appends the canonical form of the well-formed item at the
// start of src (shortest heads, definite lengths, shortest floats), so
// that two encodings of one value compare equal, and returns the rest of
// src. Map pairs keep their order. Tag 55799 is left out, as
// fxamacker/cbor strips it before it compares keys, except as the content
// of another tag, where fxamacker keeps it (6(55799(1)) is not 6(1)).
func canonical(dst, src []byte) ([]byte, []byte) {
	return canonicalItem(dst, src, true)
}

// canonicalItem is canonical; strip says whether a leading tag 55799 is
// left out (everywhere but in the content of a tag).
func canonicalItem(dst, src []byte, strip bool) ([]byte, []byte) {
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
		// Sum the chunks, then write one definite string.
		total, rest := uint64(0), src
		for len(rest) > 0 && rest[0] != byteBreak {
			var c []byte
			c, rest = canonical(nil, rest)
			_, h := headLen(c)
			total += uint64(len(c) - h)
		}
		dst = AppendHead(dst, major, total)
		for len(src) > 0 && src[0] != byteBreak {
			var c []byte
			c, src = canonical(nil, src)
			_, h := headLen(c)
			dst = append(dst, c[h:]...)
		}
		if len(src) > 0 {
			src = src[1:]
		}
		return dst, src
	case MajorArray, MajorMap:
		per := uint64(1)
		if major == MajorMap {
			per = 2
		}
		if ai != 31 {
			dst = AppendHead(dst, major, arg)
			for i := uint64(0); i < arg*per && len(src) > 0; i++ {
				dst, src = canonical(dst, src)
			}
			return dst, src
		}
		// Write the items once, counting them, then insert the head in
		// front: counting first with a separate walk would visit nested
		// indefinite containers 2^depth times.
		mark, count := len(dst), uint64(0)
		for len(src) > 0 && src[0] != byteBreak {
			dst, src = canonical(dst, src)
			count++
		}
		if len(src) > 0 {
			src = src[1:]
		}
		end, hs := len(dst), SizeHead(count/per)
		dst = append(dst, make([]byte, hs)...)
		copy(dst[mark+hs:], dst[mark:end])
		AppendHead(dst[:mark], major, count/per)
		return dst, src
	case MajorTag:
		if strip && arg == TagSelfDescribed {
			return canonicalItem(dst, src, true)
		}
		return canonicalItem(AppendHead(dst, major, arg), src, false)
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
