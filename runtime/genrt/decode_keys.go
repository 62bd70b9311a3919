package genrt

import (
	"encoding/binary"
	"math"
	"unicode"
	"unicode/utf8"
)

// KeyKind tells what a Key holds.
type KeyKind uint8

const (
	KeyOther KeyKind = iota // the zero Key; ReadKey never returns it
	KeyText                 // Key.Text holds the text
	KeyInt                  // Key.Int holds the integer
)

// Key is a map key as a legacy-map decoder sees it.
type Key struct {
	Kind KeyKind
	Text []byte // valid until the next read from the Decoder
	Int  int64
}

// ReadKey reads the key of a map that encodes a struct: a text string
// (UTF-8 checked, without copying when it has a definite length) or an
// integer within int64 (keyasint). A key of any other type cannot name a
// field and is ErrType; an integer beyond int64 is ErrRange. fxamacker/cbor
// refuses both when it decodes a map into a struct.
func (d *Decoder) ReadKey() (Key, error) {
	kind, text, n, err := d.ReadKeyParts()
	return Key{Kind: kind, Text: text, Int: n}, err
}

// ReadKeyParts is ReadKey with the key's fields as results, for generated
// code: a Key is five words, which the compiler keeps in memory rather than
// in registers.
func (d *Decoder) ReadKeyParts() (kind KeyKind, text []byte, n int64, err error) {
	// The common keys, without a frame of the size the general path
	// needs: ASCII text of up to 16 bytes with 16 bytes after the head
	// buffered, checked as two words as TryString does (within
	// shortText, which also keeps small length limits out); a small
	// unsigned integer (keyasint) in its head alone; and a short text
	// string with a one-byte head, whole in the buffer, with no call but
	// the UTF-8 check. Strict mode takes the general path.
	if p := d.buf[d.off:]; len(p) > 0 && !d.opts.Strict {
		b := p[0]
		if n := uint(b) - 0x60; n <= 16 && n < uint(d.shortText) && len(p) >= 17 &&
			binary.LittleEndian.Uint64(p[1:])&textMasks[n&31][0]|binary.LittleEndian.Uint64(p[9:])&textMasks[n&31][1] == 0 {
			d.off += int(1 + n)
			return KeyText, p[1 : 1+n : 1+n], 0, nil
		}
		if b < 0x18 {
			d.off++
			return KeyInt, nil, int64(b), nil
		}
		if n := int(b) - 0x60; uint(n) < 24 && n < len(p) && n <= d.opts.MaxStringLength {
			if t := p[1 : 1+n : 1+n]; validUTF8(t) {
				d.off += 1 + n
				return KeyText, t, 0, nil
			}
		}
	}
	k, err := d.readKey()
	return k.Kind, k.Text, k.Int, err
}

// readKey is ReadKey's general path.
func (d *Decoder) readKey() (Key, error) {
	start := d.Offset()
	b, err := d.peek()
	if err != nil {
		return Key{}, err
	}
	switch b >> 5 {
	case MajorText:
		n, _, err := d.stringHead(MajorText, "text string")
		if err != nil {
			return Key{}, err
		}
		var t []byte
		if n < 0 {
			s := d.slowPath()
			s.scratch, err = d.chunks(s.scratch[:0], MajorText, "text string", start)
			if err != nil {
				return Key{}, err
			}
			t = s.scratch
		} else {
			t = d.buf[d.off : d.off+n : d.off+n]
			if !validUTF8(t) && !d.laxUTF8() {
				return Key{}, d.errAt(start, ErrUTF8, "text string is not valid UTF-8")
			}
			d.off += n
		}
		return Key{Kind: KeyText, Text: t}, nil
	case MajorUint, MajorNeg:
		neg, mag, _, err := d.readInt("integer")
		if err != nil {
			return Key{}, err
		}
		if mag > math.MaxInt64 {
			return Key{}, d.rangeError(start, neg, mag, "int64 map key")
		}
		if neg {
			return Key{Kind: KeyInt, Int: -1 - int64(mag)}, nil
		}
		return Key{Kind: KeyInt, Int: int64(mag)}, nil
	}
	if err := d.Skip(); err != nil {
		return Key{}, err // not well-formed: that is the worse news
	}
	return Key{}, d.typeError(start, b, "text string or integer map key")
}

// Helpers of the generated struct decoders that are the same for every
// type, so that each type's code holds only what is its own.

// NextField steps through the rest of a struct's array, whose head said
// n elements where the struct has want fields, before element i: a
// definite length other than want is an ErrLength; an indefinite-length
// array must hold exactly want elements. more is false, with a nil error,
// after the last element, when it has left the array's nesting level.
//
//	for i := 0; ; i++ {
//		if more, err := d.NextField(n, i, 3); !more {
//			return err
//		}
//		(read field i)
//	}
func (d *Decoder) NextField(n, i, want int) (more bool, err error) {
	if n >= 0 {
		return false, d.wrongLength(want, n)
	}
	more, err = d.NextElem(n, i)
	switch {
	case err != nil:
		return false, err
	case !more && i != want:
		return false, d.wrongLength(want, i)
	case !more:
		d.Leave()
		return false, nil
	case i == want:
		return false, d.Errorf(ErrLength, "expected array of %s, found more", count(want, "element"))
	}
	return true, nil
}

// FoldedField is fxamacker/cbor's fallback for a map key that names no
// field of a struct exactly: the index of the first of keys (the text keys
// of the struct's fields, in field order; "" for a field without one)
// that equals key under case folding at the same length in bytes
// (equalFold), or -1 when none does. It does not allocate.
//
// Deprecated: code generated since version 8 calls Decoder.FoldedField,
// which honours Options.FieldNameMatching.
func FoldedField(key []byte, keys []string) int {
	for i, name := range keys {
		if len(name) == len(key) && name != "" && equalFold(key, name) {
			return i
		}
	}
	return -1
}

// equalFold reports whether the legacy map key matches the field name name
// by fxamacker/cbor's case-insensitive fallback: the same length in bytes
// and equal under Unicode simple case folding (strings.EqualFold). So "ID"
// matches "id", but the Kelvin sign "K" (three bytes) does not match "k".
// Generated legacy decoders call it only after no field name matched
// exactly. It does not allocate.
func equalFold(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i := 0; i < len(key); i++ {
		kc, nc := key[i], name[i]
		if kc|nc >= utf8.RuneSelf {
			return foldRunes(key[i:], name[i:])
		}
		if kc == nc {
			continue
		}
		if kc > nc {
			kc, nc = nc, kc
		}
		if 'A' <= kc && kc <= 'Z' && nc == kc+'a'-'A' {
			continue
		}
		return false
	}
	return true
}

// foldRunes is equalFold past the first non-ASCII byte, rune by rune as
// strings.EqualFold compares them.
func foldRunes(key []byte, name string) bool {
	for len(key) > 0 && len(name) > 0 {
		kr, kn := utf8.DecodeRune(key)
		nr, nn := utf8.DecodeRuneInString(name)
		key, name = key[kn:], name[nn:]
		if kr == nr {
			continue
		}
		if kr > nr {
			kr, nr = nr, kr
		}
		if nr < utf8.RuneSelf {
			if 'A' <= kr && kr <= 'Z' && nr == kr+'a'-'A' {
				continue
			}
			return false
		}
		// The orbit of kr under SimpleFold holds every rune equal to it
		// under folding; it ascends but for the wrap to the smallest.
		r := unicode.SimpleFold(kr)
		for r != kr && r < nr {
			r = unicode.SimpleFold(r)
		}
		if r != nr {
			return false
		}
	}
	return len(key) == 0 && len(name) == 0
}
