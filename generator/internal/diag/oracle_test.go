package diag

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPlainAgainstNode compares -plain's notation with an independent
// implementation's, the npm cbor package's diagnose, on the vectors of
// RFC 8949 Appendix A, on every stored sample of the examples and on
// random items of every major type. The two differ only in spelling, which
// normalize evens out: cbor writes floats with encoding indicators (1.5_1)
// and without a fraction (100000_2), non-ASCII text unescaped, and empty
// indefinite-length strings as (_ ). It runs where node and the test
// module's packages are installed; elsewhere it skips.
func TestPlainAgainstNode(t *testing.T) {
	module := nodeModule(t, filepath.Join("testdata", "npm"))
	var items [][]byte
	for _, c := range appendixA {
		b, _ := hex.DecodeString(c.hex)
		items = append(items, b)
	}
	samples, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "testdata", "*.hex"))
	if len(samples) < 20 {
		t.Fatalf("%d samples", len(samples))
	}
	for _, f := range samples {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := Hex(text)
		if !ok {
			t.Fatalf("%s: not hex", f)
		}
		items = append(items, b)
	}
	r := rand.New(rand.NewPCG(30, 8949))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		items = append(items, randomItem(r, nil, 0))
	}
	var in strings.Builder
	for _, b := range items {
		in.WriteString(hex.EncodeToString(b) + "\n")
	}
	theirs := strings.Split(strings.TrimSuffix(runNode(t, module, in.String(), "diagnose.mjs"), "\n"), "\n")
	if len(theirs) != len(items) {
		t.Fatalf("%d lines from node for %d items", len(theirs), len(items))
	}
	bad := 0
	for i, b := range items {
		p := &parser{data: b, lim: DefaultLimits}
		nd := p.item(0)
		if p.err != nil || p.off != len(b) {
			t.Fatalf("%x: %v", b, p.err)
		}
		ours := string(plain(nil, nd))
		if normalize(ours) != normalize(theirs[i]) {
			t.Errorf("%x:\n ours   %s\n theirs %s", b, ours, theirs[i])
			if bad++; bad > 10 {
				t.FailNow()
			}
		}
	}
}

var (
	indicator = regexp.MustCompile(`(\d|NaN|Infinity)_[0-3]`)
	zeroFrac  = regexp.MustCompile(`(\d)\.0([^0-9]|$)`)
)

// normalize spells a notation one way: floats without encoding
// indicators or a zero fraction, \u escapes as the characters, empty
// indefinite-length strings as (_ ). The random text has no digits or
// underscores, so the rewrites of numbers do not reach into strings.
func normalize(s string) string {
	s = indicator.ReplaceAllString(s, "$1")
	for {
		t := zeroFrac.ReplaceAllString(s, "$1$2")
		if t == s {
			break
		}
		s = t
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "''_", "(_ )"), `""_`, "(_ )")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == 'u' && i+6 <= len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+6], 16, 16); err == nil {
					r := rune(v)
					i += 5
					if r >= 0xd800 && r < 0xdc00 && i+7 <= len(s) && s[i+1:i+3] == `\u` {
						if lo, err := strconv.ParseUint(s[i+3:i+7], 16, 16); err == nil {
							r = 0x10000 + (r-0xd800)<<10 + (rune(lo) - 0xdc00)
							i += 6
						}
					}
					b.WriteRune(r)
					continue
				}
			}
			b.WriteByte(s[i])
			b.WriteByte(s[i+1])
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// randomItem appends a random well-formed item: integers of every width,
// floats of every width, strings (definite and indefinite), arrays and
// maps (both), tags other than 0 to 3, and simple values. It stays within
// what the cbor package writes as it reads: tags it has no meaning for, chunks
// of indefinite-length text that are not empty.
func randomItem(r *rand.Rand, b []byte, depth int) []byte {
	kind := r.IntN(12)
	if depth > 3 && kind >= 6 {
		kind = r.IntN(6)
	}
	switch kind {
	case 0:
		return head(b, 0, randUint(r))
	case 1:
		return head(b, 1, randUint(r))
	case 2:
		p := make([]byte, r.IntN(12))
		for i := range p {
			p[i] = byte(r.IntN(256))
		}
		return append(head(b, 2, uint64(len(p))), p...)
	case 3:
		s := randText(r)
		return append(head(b, 3, uint64(len(s))), s...)
	case 4:
		switch r.IntN(3) {
		case 0:
			return binary.BigEndian.AppendUint16(append(b, 0xf9), uint16(r.Uint32()))
		case 1:
			return binary.BigEndian.AppendUint32(append(b, 0xfa), r.Uint32())
		}
		f := math.Float64frombits(r.Uint64())
		if r.IntN(2) == 0 {
			f = float64(r.IntN(2000000)-1000000) / float64(int(1)<<r.IntN(30))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xfb), math.Float64bits(f))
	case 5:
		switch v := r.IntN(26); {
		case v < 20 || v == 23:
			return append(b, 0xe0|byte(v))
		case v < 23:
			return append(b, 0xe0|byte(v)) // false, true, null
		}
		return append(b, 0xf8, byte(32+r.IntN(224)))
	case 6, 7:
		n := r.IntN(5)
		if r.IntN(4) == 0 {
			b = append(b, 0x9f)
			for range n {
				b = randomItem(r, b, depth+1)
			}
			return append(b, 0xff)
		}
		b = head(b, 4, uint64(n))
		for range n {
			b = randomItem(r, b, depth+1)
		}
		return b
	case 8, 9:
		n := r.IntN(4)
		indef := r.IntN(4) == 0
		if indef {
			b = append(b, 0xbf)
		} else {
			b = head(b, 5, uint64(n))
		}
		for range n {
			b = randomItem(r, b, depth+1)
			b = randomItem(r, b, depth+1)
		}
		if indef {
			b = append(b, 0xff)
		}
		return b
	case 10:
		// Tag numbers the cbor package gives no meaning (it reads typed
		// arrays, sets, shared values... into other values), below 2^31,
		// which it refuses.
		tag := uint64(40000 + r.IntN(15000))
		if r.IntN(3) == 0 {
			tag = uint64(65536 + r.IntN(1<<31-65536))
		}
		return randomItem(r, head(b, 6, tag), depth+1)
	}
	major := byte(2 + r.IntN(2))
	b = append(b, major<<5|31)
	for range r.IntN(3) {
		var p []byte
		if major == 2 {
			p = []byte{byte(r.IntN(256)), byte(r.IntN(256))}
		} else {
			p = []byte("a" + randText(r)) // not empty: the cbor package writes an empty chunk as """"
		}
		b = append(head(b, major, uint64(len(p))), p...)
	}
	return append(b, 0xff)
}

func randUint(r *rand.Rand) uint64 {
	switch r.IntN(5) {
	case 0:
		return uint64(r.IntN(24))
	case 1:
		return uint64(r.IntN(256))
	case 2:
		return uint64(r.IntN(65536))
	case 3:
		return uint64(r.Uint32())
	}
	return r.Uint64()
}

// randText is random text without digits or underscores: letters, space,
// quotes, backslashes, control characters and characters beyond ASCII.
func randText(r *rand.Rand) string {
	const pool = "abcXYZ \"\\\n\t\x01\x7f/éü水𐅑\u2028"
	runes := []rune(pool)
	var b strings.Builder
	for range r.IntN(8) {
		b.WriteRune(runes[r.IntN(len(runes))])
	}
	if !utf8.ValidString(b.String()) {
		panic("bad text")
	}
	return b.String()
}

// head appends an initial byte and argument in the shortest form.
func head(b []byte, major byte, arg uint64) []byte {
	m := major << 5
	switch {
	case arg < 24:
		return append(b, m|byte(arg))
	case arg <= math.MaxUint8:
		return append(b, m|24, byte(arg))
	case arg <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, m|25), uint16(arg))
	case arg <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, m|26), uint32(arg))
	}
	return binary.BigEndian.AppendUint64(append(b, m|27), arg)
}
