// Package hooks shows types that keep their own MarshalCBOR and
// UnmarshalCBOR to do something around the encoding, with the encoding
// itself generated (//cborgen:body): a record whose version the hooks
// default and check, a block that keeps the bytes it was decoded from for
// its hash, and an envelope whose payload decodes into a value the program
// puts in it before decoding. The types that hold them (Archive) are
// generated as usual and call their hooks, so the hooks run for nested
// values too.
package hooks

//go:generate go tool cbor-gen

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// RecordTag is the tag every Record is written under.
const RecordTag = 40100

// RecordVersion is the version of Record this package writes and reads.
const RecordVersion = 2

// ErrVersion is the cause of the error for a Record of another version.
var ErrVersion = errors.New("hooks: record version not supported")

// Record is a stored record under tag 40100. Its hooks write
// RecordVersion into a record that has no version (0) and refuse a record
// of any other version on decoding. It writes AppendCBOR, DecodeCBOR and
// SizeCBOR as well as the two fxamacker methods, so the generated types
// that hold a Record call those: no buffer of its own per nested value,
// and the decoder's options reach it.
//
//cborgen:body
//cborgen:tag 40100
type Record struct {
	Version uint16
	ID      uint64
	Name    string
	Labels  []string
}

// MarshalCBOR returns the encoding of r, with its version defaulted.
func (r Record) MarshalCBOR() ([]byte, error) { return r.AppendCBOR(make([]byte, 0, r.SizeCBOR())) }

// AppendCBOR appends the encoding of r to dst, with its version
// defaulted; r itself is not changed.
func (r *Record) AppendCBOR(dst []byte) ([]byte, error) {
	if r != nil && r.Version == 0 {
		c := *r
		c.Version = RecordVersion
		return c.AppendCBORBody(dst)
	}
	return r.AppendCBORBody(dst)
}

// SizeCBOR bounds the length of r's encoding.
func (r *Record) SizeCBOR() int { return r.SizeCBORBody() }

// UnmarshalCBOR decodes data, which must hold exactly one Record.
func (r *Record) UnmarshalCBOR(data []byte) error {
	return runtime.Unmarshal(data, r, runtime.Options{})
}

// DecodeCBOR reads a Record from d and checks its version. The error of
// a record of another version is a *runtime.Error at the record's
// offset, whose text holders complete with their path.
func (r *Record) DecodeCBOR(d *runtime.Decoder) error {
	off := d.Offset()
	if err := r.DecodeCBORBody(d); err != nil {
		return err
	}
	if r.Version != RecordVersion {
		err := &runtime.Error{Offset: off, Msg: fmt.Sprintf("record version %d, want %d", r.Version, RecordVersion), Err: ErrVersion}
		return genrt.AtRoot(err, "Record", genrt.OneItem)
	}
	return nil
}

// Block is a block of records that keeps the exact bytes it was decoded
// from: its hash is the hash of what was received, not of a re-encoding
// (which may differ from input that is not in the deterministic form). It
// has only the two fxamacker methods, so the generated types that hold a
// Block hand it the bytes of its item, as fxamacker does.
//
//cborgen:body
type Block struct {
	Height  uint64
	Prev    []byte // the hash of the block before
	Records []Record

	raw []byte // the bytes of the last decode
}

// MarshalCBOR returns the encoding of b's fields (not its kept bytes).
func (b Block) MarshalCBOR() ([]byte, error) {
	return b.AppendCBORBody(make([]byte, 0, b.SizeCBORBody()))
}

// UnmarshalCBOR decodes data, which must hold exactly one Block, and keeps
// a copy of it.
func (b *Block) UnmarshalCBOR(data []byte) error {
	b.raw = nil
	if err := runtime.UnmarshalBody(data, b, runtime.Options{}); err != nil {
		return err
	}
	b.raw = slices.Clone(data)
	return nil
}

// Raw returns the bytes b was last decoded from, or nil for a block that
// was not decoded.
func (b *Block) Raw() []byte { return b.raw }

// Hash returns the SHA-256 of the bytes b was decoded from, or of its
// encoding for a block that was not decoded.
func (b *Block) Hash() ([32]byte, error) {
	if b.raw != nil {
		return sha256.Sum256(b.raw), nil
	}
	enc, err := b.MarshalCBOR()
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(enc), nil
}

// Extension is a payload of the program's own: a type with CBOR methods,
// generated ones say (Reading).
type Extension interface {
	MarshalCBOR() ([]byte, error)
	UnmarshalCBOR(data []byte) error
}

// Envelope carries a payload whose type the program chooses. Ext is the
// extension point: the program puts a pointer to its own value there
// before decoding, and the decoding hook decodes the payload into it; with
// none there, the payload stays in Payload as it was read. On encoding an
// Ext, when set, is written as the payload.
//
//cborgen:body
type Envelope struct {
	Kind    string
	Seq     uint64
	Payload cbor.RawMessage
	Ext     Extension `cbor:"-"`
}

// MarshalCBOR returns the encoding of e, its payload taken from Ext when
// set.
func (e Envelope) MarshalCBOR() ([]byte, error) {
	if e.Ext != nil {
		p, err := e.Ext.MarshalCBOR()
		if err != nil {
			return nil, fmt.Errorf("hooks: Envelope extension: %w", err)
		}
		e.Payload = p
	}
	return e.AppendCBORBody(make([]byte, 0, e.SizeCBORBody()))
}

// UnmarshalCBOR decodes data, which must hold exactly one Envelope, and
// then its payload into Ext, if the program set one.
func (e *Envelope) UnmarshalCBOR(data []byte) error {
	if err := runtime.UnmarshalBody(data, e, runtime.Options{}); err != nil {
		return err
	}
	if e.Ext != nil {
		if err := e.Ext.UnmarshalCBOR(e.Payload); err != nil {
			return fmt.Errorf("hooks: Envelope extension: %w", err)
		}
	}
	return nil
}

// Reading is an extension a program may carry in an Envelope: a generated
// type.
type Reading struct {
	Sensor string
	Value  int64
}

// Archive is a generated type that holds the three: its code calls their
// hooks for every nested value.
type Archive struct {
	Head   Record
	Blocks []Block
	Index  map[string]Record
	Latest *Block
	Note   Envelope
}
