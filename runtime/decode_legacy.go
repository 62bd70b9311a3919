package runtime

import "encoding/binary"

// LegacyPairs is the state of a generated legacy decoder's loop over the
// pairs of a struct's map (the legacy format): the key just read, and how
// far the loop is. Its zero value is a loop that has not read the map's
// head. The loop, in outline (testdata/golden has whole ones):
//
//	var m runtime.LegacyPairs
//	for d.NextKey(&m) {
//		field := -1
//		... a switch on m.Kind and m.Text (or m.Num) sets field ...
//		if field < 0 {
//			field = d.OtherKey(&m, cborKeysT[:]) // case folding, or the value skipped
//		}
//		... a field seen before: d.DuplicateKey(&m, name); continue ...
//		... decode the field's value ...
//	}
//	return m.Err()
//
// Everything but the switch on the keys and the fields' values is here, once
// for every type: the head (a null keeps the value), indefinite-length maps
// and their break, the nesting level, case folding, skipping, duplicates.
type LegacyPairs struct {
	// Text is the key's text when Kind is KeyText: a view of the
	// input or of scratch space, valid until the next read.
	Text []byte
	// Num is the key's integer when Kind is KeyInt.
	Num  int64
	Kind KeyKind

	// i counts the keys read. n is a definite map's pair count (keys
	// up to it are read without nextKey's slow path), and 0 at the
	// start, in an indefinite-length map and after an error, where
	// every key takes the slow path.
	// last is n-1 while a definite map's keys are read, where NextKey
	// ends the map in line once i passes it, and noLast (or 0 before
	// the first key) everywhere else.
	i, n  int
	last  uint
	state uint8
	err   error
}

// noLast is LegacyPairs.last where no definite map is being read.
const noLast = ^uint(0)

// The states of a LegacyPairs loop.
const (
	pairsStart uint8 = iota
	pairsDefinite
	pairsIndefinite
	pairsDone
)

// NextKey reads the next key of the map of m into m and reports true, or
// reports false at the end of the map (after its break, when it has one,
// and leaving its nesting level) or at an error, which m.Err returns. The
// first call reads the map's head: a null or undefined there ends the loop
// at once with no error (the value keeps what it holds, as fxamacker/cbor
// keeps a struct); so does any error of the loop's own calls.
func (d *Decoder) NextKey(m *LegacyPairs) bool {
	// The end of a definite map in line, without a call (legacy maps
	// are mostly small): its level, entered by the head NextKey read,
	// has no break to consume, so Leave is the decrement alone.
	if m.last < uint(m.i) {
		m.last = noLast
		d.depth--
		return false
	}
	return d.nextKey(m)
}

// nextKey is NextKey but for the end of a definite map.
func (d *Decoder) nextKey(m *LegacyPairs) bool {
	if m.i >= m.n {
		// The start of a definite map in line, where TryMapHead reads
		// its head: a call less per map.
		switch m.state {
		case pairsStart:
			if n, ok := d.TryMapHead(); ok {
				if n == 0 {
					return d.endPairs(m)
				}
				m.state, m.n, m.last = pairsDefinite, n, uint(n-1)
				break
			}
			fallthrough
		default:
			if !d.nextKeySlow(m) {
				return false
			}
		}
	}
	m.i++
	// The common keys, without a frame of the size the general path
	// needs: ASCII text of up to 16 bytes with 16 bytes after the head
	// buffered, checked as two words as TryString does (within
	// shortText, which also keeps small length limits out); a small
	// unsigned integer (keyasint) in its head alone; and a short text
	// string with a one-byte head, whole in the buffer, with no call but
	// the UTF-8 check. Strict mode takes the general path.
	if p := d.buf[d.off:]; len(p) > 0 && !d.opts.Strict {
		b := p[0]
		if n := uint(b) - 0x60; n <= 16 && n < d.shortText && len(p) >= 17 &&
			binary.LittleEndian.Uint64(p[1:])&textMasks[n&31][0]|binary.LittleEndian.Uint64(p[9:])&textMasks[n&31][1] == 0 {
			d.off += int(1 + n)
			m.Kind, m.Text = KeyText, p[1:1+n:1+n]
			return true
		}
		if b < 0x18 {
			d.off++
			m.Kind, m.Num = KeyInt, int64(b)
			return true
		}
		if n := int(b) - 0x60; uint(n) < 24 && n < len(p) && n <= d.opts.MaxStringLength {
			if t := p[1 : 1+n : 1+n]; validUTF8(t) {
				d.off += 1 + n
				m.Kind, m.Text = KeyText, t
				return true
			}
		}
	}
	k, err := d.readKey()
	if err != nil {
		m.fail(err)
		return false
	}
	m.Kind, m.Text, m.Num = k.Kind, k.Text, k.Int
	return true
}

// nextKeySlow is NextKey at the start of a map whose head TryMapHead does
// not read, in an indefinite-length map, and after the end or an error. It
// reports whether a key follows, for NextKey to read.
func (d *Decoder) nextKeySlow(m *LegacyPairs) bool {
	switch m.state {
	case pairsStart:
		n, err := d.ReadStructMapHead()
		if err != nil {
			m.fail(err)
			return false
		}
		if n == NullKept {
			m.state = pairsDone
			return false
		}
		if level := d.depth - 1; n > 0 && (level >= 64 || d.breaks>>level&1 == 0) {
			m.state, m.n, m.last = pairsDefinite, n, uint(n-1)
			return true
		}
		if n == 0 {
			return d.endPairs(m)
		}
		// An indefinite-length map, counted by the head's read or
		// not: its break read at its end by NextPair, which Leave
		// then need not consume (NextKey's end of a definite map is
		// the decrement alone).
		if level := d.depth - 1; n > 0 {
			d.breaks &^= 1 << level
		}
		m.state, m.last = pairsIndefinite, noLast
		fallthrough
	case pairsIndefinite:
		more, err := d.NextPair(-1, m.i)
		if err != nil {
			m.fail(err)
			return false
		}
		if !more {
			return d.endPairs(m)
		}
		return true
	}
	return false
}

// endPairs ends the loop of m at the end of an empty or indefinite-length
// map (NextKey ends the others).
func (d *Decoder) endPairs(m *LegacyPairs) bool {
	d.Leave()
	m.state, m.last = pairsDone, noLast
	return false
}

// fail ends the loop of m with err.
func (m *LegacyPairs) fail(err error) {
	m.err, m.state, m.n, m.last = err, pairsDone, 0, noLast
}

// Err is the error that ended the loop of m, nil at the end of its map.
func (m *LegacyPairs) Err() error { return m.err }

// OtherKey is called for a key of m that names no field exactly. A text
// key that names a field under case folding, as fxamacker/cbor's
// case-insensitive fallback finds it (FoldedField over keys, the fields'
// keys in field order, "" for a field without a text key; nil when no field
// has one), returns that field's index. Any other key's value is skipped,
// and OtherKey returns -1.
func (d *Decoder) OtherKey(m *LegacyPairs, keys []string) int {
	if m.Kind == KeyText && keys != nil {
		if field := FoldedField(m.Text, keys); field >= 0 {
			return field
		}
	}
	if err := d.Skip(); err != nil {
		m.fail(err)
	}
	return -1
}

// DuplicateKey is called for a key of m that names field name a second
// time: outside strict mode it skips the value, so that the first one
// stays, as fxamacker/cbor's default (DupMapKeyQuiet) keeps it; in strict
// mode the loop ends with an ErrDuplicateKey (DuplicateField).
func (d *Decoder) DuplicateKey(m *LegacyPairs, name string) {
	if err := d.DuplicateField(name); err != nil {
		m.fail(err)
	}
}
