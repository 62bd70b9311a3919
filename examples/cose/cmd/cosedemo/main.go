// Command cosedemo signs a CWT as a COSE_Sign1 message with the example
// package cose, prints its bytes, verifies it, and shows what a verifier
// refuses: a changed byte, and the message's fields sent as a map.
package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"log"

	"github.com/cborgen/cborgen/examples/cose"
)

func main() {
	seed := make([]byte, ed25519.SeedSize) // a fixed key, so that the output is the same every run
	for i := range seed {
		seed[i] = byte(i)
	}
	key := ed25519.NewKeyFromSeed(seed)
	keys := map[string]ed25519.PublicKey{"k1": key.Public().(ed25519.PublicKey)}

	claims := cose.Claims{Issuer: "coap://as.example.com", Subject: "erikw", Expires: 1444064944, IssuedAt: 1443944944, ID: []byte{0x0b, 0x71}}
	msg, err := cose.Sign(key, []byte("k1"), claims, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("COSE_Sign1 (%d bytes, tag 18, an array):\n  %s\n", len(msg), hex.EncodeToString(msg))

	got, err := cose.Verify(keys, msg, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("verified claims: iss=%q sub=%q exp=%d iat=%d cti=%x\n", got.Issuer, got.Subject, got.Expires, got.IssuedAt, got.ID)

	tampered := append([]byte{}, msg...)
	tampered[len(tampered)-70] ^= 1 // a byte of the payload
	_, err = cose.Verify(keys, tampered, nil)
	fmt.Printf("one payload bit changed: %v\n", err)

	// The same four fields as a map under tag 18: what a decoder that
	// accepts a struct's map form would read, with missing fields zeroed.
	asMap := []byte{0xd2, 0xa1, 0x69}
	asMap = append(asMap, "Signature"...)
	asMap = append(asMap, 0x40)
	_, err = cose.Verify(keys, asMap, nil)
	fmt.Printf("the fields as a map (%x): %v\n", asMap, err)
}
