package genrt

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
	"sync"
)

// Unknown keeps what a decoder found in a value that the value's type
// does not know, so that encoding the value writes it back: the pairs of
// a map-format struct (//cborgen:map) whose keys name no field, or the
// elements of an //cborgen:extensible struct's array past its last field.
// A struct holds one as a field of its own, of this type (exported or not,
// with or without `cbor:"-"`); the field is never encoded as a field.
//
// Each kept item was checked as Valid checks an item (valid UTF-8, no
// duplicate map keys, tags 0-3 with the content RFC 8949 requires) within
// the decoder's limits, and is kept as its bytes; a key is kept in its
// shortest form (keys are text strings or integers). The zero value is
// empty and costs the encoder one length test. Decoding a value first
// empties it, so that it holds what the last decoded item carried (a null
// keeps the value, and it too); its array is then reused, as a []byte
// field's is: a copy of the struct shares it until Clone.
type Unknown struct {
	raw   []byte // the kept items back to back: key, value, key, value... or elements
	n     int    // pairs, or elements
	pairs bool   // raw holds map pairs (n > 0 only)
}

// Len returns the number of kept pairs (of a map-format struct) or
// elements (of an extensible array struct).
func (u *Unknown) Len() int { return u.n }

// IsMap reports whether u holds map pairs rather than array elements.
// An empty Unknown holds neither.
func (u *Unknown) IsMap() bool { return u.n > 0 && u.pairs }

// Bytes returns the kept items, back to back in the order they were
// read: each key followed by its value, or each element. It aliases u.
func (u *Unknown) Bytes() []byte { return u.raw }

// Reset empties u, keeping its array for the next items.
func (u *Unknown) Reset() { u.raw, u.n, u.pairs = u.raw[:0], 0, false }

// Clone returns a copy of u with an array of its own.
func (u *Unknown) Clone() Unknown {
	if u.n == 0 {
		return Unknown{}
	}
	return Unknown{raw: slices.Clone(u.raw), n: u.n, pairs: u.pairs}
}

// Equal reports whether u and o hold the same items in the same order.
func (u *Unknown) Equal(o *Unknown) bool {
	return u.n == o.n && (u.n == 0 || u.pairs == o.pairs && bytes.Equal(u.raw, o.raw))
}

// Pairs yields each kept pair, its key and its value as encoded, in the
// order they were read. It yields nothing when u holds elements.
func (u *Unknown) Pairs() iter.Seq2[[]byte, []byte] {
	return func(yield func([]byte, []byte) bool) {
		if !u.pairs {
			return
		}
		for off := 0; off < len(u.raw); {
			k := itemEnd(u.raw, off)
			v := itemEnd(u.raw, k)
			if !yield(u.raw[off:k:k], u.raw[k:v:v]) {
				return
			}
			off = v
		}
	}
}

// Elems yields each kept element as encoded, in order. It yields nothing
// when u holds pairs.
func (u *Unknown) Elems() iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		if u.pairs {
			return
		}
		for off := 0; off < len(u.raw); {
			end := itemEnd(u.raw, off)
			if !yield(u.raw[off:end:end]) {
				return
			}
			off = end
		}
	}
}

// AddPair keeps the pair key, value for a map-format struct's encoder to
// write: key must be one valid item, a text string or an integer, that u
// does not hold yet (the encoder refuses a key that names a field), and
// value one item that Valid accepts. It is an error when u holds elements.
func (u *Unknown) AddPair(key, value []byte) error {
	if u.n > 0 && !u.pairs {
		return unknownError(ErrType, "runtime.Unknown holds array elements, not map pairs")
	}
	if err := Valid(key); err != nil {
		return err
	}
	if m := key[0] >> 5; m != MajorText && m != MajorUint && m != MajorNeg {
		return unknownError(ErrType, "an unknown key must be a text string or an integer")
	}
	if err := Valid(value); err != nil {
		return err
	}
	if u.n > 0 {
		for k := range u.Pairs() {
			if bytes.Equal(k, key) {
				return unknownError(ErrDuplicateKey, "runtime.Unknown holds the key already")
			}
		}
	}
	u.raw = append(append(u.raw, key...), value...)
	u.n++
	u.pairs = true
	return nil
}

// AddElem keeps item, one item that Valid accepts, for an extensible
// array struct's encoder to write after its fields. It is an error when u
// holds pairs.
func (u *Unknown) AddElem(item []byte) error {
	if u.n > 0 && u.pairs {
		return unknownError(ErrType, "runtime.Unknown holds map pairs, not array elements")
	}
	if err := Valid(item); err != nil {
		return err
	}
	u.raw = append(u.raw, item...)
	u.n++
	u.pairs = false
	return nil
}

// Size returns how many bytes u's items add to the encoding of a
// container of fields entries: their length, and what the head of the
// container grows by. Generated SizeCBOR methods call it.
func (u *Unknown) Size(fields int) int {
	if u.n == 0 {
		return 0
	}
	return len(u.raw) + SizeHead(uint64(fields+u.n)) - SizeHead(uint64(fields))
}

// itemEnd returns the offset just past the item at b[off], which is well
// formed (kept items were checked when they were read or added, and
// generated encoders write well-formed items).
func itemEnd(b []byte, off int) int {
	ib := b[off]
	major := ib >> 5
	if ib&0x1f == 31 {
		off++
		for b[off] != 0xff {
			off = itemEnd(b, off)
		}
		return off + 1
	}
	arg, h := headLen(b[off:])
	off += h
	switch major {
	case MajorBytes, MajorText:
		return off + int(arg)
	case MajorArray:
		for ; arg > 0; arg-- {
			off = itemEnd(b, off)
		}
	case MajorMap:
		for ; arg > 0; arg-- {
			off = itemEnd(b, itemEnd(b, off))
		}
	case MajorTag:
		return itemEnd(b, off)
	}
	return off
}

// fewUnknown is how many kept keys KeepUnknownKey compares a new key with
// one by one; past it, they are looked up in the UnknownKeys' maps.
const fewUnknown = 16

// KeepUnknownKey is UnknownKey for a struct that keeps its unknown keys
// in u: called for the key of pair i of its map that names no field
// (kind, text and n as ReadKeyParts returned them), before the value, it
// keeps the key (in its shortest form) and the value (checked as Valid
// checks an item, within the decoder's limits) in u. The options apply
// as UnknownKey applies them: with ExtraDecErrorUnknownField the key is an
// ErrUnknownField; a key that comes twice keeps its first value, the later
// skipped, and is an ErrDuplicateKey under DupMapKeyEnforcedAPF. For
// generated code only.
func (d *Decoder) KeepUnknownKey(seen *UnknownKeys, u *Unknown, kind KeyKind, text []byte, n int64, i int) error {
	if d.opts.ExtraReturnErrors == ExtraDecErrorUnknownField {
		return d.Errorf(ErrUnknownField, "found unknown field at map element index %d", i)
	}
	if u.n > 0 && !u.pairs {
		u.Reset() // elements of another item: not this map's
	}
	// The key, appended for good unless it comes twice.
	mark := len(u.raw)
	if kind == KeyText {
		u.raw = append(AppendTextHead(u.raw, len(text)), text...)
	} else {
		u.raw = AppendInt(u.raw, n)
	}
	dup := false
	if d.opts.DupMapKey == DupMapKeyEnforcedAPF || u.n >= fewUnknown {
		if u.n == fewUnknown && seen.text == nil && seen.ints == nil {
			noteKept(seen, u.raw[:mark]) // the first ones, compared one by one so far
		}
		dup = noteKey(seen, kind, text, n)
	} else {
		key := u.raw[mark:]
		for off := 0; off < mark; {
			k := itemEnd(u.raw, off)
			if bytes.Equal(u.raw[off:k], key) {
				dup = true
				break
			}
			off = itemEnd(u.raw, k)
		}
	}
	if dup {
		u.raw = u.raw[:mark]
		if d.opts.DupMapKey == DupMapKeyEnforcedAPF {
			if kind == KeyInt {
				return d.duplicateKey(n, i)
			}
			return d.duplicateKey(string(text), i)
		}
		return d.Skip() // the first value stays
	}
	if err := d.keepItem(u); err != nil {
		u.raw = u.raw[:mark]
		return err
	}
	u.n++
	u.pairs = true
	return nil
}

// noteKey adds a key to seen and reports whether it was there.
func noteKey(seen *UnknownKeys, kind KeyKind, text []byte, n int64) bool {
	if kind == KeyText {
		if _, dup := seen.text[string(text)]; dup {
			return true
		}
		if seen.text == nil {
			seen.text = make(map[string]struct{})
		}
		seen.text[string(text)] = struct{}{}
		return false
	}
	if _, dup := seen.ints[n]; dup {
		return true
	}
	if seen.ints == nil {
		seen.ints = make(map[int64]struct{})
	}
	seen.ints[n] = struct{}{}
	return false
}

// noteKept adds the keys of the pairs in raw (keys in their shortest
// form) to seen.
func noteKept(seen *UnknownKeys, raw []byte) {
	for off := 0; off < len(raw); {
		k := itemEnd(raw, off)
		arg, h := headLen(raw[off:])
		switch raw[off] >> 5 {
		case MajorText:
			noteKey(seen, KeyText, raw[off+h:k], 0)
		case MajorUint:
			noteKey(seen, KeyInt, nil, int64(arg))
		default:
			noteKey(seen, KeyInt, nil, -1-int64(arg))
		}
		off = itemEnd(raw, k)
	}
}

// KeepElem keeps the next item, an element of an extensible struct's
// array past its last field, in u: checked as Valid checks an item,
// within the decoder's limits. For generated code only.
func (d *Decoder) KeepElem(u *Unknown) error {
	if u.n > 0 && u.pairs {
		u.Reset()
	}
	if err := d.keepItem(u); err != nil {
		return err
	}
	u.n++
	return nil
}

// keepItem appends the next item's bytes to u.raw, as ReadRawBytes reads
// them.
func (d *Decoder) keepItem(u *Unknown) error {
	if d.off >= len(d.buf) {
		if err := d.need(1); err != nil {
			return d.eof(err, d.Offset(), "item") // inside the struct: never io.EOF itself
		}
	}
	d.pinned, d.pin = true, d.off // a refill keeps buf[pin:] and moves pin with it
	err := d.walk(validFlags, d.depth)
	d.pinned = false
	if err != nil {
		return err
	}
	u.raw = append(u.raw, d.buf[d.pin:d.off]...)
	return nil
}

// AppendUnknownElems appends the elements u keeps after the fields of an
// extensible struct's array, whose head counted them. For generated code
// only.
func AppendUnknownElems(dst []byte, u *Unknown) ([]byte, error) {
	if u.pairs && u.n > 0 {
		return nil, unknownError(ErrType, "runtime.Unknown holds map pairs; an array struct keeps elements")
	}
	return append(dst, u.raw...), nil
}

// mergeBufs are the scratch buffers of AppendUnknownPairs.
type mergeBuf struct {
	known []byte
	order []int // starts of u's pairs, then sorted
}

var mergePool = sync.Pool{New: func() any { return new(mergeBuf) }}

// AppendUnknownPairs merges the pairs u keeps into the map at dst[start:]
// that a map-format struct's encoder has just written (its head, then its
// fields' pairs with their keys in order): the pairs are rewritten in
// order, u's among them, under a head that counts them all. A key of u
// equal to a field's key is an error: the map would hold it twice. For
// generated code only.
func AppendUnknownPairs(dst []byte, start int, u *Unknown, order KeyOrder) ([]byte, error) {
	if u.n == 0 {
		return dst, nil
	}
	if !u.pairs {
		return nil, unknownError(ErrType, "runtime.Unknown holds array elements; a map-format struct keeps pairs")
	}
	known, h := headLen(dst[start:])
	m := mergePool.Get().(*mergeBuf)
	defer func() {
		if cap(m.known) > 1<<20 {
			m.known = nil
		}
		mergePool.Put(m)
	}()
	m.known = append(m.known[:0], dst[start+h:]...)
	m.order = m.order[:0]
	for off := 0; off < len(u.raw); {
		m.order = append(m.order, off)
		off = itemEnd(u.raw, itemEnd(u.raw, off))
	}
	keyOf := func(b []byte, off int) []byte { return b[off:itemEnd(b, off)] }
	less := func(a, b []byte) int {
		if order == SortLengthFirst && len(a) != len(b) {
			return len(a) - len(b)
		}
		return bytes.Compare(a, b)
	}
	if order == SortNone {
		// The merge below meets equal keys only when both are sorted.
		for ko := 0; ko < len(m.known); ko = itemEnd(m.known, itemEnd(m.known, ko)) {
			kk := keyOf(m.known, ko)
			for _, off := range m.order {
				if bytes.Equal(kk, keyOf(u.raw, off)) {
					return nil, unknownError(ErrDuplicateKey, "runtime.Unknown holds a key of a field of the struct")
				}
			}
		}
	} else {
		slices.SortFunc(m.order, func(a, b int) int { return less(keyOf(u.raw, a), keyOf(u.raw, b)) })
	}
	dst = AppendHead(dst[:start], MajorMap, known+uint64(u.n))
	kb, ko, j := m.known, 0, 0
	for ko < len(kb) || j < len(m.order) {
		if ko < len(kb) {
			kk := keyOf(kb, ko)
			if j < len(m.order) {
				uk := keyOf(u.raw, m.order[j])
				c := -1 // SortNone: the fields first
				if order != SortNone {
					c = less(kk, uk)
				}
				if bytes.Equal(kk, uk) {
					return nil, unknownError(ErrDuplicateKey, "runtime.Unknown holds a key of a field of the struct")
				}
				if c > 0 {
					end := itemEnd(u.raw, m.order[j]+len(uk))
					dst = append(dst, u.raw[m.order[j]:end]...)
					j++
					continue
				}
			}
			end := itemEnd(kb, ko+len(kk))
			dst = append(dst, kb[ko:end]...)
			ko = end
			continue
		}
		off := m.order[j]
		dst = append(dst, u.raw[off:itemEnd(u.raw, itemEnd(u.raw, off))]...)
		j++
	}
	return dst, nil
}

// unknownError is the error of a runtime.Unknown that cannot be written
// or added to: "cbor: " and msg, wrapping cause.
func unknownError(cause error, msg string) error { return fmt.Errorf("cbor: %s: %w", msg, cause) }
