package generator_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/unknown"
)

// The tests of runtime.Unknown fields (testdata/golden/unknown): a value
// decoded and encoded again gives the input's bytes whenever the input
// is in the type's canonical form, with random unknown keys and elements
// added to random values; the kept items agree with a reference that
// fxamacker/cbor splits by hand; the decoding options still apply to
// unknown keys; hostile inputs are refused as runtime.Valid refuses them.

var (
	ukEnc = func() cbor.EncMode { em, _ := cbor.CoreDetEncOptions().EncMode(); return em }()
	// ukAPF refuses duplicate keys: what Valid refuses in a kept item.
	ukAPF = func() cbor.DecMode {
		dm, _ := cbor.DecOptions{DupMapKey: cbor.DupMapKeyEnforcedAPF}.DecMode()
		return dm
	}()
)

// randomItem is a random value for fxamacker to encode: any CBOR a
// program stores, nested up to depth.
func randomItem(r *rand.Rand, depth int) any {
	k := r.IntN(10)
	if depth <= 0 && k >= 7 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		return r.Uint64() >> r.IntN(64)
	case 1:
		return -1 - int64(r.Uint64()>>(1+r.IntN(63)))
	case 2:
		return strings.Repeat("é", r.IntN(4)) + fmt.Sprint(r.IntN(100))
	case 3:
		return bytes.Repeat([]byte{byte(r.IntN(256))}, r.IntN(30))
	case 4:
		return []float64{0.5, 1e300, -0.0, 3}[r.IntN(4)]
	case 5:
		return []any{true, false, nil}[r.IntN(3)]
	case 6:
		return cbor.Tag{Number: 100 + r.Uint64N(1000), Content: r.IntN(5)}
	case 7:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomItem(r, depth-1)
		}
		return a
	default:
		m := map[string]any{}
		for range r.IntN(4) {
			m[fmt.Sprint("k", r.IntN(9))] = randomItem(r, depth-1)
		}
		return m
	}
}

func encodeItem(t testing.TB, v any) cbor.RawMessage {
	t.Helper()
	b, err := ukEnc.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unknownKey is a random key that names no field of a type whose text
// keys are known (also by case folding) and whose integer keys are ints.
func unknownKey(r *rand.Rand, known []string, ints []int64) any {
	for {
		if r.IntN(2) == 0 {
			k := []string{"", "a", "zz", "text2", "$type", "créé", "Z"}[r.IntN(7)] + fmt.Sprint(r.IntN(50))
			if r.IntN(4) == 0 {
				k = strings.Repeat("long", 10) + k
			}
			ok := true
			for _, n := range known {
				ok = ok && !strings.EqualFold(n, k)
			}
			if ok {
				return k
			}
			continue
		}
		n := int64(r.IntN(60)) - 20
		if r.IntN(6) == 0 {
			n = int64(r.Uint64() >> 1)
		}
		ok := true
		for _, i := range ints {
			ok = ok && i != n
		}
		if ok {
			return n
		}
	}
}

// withUnknownPairs returns the map enc (a generated encoding, after a
// tag of hdr bytes) with the pairs extra added, as fxamacker writes the
// whole map under CoreDetEncOptions: the reference of the canonical form.
func withUnknownPairs(t testing.TB, enc []byte, hdr int, extra map[any]cbor.RawMessage) []byte {
	t.Helper()
	all := map[any]cbor.RawMessage{}
	if err := cbor.Unmarshal(enc[hdr:], &all); err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		if _, dup := all[k]; dup {
			t.Fatalf("key %v twice", k)
		}
		all[k] = v
	}
	return append(append([]byte(nil), enc[:hdr]...), encodeItem(t, all)...)
}

// keptPairs reads what u holds as fxamacker reads the keys.
func keptPairs(t testing.TB, u *genrt.Unknown) map[any]cbor.RawMessage {
	t.Helper()
	out := map[any]cbor.RawMessage{}
	for k, v := range u.Pairs() {
		var key any
		if err := cbor.Unmarshal(k, &key); err != nil {
			t.Fatal(err)
		}
		if n, ok := key.(uint64); ok {
			key = int64(n)
		}
		out[key] = v
	}
	return out
}

func sameKept(a, b map[any]cbor.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

func randomPost(r *rand.Rand, depth int) unknown.Post {
	p := unknown.Post{Text: fmt.Sprint("post", r.IntN(1000))}
	for range r.IntN(3) {
		p.Tags = append(p.Tags, fmt.Sprint("t", r.IntN(10)))
	}
	if r.IntN(2) == 0 {
		p.Likes = r.Uint64() >> r.IntN(64)
	}
	if depth > 0 && r.IntN(3) == 0 {
		q := randomPost(r, depth-1)
		p.Reply = &q
	}
	return p
}

var (
	postKeys  = []string{"text", "tags", "likes", "reply"}
	claimInts = []int64{1, 2, 4}
)

// checkReencodes decodes in with dec, over a slice and over a one-byte
// stream, and checks that enc of the result gives in again.
func checkReencodes[T any](t *testing.T, in []byte, dec func(*T, *genrt.Decoder) error, enc func(*T, []byte) ([]byte, error), size func(*T) int) *T {
	t.Helper()
	v := new(T)
	if err := dec(v, genrt.NewBytesDecoder(in)); err != nil {
		t.Fatalf("%x: %v", in, err)
	}
	out, err := enc(v, nil)
	if err != nil {
		t.Fatalf("%x: encode: %v", in, err)
	}
	if !bytes.Equal(out, in) {
		t.Fatalf("decoded and encoded again:\n got %x\nwant %x", out, in)
	}
	if n := size(v); n < len(out) {
		t.Fatalf("%x: SizeCBOR %d < %d", in, n, len(out))
	}
	w := new(T)
	if err := dec(w, genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(in)))); err != nil {
		t.Fatalf("%x over a stream: %v", in, err)
	}
	if out, _ := enc(w, nil); !bytes.Equal(out, in) {
		t.Fatalf("over a stream, decoded and encoded again:\n got %x\nwant %x", out, in)
	}
	return v
}

func TestUnknownPostRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 4))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		p := randomPost(r, 2)
		plain, err := p.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		extra := map[any]cbor.RawMessage{}
		for range r.IntN(6) {
			extra[unknownKey(r, postKeys, nil)] = encodeItem(t, randomItem(r, 3))
		}
		in := withUnknownPairs(t, plain, 0, extra)
		got := checkReencodes(t, in, (*unknown.Post).DecodeCBOR, (*unknown.Post).AppendCBOR, (*unknown.Post).SizeCBOR)
		if kept := keptPairs(t, &got.Extra); !sameKept(kept, extra) {
			t.Fatalf("%x: kept %v, want %v", in, kept, extra)
		}
		// SizeCBOR counts the kept pairs exactly: what they add to the
		// bound is what they add to the encoding.
		bare := *got
		bare.Extra = genrt.Unknown{}
		if d, want := got.SizeCBOR()-bare.SizeCBOR(), len(in)-len(plain); d != want {
			t.Fatalf("%x: SizeCBOR grows by %d for %d bytes", in, d, want)
		}
		// fxamacker reads the same known fields.
		var ref unknown.Post
		ref.Text, ref.Tags, ref.Likes = got.Text, got.Tags, got.Likes
		if got.Text != p.Text || got.Likes != p.Likes || len(got.Tags) != len(p.Tags) || (got.Reply == nil) != (p.Reply == nil) {
			t.Fatalf("%x: fields %+v, want %+v", in, got, p)
		}
	}
}

func TestUnknownClaimsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 5))
	for range 2000 {
		c := unknown.Claims{Issuer: []string{"", "iss"}[r.IntN(2)], Expiry: int64(r.Uint64()>>r.IntN(64)) * int64(1-2*r.IntN(2))}
		plain, err := c.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		extra := map[any]cbor.RawMessage{}
		for range r.IntN(5) {
			extra[unknownKey(r, nil, claimInts)] = encodeItem(t, randomItem(r, 2))
		}
		in := withUnknownPairs(t, plain, 2, extra) // tag 61: d8 3d
		got := checkReencodes(t, in, (*unknown.Claims).DecodeCBOR, (*unknown.Claims).AppendCBOR, (*unknown.Claims).SizeCBOR)
		if kept := keptPairs(t, got.Rest()); !sameKept(kept, extra) {
			t.Fatalf("%x: kept %v, want %v", in, kept, extra)
		}
	}
}

// withUnknownElems returns the array enc (after hdr bytes) with the
// elements extra appended, as fxamacker writes it.
func withUnknownElems(t testing.TB, enc []byte, extra []cbor.RawMessage) []byte {
	t.Helper()
	var elems []cbor.RawMessage
	if err := cbor.Unmarshal(enc, &elems); err != nil {
		t.Fatal(err)
	}
	return encodeItem(t, append(elems, extra...))
}

func keptElems(u *genrt.Unknown) []cbor.RawMessage {
	var out []cbor.RawMessage
	for e := range u.Elems() {
		out = append(out, e)
	}
	return out
}

func sameElems(a, b []cbor.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestUnknownElemsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 6))
	for range 2000 {
		e := unknown.Event{Kind: uint8(r.IntN(256)), At: int64(r.Uint64() >> r.IntN(64))}
		for range r.IntN(3) {
			e.Posts = append(e.Posts, randomPost(r, 1))
		}
		plain, err := e.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var extra []cbor.RawMessage
		for range r.IntN(5) {
			extra = append(extra, encodeItem(t, randomItem(r, 3)))
		}
		in := withUnknownElems(t, plain, extra)
		got := checkReencodes(t, in, (*unknown.Event).DecodeCBOR, (*unknown.Event).AppendCBOR, (*unknown.Event).SizeCBOR)
		if kept := keptElems(&got.More); !sameElems(kept, extra) {
			t.Fatalf("%x: kept %x, want %x", in, kept, extra)
		}

		// Key ends early when its optional fields are zero, but not when
		// it keeps elements: they follow the last field.
		k := unknown.Key{Kty: int64(r.IntN(5))}
		if r.IntN(2) == 0 {
			k.Alg = -7
		}
		if r.IntN(2) == 0 {
			k.Kid = []byte{1, 2}
		}
		var kid any
		if k.Kid != nil {
			kid = k.Kid
		}
		in = encodeItem(t, append([]cbor.RawMessage{encodeItem(t, k.Kty), encodeItem(t, kid), encodeItem(t, k.Alg)}, extra...))
		if len(extra) == 0 {
			in, _ = k.MarshalCBOR()
		}
		gotKey := checkReencodes(t, in, (*unknown.Key).DecodeCBOR, (*unknown.Key).AppendCBOR, (*unknown.Key).SizeCBOR)
		if kept := keptElems(&gotKey.Extra); !sameElems(kept, extra) {
			t.Fatalf("%x: kept %x, want %x", in, kept, extra)
		}
	}
}

// TestUnknownNested: values holding values that keep unknown content,
// built with AddPair and AddElem, encode to bytes that Valid accepts and
// that decode and encode again to themselves.
func TestUnknownNested(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 7))
	for range 500 {
		var f unknown.Feed
		for range r.IntN(3) {
			e := unknown.Event{Kind: 1}
			for range r.IntN(3) {
				p := randomPost(r, 1)
				for range r.IntN(3) {
					k := encodeItem(t, unknownKey(r, postKeys, nil))
					_ = p.Extra.AddPair(k, encodeItem(t, randomItem(r, 2))) // a key drawn twice is refused
				}
				e.Posts = append(e.Posts, p)
			}
			for range r.IntN(2) {
				if err := e.More.AddElem(encodeItem(t, randomItem(r, 2))); err != nil {
					t.Fatal(err)
				}
			}
			f.Events = append(f.Events, e)
		}
		if r.IntN(2) == 0 {
			f.Claims = &unknown.Claims{Subject: "s"}
			_ = f.Claims.Rest().AddPair(encodeItem(t, unknownKey(r, nil, claimInts)), encodeItem(t, "x"))
		}
		enc, err := f.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if err := genrt.Valid(enc); err != nil {
			t.Fatalf("%x: %v", enc, err)
		}
		checkReencodes(t, enc, (*unknown.Feed).DecodeCBOR, (*unknown.Feed).AppendCBOR, (*unknown.Feed).SizeCBOR)
	}
}

// TestUnknownEncodeRefuses: what cannot be written back.
func TestUnknownEncodeRefuses(t *testing.T) {
	var p unknown.Post
	if err := p.Extra.AddPair([]byte("\x64text"), []byte{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.MarshalCBOR(); !errors.Is(err, genrt.ErrDuplicateKey) {
		t.Fatalf("a kept key equal to a field's: %v", err)
	}
	var u genrt.Unknown
	for _, bad := range [][2][]byte{{{0x41, 0}, {1}}, {{0x61, 0xff}, {1}}, {{0x01}, {0x61, 0xff}}, {{0x01}, {0x01, 0x01}}} {
		if err := u.AddPair(bad[0], bad[1]); err == nil {
			t.Errorf("AddPair(%x, %x) took it", bad[0], bad[1])
		}
	}
	if err := u.AddPair([]byte{1}, []byte{2}); err != nil {
		t.Fatal(err)
	}
	if err := u.AddPair([]byte{1}, []byte{3}); !errors.Is(err, genrt.ErrDuplicateKey) {
		t.Fatalf("a key twice: %v", err)
	}
	e := unknown.Event{More: u}
	if _, err := e.MarshalCBOR(); !errors.Is(err, genrt.ErrType) {
		t.Fatalf("pairs in an array type: %v", err)
	}
}

func decodePostWith(in []byte, o genrt.Options) (*unknown.Post, error) {
	d := genrt.NewBytesDecoder(in)
	d.SetOptions(o)
	var p unknown.Post
	if err := p.DecodeCBOR(d); err != nil {
		return &p, err
	}
	if d.Offset() != int64(len(in)) {
		return &p, d.Errorf(genrt.ErrTrailing, "unexpected data after the value")
	}
	return &p, nil
}

// TestUnknownOptions: the decoding options apply to the keys a
// runtime.Unknown field keeps as they apply to the keys it skips.
func TestUnknownOptions(t *testing.T) {
	in := []byte("\xa3\x61a\x01\x61a\x02\x64text\x60") // {"a": 1, "a": 2, "text": ""}
	p, err := decodePostWith(in, genrt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := p.Extra.Bytes(); !bytes.Equal(b, []byte("\x61a\x01")) || p.Extra.Len() != 1 {
		t.Fatalf("kept %x (%d), want the first value of a", b, p.Extra.Len())
	}
	if _, err := decodePostWith(in, genrt.Options{DupMapKey: genrt.DupMapKeyEnforcedAPF}); !errors.Is(err, genrt.ErrDuplicateKey) {
		t.Fatalf("DupMapKeyEnforcedAPF: %v", err)
	}
	if _, err := decodePostWith(in, genrt.Options{ExtraReturnErrors: genrt.ExtraDecErrorUnknownField}); !errors.Is(err, genrt.ErrUnknownField) {
		t.Fatalf("ExtraDecErrorUnknownField: %v", err)
	}
	// Past the keys compared one by one, the duplicate is still found.
	var many []byte
	many = genrt.AppendHead(many, genrt.MajorMap, 40)
	for i := range 39 {
		many = append(genrt.AppendInt(many, int64(i)), 0xf6)
	}
	many = append(genrt.AppendInt(many, 3), 0x07) // 3 again
	for _, o := range []genrt.Options{{}, {DupMapKey: genrt.DupMapKeyEnforcedAPF}} {
		p, err := decodePostWith(many, o)
		if o.DupMapKey == genrt.DupMapKeyEnforcedAPF {
			if !errors.Is(err, genrt.ErrDuplicateKey) {
				t.Fatalf("40 keys, one twice, under APF: %v", err)
			}
			continue
		}
		if err != nil || p.Extra.Len() != 39 {
			t.Fatalf("40 keys, one twice: %v, kept %d", err, p.Extra.Len())
		}
	}
	// A decode empties the field first; a null keeps it.
	p, _ = decodePostWith(in, genrt.Options{})
	if err := p.UnmarshalCBOR([]byte{0xf6}); err != nil || p.Extra.Len() != 1 {
		t.Fatalf("null: %v, kept %d", err, p.Extra.Len())
	}
	if err := p.UnmarshalCBOR([]byte("\xa1\x64text\x60")); err != nil || p.Extra.Len() != 0 {
		t.Fatalf("a map without unknown keys: %v, kept %d", err, p.Extra.Len())
	}
	// The legacy map of an array type has no place for unknown keys: they
	// are skipped, and the field is emptied.
	var e unknown.Event
	_ = e.More.AddElem([]byte{1})
	if err := e.UnmarshalCBOR([]byte("\xa2\x64Kind\x01\x61x\x02")); err != nil || e.More.Len() != 0 || e.Kind != 1 {
		t.Fatalf("legacy map: %v, %+v", err, e)
	}
}

// ukRefPairs splits the map item in into its pairs by hand, each item
// read by fxamacker: the reference that the kept pairs are compared with.
// ok is false when in is not a map it can split; refused, when one of
// the values is not one that fxamacker takes as a cbor.RawMessage, which
// it checks as Valid would (tags 0-3 too), as it does not check a value
// it skips: the decoder cannot keep such a value.
func ukRefPairs(in []byte) (pairs [][2]cbor.RawMessage, refused, ok bool) {
	if len(in) == 0 || in[0]>>5 != 5 {
		return nil, false, false
	}
	var n uint64
	rest := in[1:]
	indef := false
	switch ai := in[0] & 0x1f; {
	case ai < 24:
		n = uint64(ai)
	case ai == 24 && len(rest) >= 1:
		n, rest = uint64(rest[0]), rest[1:]
	case ai == 25 && len(rest) >= 2:
		n, rest = uint64(rest[0])<<8|uint64(rest[1]), rest[2:]
	case ai == 31:
		indef = true
	default:
		return nil, false, false
	}
	for i := uint64(0); indef || i < n; i++ {
		if indef && len(rest) > 0 && rest[0] == 0xff {
			break
		}
		var k, v cbor.RawMessage
		var err error
		if rest, err = cbor.UnmarshalFirst(rest, &k); err != nil {
			return nil, false, false
		}
		if rest, err = cbor.UnmarshalFirst(rest, &v); err != nil {
			return nil, true, true
		}
		pairs = append(pairs, [2]cbor.RawMessage{k, v})
	}
	return pairs, false, true
}

// postMirror is Post as fxamacker reads it, without the kept keys.
type postMirror struct {
	Text  string      `cbor:"text"`
	Tags  []string    `cbor:"tags,omitempty"`
	Likes uint64      `cbor:"likes,omitempty"`
	Reply *postMirror `cbor:"reply,omitempty"`
}

// TestUnknownMutated: mutated inputs are taken exactly when fxamacker
// takes them as a Post and every kept value is one that Valid accepts
// (fxamacker with duplicate keys refused), and then the kept pairs are
// the first of each unknown key, as the reference splits them.
func TestUnknownMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 8))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	checked := 0
	for range n {
		p := randomPost(r, 1)
		plain, _ := p.MarshalCBOR()
		extra := map[any]cbor.RawMessage{}
		for range 1 + r.IntN(4) {
			extra[unknownKey(r, postKeys, nil)] = encodeItem(t, randomItem(r, 3))
		}
		in := withUnknownPairs(t, plain, 0, extra)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(in))
			switch r.IntN(4) {
			case 0:
				in[i] ^= 1 << r.IntN(8)
			case 1:
				in[i] = []byte{0xff, 0xf6, 0x60, 0x80, 0xa0, 0xc2, 0xbf, 0x18, 0x61}[r.IntN(9)]
			case 2:
				in[i] = byte(r.IntN(256))
			default:
				in = append(in[:i:i], in[i+1:]...) // also cuts the input short
			}
		}
		var m postMirror
		refErr := cbor.Unmarshal(in, &m)
		var want map[any]cbor.RawMessage
		if refErr == nil {
			want, refErr = ukRefKept(t, in)
		}
		got, err := decodePostWith(in, genrt.Options{})
		if (err == nil) != (refErr == nil) {
			t.Fatalf("%x: generated %v, reference %v", in, err, refErr)
		}
		if err != nil {
			var re *genrt.Error
			if !errors.As(err, &re) {
				t.Fatalf("%x: %T %v", in, err, err)
			}
			continue
		}
		checked++
		if kept := keptPairs(t, &got.Extra); !sameKept(kept, want) {
			t.Fatalf("%x: kept %v, want %v", in, kept, want)
		}
	}
	if checked == 0 {
		t.Fatal("no mutated input was taken")
	}
}

// knownKey is the field of Post that key names, also by case folding,
// or "".
func knownKey(key string) string {
	for _, k := range postKeys {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	return ""
}

// ukRefKept is the reference of what a Post decoded from in, which
// fxamacker takes as a Post, keeps: the first value of each unknown key,
// each of which Valid must accept, and so must those of the Post it
// replies to.
func ukRefKept(t *testing.T, in []byte) (map[any]cbor.RawMessage, error) {
	for len(in) > 0 && in[0]>>5 == 6 { // tags that mean nothing to a Post
		in = in[1+map[byte]int{24: 1, 25: 2, 26: 4, 27: 8}[in[0]&0x1f]:]
	}
	pairs, refused, ok := ukRefPairs(in)
	if !ok {
		t.Fatalf("%x: fxamacker took it, the reference cannot split it", in)
	}
	if refused {
		return nil, errors.New("a value that fxamacker refuses as a cbor.RawMessage")
	}
	want := map[any]cbor.RawMessage{}
	seen := map[string]bool{}
	for _, pr := range pairs {
		var key any
		if err := cbor.Unmarshal(pr[0], &key); err != nil {
			t.Fatalf("%x: key %x: %v", in, pr[0], err)
		}
		if u, ok := key.(uint64); ok {
			key = int64(u)
		}
		if s, ok := key.(string); ok && knownKey(s) != "" {
			f := knownKey(s)
			if f == "reply" && !seen[f] && pr[1][0] != 0xf6 && pr[1][0] != 0xf7 {
				if _, err := ukRefKept(t, pr[1]); err != nil {
					return nil, err
				}
			}
			seen[f] = true
			continue
		}
		if _, dup := want[key]; dup {
			continue // the first stays
		}
		var v any
		if err := ukAPF.Unmarshal(pr[1], &v); err != nil {
			return nil, err
		}
		want[key] = pr[1]
	}
	return want, nil
}

// TestUnknownHostile: kept items within the decoder's limits, and what
// Valid refuses refused in a kept item too.
func TestUnknownHostile(t *testing.T) {
	nested := func(depth int) []byte {
		return append(bytes.Repeat([]byte{0x81}, depth), 0x01)
	}
	// pairs is a Post's map of n pairs: n-1 unknown keys, in order, all
	// before "text", which comes last.
	pairs := func(n int, key func(i int) []byte) []byte {
		b := genrt.AppendHead(nil, genrt.MajorMap, uint64(n))
		for i := range n - 1 {
			b = append(append(b, key(i)...), 0xf6)
		}
		return append(b, "\x64text\x60"...)
	}
	// post is a Post's map with the key "x" holding value.
	post := func(value []byte) []byte {
		return append(append([]byte("\xa2\x61x"), value...), "\x64text\x60"...)
	}
	intKey := func(i int) []byte { return genrt.AppendInt(nil, int64(i)) }
	textKey := func(i int) []byte { // three letters, in order
		const abc = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd"
		return []byte{0x63, abc[i/1600], abc[i/40%40], abc[i%40]}
	}
	for _, c := range []struct {
		name string
		in   []byte
		want error // nil: taken
	}{
		{"many int keys at the limit", pairs(genrt.DefaultMaxMapPairs, intKey), nil},
		{"many text keys", pairs(60000, textKey), nil},
		{"past the pair limit", pairs(genrt.DefaultMaxMapPairs+1, intKey), genrt.ErrLimit},
		{"value nested to the depth limit", post(nested(genrt.DefaultMaxDepth - 1)), nil},
		{"value nested past the depth limit", post(nested(genrt.DefaultMaxDepth)), genrt.ErrLimit},
		{"invalid UTF-8 inside", post([]byte("\x82\x01\x62\xc3\x28")), genrt.ErrUTF8},
		{"invalid UTF-8 in an indefinite string", post([]byte("\x7f\x61\xff\xff")), genrt.ErrUTF8},
		{"duplicate key inside", post([]byte("\xa2\x01\x01\x01\x02")), genrt.ErrDuplicateKey},
		{"duplicate key by value inside", post([]byte("\xa2\x01\x01\x18\x01\x02")), genrt.ErrDuplicateKey},
		{"tag 2 on text", post([]byte("\xc2\x61a")), genrt.ErrTag},
		{"kept as it is", post([]byte("\xc2\x41\x01")), nil},
		{"truncated", []byte("\xa2\x61x\x82\x01"), nil},
		{"byte string past the input", []byte("\xa2\x61x\x5a\x7f\xff\xff\xff"), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				d := genrt.NewBytesDecoder(c.in)
				if stream {
					d = genrt.NewDecoder(iotest.OneByteReader(bytes.NewReader(c.in)))
				}
				var p unknown.Post
				err := p.DecodeCBOR(d)
				refused := genrt.Valid(c.in) != nil
				if (err != nil) != refused {
					t.Fatalf("stream %v: %v, Valid refuses: %v", stream, err, refused)
				}
				var re *genrt.Error
				if err != nil && !errors.As(err, &re) {
					t.Fatalf("stream %v: %T %v", stream, err, err)
				}
				if c.want != nil && !errors.Is(err, c.want) {
					t.Fatalf("stream %v: %v, want %v", stream, err, c.want)
				}
				if err != nil {
					continue
				}
				out, err := p.MarshalCBOR()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out, c.in) {
					t.Fatalf("stream %v: encoded again, %d bytes differ from the input's %d", stream, len(out), len(c.in))
				}
			}
		})
	}
	// Elements of an extensible array: the same checks.
	for _, in := range [][]byte{[]byte("\x84\x01\x02\xf6\x62\xc3\x28"), append([]byte("\x84\x01\x02\xf6"), nested(genrt.DefaultMaxDepth)...)} {
		var e unknown.Event
		if err := e.UnmarshalCBOR(in); err == nil {
			t.Errorf("%x taken", in)
		}
	}
	// A forged length allocates nothing in proportion to it.
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	for range 20 {
		var p unknown.Post
		_ = p.UnmarshalCBOR([]byte("\xa1\x61x\x5a\x7f\xff\xff\xff"))
	}
	goruntime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("a forged length: %d bytes allocated", n)
	}
}
