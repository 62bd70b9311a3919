package genrt

// The struct decoder of code generated with -small: the steps that are
// the same for every struct type (which format the item is in, the array's
// head and length, the legacy map's head, its keys, case folding,
// duplicate and unknown keys) are here once, driven by a table of the
// type's keys, and each type's code is a loop around one switch on the
// field to read:
//
//	var s genrt.StructFields
//	var err error
//	for {
//		field := d.NextStructField(&s, &cborFieldsT)
//		if field < 0 {
//			return s.End("T")
//		}
//		switch field {
//		case 0:
//			(field 0, as the default code reads it)
//		...
//		}
//	}
//
// It accepts and refuses what the default code accepts and refuses, with
// the same errors and values: the steps are the default code's, in the
// same order, with the same runtime calls. It is slower (a call per field
// and a search of the table per key) and much smaller.

// StructKeys describes a struct type to NextStructField: its field count
// and, when it reads the legacy map format, the keys of its fields. The
// generated code declares one per type, of literals only.
type StructKeys struct {
	// Fields is the number of fields: the length of the array.
	Fields int
	// Legacy: a map is read as the legacy format; else it is refused as
	// the array's head refuses any other item.
	Legacy bool
	// Text holds each field's text key, in field order; "" for a
	// keyasint field and a reserved one (whose old key is skipped like any
	// unknown key). nil when no field has a text key.
	Text []string
	// Ints maps the integer keys of the keyasint fields to their fields.
	Ints []IntKey
}

// IntKey is the integer key of a keyasint field and the field's index.
type IntKey struct {
	Key   int64
	Field int
}

// StructFields is the state of one struct value being read by
// NextStructField; its zero value is a value whose head is still to be
// read. The generated code declares one per value, in its own frame.
type StructFields struct {
	n, i    int    // the elements or pairs (-1: indefinite) and the next one's index
	fast    int    // n for an array of the struct's length, whose elements NextStructField names in line; else 0
	state   uint8  // structHead, structArray, structMap or structDone
	next    int    // the field after the one a key named last: keys usually come in field order
	seen    uint64 // bit f: field f has been read from the map (fields 0 to 63)
	unknown UnknownKeys
	// Err is the error of the last NextStructField that returned -1:
	// nil after the last field, else why the input is refused.
	Err error
}

const (
	structHead = iota
	structArray
	structMap
	structDone
)

// MaxStructFields is the most fields a struct may have for
// NextStructField, which records the fields a map has named in 64 bits.
// The generator gives a larger struct the default code.
const MaxStructFields = 64

// NextStructField reads up to the next field of the struct value s is
// reading and returns the field's index, with the decoder at the field's
// value: the generated code then reads the value into the field. On its
// first call it reads the value's head: an array (the current format) of
// k.Fields elements, or, when k.Legacy, a map keyed by field name (the
// legacy format, as fxamacker/cbor writes a struct); a null or undefined
// keeps the value, as fxamacker/cbor keeps a struct. In a map, pairs whose
// key names no field are skipped, and so are the values of a key that
// names a field read before (both as the options say: Options.DupMapKey,
// ExtraReturnErrors, FieldNameMatching). After the last field it leaves
// the array or map and returns -1 with s.Err nil; it returns -1 with s.Err
// set when the input is refused. For generated code only.
//
// The next element of an array of the struct's length is named in line,
// without a call; everything else is one call.
func (d *Decoder) NextStructField(s *StructFields, k *StructKeys) int {
	if s.i < s.fast {
		s.i++
		return s.i - 1
	}
	return d.nextStructFieldSlow(s, k)
}

// End is what DecodeCBOR returns once NextStructField has returned -1:
// nil after the last field, else s.Err with name, the struct type's, as
// the root of its path (AtRoot, OneItem). For generated code only.
func (s *StructFields) End(name string) error {
	if s.Err == nil {
		return nil
	}
	return AtRoot(s.Err, name, OneItem)
}

// nextStructFieldSlow is NextStructField's call, with the error in s.
//
//go:noinline
func (d *Decoder) nextStructFieldSlow(s *StructFields, k *StructKeys) int {
	f, err := d.nextStructField(s, k)
	if err != nil {
		// Only then: a write of a pointer costs a write barrier
		// while the collector runs.
		s.Err = err
	}
	return f
}

func (d *Decoder) nextStructField(s *StructFields, k *StructKeys) (int, error) {
	switch s.state {
	case structArray:
		return d.nextArrayField(s, k)
	case structMap:
		return d.nextMapField(s, k)
	case structHead:
		return d.structHead(s, k)
	}
	return -1, nil
}

// structHead reads the head of the value, as the default DecodeCBOR and
// its array and map decoders read it.
func (d *Decoder) structHead(s *StructFields, k *StructKeys) (int, error) {
	if k.Legacy {
		isMap := d.PeekIsMap()
		if !isMap && !d.PeekIsArray() {
			major, err := d.PeekMajor()
			if err != nil {
				return -1, err
			}
			isMap = major == MajorMap
		}
		if isMap {
			n, ok := d.TryMapHead()
			if !ok {
				var err error
				if n, err = d.ReadStructMapHead(); err != nil || n == NullKept {
					s.state = structDone
					return -1, err
				}
			}
			s.n, s.state = n, structMap
			return d.nextMapField(s, k)
		}
	}
	n := k.Fields
	if n >= 24 || !d.TryArrayHead(n) {
		var err error
		if n, err = d.ReadStructHead(); err != nil || n == NullKept {
			s.state = structDone
			return -1, err
		}
	}
	s.n, s.state = n, structArray
	if n == k.Fields {
		s.fast = n
	}
	return d.nextArrayField(s, k)
}

// nextArrayField is the next element of the array: the elements of an
// array of the struct's length one after the other; any other length
// goes through NextField, as in the default code (an error for a definite
// one, the elements of an indefinite one up to its break).
func (d *Decoder) nextArrayField(s *StructFields, k *StructKeys) (int, error) {
	i := s.i
	if s.n == k.Fields {
		if i < s.n {
			s.i++
			return i, nil
		}
		d.Leave()
		s.state = structDone
		return -1, nil
	}
	if more, err := d.NextField(s.n, i, k.Fields); !more {
		s.state = structDone
		return -1, err
	}
	s.i++
	return i, nil
}

// nextMapField reads the pairs of the legacy map up to one whose key
// names a field not read before, as the default legacy decoder does.
func (d *Decoder) nextMapField(s *StructFields, k *StructKeys) (int, error) {
	for ; s.i != s.n; s.i++ {
		i := s.i
		if s.n < 0 {
			if more, err := d.NextPair(s.n, i); err != nil {
				return -1, err
			} else if !more {
				break
			}
		}
		kind, key, num, err := d.ReadKeyParts()
		if err != nil {
			return -1, err
		}
		field := -1
		switch kind {
		case KeyText:
			field = k.textField(key, s.next)
			if field < 0 && k.Text != nil {
				field = d.FoldedField(key, k.Text)
			}
		case KeyInt:
			for _, ik := range k.Ints {
				if ik.Key == num {
					field = ik.Field
					break
				}
			}
		}
		if field < 0 {
			if err := d.UnknownKey(&s.unknown, kind, key, num, i); err != nil {
				return -1, err
			}
			continue
		}
		if bit := uint64(1) << (uint(field) & 63); s.seen&bit != 0 {
			if err := d.RepeatedField(kind, key, num, i); err != nil {
				return -1, err
			}
			continue
		} else {
			s.seen |= bit
		}
		s.i++
		s.next = field + 1
		return field, nil
	}
	d.Leave()
	s.state = structDone
	return -1, nil
}

// textField is the field whose text key is key exactly, the field at
// hint tried first, or -1.
func (k *StructKeys) textField(key []byte, hint int) int {
	if hint < len(k.Text) && k.Text[hint] != "" && string(key) == k.Text[hint] {
		return hint
	}
	for f, t := range k.Text {
		if t != "" && string(key) == t {
			return f
		}
	}
	return -1
}
