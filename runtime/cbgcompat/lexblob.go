package cbgcompat

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"strings"
	"unsafe"
)

// MoveTo moves d to pos, an offset that Pos returned while d was
// reading the current item: back, to read bytes of the item again, or
// forward, past bytes it has read before. A Decoder keeps every byte of
// the item it reads (over a reader, its buffer only grows within an
// item), so both land on bytes it holds. An offset outside what d holds
// leaves d where it is.
//
// Generated code reads indigo's LexBlob as its UnmarshalCBOR does, in
// place: the item's "$type" first, then the same item again as the
// blob it names (see CheckInPlace).
func (d *Decoder) MoveTo(pos int) {
	if pos < 0 || pos > len(d.buf) {
		return
	}
	d.pos = pos
	d.unread = false
}

// CheckInPlace reports whether the generated code may read and write a
// T in place, where T's own methods go through an io.Reader or an
// io.Writer: on every probe, fast (the in-place read, true when it took
// the item) and read (T's UnmarshalCBOR over a *bytes.Reader) both
// refuse it, or both take it, reading the same bytes, into equal
// values; fast over a reader that is not a *bytes.Reader takes what it
// takes over the bytes, with the same value; and on every value taken,
// on the zero T and on a nil *T, fastAppend writes what write (T's
// MarshalCBOR) writes, or both refuse it. At least one probe must be
// taken. Generated code checks once, when its package is initialized,
// and calls T's methods for every value when the check fails.
//
// fast must not keep the bytes of the item: the probes' Decoders are
// released when the check ends.
func CheckInPlace[T comparable](probes [][]byte, read func(*T, io.Reader) error, fast func(*Decoder, *T) bool,
	write func(*T, io.Writer) error, fastAppend func(*Writer, []byte, *T) ([]byte, error)) bool {
	var took []T
	for _, p := range probes {
		var want T
		r := bytes.NewReader(p)
		err := read(&want, r)
		used := len(p) - r.Len()

		var got T
		d := NewBytesDecoder(p)
		ok := fast(d, &got)
		n := d.Pos()
		d.Release(nil)
		if ok != (err == nil) || ok && (got != want || n != used) {
			return false
		}

		var streamed T
		sd, _ := NewDecoder(onlyReader{bytes.NewReader(p)})
		sok := fast(sd, &streamed)
		sn := sd.Pos()
		sd.Release(nil)
		if sok != ok || ok && (streamed != got || sn != n) {
			return false
		}
		if ok {
			took = append(took, got)
		}
	}
	if len(took) == 0 {
		return false
	}
	var zero T
	vals := append(took, zero)
	ptrs := make([]*T, 0, len(vals)+1)
	for i := range vals {
		ptrs = append(ptrs, &vals[i])
	}
	ptrs = append(ptrs, nil)
	w := Wrap()
	defer w.Unwrap()
	for _, v := range ptrs {
		var want bytes.Buffer
		werr := write(v, &want)
		got, err := fastAppend(w, []byte{0xee}, v)
		if (werr == nil) != (err == nil) || err == nil && (got[0] != 0xee || !bytes.Equal(got[1:], want.Bytes())) {
			return false
		}
	}
	return true
}

// onlyReader hides every method of its reader but Read.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// LexBlobProbes are the probes of CheckInPlace for indigo's
// lex/util.LexBlob (its UnmarshalCBOR reads the item's "$type" into a
// CborChecker, then the item again as a BlobSchema when that is "blob",
// refusing a negative size, else as a LegacyBlob whose CID's text it
// decodes): blobs of both kinds, CIDs of both versions in text,
// "$type"s that are not "blob" or not text or given twice, negative and
// missing sizes, CIDs that do not decode, keys it does not know, items
// that are not maps or are cut short, and items followed by more bytes.
var LexBlobProbes = lexBlobProbes()

func lexBlobProbes() [][]byte {
	// A CIDv1 (raw, sha2-256) and its text in base32, and the text of
	// a CIDv0.
	ref := "\x01\x55\x12\x20" + digest32
	v1 := string(appendBase32([]byte("b"), ref))
	const v0 = "QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhHc"

	type kv struct {
		k string
		v []byte
	}
	text := func(s string) []byte { return AppendString(nil, s) }
	link := func(c string) []byte {
		b, _ := AppendCid(nil, c)
		return b
	}
	int64v := func(n int64) []byte { return AppendInt64(nil, n) }
	m := func(pairs ...kv) []byte {
		b := AppendHeader(nil, MajMap, uint64(len(pairs)))
		for _, p := range pairs {
			b = append(AppendString(b, p.k), p.v...)
		}
		return b
	}
	typ := func(s string) kv { return kv{"$type", text(s)} }
	mime := kv{"mimeType", text("image/png")}
	refKV := kv{"ref", link(ref)}
	size := func(n int64) kv { return kv{"size", int64v(n)} }
	cidKV := func(c string) kv { return kv{"cid", text(c)} }

	blob := m(typ("blob"), refKV, mime, size(1234))
	legacy := m(cidKV(v0), mime)
	probes := [][]byte{
		blob,
		m(refKV, size(0), typ("blob"), mime),
		m(typ("blob"), refKV, mime, size(-5)),
		m(typ("blob"), refKV, mime),
		m(typ("blob"), mime, size(7)),
		m(typ("blob"), refKV, mime, kv{"size", text("7")}),
		m(typ("blob"), kv{"ref", text(v1)}, mime, size(7)),
		m(typ("blob"), refKV, mime, size(7), kv{"extra", AppendHeader(nil, MajArray, 1)}),
		m(typ("blob"), refKV, mime, size(7), kv{"extra", append(AppendHeader(nil, MajArray, 2), 0x01, 0x61, 'x')}),
		legacy,
		m(cidKV(v1), mime),
		m(typ("image"), cidKV(v0), mime),
		m(typ("blob"), typ("legacy"), cidKV(v1), mime),
		m(typ("legacy"), typ("blob"), refKV, mime, size(3)),
		m(kv{"$type", int64v(1)}, cidKV(v0), mime),
		m(cidKV("Qmbad"), mime),
		m(cidKV(""), mime),
		m(cidKV(v0+"x"), mime),
		m(cidKV(v1[:len(v1)-1]), mime),
		m(kv{"cid", link(ref)}, mime),
		m(),
		append(AppendHeader(nil, MajArray, 1), blob...),
		text("blob"),
		{Null},
		{},
		blob[:len(blob)-1],
		legacy[:len(legacy)-3],
		append(append([]byte(nil), blob...), 0x00),
		append(append([]byte(nil), legacy...), 0xa0),
	}
	return probes
}

// CidTexts writes and reads the text of CIDs as go-cid's String and
// Decode do (atproto's legacy blobs hold their CID as text), for T, a
// type that is a go-cid Cid (indigo's LexLink): a version 0 CID's
// base58btc text ("Qm" and 44 more characters) and the lower-case
// base32 text of the others (a "b" first) are written and read without
// go-cid's allocations and general base conversion. Every other text is
// left to the caller's go-cid Decode, which also gives the errors.
//
// A CidTexts whose check failed (NewCidTexts) reads no text and writes
// every one with str.
type CidTexts[T comparable] struct {
	ok     bool
	values StringValues[T]
	str    func(T) string
}

// NewCidTexts checks, once, that this package writes the text str
// (go-cid's String) writes for every CID of cidTextProbes that values
// makes from its bytes and for the zero T, and that it reads every text
// of cidTextProbes, and those texts with a character changed, cut or
// added, as decode (go-cid's Decode) does: what it reads, decode reads,
// to the same CID; and it reads the text of every CID of the probes.
// values makes the CIDs from their bytes (NewStringValues).
func NewCidTexts[T comparable](decode func(string) (T, error), str func(T) string, values StringValues[T]) CidTexts[T] {
	c := CidTexts[T]{values: values, str: str}
	if !values.OK() {
		return c
	}
	var zero T
	if c.text(zero) != str(zero) {
		return c
	}
	d := NewBytesDecoder(nil)
	defer d.Release(nil)
	type text struct {
		s    string
		must bool // the text of a CID of the probes
	}
	var texts []text
	for _, p := range cidTextProbes {
		v, ok := values.Make(d, []byte(p))
		if !ok {
			continue
		}
		s := str(v)
		if c.text(v) != s {
			return c
		}
		texts = append(texts, text{s, true}, text{strings.ToUpper(s), false}, text{s[:len(s)-1], false}, text{s + "a", false})
		if len(p) == 34 || len(p) == 36 {
			// A character changed: not of the alphabet, the largest
			// digit, a digit of the other base.
			for _, r := range []byte("0Oz1") {
				for _, at := range []int{2, len(s) - 1} {
					texts = append(texts, text{s[:at] + string(r) + s[at+1:], false})
				}
			}
		}
	}
	for _, s := range []string{"Qm" + strings.Repeat("z", 44), "Qm" + strings.Repeat("1", 44), "Qm", "b", "ba", "", "B"} {
		texts = append(texts, text{s, false})
	}
	c.ok = true
	for _, t := range texts {
		want, err := decode(t.s)
		got, ok := c.Read(d, t.s)
		if ok && (err != nil || got != want) || t.must && !ok {
			c.ok = false
			return c
		}
	}
	return c
}

// cidTextProbes are the CIDs whose text NewCidTexts checks: version 0
// with three digests, and version 1 with digests of every length up to
// 6 (each remainder of base32's groups of five bytes) and 32.
var cidTextProbes = []string{
	"\x12\x20" + digest32,
	"\x12\x20" + strings.Repeat("\x00", 32),
	"\x12\x20" + strings.Repeat("\xff", 32),
	"\x12\x21" + digest32 + "\x00",
	"\x13\x20" + digest32,
	"\x01\x55\x00\x00",
	"\x01\x55\x00\x01\x07",
	"\x01\x55\x00\x02\x00\xff",
	"\x01\x55\x00\x03abc",
	"\x01\x55\x00\x04abcd",
	"\x01\x55\x00\x05abcde",
	"\x01\x55\x00\x06abcdef",
	"\x01\x71\x12\x20" + digest32,
	"\x01\x71\xa0\xe4\x02\x20" + digest32,
}

// OK reports whether the check of NewCidTexts held.
func (c CidTexts[T]) OK() bool { return c.ok }

// String returns the text of v, as go-cid's String does.
func (c CidTexts[T]) String(v T) string {
	if !c.ok {
		return c.str(v)
	}
	return c.text(v)
}

// text is the text of v: base58btc for a version 0 CID, else "b" and
// base32.
func (c CidTexts[T]) text(v T) string {
	k, ok := c.values.Key(v)
	if !ok {
		return c.str(v)
	}
	if len(k) == 34 && k[0] == 0x12 && k[1] == 0x20 {
		b := appendBase58(make([]byte, 0, 46), k)
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	b := appendBase32(append(make([]byte, 0, 1+(len(k)*8+4)/5), 'b'), k)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Read returns the CID of s, the base58btc text of a version 0 CID or
// the lower-case base32 text of a CID (as String writes them), its
// bytes in d's block of short strings; else it reports false, for the
// caller's go-cid Decode.
func (c CidTexts[T]) Read(d *Decoder, s string) (T, bool) {
	var zero T
	if !c.ok {
		return zero, false
	}
	var b [64]byte
	switch {
	case decodeV0(s, (*[34]byte)(b[:34])):
		return c.values.Make(d, b[:34])
	case len(s) > 1 && s[0] == 'b':
		if n, ok := decodeBase32(s[1:], &b); ok {
			return c.values.Make(d, b[:n])
		}
	}
	return zero, false
}

// decodeBase32 decodes s, lower-case base32 without padding as
// appendBase32 writes it, into out, and returns its length; it refuses
// every other text (another character, a length no bytes have, bits
// left over that are not 0) and anything longer than out.
func decodeBase32(s string, out *[64]byte) (int, bool) {
	switch len(s) % 8 {
	case 1, 3, 6:
		return 0, false
	}
	n := len(s) * 5 / 8
	if n > len(out) {
		return 0, false
	}
	var acc uint64
	bitsIn, o := 0, 0
	for i := range len(s) {
		v := base32Index[s[i]]
		if v < 0 {
			return 0, false
		}
		acc = acc<<5 | uint64(v)
		bitsIn += 5
		if bitsIn >= 8 {
			bitsIn -= 8
			out[o] = byte(acc >> bitsIn)
			o++
		}
	}
	if acc&(1<<bitsIn-1) != 0 {
		return 0, false
	}
	return o, true
}

// base32Index is the value of each character of lower-case base32, -1
// for the others.
var base32Index = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i, c := range []byte(base32Alphabet) {
		t[c] = int8(i)
	}
	return t
}()

const base32Alphabet = "abcdefghijklmnopqrstuvwxyz234567"

// appendBase32 appends s in lower-case base32 (RFC 4648's alphabet),
// without padding.
func appendBase32(dst []byte, s string) []byte {
	const alphabet = base32Alphabet
	for len(s) > 0 {
		var g [5]byte
		n := copy(g[:], s)
		s = s[n:]
		v := uint64(g[0])<<32 | uint64(g[1])<<24 | uint64(g[2])<<16 | uint64(g[3])<<8 | uint64(g[4])
		for i := range (n*8 + 4) / 5 {
			dst = append(dst, alphabet[v>>(35-5*i)&31])
		}
	}
	return dst
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// base58Index is the value of each character of base58Alphabet, -1 for
// the others.
var base58Index = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(base58Alphabet) {
		t[base58Alphabet[i]] = int8(i)
	}
	return t
}()

// base58Pow10 is 58^10, the base of ten digits at a time (less than
// 2^59).
const base58Pow10 = 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58 * 58

// appendBase58 appends b in base58btc: a '1' for each leading zero
// byte, then the digits of the number the rest is. b is at most 64
// bytes long (a version 0 CID's 34).
func appendBase58(dst []byte, b string) []byte {
	z := 0
	for z < len(b) && b[z] == 0 {
		z++
	}
	rest := b[z:]
	// The number in 64-bit limbs, the most significant first.
	var limbs [8]uint64
	n := (len(rest) + 7) / 8
	for i := range len(rest) {
		j := len(rest) - 1 - i
		limbs[n-1-j/8] |= uint64(rest[i]) << (8 * (j % 8))
	}
	// Its digits, written from the end: ten for each division by
	// 58^10, two at a time.
	var digits [100]byte
	at := len(digits)
	for top := 0; top < n; {
		var rem uint64
		for i := top; i < n; i++ {
			limbs[i], rem = bits.Div64(rem, limbs[i], base58Pow10)
		}
		for range 5 {
			pair := base58Pairs[rem%(58*58)]
			rem /= 58 * 58
			at -= 2
			digits[at], digits[at+1] = pair[0], pair[1]
		}
		for top < n && limbs[top] == 0 {
			top++
		}
	}
	for at < len(digits) && digits[at] == '1' {
		at++
	}
	for range z {
		dst = append(dst, '1')
	}
	return append(dst, digits[at:]...)
}

// base58Pairs are the two digits of each number below 58^2.
var base58Pairs = func() (t [58 * 58][2]byte) {
	for i := range t {
		t[i] = [2]byte{base58Alphabet[i/58], base58Alphabet[i%58]}
	}
	return t
}()

// decodeV0 decodes s, the base58btc text of a version 0 CID ("Qm" and
// 44 more characters), into out, and reports whether it is one: a
// number of 34 bytes whose first two are 0x12 0x20 (a sha2-256
// multihash).
func decodeV0(s string, out *[34]byte) bool {
	if len(s) != 46 || s[0] != 'Q' || s[1] != 'm' {
		return false
	}
	// The number in 64-bit limbs, the least significant first, ten
	// digits at a time: 46 digits are less than 2^270.
	var limbs [5]uint64
	for i := 0; i < len(s); {
		k := min(10, len(s)-i)
		acc, mul := uint64(0), uint64(1)
		for _, c := range []byte(s[i : i+k]) {
			v := base58Index[c]
			if v < 0 {
				return false
			}
			acc = acc*58 + uint64(v)
			mul *= 58
		}
		i += k
		carry := acc
		for l := range limbs {
			hi, lo := bits.Mul64(limbs[l], mul)
			var c uint64
			limbs[l], c = bits.Add64(lo, carry, 0)
			carry = hi + c
		}
	}
	if limbs[4]>>16 != 0 {
		return false // more than 34 bytes
	}
	out[0], out[1] = byte(limbs[4]>>8), byte(limbs[4])
	for i := range 4 {
		binary.BigEndian.PutUint64(out[2+8*i:], limbs[3-i])
	}
	return out[0] == 0x12 && out[1] == 0x20
}

// LexLinkProbes are the probes of CheckInPlace for indigo's
// lex/util.LexLink, a go-cid Cid whose UnmarshalCBOR reads it with
// whyrusleeping/cbor-gen's ReadCid and whose MarshalCBOR writes it with
// WriteCid: CIDs of both versions, and the items ReadCid refuses at the
// edges of its rules (another tag, no tag, text, an empty or one-byte
// string, no leading 0, bytes that are no CID, longer than 512 bytes,
// heads not in their shortest form, null, cut short), and a CID
// followed by more bytes.
var LexLinkProbes = lexLinkProbes()

func lexLinkProbes() [][]byte {
	link := func(c string) []byte {
		b, _ := AppendCid(nil, c)
		return b
	}
	tagged := func(tag byte, item []byte) []byte { return append([]byte{0xd8, tag}, item...) }
	v1 := link("\x01\x71\x12\x20" + digest32)
	long := AppendBytes(nil, []byte("\x00\x01\x55\x00\x82\x04"+strings.Repeat("x", 514)))
	return [][]byte{
		v1,
		link("\x12\x20" + digest32),
		link("\x01\x55\x00\x00"),
		tagged(43, AppendBytes(nil, []byte("\x00\x12\x20"+digest32))),
		AppendBytes(nil, []byte("\x00\x12\x20"+digest32)),
		tagged(42, AppendString(nil, "\x00\x12\x20"+digest32)),
		tagged(42, AppendBytes(nil, nil)),
		tagged(42, AppendBytes(nil, []byte{0})),
		tagged(42, AppendBytes(nil, []byte("\x01\x12\x20"+digest32))),
		tagged(42, AppendBytes(nil, []byte("\x00\x12\x20"+digest32[:31]))),
		tagged(42, AppendBytes(nil, []byte("\x00\x01\x55\x00"))),
		tagged(42, long),
		append([]byte{0xd8, 42, 0x59, 0x00, 0x25}, "\x00\x01\x71\x12\x20"+digest32...),
		append([]byte{0xd9, 0x00, 42}, v1[2:]...),
		{Null},
		{},
		v1[:len(v1)-1],
		append(append([]byte(nil), v1...), 0x00),
	}
}

// Key returns the string a T is, when the test of NewStringValues held:
// its bytes (a CID's, as go-cid's KeyString returns them).
func (c StringValues[T]) Key(v T) (string, bool) {
	if !c.ok {
		return "", false
	}
	return *(*string)(unsafe.Pointer(&v)), true
}

// CastVia returns a constructor of T from the bytes of a CID for
// NewStringValues, where T (indigo's LexLink) is read by its own
// UnmarshalCBOR from tag 42 over a byte string of a 0 and the bytes (as
// whyrusleeping/cbor-gen's ReadCid reads it, with go-cid's Cast).
func CastVia[T any](unmarshal func(*T, io.Reader) error) func([]byte) (T, error) {
	return func(b []byte) (T, error) {
		var v T
		item := AppendHeader([]byte{0xd8, 42}, MajByteString, uint64(len(b))+1)
		item = append(append(item, 0), b...)
		err := unmarshal(&v, bytes.NewReader(item))
		return v, err
	}
}

// LegacyCidDecoder returns a decoder of the text of CIDs as B (indigo's
// LexBlob) reads a legacy blob's CID (with go-cid's Decode), for
// NewCidTexts: a legacy blob of that text, read by B's UnmarshalCBOR,
// and its CID (ref).
func LegacyCidDecoder[B any, T any](unmarshal func(*B, io.Reader) error, ref func(*B) T) func(string) (T, error) {
	return func(s string) (T, error) {
		var v B
		item := AppendString(append(AppendHeader(nil, MajMap, 1), 0x63, 'c', 'i', 'd'), s)
		err := unmarshal(&v, bytes.NewReader(item))
		return ref(&v), err
	}
}
