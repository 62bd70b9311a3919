package generator_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/optional"
)

// cutArray is the reference encoding of a struct with //cborgen:optional
// n, written by hand from fxamacker/cbor's encodings of the fields: the
// array ends after the last field that is not zero, and never before n.
func cutArray(t *testing.T, n int, fields ...any) []byte {
	t.Helper()
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	elems := n
	for i := len(fields) - 1; i >= n; i-- {
		if !reflect.ValueOf(fields[i]).IsZero() {
			elems = i + 1
			break
		}
	}
	out, _ := em.Marshal(make([]struct{}, elems)) // the head of an array of elems
	out = out[:len(out)-elems]
	for _, f := range fields[:elems] {
		b, err := em.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

func randomKey(r *rand.Rand) optional.Key {
	var k optional.Key
	if r.IntN(2) == 0 {
		k.Kty = r.Int64N(1<<40) - 1<<39
	}
	if r.IntN(3) != 0 {
		k.Kid = make([]byte, r.IntN(30))
	}
	if r.IntN(2) == 0 {
		k.Alg = r.Int64N(600) - 300
	}
	if r.IntN(2) == 0 {
		k.Key = make([]byte, r.IntN(40))
		for i := range k.Key {
			k.Key[i] = byte(r.Uint32())
		}
	}
	return k
}

func randomParty(r *rand.Rand) optional.Party {
	var p optional.Party
	if r.IntN(2) == 0 {
		s := string(rune('a' + r.IntN(26)))
		if r.IntN(4) == 0 {
			s = ""
		}
		p.Identity = &s
	}
	if r.IntN(2) == 0 {
		p.Nonce = make([]byte, r.IntN(3))
	}
	if r.IntN(3) == 0 {
		p.Other = map[string]uint32{}
		for range r.IntN(3) {
			p.Other[string(rune('a'+r.IntN(26)))] = r.Uint32()
		}
	}
	return p
}

func randomRecord(r *rand.Rand, depth int) optional.Record {
	var v optional.Record
	v.Version = uint16(r.IntN(3))
	pick := r.IntN(8) // the last field set, so that each length occurs
	if pick > 1 && r.IntN(2) == 0 {
		v.Name = "rec"
	}
	if pick > 2 {
		v.Flag = r.IntN(2) == 0
	}
	if pick > 3 && r.IntN(2) == 0 {
		v.Ratio = r.Float64()
	}
	if pick > 4 {
		v.At = optional.Point{X: int32(r.IntN(3)), Y: int32(r.IntN(3))}
	}
	if pick > 5 && r.IntN(2) == 0 {
		v.Parties = []optional.Party{randomParty(r)}
	}
	if pick > 6 && depth < 2 {
		next := randomRecord(r, depth+1)
		v.Next = &next
	}
	return v
}

// TestOptionalAgainstFxamacker: the encoding of a //cborgen:optional type
// is fxamacker's toarray encoding with the trailing zero fields cut, as
// the reference above writes it by hand; SizeCBOR is its exact length;
// the bytes decode into the same value, over a slice and a stream.
func TestOptionalAgainstFxamacker(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		k := randomKey(r)
		got, err := k.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if want := cutArray(t, 2, k.Kty, k.Kid, k.Alg, k.Key); !bytes.Equal(got, want) {
			t.Fatalf("%+v: got %x, want %x", k, got, want)
		}
		if k.SizeCBOR() != len(got) {
			t.Fatalf("%+v: SizeCBOR %d, encoding %d bytes", k, k.SizeCBOR(), len(got))
		}
		var back optional.Key
		if err := back.UnmarshalCBOR(got); err != nil || !reflect.DeepEqual(back, k) {
			t.Fatalf("%x: decoded %+v, %v; want %+v", got, back, err, k)
		}

		p := randomParty(r)
		got, err = p.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if want := cutArray(t, 0, p.Identity, p.Nonce, p.Other); !bytes.Equal(got, want) {
			t.Fatalf("%+v: got %x, want %x", p, got, want)
		}
		if p.SizeCBOR() != len(got) {
			t.Fatalf("%+v: SizeCBOR %d, encoding %d bytes", p, p.SizeCBOR(), len(got))
		}
		var pb optional.Party
		if err := pb.UnmarshalCBOR(got); err != nil || !reflect.DeepEqual(pb, p) {
			t.Fatalf("%x: decoded %+v, %v; want %+v", got, pb, err, p)
		}

		v := randomRecord(r, 0)
		got, err = v.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var vb optional.Record
		if err := vb.UnmarshalCBOR(got); err != nil || !reflect.DeepEqual(vb, v) {
			t.Fatalf("%x: decoded %+v, %v; want %+v", got, vb, err, v)
		}
		var vs optional.Record
		if err := vs.DecodeCBOR(genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(got)))); err != nil || !reflect.DeepEqual(vs, v) {
			t.Fatalf("%x over a stream: decoded %+v, %v; want %+v", got, vs, err, v)
		}
	}
}

// TestOptionalExamples: the lengths the directive writes and reads.
func TestOptionalExamples(t *testing.T) {
	for _, tc := range []struct {
		v    optional.Key
		want string
	}{
		{optional.Key{}, "8200f6"},
		{optional.Key{Kty: 1, Kid: []byte{}}, "820140"},
		{optional.Key{Kty: 1, Alg: -7}, "8301f626"},
		{optional.Key{Kty: 1, Key: []byte{}}, "8401f60040"},    // a zero field before a written one is written
		{optional.Key{Kty: 1, Alg: -7, Key: nil}, "8301f626"},  // nil: zero
		{optional.Key{Kty: 1, Key: []byte{9}}, "8401f6004109"}, // every element
		{optional.Key{Kty: 2, Kid: []byte{1}}, "82024101"},     // the required ones only
	} {
		got, _ := tc.v.MarshalCBOR()
		if !bytes.Equal(got, mustHex(t, tc.want)) {
			t.Errorf("%+v: got %x, want %s", tc.v, got, tc.want)
		}
	}
	var p optional.Party
	if got, _ := p.MarshalCBOR(); !bytes.Equal(got, []byte{0x80}) {
		t.Errorf("zero Party: got %x, want 80", got)
	}
	rec := optional.Record{Version: 1}
	if got, _ := rec.MarshalCBOR(); !bytes.Equal(got, mustHex(t, "d904b08101")) {
		t.Errorf("Record{Version: 1}: got %x, want d904b08101", got)
	}
	rec.At.Y = 3
	if got, _ := rec.MarshalCBOR(); !bytes.Equal(got, mustHex(t, "d904b0850160f4f90000820003")) {
		t.Errorf("Record with At: got %x", got)
	}
}

// TestOptionalDecoding: arrays of N or more elements decode, into a
// value that held data too (the missing fields become zero); shorter
// ones and longer ones are ErrLength; the legacy map is unchanged.
func TestOptionalDecoding(t *testing.T) {
	for _, tc := range []struct {
		hex  string
		want optional.Key
		err  error
	}{
		{"8201f6", optional.Key{Kty: 1}, nil},
		{"8301f626", optional.Key{Kty: 1, Alg: -7}, nil},
		{"9f01f626ff", optional.Key{Kty: 1, Alg: -7}, nil},
		{"8401f6264101", optional.Key{Kty: 1, Alg: -7, Key: []byte{1}}, nil},
		{"8101", optional.Key{}, genrt.ErrLength},
		{"80", optional.Key{}, genrt.ErrLength},
		{"9f01ff", optional.Key{}, genrt.ErrLength},
		{"8501f626410100", optional.Key{}, genrt.ErrLength},
		{"a2634b74790163416c6726", optional.Key{Kty: 1, Alg: -7}, nil}, // legacy map
	} {
		v := optional.Key{Kty: 5, Kid: []byte{5}, Alg: 5, Key: []byte{5}}
		err := v.UnmarshalCBOR(mustHex(t, tc.hex))
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: error %v, want %v", tc.hex, err, tc.err)
			continue
		}
		if err == nil && tc.hex[0] != 'a' && !reflect.DeepEqual(v, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.hex, v, tc.want)
		}
	}
	var rec optional.Record
	if err := rec.UnmarshalCBOR(mustHex(t, "d904b080")); !errors.Is(err, genrt.ErrLength) {
		t.Errorf("Record of 0 elements: %v, want ErrLength", err)
	}
}

// TestOptionalMutated: every truncation of a valid encoding is an error,
// and every one-byte change decodes or fails without a panic, over a
// slice and a one-byte stream alike.
func TestOptionalMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 3))
	n := 200
	if testing.Short() {
		n = 30
	}
	for range n {
		v := randomRecord(r, 0)
		enc, _ := v.MarshalCBOR()
		for cut := range len(enc) {
			var x optional.Record
			if err := x.UnmarshalCBOR(enc[:cut]); err == nil {
				t.Fatalf("%x cut at %d decoded", enc, cut)
			}
		}
		for i := range enc {
			m := bytes.Clone(enc)
			m[i] ^= byte(1 << r.IntN(8))
			var a, b optional.Record
			errA := a.UnmarshalCBOR(m)
			d := genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(m)))
			errB := b.DecodeCBOR(d)
			if errA == nil && (errB != nil || !reflect.DeepEqual(a, b)) {
				t.Fatalf("%x: slice %+v, stream %+v, %v", m, a, b, errB)
			}
			if errA != nil {
				var re *genrt.Error
				if !errors.As(errA, &re) {
					t.Fatalf("%x: error %v is not a *runtime.Error", m, errA)
				}
			}
		}
	}
}
