package cbortest

import (
	"math/rand/v2"
	"slices"
	"unicode"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// CBOR surgery for the hostile, strict and stream checks: the items of a
// valid encoding, found by walking its heads, and edits of them.

// span is one data item of an encoding: its head is b[start:body], the
// whole item b[start:end].
type span struct {
	start, body, end int
	major            byte
	arg              uint64
	indef            bool
	kids             []span // elements; keys and values of a map in turn; a tag's content
}

// parse returns the item at b[off:], which must be well-formed.
func parse(b []byte, off int) span {
	ib := b[off]
	ai := ib & 0x1f
	s := span{start: off, major: ib >> 5, arg: uint64(ai)}
	n := 1
	if ai >= 24 && ai <= 27 {
		w := 1 << (ai - 24)
		s.arg = 0
		for _, c := range b[off+1 : off+1+w] {
			s.arg = s.arg<<8 | uint64(c)
		}
		n += w
	}
	s.body = off + n
	s.indef = ai == 31 && s.major >= genrt.MajorBytes && s.major <= genrt.MajorMap
	pos := s.body
	switch {
	case s.indef:
		for b[pos] != 0xff {
			k := parse(b, pos)
			s.kids = append(s.kids, k)
			pos = k.end
		}
		pos++
	case s.major == genrt.MajorBytes || s.major == genrt.MajorText:
		pos += int(s.arg)
	case s.major == genrt.MajorArray || s.major == genrt.MajorMap:
		count := s.arg
		if s.major == genrt.MajorMap {
			count *= 2
		}
		for range count {
			k := parse(b, pos)
			s.kids = append(s.kids, k)
			pos = k.end
		}
	case s.major == genrt.MajorTag:
		k := parse(b, pos)
		s.kids = []span{k}
		pos = k.end
	}
	s.end = pos
	return s
}

// flatten lists s and every item inside it, in encoding order.
func flatten(s span) []span {
	out := []span{s}
	for _, k := range s.kids {
		out = append(out, flatten(k)...)
	}
	return out
}

// splice returns b with b[start:end] replaced by repl, in a new slice.
func splice(b []byte, start, end int, repl ...[]byte) []byte {
	out := slices.Clone(b[:start])
	for _, r := range repl {
		out = append(out, r...)
	}
	return append(out, b[end:]...)
}

// longerHead returns the head of s one size longer than it is (not the
// shortest form any more), or false when it is 9 bytes already or s is a
// float or simple value, whose size is its meaning.
func longerHead(b []byte, s span) ([]byte, bool) {
	if s.major == genrt.MajorSimple || s.indef {
		return nil, false
	}
	ai := b[s.start] & 0x1f
	var next byte
	switch {
	case ai < 24:
		next = 24
	case ai < 27:
		next = ai + 1
	default:
		return nil, false
	}
	w := 1 << (next - 24)
	h := []byte{s.major<<5 | next}
	for i := w - 1; i >= 0; i-- {
		h = append(h, byte(s.arg>>(8*i)))
	}
	return h, true
}

// indefinite returns b with the definite string, array or map s rewritten
// with an indefinite length: a string as its content in one chunk then an
// empty chunk, a container as its items then a break.
func indefinite(b []byte, s span) ([]byte, bool) {
	switch s.major {
	case genrt.MajorBytes, genrt.MajorText:
		if s.indef {
			return nil, false
		}
		open := s.major<<5 | 31
		return splice(b, s.start, s.end, []byte{open}, b[s.start:s.end], []byte{s.major << 5, 0xff}), true
	case genrt.MajorArray, genrt.MajorMap:
		if s.indef {
			return nil, false
		}
		return splice(b, s.start, s.end, []byte{s.major<<5 | 31}, b[s.body:s.end], []byte{0xff}), true
	}
	return nil, false
}

// withPairs returns b with the definite map s holding its pairs and then
// extra, encoded pairs.
func withPairs(b []byte, s span, extra int, pairs ...[]byte) []byte {
	head := genrt.AppendHead(nil, genrt.MajorMap, s.arg+uint64(extra))
	return splice(b, s.start, s.end, append([][]byte{head, b[s.body:s.end]}, pairs...)...)
}

// recase returns the legacy map b with the letters of its text keys (the
// top level only) turned at random into other cases of them: any rune of
// the unicode.SimpleFold orbit, so "k" may become "K" or the Kelvin sign,
// which is longer and so matches no field. Keys are kept distinct where
// ten tries allow: two unknown keys made the same would be a duplicate
// the generated decoder skips and fxamacker/cbor's detection refuses.
func recase(b []byte, r *rand.Rand) []byte {
	top := parse(b, 0)
	out := slices.Clone(b[:top.body])
	seen := map[string]bool{}
	for i, k := range top.kids {
		if i%2 == 1 || k.major != genrt.MajorText || k.indef {
			out = append(out, b[k.start:k.end]...)
			continue
		}
		var key string
		for try := 0; try == 0 || (seen[key] && try < 10); try++ {
			runes := []rune(string(b[k.body:k.end]))
			for j, c := range runes {
				for range r.IntN(4) {
					c = unicode.SimpleFold(c)
				}
				runes[j] = c
			}
			key = string(runes)
		}
		seen[key] = true
		out = genrt.AppendString(out, key)
	}
	if top.indef {
		out = append(out, 0xff)
	}
	return out
}
