package runtime

import (
	"unicode"
	"unicode/utf8"
)

// KeyFold reports whether the legacy map key matches the field name name
// by fxamacker/cbor's case-insensitive fallback: the same length in bytes
// and equal under Unicode simple case folding (strings.EqualFold). So "ID"
// matches "id", but the Kelvin sign "K" (three bytes) does not match "k".
// Generated legacy decoders call it only after no field name matched
// exactly. It does not allocate.
func KeyFold(key []byte, name string) bool {
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

// foldRunes is KeyFold past the first non-ASCII byte, rune by rune as
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
