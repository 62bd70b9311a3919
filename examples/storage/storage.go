// Package storage is the record format of a small account-based value store.
//
// A stored value is a [Composite]: a typed record that names where its type was
// declared ([Location]), carries an identifier, a kind, and a list of fields
// whose values may themselves be composites, arrays or dictionaries.
//
// Version 1 of the store wrote every struct as a CBOR map keyed by the names in
// the struct tags below. Version 2 writes the array format that cbor-gen
// generates: one CBOR array per struct, fields in declaration order. Records
// written by version 1 are still read: UnmarshalCBOR and DecodeCBOR accept both
// shapes, and writing a record back always produces the array format. That is
// why the tags stay: they are the keys of the old map records.
package storage

//go:generate go tool cbor-gen -type Location,Composite,Field,Value,Path,Limits

// Address is an 8-byte account address. It is written as a CBOR byte string,
// as fxamacker/cbor writes every byte array.
type Address [8]byte

// Identifier names one stored value, unique within an account.
type Identifier = []byte

// Kind tells what a composite value is.
type Kind uint8

// The kinds of composite values.
const (
	KindUnknown Kind = iota
	KindStruct
	KindResource
	KindEvent
	KindEnum
)

// Location is the place a composite type was declared: an account and the
// name of the contract within it.
type Location struct {
	Address Address `cbor:"a"`
	Name    string  `cbor:"n"`
}

// Composite is one stored record.
type Composite struct {
	Location Location   `cbor:"l"`
	ID       Identifier `cbor:"id"`
	Kind     Kind       `cbor:"k"`
	// TypeName is the qualified name of the composite type. Version 1
	// shared this struct with the JSON export, so the key is the JSON name.
	TypeName string  `json:"type"`
	Fields   []Field `cbor:"f,omitempty"`
	// Version counts the writes to this record.
	Version uint64 `cbor:"v,omitempty"`
	// Cache is filled by the loader and never stored.
	Cache *Composite `cbor:"-"`
}

// Field is one named member of a composite. Its map form, from version 1,
// used integer keys to keep records small; it is an array now.
//
//cborgen:array
type Field struct {
	Name  string `cbor:"1,keyasint"`
	Value Value  `cbor:"2,keyasint"`
}

// Value is a stored value. Exactly one member is set for a well-formed
// value; the zero Value is the "void" value. Every member is optional in the
// old map format, so every member is omitempty.
type Value struct {
	Bool      *bool            `cbor:"t,omitempty"`
	Int       *int64           `cbor:"i,omitempty"`
	Uint      *uint64          `cbor:"u,omitempty"`
	Fix       *Fix64           `cbor:"x,omitempty"`
	Float     *float64         `cbor:"f,omitempty"`
	Str       *string          `cbor:"s,omitempty"`
	Bytes     []byte           `cbor:"b,omitempty"`
	Hash      *[32]byte        `cbor:"h,omitempty"`
	Path      *Path            `cbor:"p,omitempty"`
	Array     []Value          `cbor:"a,omitempty"`
	Dict      map[string]Value `cbor:"d,omitempty"`
	Index     map[int32]string `cbor:"n,omitempty"`
	Composite *Composite       `cbor:"c,omitempty"`
}

// Fix64 is a fixed-point number with 8 decimal places.
type Fix64 int64

// Path addresses a value in an account's storage: a domain and an
// identifier, as in "storage/vault".
type Path struct {
	Domain     Domain `cbor:"d"`
	Identifier string `cbor:"i"`
}

// Domain is one of the storage domains of an account.
type Domain uint16

// The storage domains.
const (
	DomainStorage Domain = 1
	DomainPrivate Domain = 2
	DomainPublic  Domain = 3
)

// Limits bounds what an account may store. It is kept beside the account's
// records and written in the same format.
//
//cborgen:array
type Limits struct {
	MaxBytes   uint64 `cbor:"1,keyasint"`
	MaxRecords uint32 `cbor:"2,keyasint"`
	MaxDepth   uint8  `cbor:"3,keyasint"`
	Frozen     bool   `cbor:"4,keyasint,omitempty"`
	// Burst is how far above MaxBytes a single write may go, as a
	// fraction of MaxBytes.
	Burst float32 `cbor:"5,keyasint"`
	// Quotas holds the record quota of each domain: storage, private, public.
	Quotas [3]int16 `cbor:"6,keyasint"`
	// Exempt lists accounts whose writes are not counted, by whether the
	// exemption is permanent.
	Exempt map[bool][]Address `cbor:"7,keyasint,omitempty"`
}
