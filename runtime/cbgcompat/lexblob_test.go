package cbgcompat

import (
	"bytes"
	"encoding/base32"
	"io"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMoveTo: a Decoder moved back reads the same bytes again, over a
// buffer and over a reader it fills from; moved forward it is past them;
// an offset it does not hold leaves it where it is.
func TestMoveTo(t *testing.T) {
	item := append(AppendString(AppendHeader(nil, MajArray, 2), "abc"), AppendString(nil, strings.Repeat("x", 40))...)
	for _, name := range []string{"bytes", "reader"} {
		var d *Decoder
		if name == "bytes" {
			d = NewBytesDecoder(item)
		} else {
			d, _ = NewDecoder(onlyReader{bytes.NewReader(item)})
		}
		start := d.Pos()
		if _, _, err := d.ReadHeader(); err != nil {
			t.Fatal(err)
		}
		mid := d.Pos()
		s1, err := d.ReadString(100)
		if err != nil {
			t.Fatal(err)
		}
		long, err := d.ReadString(100)
		if err != nil || len(long) != 40 {
			t.Fatalf("%s: %q, %v", name, long, err)
		}
		end := d.Pos()
		d.MoveTo(mid)
		if s2, err := d.ReadString(100); err != nil || s2 != s1 {
			t.Fatalf("%s: read again %q, %v; want %q", name, s2, err, s1)
		}
		d.MoveTo(start)
		if maj, n, err := d.ReadHeader(); err != nil || maj != MajArray || n != 2 {
			t.Fatalf("%s: header again %d %d %v", name, maj, n, err)
		}
		d.MoveTo(end)
		d.MoveTo(end + 1)
		d.MoveTo(-1)
		if d.Pos() != end {
			t.Fatalf("%s: at %d, want %d", name, d.Pos(), end)
		}
		if _, _, err := d.ReadHeader(); err != io.EOF {
			t.Fatalf("%s: past the item: %v, want io.EOF", name, err)
		}
		d.Release(nil)
	}
}

// text is a T for the tests of CheckInPlace: one text string.
type text struct{ s string }

func readText(v *text, r io.Reader) error {
	d, owned := NewDecoder(r)
	s, err := d.ReadString(64)
	v.s = s
	return d.End(owned, 0, err)
}

func fastText(d *Decoder, v *text) bool {
	s, err := d.ReadString(64)
	if err != nil {
		return false
	}
	v.s = s
	return true
}

func writeText(v *text, w io.Writer) error {
	if v == nil {
		_, err := w.Write([]byte{Null})
		return err
	}
	_, err := w.Write(AppendString(nil, v.s))
	return err
}

func appendText(w *Writer, b []byte, v *text) ([]byte, error) {
	if v == nil {
		return append(b, Null), nil
	}
	return AppendString(b, v.s), nil
}

// TestCheckInPlace: the check holds where the in-place code reads and
// writes as T's methods do, and fails on each kind of disagreement.
func TestCheckInPlace(t *testing.T) {
	probes := [][]byte{AppendString(nil, "blob"), AppendString(nil, "blob\x00"), {0x01}, {0x63, 'a'}, {}, AppendString([]byte{}, "ab")}
	if !CheckInPlace(probes, readText, fastText, writeText, appendText) {
		t.Fatal("the same code failed the check")
	}
	if !CheckInPlace(LexBlobProbes, readText, fastText, writeText, appendText) {
		t.Fatal("the same code failed the check on LexBlobProbes")
	}
	bad := map[string]struct {
		fast func(*Decoder, *text) bool
		app  func(*Writer, []byte, *text) ([]byte, error)
	}{
		"refuses all": {func(*Decoder, *text) bool { return false }, appendText},
		"takes more": {func(d *Decoder, v *text) bool {
			if fastText(d, v) {
				return true
			}
			v.s = "?"
			return true
		}, appendText},
		"another value": {func(d *Decoder, v *text) bool {
			ok := fastText(d, v)
			v.s += "!"
			return ok
		}, appendText},
		"reads less": {func(d *Decoder, v *text) bool {
			start := d.Pos()
			ok := fastText(d, v)
			d.MoveTo(start + 1)
			return ok
		}, appendText},
		"another write": {fastText, func(w *Writer, b []byte, v *text) ([]byte, error) {
			if v != nil && v.s == "" {
				return append(b, 0x60, 0x60), nil
			}
			return appendText(w, b, v)
		}},
		"refuses nil": {fastText, func(w *Writer, b []byte, v *text) ([]byte, error) {
			if v == nil {
				return b, io.ErrShortWrite
			}
			return appendText(w, b, v)
		}},
		"streams otherwise": {func(d *Decoder, v *text) bool {
			if d.src != nil {
				return false
			}
			return fastText(d, v)
		}, appendText},
	}
	for name, c := range bad {
		if CheckInPlace(probes, readText, c.fast, writeText, c.app) {
			t.Errorf("%s: the check held", name)
		}
	}
	if CheckInPlace([][]byte{{0x01}, {}}, readText, fastText, writeText, appendText) {
		t.Error("the check held where no probe was taken")
	}
}

// base58Ref is base58btc by math/big: a '1' for each leading zero byte,
// then the digits of the rest.
func base58Ref(b []byte) string {
	var out []byte
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	n := new(big.Int).SetBytes(b)
	var digits []byte
	r := new(big.Int)
	for n.Sign() > 0 {
		n.QuoRem(n, big.NewInt(58), r)
		digits = append(digits, base58Alphabet[r.Int64()])
	}
	for i := len(digits) - 1; i >= 0; i-- {
		out = append(out, digits[i])
	}
	return string(out)
}

// TestBase58: appendBase58 writes what math/big's conversion writes, for
// every length up to 64 with and without leading zeros; decodeV0 reads
// back the text of every version 0 CID and refuses every other text.
func TestBase58(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 65 {
		for range 20 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			if n > 0 && r.IntN(3) == 0 {
				b[0] = 0
				if n > 1 && r.IntN(2) == 0 {
					b[1] = 0
				}
			}
			if got, want := string(appendBase58(nil, string(b))), base58Ref(b); got != want {
				t.Fatalf("%x: %s, want %s", b, got, want)
			}
		}
	}
	for i := range 2000 {
		b := make([]byte, 34)
		b[0], b[1] = 0x12, 0x20
		for j := 2; j < 34; j++ {
			switch i {
			case 0:
			case 1:
				b[j] = 0xff
			default:
				b[j] = byte(r.IntN(256))
			}
		}
		s := base58Ref(b)
		var out [34]byte
		if !decodeV0(s, &out) || !bytes.Equal(out[:], b) {
			t.Fatalf("%s: %x, want %x", s, out, b)
		}
		// A character changed: another CID or no CID at all.
		at := 2 + r.IntN(44)
		c := base58Alphabet[r.IntN(58)]
		m := s[:at] + string(c) + s[at+1:]
		mb, ok := base58Decode(m)
		want := ok && len(mb) == 34 && mb[0] == 0x12 && mb[1] == 0x20
		if decodeV0(m, &out) != want || want && !bytes.Equal(out[:], mb) {
			t.Fatalf("%s: %x, want %x (%v)", m, out, mb, want)
		}
	}
	for _, s := range []string{"", "Qm", "QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhH", "QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhHcc",
		"QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhH0", "QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhHO", "QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhHl",
		"QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNh\xc3\xa9", "Qm" + strings.Repeat("z", 44), "Qm" + strings.Repeat("1", 44),
		"Rm" + strings.Repeat("z", 44)} {
		var out [34]byte
		if decodeV0(s, &out) {
			t.Errorf("%q: took %x", s, out)
		}
	}
	if !decodeV0("QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhHc", new([34]byte)) {
		t.Error("a CID's text refused")
	}
}

// base58Decode is the number s is in base58btc, by math/big, its leading
// '1's zero bytes.
func base58Decode(s string) ([]byte, bool) {
	n := new(big.Int)
	z := 0
	for z < len(s) && s[z] == '1' {
		z++
	}
	for i := range len(s) {
		v := strings.IndexByte(base58Alphabet, s[i])
		if v < 0 {
			return nil, false
		}
		n.Mul(n, big.NewInt(58)).Add(n, big.NewInt(int64(v)))
	}
	return append(make([]byte, z), n.Bytes()...), true
}

// TestBase32: appendBase32 writes encoding/base32's text, in lower case
// and without padding, for every length up to 64, and decodeBase32
// reads it back; decodeBase32 refuses every other text: another
// character, a length no bytes have, bits left over that are not 0,
// more than 64 bytes.
func TestBase32(t *testing.T) {
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	r := rand.New(rand.NewPCG(5, 6))
	var out [64]byte
	for n := range 66 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		s := string(appendBase32(nil, string(b)))
		if want := strings.ToLower(enc.EncodeToString(b)); s != want {
			t.Fatalf("%x: %s, want %s", b, s, want)
		}
		got, ok := decodeBase32(s, &out)
		if ok != (n <= 64) || ok && !bytes.Equal(out[:got], b) {
			t.Fatalf("%s: %x %v, want %x", s, out[:got], ok, b)
		}
		if n == 0 || n > 64 {
			continue
		}
		for _, m := range []string{strings.ToUpper(s), s[:len(s)-1] + "1", s + "a", s[:len(s)-1] + "=", s[:len(s)-1]} {
			want, err := enc.DecodeString(strings.ToUpper(m))
			if got, ok := decodeBase32(m, &out); ok && (err != nil || !bytes.Equal(out[:got], want) || string(appendBase32(nil, string(want))) != m) {
				t.Fatalf("%s: took %x", m, out[:got])
			}
		}
	}
	for _, bad := range []string{"a", "abc", "abcdef", "ab", "0a", "aaaaaab"} {
		if _, ok := decodeBase32(bad, &out); ok {
			t.Errorf("%q taken", bad)
		}
	}
}

// cidBytes is a stand-in for go-cid's Cid (the bytes, as a string) and
// its functions, for the tests of NewCidTexts: cast takes what CheckCid
// takes; str and decode write and read base58btc for version 0 and
// "b" and base32 for the others.
type cidBytes struct{ s string }

func castCid(b []byte) (cidBytes, error) {
	if err := CheckCid(b); err != nil {
		return cidBytes{}, err
	}
	return cidBytes{string(b)}, nil
}

func cidKey(c cidBytes) string { return c.s }

func cidString(c cidBytes) string {
	if len(c.s) == 34 && c.s[0] == 0x12 && c.s[1] == 0x20 {
		return base58Ref([]byte(c.s))
	}
	return "b" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte(c.s)))
}

func decodeCid(s string) (cidBytes, error) {
	if len(s) == 46 && s[:2] == "Qm" {
		b, ok := base58Decode(s)
		if !ok || len(b) != 34 || b[0] != 0x12 || b[1] != 0x20 {
			return cidBytes{}, io.ErrUnexpectedEOF
		}
		return cidBytes{string(b)}, nil
	}
	if len(s) < 2 || s[0] != 'b' {
		return cidBytes{}, io.ErrUnexpectedEOF
	}
	b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.ToUpper(s[1:]))
	if err != nil {
		return cidBytes{}, err
	}
	return castCid(b)
}

// TestCidTexts: the check holds for functions that write and read as
// go-cid does, and fails for one whose text differs; the texts written
// and read are theirs, and texts String does not write are left to
// go-cid.
func TestCidTexts(t *testing.T) {
	values := NewStringValues(castCid, cidKey, ValidCid, CidProbes)
	c := NewCidTexts(decodeCid, cidString, values)
	if !c.OK() {
		t.Fatal("the check failed")
	}
	d := NewBytesDecoder(nil)
	defer d.Release(nil)
	for _, p := range append(CidProbes, cidTextProbes...) {
		v, err := castCid([]byte(p))
		if err != nil {
			continue
		}
		s := c.String(v)
		if s != cidString(v) {
			t.Fatalf("%x: %s, want %s", p, s, cidString(v))
		}
		got, ok := c.Read(d, s)
		if !ok || got != v {
			t.Fatalf("%s: read %x %v", s, got.s, ok)
		}
		// Texts as String does not write them: go-cid's Decode reads them.
		for _, m := range []string{strings.ToUpper(s), s + "=", s[:len(s)-1] + "0"} {
			if _, ok := c.Read(d, m); ok {
				t.Fatalf("%s: read", m)
			}
		}
	}
	upper := func(v cidBytes) string { return strings.ToUpper(cidString(v)) }
	if NewCidTexts(decodeCid, upper, values).OK() {
		t.Error("the check held for another String")
	}
	lenient := func(s string) (cidBytes, error) {
		if len(s) == 46 && s[:2] == "Qm" {
			return cidBytes{"\x12\x20" + digest32}, nil
		}
		return decodeCid(s)
	}
	if NewCidTexts(lenient, cidString, values).OK() {
		t.Error("the check held for another Decode")
	}
}

// BenchmarkCidText: a version 0 CID's text written (appendBase58) and
// read (decodeV0).
func BenchmarkCidText(b *testing.B) {
	b.Run("Write", func(b *testing.B) {
		k := "\x12\x20" + digest32
		buf := make([]byte, 0, 64)
		for b.Loop() {
			buf = appendBase58(buf[:0], k)
		}
	})
	b.Run("Read", func(b *testing.B) {
		var out [34]byte
		for b.Loop() {
			if !decodeV0("QmaR7cUZC4FuAJNxmsySz3FSLJe5SZqC7dw1BJVFEKNhHc", &out) {
				b.Fatal("refused")
			}
		}
	})
}
