// Package body is a golden case: types that keep their own MarshalCBOR
// and UnmarshalCBOR (//cborgen:body), for which cbor-gen generates the
// body those methods call, and the types that hold them, whose generated
// code calls the types' own methods so that the hooks run for nested
// values too.
package body

import (
	"fmt"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// Versioned is a record under a tag whose hooks default its version on
// encoding and check it on decoding. It writes AppendCBOR, DecodeCBOR and
// SizeCBOR too, so the types that hold it call those: no buffer per
// value.
//
//cborgen:body
//cborgen:tag 1001
type Versioned struct {
	Version uint8
	Name    string
}

// MarshalCBOR encodes v with its version defaulted.
func (v Versioned) MarshalCBOR() ([]byte, error) { return v.AppendCBOR(nil) }

// AppendCBOR appends v with its version defaulted.
func (v *Versioned) AppendCBOR(dst []byte) ([]byte, error) {
	if v == nil {
		return genrt.AppendNull(dst), nil
	}
	c := *v
	if c.Version == 0 {
		c.Version = 1
	}
	return c.AppendCBORBody(dst)
}

// SizeCBOR bounds the size of v's encoding.
func (v *Versioned) SizeCBOR() int { return v.SizeCBORBody() }

// UnmarshalCBOR decodes exactly one Versioned from data.
func (v *Versioned) UnmarshalCBOR(data []byte) error {
	return runtime.Unmarshal(data, v, runtime.Options{})
}

// DecodeCBOR decodes a Versioned and checks its version.
func (v *Versioned) DecodeCBOR(d *runtime.Decoder) error {
	if err := v.DecodeCBORBody(d); err != nil {
		return err
	}
	if v.Version != 1 {
		return fmt.Errorf("body: Versioned version %d, want 1", v.Version)
	}
	return nil
}

// Hashed keeps the bytes it was decoded from. It has only MarshalCBOR and
// UnmarshalCBOR, so the types that hold it call those.
//
//cborgen:body
type Hashed struct {
	Raw []byte `cbor:"-"`
	A   int
	B   string
}

// MarshalCBOR encodes h.
func (h Hashed) MarshalCBOR() ([]byte, error) {
	return h.AppendCBORBody(make([]byte, 0, h.SizeCBORBody()))
}

// UnmarshalCBOR decodes h and keeps a copy of data.
func (h *Hashed) UnmarshalCBOR(data []byte) error {
	if err := runtime.UnmarshalBody(data, h, runtime.Options{}); err != nil {
		return err
	}
	h.Raw = append(h.Raw[:0], data...)
	return nil
}

// Holder holds the two in every position.
type Holder struct {
	V  Versioned
	Vs []Versioned
	Vm map[string]Versioned
	Vp *Versioned
	H  Hashed
	Hs []Hashed
	Hm map[int]Hashed
	Hp *Hashed
}

// Plain, Direct and Buffered have the same fields, to measure what each
// way of reaching a nested value costs (examples/hooks/routes_test.go):
// Plain is generated whole; Direct is a body type whose hooks include
// AppendCBOR, DecodeCBOR and SizeCBOR, which holders call; Buffered one
// with only MarshalCBOR and UnmarshalCBOR, which holders call with a
// buffer of its own per value and the item's bytes.
type Plain struct {
	A int
	B string
	C []uint16
}

// Direct is Plain with hooks that do nothing but call the body.
//
//cborgen:body
type Direct struct {
	A int
	B string
	C []uint16
}

// MarshalCBOR encodes v.
func (v Direct) MarshalCBOR() ([]byte, error) { return v.AppendCBOR(make([]byte, 0, v.SizeCBOR())) }

// AppendCBOR appends v to dst.
func (v *Direct) AppendCBOR(dst []byte) ([]byte, error) { return v.AppendCBORBody(dst) }

// SizeCBOR bounds the length of v's encoding.
func (v *Direct) SizeCBOR() int { return v.SizeCBORBody() }

// UnmarshalCBOR decodes data, which must hold exactly one Direct.
func (v *Direct) UnmarshalCBOR(data []byte) error {
	return runtime.Unmarshal(data, v, runtime.Options{})
}

// DecodeCBOR reads a Direct from d.
func (v *Direct) DecodeCBOR(d *runtime.Decoder) error { return v.DecodeCBORBody(d) }

// Buffered is Plain with only the two fxamacker hooks.
//
//cborgen:body
type Buffered struct {
	A int
	B string
	C []uint16
}

// MarshalCBOR encodes v.
func (v Buffered) MarshalCBOR() ([]byte, error) {
	return v.AppendCBORBody(make([]byte, 0, v.SizeCBORBody()))
}

// UnmarshalCBOR decodes data, which must hold exactly one Buffered.
func (v *Buffered) UnmarshalCBOR(data []byte) error {
	return runtime.UnmarshalBody(data, v, runtime.Options{})
}

// Routes holds each of the three.
type Routes struct {
	Plain    []Plain
	Direct   []Direct
	Buffered []Buffered
}

// Percent is a named integer whose hooks refuse values above 100: a body
// type need not be a struct.
//
//cborgen:body
type Percent uint8

// MarshalCBOR encodes p.
func (p Percent) MarshalCBOR() ([]byte, error) { return p.AppendCBORBody(nil) }

// UnmarshalCBOR decodes a Percent and checks its range.
func (p *Percent) UnmarshalCBOR(data []byte) error {
	if err := runtime.UnmarshalBody(data, p, runtime.Options{}); err != nil {
		return err
	}
	if *p > 100 {
		return fmt.Errorf("body: %d percent", *p)
	}
	return nil
}

// Scores holds percents. A []Percent would be a byte string, as
// fxamacker writes a slice of a named byte type, without the hook.
type Scores struct {
	Best   Percent
	ByName map[string]Percent
}

// Signed is a generic body type: its hooks are generic too.
//
//cborgen:body
type Signed[T any] struct {
	Value T
	Sig   []byte
}

// MarshalCBOR encodes s.
func (s Signed[T]) MarshalCBOR() ([]byte, error) { return s.AppendCBORBody(nil) }

// UnmarshalCBOR decodes s and requires a signature.
func (s *Signed[T]) UnmarshalCBOR(data []byte) error {
	if err := runtime.UnmarshalBody(data, s, runtime.Options{}); err != nil {
		return err
	}
	if len(s.Sig) == 0 {
		return fmt.Errorf("body: unsigned value")
	}
	return nil
}

// Ledger holds signed values.
type Ledger struct {
	Entries []Signed[string]
	Last    *Signed[Plain]
}
