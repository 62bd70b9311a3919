package runtime

import (
	"encoding/binary"
	"slices"
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
// fit a buffer on its stack.
func Valid(data []byte) error {
	// The fast validator accepts the common case; anything else (an
	// error, indefinite lengths, keys that are not in canonical form, two
	// keys with one fingerprint) goes to the general walker, which judges
	// it and words the error.
	v := validator{buf: data}
	if off := v.items(0, 1, 0); off == len(data) {
		return nil
	}
	return validSlow(data)
}

// Map sizes: up to smallMap pairs, each key's fingerprint is looked for
// among the earlier ones as it comes; larger maps sort the fingerprints,
// on the stack up to largeMap of them.
const (
	smallMap = 32
	largeMap = 128
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
				arg, off = uint64(binary.BigEndian.Uint16(buf[off:])), off+2
			case 26:
				if len(buf)-off < 4 {
					return -1
				}
				arg, off = uint64(binary.BigEndian.Uint32(buf[off:])), off+4
			case 27:
				if len(buf)-off < 8 {
					return -1
				}
				arg, off = binary.BigEndian.Uint64(buf[off:]), off+8
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
			if p := buf[off:end]; !shortASCII(p) && !validUTF8(p) {
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

// shortASCII reports whether k, at most 16 bytes, is ASCII (a head of a
// short text string is). It reads one or two words; a string of up to 8
// bytes is read as a word from the buffer it is part of when the buffer
// goes on that far.
func shortASCII(k []byte) bool {
	n := len(k)
	if n <= 8 {
		return cap(k) >= 8 && binary.LittleEndian.Uint64(k[:8])&(1<<(8*n)-1)&highBits == 0
	}
	return n <= 16 && (binary.LittleEndian.Uint64(k)|binary.LittleEndian.Uint64(k[n-8:]))&highBits == 0
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

// key checks the map key at off and returns its fingerprint. It accepts
// only keys whose bytes are their canonical form (shortest head, definite
// length), so that equal keys have equal bytes: integers, byte and text
// strings, simple values. Other keys (floats, tags, arrays, maps, longer
// heads) go to the general walker, which puts them in canonical form
// before it compares them.
func (v *validator) key(off int) (int, uint64) {
	buf := v.buf
	if off >= len(buf) {
		return -1, 0
	}
	ib := buf[off]
	ai := ib & 0x1f
	arg, h := uint64(ai), 1
	if ai >= 24 {
		if ai > 27 {
			return -1, 0
		}
		h += 1 << (ai - 24)
		if h > len(buf)-off {
			return -1, 0
		}
		arg = wideArg(buf, off, ib)
		if SizeHead(arg) != h {
			return -1, 0
		}
	}
	end := off + h
	switch ib >> 5 {
	case MajorUint, MajorNeg:
	case MajorBytes, MajorText:
		if arg > DefaultMaxStringLength || arg > uint64(len(buf)-end) {
			return -1, 0
		}
		end += int(arg)
		if ib>>5 == MajorText && !validUTF8(buf[off+h:end]) {
			return -1, 0
		}
	case MajorSimple:
		if ib > 0xf8 || ib == 0xf8 && arg < 32 {
			return -1, 0
		}
	default:
		return -1, 0
	}
	return end, fingerprint(buf[off:end])
}

// smallMap checks n pairs at off, n <= smallMap, and that no two keys
// have the same fingerprint. Equal keys have equal bytes (only canonical
// keys are accepted), so equal fingerprints; two different keys with one
// fingerprint only send the item to the general walker, which compares
// the keys themselves.
func (v *validator) smallMap(off, n, depth int) int {
	var fps [smallMap]uint64
	var seen uint64 // one bit per fingerprint: most keys need no search
	buf := v.buf
	for i := 0; i < n; i++ {
		var fp uint64
		// A key of text of up to 15 bytes (16 with its head), ASCII, with
		// 16 bytes to read: here; anything else: key.
		if len(buf)-off >= 16 && buf[off]-0x60 < 16 {
			k := int(buf[off]-0x60) + 1
			if a, b := text16(buf[off:off+16], k); (a|b)&highBits == 0 {
				fp = mix(a, b, k)
				off += k
			} else if off, fp = v.key(off); off < 0 {
				return -1
			}
		} else if off, fp = v.key(off); off < 0 {
			return -1
		}
		if bit := uint64(1) << (fp >> 58); seen&bit == 0 {
			seen |= bit
		} else if slices.Contains(fps[:i], fp) {
			return -1
		}
		fps[i] = fp
		// The value: numbers, simple values and short ASCII text here.
		if len(buf)-off >= 16 {
			if c := buf[off]; heads.scalar[c] != 0 {
				off += int(heads.scalar[c])
				continue
			} else if c-0x60 < 16 {
				k := int(c-0x60) + 1
				if a, b := text16(buf[off:off+16], k); (a|b)&highBits == 0 {
					off += k
					continue
				}
			}
		}
		if off = v.items(off, 1, depth); off < 0 {
			return -1
		}
	}
	return off
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

// largeMap is smallMap for more pairs: it collects the fingerprints, on
// the stack up to largeMap of them, and sorts them.
func (v *validator) largeMap(off, n, depth int) int {
	var room [largeMap]uint64
	fps := room[:0]
	if n > largeMap {
		fps = make([]uint64, 0, n)
	}
	for i := 0; i < n; i++ {
		var fp uint64
		if off, fp = v.key(off); off < 0 {
			return -1
		}
		fps = append(fps, fp)
		if off = v.items(off, 1, depth); off < 0 {
			return -1
		}
	}
	slices.Sort(fps)
	for i := 1; i < len(fps); i++ {
		if fps[i] == fps[i-1] {
			return -1
		}
	}
	return off
}

// fingerprint hashes a key's bytes: keys of up to 16 bytes as two words
// (as text16 reads them), longer ones word by word.
func fingerprint(k []byte) uint64 {
	n := len(k)
	if n <= 16 {
		var w [16]byte
		copy(w[:], k)
		a, b := text16(w[:], n)
		return mix(a, b, n)
	}
	var a uint64
	for p := k; len(p) > 8; p = p[8:] {
		a = (a ^ binary.LittleEndian.Uint64(p)) * 0xbf58476d1ce4e5b9
		a ^= a >> 31
	}
	return mix(a, binary.LittleEndian.Uint64(k[n-8:]), n)
}

// mix makes a fingerprint of the words a and b of a key of n bytes.
func mix(a, b uint64, n int) uint64 {
	h := (a ^ uint64(n)<<56) * 0x9e3779b97f4a7c15
	return (h ^ h>>29 ^ b) * 0xbf58476d1ce4e5b9
}
