package runtime

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
//
// (It takes no function for the fields, which would make the Decoder
// escape to the heap in every generated decoder.)
func (d *Decoder) NextField(n, i, want int) (more bool, err error) {
	if n >= 0 {
		return false, WrongLength(d, want, n)
	}
	more, err = d.NextElem(n, i)
	switch {
	case err != nil:
		return false, err
	case !more && i != want:
		return false, WrongLength(d, want, i)
	case !more:
		d.Leave()
		return false, nil
	case i == want:
		return false, d.Errorf(ErrLength, "expected array of %s, found more", count(want, "element"))
	}
	return true, nil
}

// FoldKey is fxamacker/cbor's fallback for a map key that names no field
// of a struct exactly: the index of the first of keys (the text keys of
// the struct's fields, in field order; "" for a field without one) that
// equals key under case folding at the same length in bytes (KeyFold),
// or -1 when none does. It does not allocate.
func FoldKey(key []byte, keys []string) int {
	for i, name := range keys {
		if len(name) == len(key) && name != "" && KeyFold(key, name) {
			return i
		}
	}
	return -1
}
