package genrt

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
)

// Valid returns nil if data is exactly one well-formed, valid CBOR data
// item within the default limits: text strings are UTF-8, no map holds a
// key twice (compared by value, so 01 and 18 01 are the same key), and
// tags 0-3 hold the content RFC 8949 §3.4 requires (tag 0 a text string
// that time.Parse reads as time.RFC3339, as fxamacker/cbor reads it; tag 1
// a number; tags 2 and 3 a byte string). Otherwise it returns
// a *Error saying what and where.
//
// Valid allocates only for maps of more than 128 pairs, whose keys do not
// fit a buffer on its stack (the notes of where their keys start come from
// a pool; the fingerprints of such a map's keys, when they are not in
// order, are a table of their own).
func Valid(data []byte) error {
	// The fast validator accepts the common case; anything else (an
	// error, indefinite lengths, keys that are not in canonical form, two
	// keys with one fingerprint) goes to the general walker, which judges
	// it and words the error.
	v := validator{buf: data}
	if off := v.items(0, 1, 0); off == len(data) {
		return nil
	}
	// Keys that are not plain (arrays, maps, tags, floats, longer heads):
	// the checker, which prints them; the general walker judges the rest.
	d := Decoder{buf: data, opts: &builtinOpts[0]}
	if d.checked(true) && d.off == len(data) {
		return nil
	}
	return validSlow(data)
}

// Map sizes: the starts of up to largeMap keys are noted on the stack, and
// the fingerprints of an unordered map's keys go in a table on the stack,
// of 64 slots up to smallMap pairs, of 512 up to largeMap pairs.
const (
	orderedMap = 16
	smallMap   = 32
	largeMap   = 128
)

const highBits = 0x8080808080808080

// validator checks an item over a slice with the default limits. Its
// methods return the offset after what they checked, or -1 for anything
// they do not accept; Valid then runs the general walker.
type validator struct {
	buf []byte
}

// items checks n items at off, each at depth. A tag within a tag counts
// as a level, as in walk. An offset of -1 from a call ends the loop at
// its next item.
func (v *validator) items(off int, n uint64, depth int) int {
	buf := v.buf
	for ; n > 0; n-- {
		if uint(off) >= uint(len(buf)) {
			return -1
		}
		ib := buf[off]
		ai, arg := ib&0x1f, uint64(ib&0x1f)
		off++
		if ai >= 24 {
			switch ai {
			case 24:
				if off >= len(buf) {
					return -1
				}
				arg, off = uint64(buf[off]), off+1
			case 25:
				if len(buf)-off < 2 {
					return -1
				}
				arg, off = uint64(binary.BigEndian.Uint16(buf[off:off+2])), off+2
			case 26:
				if len(buf)-off < 4 {
					return -1
				}
				arg, off = uint64(binary.BigEndian.Uint32(buf[off:off+4])), off+4
			case 27:
				if len(buf)-off < 8 {
					return -1
				}
				arg, off = binary.BigEndian.Uint64(buf[off:off+8]), off+8
			default: // indefinite length, break, reserved
				return -1
			}
		}
		switch ib >> 5 {
		case MajorUint, MajorNeg:
		case MajorBytes:
			if arg > DefaultMaxStringLength || arg > uint64(len(buf)-off) {
				return -1
			}
			off += int(arg)
		case MajorText:
			if arg > DefaultMaxStringLength || arg > uint64(len(buf)-off) {
				return -1
			}
			end := off + int(arg)
			// ASCII text of up to 23 bytes, the most common, from a
			// window at its head; the rest in validUTF8.
			if ai < 24 && len(buf)-off >= 23 && shortText((*[24]byte)(buf[off-1:off+23]), ai) {
				off = end
				continue
			}
			if !validUTF8(buf[off:end]) {
				return -1
			}
			off = end
		case MajorArray:
			if depth >= DefaultMaxDepth || arg > DefaultMaxArrayElements || arg > uint64(len(buf)-off) {
				return -1
			}
			if arg > 0 {
				off = v.items(off, arg, depth+1)
			}
		case MajorMap:
			if depth >= DefaultMaxDepth || arg > DefaultMaxMapPairs || 2*arg > uint64(len(buf)-off) {
				return -1
			}
			if arg > smallMap {
				off = v.largeMap(off, int(arg), depth+1)
			} else if arg > 0 {
				off = v.smallMap(off, int(arg), depth+1)
			}
		case MajorTag:
			if off >= len(buf) {
				return -1
			}
			switch b := buf[off]; {
			case arg > 3 && b>>5 != MajorTag: // the common case first
				n++ // the content, at this depth
			case arg == 0:
				off = v.date(off)
			case arg == 1 && b>>5 != MajorUint && b>>5 != MajorNeg && b != byteFloat16 && b != byteFloat32 && b != byteFloat64,
				(arg == 2 || arg == 3) && b>>5 != MajorBytes,
				b>>5 == MajorTag && depth >= DefaultMaxDepth:
				return -1
			case b>>5 == MajorTag:
				off = v.items(off, 1, depth+1)
			default:
				n++ // the content, at this depth
			}
		default: // major type 7: simple values and floats
			if ai == 24 && arg < 32 {
				return -1
			}
		}
	}
	return off
}

// date checks the content of a tag 0 at off: a definite text string that
// time.Parse's fast path reads as RFC 3339. Text it does not read goes to
// the general walker, which asks time.Parse itself.
func (v *validator) date(off int) int {
	buf := v.buf
	ib := buf[off]
	n, h := int(ib&0x1f), 1
	if ib>>5 != MajorText || n > 24 {
		return -1
	}
	if n == 24 {
		if off+1 >= len(buf) {
			return -1
		}
		n, h = int(buf[off+1]), 2
	}
	end := off + h + n
	if end > len(buf) {
		return -1
	}
	if _, ok := scanRFC3339(buf[off+h : end]); !ok {
		return -1
	}
	return end // ASCII, so UTF-8
}

// key checks the map key at off and returns the offset after it. It accepts
// only keys whose bytes are their canonical form (shortest head, definite
// length), so that equal keys have equal bytes: integers, byte and text
// strings, simple values. Other keys (floats, tags, arrays, maps, longer
// heads) go to the general walker, which puts them in canonical form
// before it compares them.
func (v *validator) key(off int) int {
	buf := v.buf
	if off >= len(buf) {
		return -1
	}
	ib := buf[off]
	ai := ib & 0x1f
	arg, h := uint64(ai), 1
	if ai >= 24 {
		if ai > 27 {
			return -1
		}
		h += 1 << (ai - 24)
		if h > len(buf)-off {
			return -1
		}
		arg = wideArg(buf, off, ib)
		if SizeHead(arg) != h {
			return -1
		}
	}
	end := off + h
	switch ib >> 5 {
	case MajorUint, MajorNeg:
	case MajorBytes, MajorText:
		if arg > DefaultMaxStringLength || arg > uint64(len(buf)-end) {
			return -1
		}
		end += int(arg)
		if ib>>5 == MajorText && !validUTF8(buf[off+h:end]) {
			return -1
		}
	case MajorSimple:
		if ib > 0xf8 || ib == 0xf8 && arg < 32 {
			return -1
		}
	default:
		return -1
	}
	return end
}

// smallMap checks n pairs at off, n <= smallMap, and that no two keys
// are equal; largeMap is smallMap for more pairs.
func (v *validator) smallMap(off, n, depth int) int {
	if n <= orderedMap {
		if isIntByte(v.buf[off]) {
			return v.intMap(off, n, depth)
		}
		return v.hashedSmall(nil, off, depth, n)
	}
	var starts [smallMap]int
	return v.pairs(off, depth, starts[:n])
}

// intMap is smallMap for a map whose first key is an integer of one
// byte, as the maps of records with integer keys are: while the keys are
// such integers, a bit of a word per initial byte finds a key twice, with
// no fingerprints. At any other key hashedSmall checks the rest of the
// map, reading the earlier keys again from where they start but not their
// values (checking those again would cost twice a level of nesting).
func (v *validator) intMap(off, n, depth int) int {
	buf := v.buf
	var ints uint64
	var starts [orderedMap]int
	at := off
	for i := 0; i < n; i++ {
		if at >= len(buf) {
			return -1
		}
		c := buf[at]
		if !isIntByte(c) {
			return v.hashedSmall(starts[:i], at, depth, n-i)
		}
		starts[i&(orderedMap-1)] = at // i < n <= orderedMap
		if ints&(1<<c) != 0 {
			return -1
		}
		ints |= 1 << c
		at++
		// The value: the common ones here, as value reads them.
		if len(buf)-at >= 24 {
			if k := commonValue((*[24]byte)(buf[at : at+24])); k > 0 {
				at += k
				continue
			}
		}
		if at = v.items(at, 1, depth); at < 0 {
			return -1
		}
	}
	return at
}

func (v *validator) largeMap(off, n, depth int) int {
	if n > largeMap {
		return v.pooledMap(off, n, depth)
	}
	var room [largeMap]int
	return v.pairs(off, depth, room[:n])
}

// startsPool holds the slices of key starts of maps of more than largeMap
// pairs, so that validating such maps again and again does not allocate.
var startsPool = sync.Pool{New: func() any { return new([]int) }}

// pooledMap is largeMap for more than largeMap pairs, with the starts in
// a slice from startsPool (one of up to 1<<16 is kept for the next).
func (v *validator) pooledMap(off, n, depth int) int {
	p := startsPool.Get().(*[]int)
	if cap(*p) < n {
		*p = make([]int, n)
	}
	off = v.pairs(off, depth, (*p)[:n])
	if cap(*p) <= 1<<16 {
		startsPool.Put(p)
	}
	return off
}

// pairs checks len(starts) pairs at off and that no two keys are equal,
// noting where each key starts. Equal keys have equal bytes (only
// canonical keys are accepted). Keys in increasing order of their bytes
// (as a deterministic encoder writes them) are all different: each is
// compared with the one before, by its first 16 bytes as two words. At
// the first key out of that order, hashed checks the map by the keys'
// fingerprints; it reads the earlier keys again, not their values.
//
// Runs of the common pairs (a short ASCII text key, a common value) go
// through textPairs, which calls nothing and so keeps its state in
// registers; the loop here takes the pair it stops at.
func (v *validator) pairs(off, depth int, starts []int) int {
	buf := v.buf
	var pa, pb uint64 // the first 16 bytes of the key before, big-endian
	for i := 0; i < len(starts); i++ {
		var done int
		var stop uint8
		off, done, pa, pb, stop = textPairs(buf, off, starts[i:], pa, pb)
		if i += done; stop == stopValue {
			// textPairs read the key; the value is not one it reads.
			if off = v.items(off, 1, depth); off < 0 {
				return -1
			}
			continue
		}
		if i == len(starts) {
			break
		}
		if stop == stopOrder {
			return v.hashed(starts[:i], off, depth, len(starts)-i)
		}
		// The key: integers of one byte here, the rest (and any key
		// near the end of buf) in orderKey.
		start := off
		starts[i] = start
		var a, b uint64
		if off < len(buf) && isIntByte(buf[off]) {
			a, off = uint64(buf[off])<<56, off+1
		} else if off, a, b = v.orderKey(off); off < 0 {
			return -1
		}
		if i > 0 && (a < pa || a == pa && b <= pb) {
			return v.hashed(starts[:i], start, depth, len(starts)-i)
		}
		pa, pb = a, b
		if off = v.value(off, depth); off < 0 {
			return -1
		}
	}
	return off
}

// How textPairs stopped: at a key it does not read (or at the end of the
// pairs), at a value it does not read, at a key out of order.
const (
	stopKey uint8 = iota
	stopValue
	stopOrder
)

// textPairs checks pairs at off, at most len(starts), while each is a
// common pair: a text key of up to 23 ASCII bytes above the key before
// (pa, pb: its first 16 bytes as big-endian words, zero for none; a text
// key's are never zero) and a value that commonValue reads. Each pair is
// read from a window of 48 bytes of buf, which holds the key and the
// value's first 24 bytes. It notes where each key starts in starts, and
// returns the offset after what it checked, the pairs it checked, the last
// key's words and how it stopped: at a key it does not read or out of
// order (off is that key's), or after a key, at a value it does not read
// (off is the value's, which is to be checked). It calls nothing, so that
// its state stays in registers.
func textPairs(buf []byte, off int, starts []int, pa, pb uint64) (int, int, uint64, uint64, uint8) {
	for i := range starts {
		if len(buf)-off < 48 {
			return off, i, pa, pb, stopKey
		}
		w := (*[48]byte)(buf[off : off+48])
		j := w[0] - 0x60
		if j >= 24 || !shortText((*[24]byte)(w[:24]), j) {
			return off, i, pa, pb, stopKey
		}
		t := min(j, 15)
		a := bits.ReverseBytes64(binary.LittleEndian.Uint64(w[:8]) & keyMasks[0][t])
		b := bits.ReverseBytes64(binary.LittleEndian.Uint64(w[8:16]) & keyMasks[1][t])
		if a < pa || a == pa && b <= pb {
			return off, i, pa, pb, stopOrder
		}
		starts[i] = off
		pa, pb = a, b
		k := int(j) + 1
		x := (*[24]byte)(w[k : k+24])
		c := x[0]
		if c-0x60 >= 24 {
			if n := heads.scalar[c]; n != 0 {
				off += k + int(n)
				continue
			}
		} else if shortText(x, c-0x60) {
			off += k + int(c-0x60) + 1
			continue
		}
		return off + k, i, pa, pb, stopValue
	}
	return off, len(starts), pa, pb, stopKey
}

// textKey reads a short ASCII text key (its head and up to 15 bytes) at
// the start of a window of 16 bytes of the buffer. It returns the key's
// bytes, 0 for any other key, and the key as two little-endian words,
// zero beyond it. The window is an array pointer, so that its reads need
// no bounds checks.
func textKey(w *[16]byte) (int, uint64, uint64) {
	if j := w[0] - 0x60; j < 16 {
		a := binary.LittleEndian.Uint64(w[:8]) & keyMasks[0][j]
		b := binary.LittleEndian.Uint64(w[8:]) & keyMasks[1][j]
		if (a|b)&highBits == 0 {
			return int(j) + 1, a, b
		}
	}
	return 0, 0, 0
}

// commonValue returns the bytes of the common map values at the start of
// a window of 24 bytes of the buffer, 0 for any other value: ASCII text
// of up to 23 bytes, numbers and simple values of a head alone.
func commonValue(w *[24]byte) int {
	c := w[0]
	if c-0x60 >= 24 {
		return int(heads.scalar[c])
	}
	if shortText(w, c-0x60) {
		return int(c-0x60) + 1
	}
	return 0
}

// keyMasks[0][j] and keyMasks[1][j] keep the first j+1 bytes of two
// little-endian words read at a text string's head of j bytes: the head
// and the text.
var keyMasks = func() (m [2][16]uint64) {
	for j := range 16 {
		k := uint(j + 1) // a shift by 64 makes 0, so the mask all ones
		m[0][j] = 1<<(8*min(k, 8)) - 1
		m[1][j] = 1<<(8*(max(k, 8)-8)) - 1
	}
	return m
}()

// shortText reports whether the text string of j < 24 bytes at the start
// of w, its head included, is ASCII: the three words of w masked by a
// table, with no branch on the length.
func shortText(w *[24]byte, j byte) bool {
	m := &windowMasks[j]
	return binary.LittleEndian.Uint64(w[:8])&m[0]|binary.LittleEndian.Uint64(w[8:16])&m[1]|binary.LittleEndian.Uint64(w[16:])&m[2] == 0
}

// windowMasks[j] keeps the high bit of each of the first j+1 bytes of
// three little-endian words read at a text string's head of j bytes: the
// head and the text.
var windowMasks = func() (m [24][3]uint64) {
	for j := range 24 {
		for i := range 3 {
			k := uint(min(max(j+1-8*i, 0), 8))  // the word's bytes in the string
			m[j][i] = (1<<(8*k) - 1) & highBits // 1<<64 is 0: all eight bytes
		}
	}
	return m
}()

// orderKey checks the map key at off, as key does, and returns the
// offset after it and its first 16 bytes as two big-endian words, zero
// beyond the key. Two keys' words compare as their bytes do, except that
// keys longer than 16 bytes may have equal words.
func (v *validator) orderKey(off int) (int, uint64, uint64) {
	buf := v.buf
	end := v.key(off)
	if end < 0 {
		return -1, 0, 0
	}
	var w [16]byte
	copy(w[:], buf[off:end])
	return end, binary.BigEndian.Uint64(w[:8]), binary.BigEndian.Uint64(w[8:])
}

// hashed checks the rest of a map whose keys are not in order: the keys
// at prev, already checked and different, and then n pairs at off. Two
// different keys with one fingerprint only send the item to the general
// walker, which compares the keys themselves.
func (v *validator) hashed(prev []int, off, depth, n int) int {
	if total := len(prev) + n; total <= smallMap {
		return v.hashedSmall(prev, off, depth, n)
	} else if total <= largeMap {
		var slots [4 * largeMap]uint64
		var used [4 * largeMap / 64]uint64
		return v.hashedLarge(prev, off, depth, n, slots[:], used[:], 9)
	} else {
		bits := uint(10)
		for 1<<bits < 2*total {
			bits++
		}
		return v.hashedLarge(prev, off, depth, n, make([]uint64, 1<<bits), make([]uint64, 1<<bits/64), bits)
	}
}

// hashedSmall is hashed for up to smallMap pairs: a key's fingerprint is
// looked for among the earlier ones only when a bit per fingerprint's top
// six bits says that one of them may have it.
func (v *validator) hashedSmall(prev []int, off, depth, n int) int {
	var fps [smallMap]uint64
	var seen uint64
	for i, start := range prev {
		_, fps[i] = v.printKey(start)
		seen |= 1 << (fps[i] >> 58)
	}
	buf := v.buf
	for i := len(prev); i < len(prev)+n; i++ {
		// The key: what printKey reads first, here.
		var fp uint64
		read := false
		if len(buf)-off >= 16 {
			if j := buf[off] - 0x60; j < 16 {
				w := buf[off : off+16]
				if a, b := binary.LittleEndian.Uint64(w[:8])&keyMasks[0][j], binary.LittleEndian.Uint64(w[8:])&keyMasks[1][j]; (a|b)&highBits == 0 {
					fp, off, read = keyPrint(a, b), off+int(j)+1, true
				}
			}
		}
		if !read {
			if off, fp = v.printKey(off); off < 0 {
				return -1
			}
		}
		if bit := uint64(1) << (fp >> 58); seen&bit == 0 {
			seen |= bit
		} else if slices.Contains(fps[:i], fp) {
			return -1
		}
		fps[i] = fp
		// The value: as value reads it, here.
		if len(buf)-off >= 24 {
			if k := commonValue((*[24]byte)(buf[off : off+24])); k > 0 {
				off += k
				continue
			}
		}
		if off = v.items(off, 1, depth); off < 0 {
			return -1
		}
	}
	return off
}

// isIntByte reports whether c is an integer of one byte, 0-23 or -1 to
// -24 (below 0x38, so that 1<<c is a bit of a word).
func isIntByte(c byte) bool { return c < 0x18 || c-0x20 < 0x18 }

// hashedLarge is hashed with a table of 1<<bits slots, at least twice
// as many as the pairs, and a bit per slot in used: open addressing, so
// that a key is compared with the few that share its slot.
func (v *validator) hashedLarge(prev []int, off, depth, n int, slots, used []uint64, bits uint) int {
	mask := uint64(len(slots) - 1)
	for i := -len(prev); i < n; i++ {
		start := off
		if i < 0 {
			start = prev[len(prev)+i]
		}
		end, fp := v.printKey(start)
		if end < 0 {
			return -1
		}
		for h := fp >> (64 - bits); ; h = (h + 1) & mask {
			if w, bit := &used[h/64], uint64(1)<<(h%64); *w&bit == 0 {
				*w |= bit
				slots[h] = fp
				break
			}
			if slots[h] == fp {
				return -1
			}
		}
		if i >= 0 {
			if off = v.value(end, depth); off < 0 {
				return -1
			}
		}
	}
	return off
}

// value checks a map's value at off: numbers, simple values and short
// ASCII text here, as commonValue reads them, the rest in items.
func (v *validator) value(off, depth int) int {
	if buf := v.buf; len(buf)-off >= 24 {
		if n := commonValue((*[24]byte)(buf[off : off+24])); n > 0 {
			return off + n
		}
	}
	return v.items(off, 1, depth)
}

// printKey checks the map key at off, as key does, and returns the
// offset after it and its fingerprint; the common keys as pairs reads
// them.
func (v *validator) printKey(off int) (int, uint64) {
	buf := v.buf
	if len(buf)-off >= 16 {
		w := (*[16]byte)(buf[off : off+16])
		if c := w[0]; isIntByte(c) {
			return off + 1, keyPrint(uint64(c), 0)
		}
		if k, a, b := textKey(w); k > 0 {
			return off + k, keyPrint(a, b)
		}
	}
	end := v.key(off)
	if end < 0 {
		return -1, 0
	}
	return end, fingerprint(buf[off:end])
}

// text16 returns the first k bytes (k <= 16) of the 16 bytes of w as two
// little-endian words, zero beyond k.
func text16(w []byte, k int) (a, b uint64) {
	a, b = binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:16])
	a &= 1<<(8*k) - 1 // all ones from k = 8
	if k <= 8 {
		return a, 0
	}
	return a, b & (1<<(8*(k-8)) - 1)
}

// fingerprint is the fingerprint of a key's bytes: keys of up to 16
// bytes (with the head) from the two words text16 reads, longer ones word
// by word.
func fingerprint(k []byte) uint64 {
	n := len(k)
	if n <= 16 {
		var w [16]byte
		copy(w[:], k)
		a, b := text16(w[:], n)
		return keyPrint(a, b)
	}
	var a uint64
	for p := k; len(p) > 8; p = p[8:] {
		a = (a ^ binary.LittleEndian.Uint64(p)) * 0xbf58476d1ce4e5b9
		a ^= a >> 31
	}
	return mix(a, binary.LittleEndian.Uint64(k[n-8:]), n)
}

// keyPrint is the fingerprint of a key of up to 16 bytes read as the
// words a and b, zero beyond the key (its length is in its head, in a):
// one multiplication, whose high bits (which the tables take) depend on
// every bit of the key. A key of up to 8 bytes has a fingerprint of its
// own (the product with an odd number is a bijection).
func keyPrint(a, b uint64) uint64 {
	return (a ^ bits.RotateLeft64(b, 29)) * 0x9e3779b97f4a7c15
}

// mix makes a fingerprint of the words a and b of a key of n bytes.
func mix(a, b uint64, n int) uint64 {
	h := (a ^ uint64(n)<<56) * 0x9e3779b97f4a7c15
	return (h ^ h>>29 ^ b) * 0xbf58476d1ce4e5b9
}
