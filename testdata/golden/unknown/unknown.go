// Package unknown is a golden case: values that keep what their decoder
// does not know in a runtime.Unknown field, and write it back, so that a
// program that reads and writes a record keeps the keys and elements of
// newer versions.
package unknown

import "github.com/cborgen/cborgen/runtime"

// Post is a map-format record with text keys, some left out when empty;
// the keys it does not know stay in Extra.
//
//cborgen:map
type Post struct {
	Text   string   `cbor:"text"`
	Tags   []string `cbor:"tags,omitempty"`
	Likes  uint64   `cbor:"likes,omitempty"`
	Reply  *Post    `cbor:"reply,omitempty"`
	Extra  runtime.Unknown
	hidden int
}

// Claims is a map-format type with integer keys under a tag of its own,
// its unknown claims kept in an unexported field.
//
//cborgen:map
//cborgen:tag 61
type Claims struct {
	Issuer  string `cbor:"1,keyasint,omitempty"`
	Subject string `cbor:"2,keyasint,omitempty"`
	Expiry  int64  `cbor:"4,keyasint,omitempty"`
	rest    runtime.Unknown
}

// Event is an array type that newer versions extend: the elements they
// append stay in More, after the fields when it is written again.
//
//cborgen:extensible
type Event struct {
	Kind  uint8
	At    int64
	Posts []Post
	More  runtime.Unknown `cbor:"-"`
}

// Key ends early when its last fields are zero, unless it keeps elements
// of a newer version, which follow its last field.
//
//cborgen:extensible
//cborgen:optional 1
type Key struct {
	Kty   int64
	Kid   []byte
	Alg   int64
	Extra runtime.Unknown
}

// Feed holds the others.
type Feed struct {
	Events []Event
	Keys   map[string]Key
	Claims *Claims
}

// Rest returns the claims c does not know.
func (c *Claims) Rest() *runtime.Unknown { return &c.rest }
