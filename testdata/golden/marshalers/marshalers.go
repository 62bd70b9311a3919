// Package marshalers holds structs whose every field goes through a
// method of its own type: their encoders declare no err variable of
// their own (a struct of only such fields once did, and did not compile).
package marshalers

import (
	"net/netip"

	"github.com/fxamacker/cbor/v2"
)

// Money has hand-written CBOR methods, so it is not generated itself.
type Money struct {
	Units    int64
	Currency string
}

func (m Money) MarshalCBOR() ([]byte, error) {
	return cbor.Marshal([]any{m.Units, m.Currency})
}

func (m *Money) UnmarshalCBOR(data []byte) error {
	var a struct {
		_        struct{} `cbor:",toarray"`
		Units    int64
		Currency string
	}
	if err := cbor.Unmarshal(data, &a); err != nil {
		return err
	}
	m.Units, m.Currency = a.Units, a.Currency
	return nil
}

// Priced has only cbor.Marshaler fields.
type Priced struct {
	Price  Money
	Prices []Money
	Best   *Money
}

// Addressed has only encoding.BinaryMarshaler fields.
type Addressed struct {
	Addr  netip.Addr
	Addrs map[string]netip.Addr
}

// Octet is a byte with CBOR methods of its own. A slice of them is a byte
// string, as fxamacker/cbor writes it; an array it reads element by
// element, through UnmarshalCBOR (here: a number, or a text's length).
type Octet uint8

func (o Octet) MarshalCBOR() ([]byte, error) { return cbor.Marshal(uint8(o)) }

func (o *Octet) UnmarshalCBOR(data []byte) error {
	var s string
	if err := cbor.Unmarshal(data, &s); err == nil {
		*o = Octet(len(s))
		return nil
	}
	var u uint8
	err := cbor.Unmarshal(data, &u)
	*o = Octet(u)
	return err
}

// Octets holds a slice of Octet.
type Octets struct {
	Octets []Octet
}
