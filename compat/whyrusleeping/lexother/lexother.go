// Package lexother is ../lexutil with one rule changed: a blob of the
// current kind has the "$type" "file", not "blob". Its types have the
// shape cbor-gen recognises as indigo's lex/util, so the generated code
// of the records holding its LexBlob (../lexours) tries the in-place
// steps; its check made once against these methods fails, and every
// blob goes through LexBlob's own methods. Its LexLink keeps lex/util's
// rules and is read and written in place.
package lexother

//go:generate go tool cbor-gen -compat whyrusleeping -max-string 1000000 -type CborChecker,LegacyBlob,BlobSchema -q

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	cid "github.com/ipfs/go-cid"
	cbg "github.com/whyrusleeping/cbor-gen"
)

// Calls counts the calls of LexLink's and LexBlob's MarshalCBOR and
// UnmarshalCBOR.
var Calls atomic.Int64

// LexLink is a link to a block by its CID, as lexutil's.
type LexLink cid.Cid

// String is the CID's text (go-cid's String).
func (l LexLink) String() string { return cid.Cid(l).String() }

// MarshalCBOR writes l as a CID, null for a nil l; an undefined CID is
// refused.
func (l *LexLink) MarshalCBOR(w io.Writer) error {
	Calls.Add(1)
	if l == nil {
		_, err := w.Write(cbg.CborNull)
		return err
	}
	if !cid.Cid(*l).Defined() {
		return errors.New("lexother: a link without a CID")
	}
	return cbg.WriteCid(cbg.NewCborWriter(w), cid.Cid(*l))
}

// UnmarshalCBOR reads a CID as whyrusleeping/cbor-gen's ReadCid does.
func (l *LexLink) UnmarshalCBOR(r io.Reader) error {
	Calls.Add(1)
	c, err := cbg.ReadCid(cbg.NewCborReader(r))
	if err != nil {
		return fmt.Errorf("lexother: reading a link: %w", err)
	}
	*l = LexLink(c)
	return nil
}

// LexBlob is a blob of a record; a size below 0 marks a legacy blob.
type LexBlob struct {
	Ref      LexLink
	MimeType string
	Size     int64
}

// CborChecker is the "$type" of a map.
//
//cborgen:map
type CborChecker struct {
	Type string `cborgen:"$type"`
}

// BlobSchema is a blob of the current kind, of type "file".
//
//cborgen:map
type BlobSchema struct {
	LexiconTypeID string  `cborgen:"$type,const=file"`
	Ref           LexLink `cborgen:"ref"`
	MimeType      string  `cborgen:"mimeType"`
	Size          int64   `cborgen:"size"`
}

// LegacyBlob is a blob as records held it first: the CID as text.
//
//cborgen:map
type LegacyBlob struct {
	Cid      string `cborgen:"cid"`
	MimeType string `cborgen:"mimeType"`
}

// MarshalCBOR writes b as a LegacyBlob when its size is below 0, else
// as a BlobSchema; null for a nil b.
func (b *LexBlob) MarshalCBOR(w io.Writer) error {
	Calls.Add(1)
	if b == nil {
		_, err := w.Write(cbg.CborNull)
		return err
	}
	if b.Size < 0 {
		legacy := LegacyBlob{Cid: b.Ref.String(), MimeType: b.MimeType}
		return legacy.MarshalCBOR(w)
	}
	schema := BlobSchema{LexiconTypeID: "file", Ref: b.Ref, MimeType: b.MimeType, Size: b.Size}
	return schema.MarshalCBOR(w)
}

// UnmarshalCBOR reads the item's "$type" while it keeps the item's
// bytes, then reads those bytes again: as a BlobSchema when the type is
// "file" (a negative size refused), else as a LegacyBlob, whose CID's
// text go-cid decodes; a legacy blob's size is -1.
func (b *LexBlob) UnmarshalCBOR(r io.Reader) error {
	Calls.Add(1)
	var kept bytes.Buffer
	var c CborChecker
	if err := c.UnmarshalCBOR(io.TeeReader(r, &kept)); err != nil {
		return fmt.Errorf("lexother: reading a blob's type: %w", err)
	}
	*b = LexBlob{}
	if c.Type == "file" {
		var schema BlobSchema
		if err := schema.UnmarshalCBOR(bytes.NewReader(kept.Bytes())); err != nil {
			return fmt.Errorf("lexother: reading a blob: %v", err)
		}
		*b = LexBlob{Ref: schema.Ref, MimeType: schema.MimeType, Size: schema.Size}
		if schema.Size < 0 {
			return fmt.Errorf("lexother: a blob of size %d", schema.Size)
		}
		return nil
	}
	var legacy LegacyBlob
	if err := legacy.UnmarshalCBOR(bytes.NewReader(kept.Bytes())); err != nil {
		return fmt.Errorf("lexother: reading a legacy blob: %v", err)
	}
	ref, err := cid.Decode(legacy.Cid)
	if err != nil {
		return fmt.Errorf("lexother: the CID of a legacy blob: %v", err)
	}
	*b = LexBlob{Ref: LexLink(ref), MimeType: legacy.MimeType, Size: -1}
	return nil
}
