package cose_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/cose"
	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/runtime"
)

// vectorClaims are the claims of the committed message, testdata/sign1.hex.
var vectorClaims = cose.Claims{Issuer: "coap://as.example.com", Subject: "erikw", Expires: 1444064944, IssuedAt: 1443944944, ID: []byte{0x0b, 0x71}}

func vector(t testing.TB) []byte {
	t.Helper()
	text, err := os.ReadFile("testdata/sign1.hex")
	if err != nil {
		t.Fatal(err)
	}
	return cbortest.MustHex(strings.TrimSpace(string(text)))
}

// codec is the API cbor-gen generates, as *T has it.
type codec[T any] interface {
	*T
	MarshalCBOR() ([]byte, error)
	UnmarshalCBOR([]byte) error
	DecodeCBOR(*runtime.Decoder) error
}

func decoders[T any, P codec[T]]() (func([]byte) error, func(*runtime.Decoder) error) {
	return func(b []byte) error { return P(new(T)).UnmarshalCBOR(b) },
		func(d *runtime.Decoder) error { return P(new(T)).DecodeCBOR(d) }
}

// TestHostile: the decoders of the message, its header and its claims
// refuse each named hostile input and every damaged encoding of the
// committed message and of its parts (cut short, an item replaced by a
// forged length or an unclosed container, bytes after it), with a
// *runtime.Error of the right cause, over a slice and over a one-byte
// stream, without a panic and within the allocation bound.
func TestHostile(t *testing.T) {
	h := cbortest.MustHex
	msg := vector(t)
	var m cose.Sign1
	if err := m.UnmarshalCBOR(msg); err != nil {
		t.Fatal(err)
	}
	protected, payload := m.Protected, m.Payload
	unprotected, err := m.Unprotected.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	deep := append(bytes.Repeat([]byte{0x81}, 40), 0x00)

	sign1, sign1Stream := decoders[cose.Sign1]()
	header, headerStream := decoders[cose.Header]()
	claims, claimsStream := decoders[cose.Claims]()
	for _, c := range []struct {
		name   string
		decode func([]byte) error
		stream func(*runtime.Decoder) error
		named  []cbortest.Hostile
		valid  [][]byte
	}{
		{"Sign1", sign1, sign1Stream, []cbortest.Hostile{
			{Name: "untagged", Data: msg[1:], Is: runtime.ErrTagNumber},
			{Name: "tag 17", Data: append([]byte{0xd1}, msg[1:]...), Is: runtime.ErrTagNumber},
			{Name: "the map form", Data: h("d2a0"), Is: runtime.ErrType},
			{Name: "an array of three", Data: h("d28340a040"), Is: runtime.ErrLength},
			{Name: "an array of five", Data: h("d28540a0404040"), Is: runtime.ErrLength},
			{Name: "protected header as text", Data: h("d28460a0f640"), Is: runtime.ErrType},
			{Name: "unprotected header as an array", Data: h("d2844080f640"), Is: runtime.ErrType},
			{Name: "signature of 4 GiB", Data: h("d28440a0f65b0000000100000000"), Is: runtime.ErrLimit},
			{Name: "payload beyond the input", Data: h("d28440a059ffff"), Is: io.ErrUnexpectedEOF},
			{Name: "nested beyond the depth limit", Data: slices.Concat(h("d28440a11863"), deep, h("f640")), Is: runtime.ErrLimit},
		}, [][]byte{msg}},
		{"Header", header, headerStream, []cbortest.Hostile{
			{Name: "algorithm as text", Data: h("a10160"), Is: runtime.ErrType},
			{Name: "a byte-string label", Data: h("a1410100"), Is: runtime.ErrType},
			{Name: "a label beyond int64", Data: h("a11bffffffffffffffff00"), Is: runtime.ErrRange},
			{Name: "crit of 131073 labels", Data: h("a1029a00020001"), Is: runtime.ErrLimit},
			{Name: "an array for the map", Data: h("8101"), Is: runtime.ErrType},
			{Name: "an unknown label holding a depth bomb", Data: append(h("a11863"), deep...), Is: runtime.ErrLimit},
		}, [][]byte{protected, unprotected}},
		{"Claims", claims, claimsStream, []cbortest.Hostile{
			{Name: "invalid UTF-8 issuer", Data: h("a10162c328"), Is: runtime.ErrUTF8},
			{Name: "expiry beyond int64", Data: h("a1041bffffffffffffffff"), Is: runtime.ErrRange},
			{Name: "ID of 4 GiB", Data: h("a1075b0000000100000000"), Is: runtime.ErrLimit},
			{Name: "pairs over the limit", Data: h("ba00020001"), Is: runtime.ErrLimit},
		}, [][]byte{payload}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cbortest.CheckDecoder(t, c.named, c.decode, c.stream)
			damaged := cbortest.Damaged(c.valid)
			if len(damaged) < 40 {
				t.Fatalf("only %d damaged encodings", len(damaged))
			}
			cbortest.CheckDecoder(t, damaged, c.decode, c.stream)
		})
	}
}

// roundTrip checks one decoder on any input: a *runtime.Error or a value,
// never a panic; and a value read encodes to bytes that decode again and
// encode to the same bytes. It returns whether data decoded.
func roundTrip[T any, P codec[T]](t *testing.T, data []byte) (T, bool) {
	t.Helper()
	var v T
	err := P(&v).UnmarshalCBOR(data)
	var rerr *runtime.Error
	if err != nil {
		if !errors.As(err, &rerr) {
			t.Fatalf("%T.UnmarshalCBOR(%x) = %v (%T), not a *runtime.Error", v, data, err, err)
		}
		return v, false
	}
	b, err := P(&v).MarshalCBOR()
	if err != nil {
		t.Fatalf("%T.MarshalCBOR of a decoded value (from %x): %v", v, data, err)
	}
	var w T
	if err := P(&w).UnmarshalCBOR(b); err != nil {
		t.Fatalf("%T: decode(encode(decode(%x))): %v", v, data, err)
	}
	if b2, _ := P(&w).MarshalCBOR(); !bytes.Equal(b, b2) {
		t.Fatalf("%T: encodings of one value differ: %x then %x", v, b, b2)
	}
	return v, true
}

// checkMessage is the property of the fuzz target and the random run, for
// any input: each decoder (the message, then its protected header and its
// payload) returns a value or a *runtime.Error, a value read re-encodes
// stably, and Verify never panics and verifies nothing but the claims the
// key signed.
func checkMessage(t *testing.T, keys map[string]ed25519.PublicKey, data []byte) {
	t.Helper()
	if m, ok := roundTrip[cose.Sign1](t, data); ok {
		roundTrip[cose.Header](t, m.Protected)
		roundTrip[cose.Claims](t, m.Payload)
	}
	roundTrip[cose.Claims](t, data)
	if got, err := cose.Verify(keys, data, nil); err == nil && !reflect.DeepEqual(got, vectorClaims) {
		t.Fatalf("Verify(%x) accepted claims the key never signed: %+v", data, got)
	}
}

func publicKeys() map[string]ed25519.PublicKey {
	return map[string]ed25519.PublicKey{"k1": testKey().Public().(ed25519.PublicKey)}
}

// TestMutatedMessages runs checkMessage over mutations of the committed
// message: tags put in front of items, items replaced, containers made
// indefinite, heads made longer, bytes changed, input cut short.
func TestMutatedMessages(t *testing.T) {
	msg, keys := vector(t), publicKeys()
	if _, err := cose.Verify(keys, msg, nil); err != nil {
		t.Fatal(err)
	}
	n := 20000
	if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(18, 9052))
	for range n {
		checkMessage(t, keys, cbortest.Mutate(r, msg))
	}
}

// FuzzMessage is the fuzz target of the decoders and of Verify (make
// fuzz); its seeds are the committed message and its parts.
func FuzzMessage(f *testing.F) {
	msg := vector(f)
	var m cose.Sign1
	if err := m.UnmarshalCBOR(msg); err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{msg, m.Protected, m.Payload, msg[1:]} {
		f.Add(seed)
	}
	keys := publicKeys()
	f.Fuzz(func(t *testing.T, data []byte) { checkMessage(t, keys, data) })
}

// TestStrict: what fxamacker/cbor's default options take and so the
// generated decoders take by default, strict mode refuses: a null for a
// header (which keeps its value), a label or claim twice (the first value
// stays), over a slice and over a one-byte stream.
func TestStrict(t *testing.T) {
	h := cbortest.MustHex
	strict := runtime.Options{Strict: true}
	for _, c := range []struct {
		name string
		v    func() interface{ DecodeCBOR(*runtime.Decoder) error }
		data []byte
		is   error
		want any
	}{
		{"unprotected header null", func() interface{ DecodeCBOR(*runtime.Decoder) error } { return new(cose.Sign1) },
			h("d28440f6f640"), runtime.ErrType, &cose.Sign1{Protected: []byte{}, Signature: []byte{}}},
		{"header null", func() interface{ DecodeCBOR(*runtime.Decoder) error } { return new(cose.Header) },
			h("f6"), runtime.ErrType, &cose.Header{}},
		{"a label twice", func() interface{ DecodeCBOR(*runtime.Decoder) error } { return new(cose.Header) },
			h("a201270127"), runtime.ErrDuplicateKey, &cose.Header{Alg: -8}},
		{"subject twice", func() interface{ DecodeCBOR(*runtime.Decoder) error } { return new(cose.Claims) },
			h("a2026178026179"), runtime.ErrDuplicateKey, &cose.Claims{Subject: "x"}},
	} {
		v := c.v()
		if err := runtime.Unmarshal(c.data, v, runtime.Options{}); err != nil {
			t.Errorf("%s: default options: %v", c.name, err)
		} else if !reflect.DeepEqual(v, c.want) {
			t.Errorf("%s: default options: %+v, want %+v", c.name, v, c.want)
		}
		if err := runtime.Unmarshal(c.data, c.v(), strict); !errors.Is(err, c.is) {
			t.Errorf("%s: strict: %v, want %v", c.name, err, c.is)
		}
		d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(c.data)))
		d.SetOptions(strict)
		if err := c.v().DecodeCBOR(d); !errors.Is(err, c.is) {
			t.Errorf("%s: strict, over a stream: %v, want %v", c.name, err, c.is)
		}
	}
}
