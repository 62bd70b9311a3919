// Package halfmethods is a golden case: types with one method of a pair,
// which fxamacker/cbor calls one way while it goes by the type's kind the
// other way. The generated code does the same, without reflection.
package halfmethods

import (
	"errors"
	"strconv"
	"strings"

	"github.com/fxamacker/cbor/v2"
)

// Celsius has only UnmarshalCBOR, which also reads the text form an older
// writer used ("21.5C"); it is written as the float it is.
type Celsius float64

// UnmarshalCBOR reads a number, or text ending in C.
func (c *Celsius) UnmarshalCBOR(data []byte) error {
	var f float64
	if err := cbor.Unmarshal(data, &f); err == nil {
		*c = Celsius(f)
		return nil
	}
	var s string
	if err := cbor.Unmarshal(data, &s); err != nil {
		return errors.New("halfmethods: temperature is neither a number nor text")
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "C"), 64)
	if err != nil {
		return err
	}
	*c = Celsius(f)
	return nil
}

// Level has only MarshalCBOR, which caps it at 9; it is read as the
// unsigned integer it is.
type Level uint8

// MarshalCBOR writes the level, at most 9.
func (l Level) MarshalCBOR() ([]byte, error) { return cbor.Marshal(uint8(min(l, 9))) }

// Code has only MarshalBinary: written as a byte string of its four bytes,
// read as the [4]byte it is.
type Code [4]byte

// MarshalBinary returns the code's bytes.
func (c Code) MarshalBinary() ([]byte, error) { return c[:], nil }

// Labels has only UnmarshalBinary, which splits a byte string at commas;
// it is written as the array of text it is.
type Labels []string

// UnmarshalBinary reads comma-separated labels.
func (l *Labels) UnmarshalBinary(b []byte) error {
	*l = strings.Split(string(b), ",")
	return nil
}

// Reading holds each kind, in containers too.
type Reading struct {
	Temp   Celsius
	Temps  []Celsius
	Lvl    Level
	ByName map[string]Level
	Code   Code
	Labels Labels
	Ptr    *Celsius
}
