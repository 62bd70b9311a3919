package cose_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/cose"
	"github.com/cborgen/cborgen/runtime"
)

// The same formats written for fxamacker/cbor by hand, as a COSE library
// that uses it declares them: the reference for every byte cose writes.
type (
	fxHeader struct {
		Alg         int64   `cbor:"1,keyasint,omitempty"`
		Crit        []int64 `cbor:"2,keyasint,omitempty"`
		ContentType string  `cbor:"3,keyasint,omitempty"`
		KeyID       []byte  `cbor:"4,keyasint,omitempty"`
		IV          []byte  `cbor:"5,keyasint,omitempty"`
		PartialIV   []byte  `cbor:"6,keyasint,omitempty"`
	}
	fxClaims struct {
		Issuer    string `cbor:"1,keyasint,omitempty"`
		Subject   string `cbor:"2,keyasint,omitempty"`
		Audience  string `cbor:"3,keyasint,omitempty"`
		Expires   int64  `cbor:"4,keyasint,omitempty"`
		NotBefore int64  `cbor:"5,keyasint,omitempty"`
		IssuedAt  int64  `cbor:"6,keyasint,omitempty"`
		ID        []byte `cbor:"7,keyasint,omitempty"`
	}
	fxSign1 struct {
		_           struct{} `cbor:",toarray"`
		Protected   []byte
		Unprotected fxHeader
		Payload     []byte
		Signature   []byte
	}
	fxSigStructure struct {
		_           struct{} `cbor:",toarray"`
		Context     string
		Protected   []byte
		ExternalAAD []byte
		Payload     []byte
	}
)

func fxModes(t testing.TB) (cbor.EncMode, cbor.DecMode) {
	tags := cbor.NewTagSet()
	if err := tags.Add(cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagRequired}, reflect.TypeFor[fxSign1](), 18); err != nil {
		t.Fatal(err)
	}
	em, err := cbor.CoreDetEncOptions().EncModeWithTags(tags)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := cbor.DecOptions{}.DecModeWithTags(tags)
	if err != nil {
		t.Fatal(err)
	}
	return em, dm
}

func testKey() ed25519.PrivateKey {
	seed := make([]byte, ed25519.SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	return ed25519.NewKeyFromSeed(seed)
}

func randClaims(r *rand.Rand) cose.Claims {
	var c cose.Claims
	words := []string{"", "coap://as.example.com", "erikw", "s", "a longer audience name of more than 23 bytes", "ünïcödé"}
	if r.IntN(2) == 0 {
		c.Issuer = words[r.IntN(len(words))]
	}
	if r.IntN(2) == 0 {
		c.Subject = words[r.IntN(len(words))]
	}
	if r.IntN(2) == 0 {
		c.Audience = words[r.IntN(len(words))]
	}
	ints := []int64{0, 1, 23, 24, -1, -25, 1444064944, 1 << 40, -1 << 63}
	c.Expires = ints[r.IntN(len(ints))]
	c.NotBefore = ints[r.IntN(len(ints))]
	c.IssuedAt = ints[r.IntN(len(ints))]
	if r.IntN(2) == 0 {
		c.ID = make([]byte, r.IntN(30))
		for i := range c.ID {
			c.ID[i] = byte(r.Uint32())
		}
	}
	return c
}

// TestAgainstFxamacker signs random claims with cose and with the same
// formats declared for fxamacker/cbor: the messages are byte-identical,
// and each side verifies and decodes the other's.
func TestAgainstFxamacker(t *testing.T) {
	em, dm := fxModes(t)
	key := testKey()
	keys := map[string]ed25519.PublicKey{"k1": key.Public().(ed25519.PublicKey)}
	r := rand.New(rand.NewPCG(18, 9052))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		claims := randClaims(r)
		var aad []byte
		if r.IntN(3) == 0 {
			aad = []byte("external data")
		}
		got, err := cose.Sign(key, []byte("k1"), claims, aad)
		if err != nil {
			t.Fatal(err)
		}

		protected, err := em.Marshal(fxHeader{Alg: cose.AlgEdDSA})
		if err != nil {
			t.Fatal(err)
		}
		payload, err := em.Marshal(fxClaims(claims))
		if err != nil {
			t.Fatal(err)
		}
		orEmpty := func(b []byte) []byte {
			if b == nil {
				return []byte{}
			}
			return b
		}
		tbs, err := em.Marshal(fxSigStructure{Context: "Signature1", Protected: protected, ExternalAAD: orEmpty(aad), Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		want, err := em.Marshal(fxSign1{Protected: protected, Unprotected: fxHeader{KeyID: []byte("k1")}, Payload: payload, Signature: ed25519.Sign(key, tbs)})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("claims %+v:\n got %x\nwant %x", claims, got, want)
		}

		back, err := cose.Verify(keys, want, aad)
		if err != nil || !reflect.DeepEqual(fxClaims(back), fxClaimsOf(t, dm, want)) {
			t.Fatalf("Verify(%x) = %+v, %v", want, back, err)
		}
	}
}

// fxClaimsOf decodes a message's claims with fxamacker.
func fxClaimsOf(t *testing.T, dm cbor.DecMode, msg []byte) fxClaims {
	var m fxSign1
	if err := dm.Unmarshal(msg, &m); err != nil {
		t.Fatalf("fxamacker cannot read %x: %v", msg, err)
	}
	var c fxClaims
	if err := dm.Unmarshal(m.Payload, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestVector pins the example message of the demo.
func TestVector(t *testing.T) {
	key := testKey()
	claims := cose.Claims{Issuer: "coap://as.example.com", Subject: "erikw", Expires: 1444064944, IssuedAt: 1443944944, ID: []byte{0x0b, 0x71}}
	got, err := cose.Sign(key, []byte("k1"), claims, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/sign1.hex")
	if err != nil {
		t.Fatal(err)
	}
	if h := hex.EncodeToString(got); h != strings.TrimSpace(string(want)) {
		t.Fatalf("message\n got %s\nwant %s", h, want)
	}
}

// TestRefusals checks what a verifier must refuse: the message's fields
// as a map, a wrong tag, a changed byte anywhere, and no panic on any of
// thousands of mutated messages.
func TestRefusals(t *testing.T) {
	key := testKey()
	keys := map[string]ed25519.PublicKey{"k1": key.Public().(ed25519.PublicKey)}
	claims := cose.Claims{Issuer: "iss", Subject: "sub", Expires: 1e9}
	msg, err := cose.Sign(key, []byte("k1"), claims, nil)
	if err != nil {
		t.Fatal(err)
	}

	// The map form that fxamacker writes for the struct without toarray,
	// under the same tag: refused, though a permissive decoder would read
	// it with the missing fields zeroed.
	asMap, err := cbor.Marshal(cbor.Tag{Number: 18, Content: map[string]any{"Protected": []byte{0xa1, 0x01, 0x27}, "Signature": []byte{}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cose.Verify(keys, asMap, nil); !errors.Is(err, runtime.ErrType) {
		t.Errorf("Verify(map form %x) = %v, want ErrType", asMap, err)
	}
	if _, err := cose.Verify(keys, append([]byte{0xd1}, msg[1:]...), nil); !errors.Is(err, runtime.ErrTagNumber) {
		t.Errorf("Verify(tag 17) = %v, want ErrTagNumber", err)
	}
	if _, err := cose.Verify(keys, msg[1:], nil); !errors.Is(err, runtime.ErrTagNumber) {
		t.Errorf("Verify(untagged) = %v, want ErrTagNumber", err)
	}
	for i := range msg {
		bad := append([]byte{}, msg...)
		bad[i] ^= 0x01
		if got, err := cose.Verify(keys, bad, nil); err == nil && !reflect.DeepEqual(got, claims) {
			t.Errorf("byte %d changed: verified as %+v", i, got)
		}
	}

	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		bad := append([]byte{}, msg...)
		for k := 1 + r.IntN(4); k > 0; k-- {
			switch r.IntN(3) {
			case 0:
				bad[r.IntN(len(bad))] = byte(r.Uint32())
			case 1:
				bad = bad[:r.IntN(len(bad))]
			default:
				j := r.IntN(len(bad) + 1)
				bad = append(bad[:j], append([]byte{byte(r.Uint32())}, bad[j:]...)...)
			}
			if len(bad) == 0 {
				break
			}
		}
		if got, err := cose.Verify(keys, bad, nil); err == nil && !reflect.DeepEqual(got, claims) {
			t.Fatalf("mutated %x verified as %+v", bad, got)
		}
	}
}
