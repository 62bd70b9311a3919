package runtime

import (
	"encoding/binary"
	"sync/atomic"
	"unicode/utf8"
)

// The loop of a generated legacy decoder (a struct read from a map keyed
// by field name, as fxamacker/cbor writes a struct): the same for every
// type but for its table of keys, so it is here once rather than in every
// type's code. Per type the generator writes the table and
//
//	func (v *T) cborDecodeMap(d *runtime.Decoder) error {
//		var m runtime.LegacyMap
//		for m.More() {
//			field, err := d.LegacyField(&m, &cborKeysT)
//			if field < 0 {
//				return err
//			}
//			if err := v.cborDecodeFields(d, field, field+1); err != nil {
//				return err
//			}
//		}
//		d.Leave()
//		return nil
//	}
//
// Nothing escapes: the state lives in the generated function's frame and
// the table is a package-level variable of literals.

// LegacyKeys are the keys of a struct's fields in its legacy map format,
// in field order (field i of the struct is index i).
type LegacyKeys struct {
	// Text holds each field's text key; "" for a keyasint field and for
	// a reserved one (whose old key is skipped like any unknown key).
	Text []string
	// Ints maps the integer keys of the keyasint fields to their fields.
	Ints []IntKey
	// Names holds the fields' Go names, for the error of a duplicate key
	// in strict mode; nil when they are Text.
	Names []string

	// heads holds, made on first use, each field's key with its head as
	// the first bytes of the input hold them (keyWord).
	heads atomic.Pointer[[]keyWord]
}

// keyWord is a field's key as two 8-byte little-endian loads of the input
// hold it: a text key of up to 15 bytes with its one-byte head, or an
// integer key from -24 to 23 (keyasint), which is its head alone. The
// bytes are in w0 and w1, the bits of the loads to compare in m0 and m1.
// m0 is 0 for any other key (longer text, text that is not valid UTF-8, a
// wider integer) and for a field without one, which the fast path leaves
// to the general one.
type keyWord struct{ w0, m0, w1, m1 uint64 }

// makeKeyWords makes k's heads, on first use. Two decoders that make them
// at once make the same table; either one stays.
func (k *LegacyKeys) makeKeyWords() *[]keyWord {
	fields := max(len(k.Text), len(k.Names)) // Text is nil without text keys
	for _, ik := range k.Ints {
		fields = max(fields, ik.Field+1)
	}
	w := make([]keyWord, fields)
	for i, s := range k.Text {
		n := len(s)
		if n == 0 || n > 15 || !utf8.ValidString(s) {
			continue
		}
		var b [16]byte
		b[0] = byte(0x60 + n)
		copy(b[1:], s)
		w[i].w0, w[i].m0 = binary.LittleEndian.Uint64(b[:]), ^uint64(0)
		if n < 8 {
			w[i].m0 >>= 64 - 8*(n+1)
		} else {
			w[i].w1, w[i].m1 = binary.LittleEndian.Uint64(b[8:]), ^uint64(0)>>(64-8*(n-7))
		}
	}
	for _, ik := range k.Ints {
		switch {
		case ik.Key >= 0 && ik.Key < 24:
			w[ik.Field] = keyWord{w0: uint64(ik.Key), m0: 0xff}
		case ik.Key < 0 && ik.Key >= -24:
			w[ik.Field] = keyWord{w0: uint64(0x20 + (-1 - ik.Key)), m0: 0xff}
		}
	}
	k.heads.Store(&w)
	return &w
}

// matchKey is the first field from from on whose key the loads in0 and in1
// hold, or -1.
func matchKey(heads []keyWord, from uint, in0, in1 uint64) int {
	for i := int(from); i < len(heads); i++ {
		if h := &heads[i]; in0&h.m0 == h.w0 && in1&h.m1 == h.w1 && h.m0 != 0 {
			return i
		}
	}
	return -1
}

// loadKey is the little-endian load of up to 8 bytes of p, zero past its end.
func loadKey(p []byte) uint64 {
	if len(p) >= 8 {
		return binary.LittleEndian.Uint64(p)
	}
	var x uint64
	for i := len(p) - 1; i >= 0; i-- {
		x = x<<8 | uint64(p[i])
	}
	return x
}

// IntKey is the integer key of a keyasint field and the field's index.
type IntKey struct {
	Key   int64
	Field int
}

// LegacyMap is the state of one legacy map being read by LegacyField.
// Its zero value is a map whose head is still to be read.
type LegacyMap struct {
	n, i int    // the map's pairs (-1: indefinite) and the next pair's index
	next int    // the field after the one read last: keys usually come in field order
	seen uint64 // bit f: field f has been read (fields 0 to 63)
	// heads are the keys' heads (keyWord) when the fast path applies to
	// the map's pairs: a definite map, outside strict mode, of a struct
	// of 64 fields or fewer, strings of 15 bytes allowed; else nil.
	heads *[]keyWord
	open  bool // the head has been read
	// Wide holds the bits of fields seen for a struct of more than 64
	// fields: one word per 64 fields, given by the generated code.
	Wide []uint64
}

// More reports whether LegacyField is to be called for m: until the head
// is read, and then while pairs of a definite map are left (always for an
// indefinite one, whose end LegacyField finds). After the last pair of a
// definite map the generated code calls Decoder.Leave itself, which spares
// a call per map.
func (m *LegacyMap) More() bool { return !m.open || m.i != m.n }

// opened records the head of a map of n pairs (not a null).
func (m *LegacyMap) opened(d *Decoder, keys *LegacyKeys, n int) {
	m.n, m.open = n, true
	if n > 0 && keys != nil && m.Wide == nil && !d.opts.Strict && d.opts.MaxStringLength >= 15 {
		hp := keys.heads.Load()
		if hp == nil {
			hp = keys.makeKeyWords()
		}
		m.heads = hp
	}
}

// LegacyField reads up to the next pair of the map whose key names a field
// of keys and returns the field's index, with the decoder at the pair's
// value; the generated code then decodes the value into the field. It
// reads the map's head on the first call (a null or undefined in place of
// the map keeps the value, as fxamacker/cbor keeps a struct: -1 and a nil
// error). Pairs whose key names no field are skipped, as are the values of
// a key that names a field read before, so that the first one stays, as
// fxamacker's default keeps it (duplicateField; an error in strict mode).
// A text key that names no field exactly takes fxamacker's
// case-insensitive fallback (foldedField). At the end of the map it leaves
// it and returns -1 and a nil error; on an error, -1 and the error.
func (d *Decoder) LegacyField(m *LegacyMap, keys *LegacyKeys) (int, error) {
	// The head of a definite map of fewer than 24 pairs, in this call.
	if !m.open {
		n, ok := d.TryMapHead()
		if !ok {
			return d.legacyField(m, keys)
		}
		// m.opened in line (TryMapHead is not in strict mode).
		m.n, m.open = n, true
		if n > 0 && keys != nil && m.Wide == nil && d.opts.MaxStringLength >= 15 {
			hp := keys.heads.Load()
			if hp == nil {
				hp = keys.makeKeyWords()
			}
			m.heads = hp
		}
	}
	if m.i == m.n {
		d.Leave() // the end of a definite map
		return -1, nil
	}
	// The fast path for a pair (m.heads says when it applies): its key is
	// text of up to 15 bytes with a one-byte head, or an integer with a
	// one-byte head, whole in the buffer. One load holds the head and up
	// to 7 bytes of text, a second one the rest; they are compared with
	// the fields' keys, the field after the one read last first (a map
	// written from the struct lists its fields in order, some left out).
	// A key that equals a field's is valid UTF-8 as that key is. Unknown
	// keys, duplicates, case folding and the rest take the general path.
	if hp := m.heads; hp != nil {
		heads := *hp
		off, rest := d.off, len(d.buf)-d.off
		if rest <= 0 {
			return d.legacyField(m, keys)
		}
		in0 := loadKey(d.buf[off:])
		size, b := 1, int(in0&0xff)
		var in1 uint64
		if n := b - 0x60; uint(n) <= 15 {
			size += n
			if n >= 8 && size <= rest {
				in1 = loadKey(d.buf[off+8:])
			}
		} else if b >= 0x40 || b&0x1f >= 0x18 {
			return d.legacyField(m, keys) // neither such text nor such an integer
		}
		if size > rest {
			return d.legacyField(m, keys)
		}
		// The field after the one read last first, then the fields after
		// it (fields left out), then those before.
		field := m.next
		if uint(field) >= uint(len(heads)) || in0&heads[field].m0 != heads[field].w0 || in1&heads[field].m1 != heads[field].w1 || heads[field].m0 == 0 {
			field = matchKey(heads, min(uint(field)+1, uint(len(heads))), in0, in1)
			if field < 0 {
				if field = matchKey(heads[:min(uint(m.next), uint(len(heads)))], 0, in0, in1); field < 0 {
					return d.legacyField(m, keys)
				}
			}
		}
		if bit := uint64(1) << (field & 63); m.seen&bit == 0 {
			m.seen |= bit
			d.off = off + size
			m.i++
			m.next = field + 1
			return field, nil
		}
	}
	return d.legacyField(m, keys)
}

// equalKey reports whether key and name (of the same length) hold the
// same bytes: a loop for the short keys of most structs, which costs less
// than the call of the general comparison.
func equalKey(key []byte, name string) bool {
	if len(key) > 8 {
		return string(key) == name
	}
	if len(name) != len(key) {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] != name[i] {
			return false
		}
	}
	return true
}

// legacyField is LegacyField past its fast path: the map's head, and a
// pair of any other kind.
func (d *Decoder) legacyField(m *LegacyMap, keys *LegacyKeys) (int, error) {
	if !m.open {
		n, err := d.readStructMapHead()
		if err != nil || n == NullKept {
			return -1, err
		}
		m.opened(d, keys, n)
	}
	for ; m.i != m.n; m.i++ {
		if m.n < 0 {
			if more, err := d.NextPair(m.n, m.i); err != nil {
				return -1, err
			} else if !more {
				break
			}
		}
		kind, key, num, err := d.readKeyParts()
		if err != nil {
			return -1, err
		}
		field := -1
		if keys != nil {
			switch kind {
			case KeyText:
				field = keys.textField(key, m.next)
			case KeyInt:
				field = keys.intField(num)
			}
		}
		if field < 0 {
			if err := d.Skip(); err != nil {
				return -1, err
			}
			continue
		}
		if m.isSeen(field) {
			if err := d.duplicateField(keys.name(field)); err != nil {
				return -1, err
			}
			continue
		}
		m.i++
		m.next = field + 1
		return field, nil
	}
	d.Leave()
	return -1, nil
}

// isSeen reports whether field has been read before, and marks it read.
func (m *LegacyMap) isSeen(field int) bool {
	if m.Wide != nil {
		w, bit := &m.Wide[field/64], uint64(1)<<(field%64)
		seen := *w&bit != 0
		*w |= bit
		return seen
	}
	bit := uint64(1) << (field & 63) // field < 64 here; the mask spares a check of the count
	seen := m.seen&bit != 0
	m.seen |= bit
	return seen
}

// textField is the field whose text key is key, or -1: the field after the
// one read last first (maps written from the struct list its fields in
// order), then every field, then fxamacker's case-insensitive fallback.
func (k *LegacyKeys) textField(key []byte, next int) int {
	if len(key) == 0 {
		return -1 // no field has the empty key ("" marks a field without a text key)
	}
	if uint(next) < uint(len(k.Text)) && len(k.Text[next]) == len(key) && equalKey(key, k.Text[next]) {
		return next
	}
	for i, s := range k.Text {
		if len(s) == len(key) && s[0] == key[0] && equalKey(key, s) {
			return i
		}
	}
	return foldedField(key, k.Text)
}

// intField is the keyasint field whose key is n, or -1.
func (k *LegacyKeys) intField(n int64) int {
	for _, ik := range k.Ints {
		if ik.Key == n {
			return ik.Field
		}
	}
	return -1
}

// name is field's Go name, for the error of a duplicate key.
func (k *LegacyKeys) name(field int) string {
	if k.Names != nil {
		return k.Names[field]
	}
	return k.Text[field]
}
