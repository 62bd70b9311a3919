package genrt

// The rules of Options.DupMapKey and Options.ExtraReturnErrors, for the
// maps generated decoders read into structs (legacy and //cborgen:map)
// and into Go map fields. Each check is one comparison of an option when
// the option is off; tracking unknown keys costs only when they occur.

// UnknownKeys holds the keys of one struct's map that named no field,
// when Options.DupMapKey asks for them to be tracked (DupMapKeyEnforcedAPF),
// so that a repeated unknown key is found, as fxamacker/cbor finds it.
// Generated code declares one, zero, per map it reads; it allocates
// nothing until the first unknown key under that option. For generated
// code only.
type UnknownKeys struct {
	text map[string]struct{}
	ints map[int64]struct{}
}

// UnknownKey is called by a generated struct decoder for the key of pair
// i of its map that names no field (kind, text and n as ReadKeyParts
// returned them), before its value. It skips the value, or returns the
// error the options make of the key: with ExtraDecErrorUnknownField an
// ErrUnknownField, with DupMapKeyEnforcedAPF an ErrDuplicateKey for a key
// that came before in the same map (u) and named no field either. For
// generated code only.
func (d *Decoder) UnknownKey(u *UnknownKeys, kind KeyKind, text []byte, n int64, i int) error {
	if d.opts.ExtraReturnErrors != ExtraDecErrorUnknownField && d.opts.DupMapKey != DupMapKeyEnforcedAPF {
		return d.Skip()
	}
	return d.unknownKey(u, kind, text, n, i)
}

func (d *Decoder) unknownKey(u *UnknownKeys, kind KeyKind, text []byte, n int64, i int) error {
	if d.opts.ExtraReturnErrors == ExtraDecErrorUnknownField {
		return d.Errorf(ErrUnknownField, "found unknown field at map element index %d", i)
	}
	switch kind {
	case KeyText:
		if _, dup := u.text[string(text)]; dup {
			return d.duplicateKey(string(text), i)
		}
		if u.text == nil {
			u.text = make(map[string]struct{})
		}
		u.text[string(text)] = struct{}{}
	case KeyInt:
		if _, dup := u.ints[n]; dup {
			return d.duplicateKey(n, i)
		}
		if u.ints == nil {
			u.ints = make(map[int64]struct{})
		}
		u.ints[n] = struct{}{}
	}
	return d.Skip()
}

// RepeatedField is called by a generated struct decoder for the key of
// pair i of its map that names a field read before in the same map
// (exactly, or through the case-insensitive match), with the key's parts
// as ReadKeyParts returned them. Under DupMapKeyEnforcedAPF or Strict it
// is an ErrDuplicateKey; otherwise it skips the value, so that the first
// one stays, as fxamacker/cbor's default (DupMapKeyQuiet) keeps it. For
// generated code only.
func (d *Decoder) RepeatedField(kind KeyKind, text []byte, n int64, i int) error {
	if d.opts.DupMapKey != DupMapKeyEnforcedAPF && !d.opts.Strict {
		return d.Skip()
	}
	if kind == KeyInt {
		return d.duplicateKey(n, i)
	}
	return d.duplicateKey(string(text), i)
}

// duplicateKey is fxamacker/cbor's DupMapKeyError as a *Error, with its
// text: key as Go's %#v shows it.
func (d *Decoder) duplicateKey(key any, i int) error {
	return d.Errorf(ErrDuplicateKey, "found duplicate map key %#v at map element index %d", key, i)
}

// MapDups is what a generated decoder of a Go map field needs to find a
// repeated key under DupMapKeyEnforcedAPF: On, and the keys the map held
// before the decode began that the input has not named yet. Generated
// code gets one from NewMapDups before the pairs, and calls RepeatedKey
// for each key when On. For generated code only.
type MapDups[K comparable] struct {
	On     bool
	before map[K]struct{}
}

// NewMapDups returns the MapDups of a decode into m (not nil): off unless
// d's options refuse repeated keys; it copies m's keys only when m is not
// empty. For generated code only.
func NewMapDups[K comparable, V any](d *Decoder, m map[K]V) MapDups[K] {
	if d.opts.DupMapKey != DupMapKeyEnforcedAPF {
		return MapDups[K]{}
	}
	s := MapDups[K]{On: true}
	if len(m) > 0 {
		s.before = make(map[K]struct{}, len(m))
		for k := range m {
			s.before[k] = struct{}{}
		}
	}
	return s
}

// RepeatedKey reports, as an ErrDuplicateKey, that k, the key of pair i,
// is in m already and was put there by this decode: fxamacker/cbor's
// rule, under which a key the map held before is a repeat only when the
// input names it a second time. For generated code only.
func RepeatedKey[K comparable, V any](d *Decoder, s *MapDups[K], m map[K]V, k K, i int) error {
	if _, in := m[k]; !in {
		return nil
	}
	if _, old := s.before[k]; old {
		delete(s.before, k)
		return nil
	}
	return d.duplicateKey(k, i)
}

// FoldedField is the package's FoldedField under d's options: -1 under
// FieldNameMatchingCaseSensitive, where a key must name its field exactly.
// For generated code only.
func (d *Decoder) FoldedField(key []byte, keys []string) int {
	if d.opts.FieldNameMatching == FieldNameMatchingCaseSensitive {
		return -1
	}
	return FoldedField(key, keys)
}
