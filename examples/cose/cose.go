// Package cose signs and verifies COSE_Sign1 messages (RFC 9052) that
// carry CWT claims (RFC 8392), with Ed25519. It shows the formats that
// IETF specifications write as CBOR maps with integer keys: the header
// and the claims are //cborgen:map types, the message is an array under
// tag 18 that never accepts a map in its place (//cborgen:nolegacy), and
// the protected header travels as a byte string holding its own map.
package cose

//go:generate go tool cbor-gen -type Header,Claims,Sign1,sigStructure

import (
	"crypto/ed25519"
	"errors"
	"fmt"
)

// AlgEdDSA is the COSE algorithm identifier of EdDSA (RFC 9053).
const AlgEdDSA = -8

// Header holds COSE header parameters (RFC 9052 §3.1). Every parameter is
// optional and keyed by its integer label.
//
//cborgen:map
type Header struct {
	Alg         int64   `cbor:"1,keyasint,omitempty"`
	Crit        []int64 `cbor:"2,keyasint,omitempty"`
	ContentType string  `cbor:"3,keyasint,omitempty"`
	KeyID       []byte  `cbor:"4,keyasint,omitempty"`
	IV          []byte  `cbor:"5,keyasint,omitempty"`
	PartialIV   []byte  `cbor:"6,keyasint,omitempty"`
}

// Claims is a CWT claims set (RFC 8392 §3), the payload of a token.
//
//cborgen:map
type Claims struct {
	Issuer    string `cbor:"1,keyasint,omitempty"`
	Subject   string `cbor:"2,keyasint,omitempty"`
	Audience  string `cbor:"3,keyasint,omitempty"`
	Expires   int64  `cbor:"4,keyasint,omitempty"`
	NotBefore int64  `cbor:"5,keyasint,omitempty"`
	IssuedAt  int64  `cbor:"6,keyasint,omitempty"`
	ID        []byte `cbor:"7,keyasint,omitempty"`
}

// Sign1 is a COSE_Sign1 message: tag 18 and an array of four elements.
// A signed format accepts exactly its specified form, so the map form
// that other cbor-gen types also read is refused.
//
//cborgen:tag 18
//cborgen:nolegacy
type Sign1 struct {
	Protected   []byte // a Header map, serialized; empty when there is none
	Unprotected Header
	Payload     []byte // nil for a detached payload
	Signature   []byte
}

// sigStructure is the Sig_structure of RFC 9052 §4.4: what is signed.
//
//cborgen:nolegacy
type sigStructure struct {
	Context     string // "Signature1"
	Protected   []byte
	ExternalAAD []byte
	Payload     []byte
}

// toBeSigned returns the bytes a signature covers: every byte string
// present, empty rather than null when absent.
func toBeSigned(protected, aad, payload []byte) ([]byte, error) {
	orEmpty := func(b []byte) []byte {
		if b == nil {
			return []byte{}
		}
		return b
	}
	s := sigStructure{Context: "Signature1", Protected: orEmpty(protected), ExternalAAD: orEmpty(aad), Payload: orEmpty(payload)}
	return s.MarshalCBOR()
}

// Sign returns a COSE_Sign1 message holding claims, signed with key and
// naming keyID in its unprotected header. aad is external data the
// signature covers but the message does not carry (nil for none).
func Sign(key ed25519.PrivateKey, keyID []byte, claims Claims, aad []byte) ([]byte, error) {
	protected, err := Header{Alg: AlgEdDSA}.MarshalCBOR()
	if err != nil {
		return nil, err
	}
	payload, err := claims.MarshalCBOR()
	if err != nil {
		return nil, err
	}
	tbs, err := toBeSigned(protected, aad, payload)
	if err != nil {
		return nil, err
	}
	msg := Sign1{
		Protected:   protected,
		Unprotected: Header{KeyID: keyID},
		Payload:     payload,
		Signature:   ed25519.Sign(key, tbs),
	}
	return msg.MarshalCBOR()
}

// ErrSignature is returned by Verify for a message whose signature does
// not match its content.
var ErrSignature = errors.New("cose: signature does not verify")

// Verify checks a COSE_Sign1 message signed with the key of keys that its
// key ID names, and returns its claims.
func Verify(keys map[string]ed25519.PublicKey, data, aad []byte) (Claims, error) {
	var msg Sign1
	if err := msg.UnmarshalCBOR(data); err != nil {
		return Claims{}, fmt.Errorf("cose: %w", err)
	}
	var protected Header
	if len(msg.Protected) > 0 {
		if err := protected.UnmarshalCBOR(msg.Protected); err != nil {
			return Claims{}, fmt.Errorf("cose: protected header: %w", err)
		}
	}
	if protected.Alg != AlgEdDSA {
		return Claims{}, fmt.Errorf("cose: algorithm %d, want EdDSA (%d) in the protected header", protected.Alg, AlgEdDSA)
	}
	key, ok := keys[string(msg.Unprotected.KeyID)]
	if !ok {
		return Claims{}, fmt.Errorf("cose: unknown key ID %x", msg.Unprotected.KeyID)
	}
	if msg.Payload == nil {
		return Claims{}, errors.New("cose: detached payload: this verifier needs the payload in the message")
	}
	tbs, err := toBeSigned(msg.Protected, aad, msg.Payload)
	if err != nil {
		return Claims{}, err
	}
	if !ed25519.Verify(key, tbs, msg.Signature) {
		return Claims{}, ErrSignature
	}
	var claims Claims
	if err := claims.UnmarshalCBOR(msg.Payload); err != nil {
		return Claims{}, fmt.Errorf("cose: claims: %w", err)
	}
	return claims, nil
}
