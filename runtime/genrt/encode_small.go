package genrt

// Owned returns a copy of enc, the encoding that -small's MarshalCBOR
// wrote into a buffer in its frame, or err:
//
//	var b [64]byte
//	return genrt.Owned(v.AppendCBOR(b[:0]))
//
// (a value of up to 64 bytes is written without a buffer on the heap, a
// longer one into the buffer append grows). MarshalCBOR then calls no
// SizeCBOR, which a program that calls only the byte methods does not
// link. Out of line: one call, the same in every type.
//
//go:noinline
func Owned(enc []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(enc))
	copy(out, enc)
	return out, nil
}
