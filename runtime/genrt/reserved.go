package genrt

// Reserved is the type of a struct field that keeps the array slot of a
// retired field, so that the fields after it keep theirs:
//
//	type Order struct {
//		ID    uint64
//		_     runtime.Reserved // was Coupon string; retired in v3
//		Items []Item
//	}
//
// Generated code and, through its MarshalCBOR and UnmarshalCBOR,
// fxamacker/cbor write a reserved slot as null (f6) and skip whatever an
// older writer left there. A reserved slot stays reserved: cbor-gen
// refuses to give it to another field, because stored data may still
// hold the retired field's values there (docs/schema.md).
type Reserved struct{}

// MarshalCBOR writes null, the value of every reserved slot.
func (Reserved) MarshalCBOR() ([]byte, error) { return []byte{0xf6}, nil }

// UnmarshalCBOR accepts any data item and ignores it.
func (*Reserved) UnmarshalCBOR([]byte) error { return nil }
