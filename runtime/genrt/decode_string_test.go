package genrt_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

func TestReadString(t *testing.T) {
	for _, c := range []struct {
		hex, want string
	}{
		{"60", ""},
		{"6449455446", "IETF"},
		{"7f657374726561646d696e67ff", "streaming"},
		{"7fff", ""},
		{"7f6060ff", ""},
		{"7f62c3bc6161ff", "\u00fca"},
	} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(c.hex))
			got, err := d.ReadString()
			if err != nil || got != c.want {
				t.Errorf("%s ReadString(%s) = %q, %v; want %q", k.name, c.hex, got, err, c.want)
			}
			checkAtEnd(t, d, len(c.hex)/2)
		}
	}
}

func TestReadStringUTF8(t *testing.T) {
	for _, h := range []string{
		"61ff",         // 0xff is never UTF-8
		"61c3",         // cut-off two-byte sequence
		"62c0af",       // overlong '/'
		"63eda080",     // UTF-16 surrogate U+D800
		"64f4908080",   // beyond U+10FFFF
		"6380e6b0",     // continuation byte first
		"7f61c361bcff", // a character split across chunks (RFC 8949 §3.2.3)
		"7f616161ffff", // second chunk invalid
	} {
		data := mustHex(h)
		for _, k := range decoderKinds {
			if _, err := k.new(data).ReadString(); !errors.Is(err, genrt.ErrUTF8) {
				t.Errorf("%s ReadString(%s) = %v, want ErrUTF8", k.name, h, err)
			} else {
				asError(t, err)
			}
			if _, err := k.new(data).ReadKey(); !errors.Is(err, genrt.ErrUTF8) {
				t.Errorf("%s ReadKey(%s) = %v, want ErrUTF8", k.name, h, err)
			}
		}
		if err := genrt.Valid(data); !errors.Is(err, genrt.ErrUTF8) {
			t.Errorf("Valid(%s) = %v, want ErrUTF8", h, err)
		}
		if err := fxValid(data); err == nil {
			t.Errorf("fxamacker accepts %s", h)
		}
	}
	// Byte strings carry any bytes.
	for _, k := range decoderKinds {
		if b, err := k.new(mustHex("42ffc3")).ReadBytes(nil); err != nil || !bytes.Equal(b, []byte{0xff, 0xc3}) {
			t.Errorf("%s ReadBytes(42ffc3) = %x, %v", k.name, b, err)
		}
	}
}

func TestReadIndefiniteChunkTypes(t *testing.T) {
	bad := []string{"5f6100ff", "5f00ff", "5f5f4100ffff", "5f80ff", "5ff6ff", "5fc04100ff"}
	for _, h := range bad {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadBytes(nil); !errors.Is(err, genrt.ErrSyntax) {
				t.Errorf("%s ReadBytes(%s) = %v, want ErrSyntax", k.name, h, err)
			}
			var a [1]byte
			if err := k.new(mustHex(h)).ReadByteArray(a[:]); !errors.Is(err, genrt.ErrSyntax) {
				t.Errorf("%s ReadByteArray(%s) = %v, want ErrSyntax", k.name, h, err)
			}
		}
	}
	for _, h := range []string{"7f4100ff", "7f00ff", "7f7f6100ffff", "7ff6ff"} {
		for _, k := range decoderKinds {
			if _, err := k.new(mustHex(h)).ReadString(); !errors.Is(err, genrt.ErrSyntax) {
				t.Errorf("%s ReadString(%s) = %v, want ErrSyntax", k.name, h, err)
			}
		}
	}
}

func TestReadBytes(t *testing.T) {
	for _, k := range decoderKinds {
		// The empty byte string is non-nil.
		b, err := k.new(mustHex("40")).ReadBytes(nil)
		if err != nil || b == nil || len(b) != 0 {
			t.Errorf("%s ReadBytes(40) = %#v, %v; want non-nil empty", k.name, b, err)
		}
		// Appended to buf[:0]: the old contents go, the capacity is reused.
		buf := make([]byte, 3, 16)
		copy(buf, "zzz")
		b, err = k.new(mustHex("4401020304")).ReadBytes(buf)
		if err != nil || !bytes.Equal(b, []byte{1, 2, 3, 4}) {
			t.Errorf("%s ReadBytes = %x, %v", k.name, b, err)
		} else if &b[0] != &buf[:1][0] {
			t.Errorf("%s ReadBytes did not reuse the buffer", k.name)
		}
		// Indefinite chunks are joined.
		b, err = k.new(mustHex("5f42010243030405ff")).ReadBytes(buf)
		if err != nil || !bytes.Equal(b, []byte{1, 2, 3, 4, 5}) || &b[0] != &buf[:1][0] {
			t.Errorf("%s ReadBytes(indefinite) = %x, %v", k.name, b, err)
		}
		// The result must not alias the decoder's input.
		in := mustHex("4401020304")
		b, _ = genrt.NewBytesDecoder(in).ReadBytes(nil)
		in[1] = 0xee
		if b[0] != 1 {
			t.Errorf("ReadBytes result aliases the input")
		}
	}
	// No allocation when the buffer has room.
	data := mustHex("5818" + strings.Repeat("ab", 24))
	d := genrt.NewBytesDecoder(data)
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		var err error
		if buf, err = d.ReadBytes(buf); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ReadBytes with room allocates %v times", n)
	}
}

func TestReadByteArray(t *testing.T) {
	for _, k := range decoderKinds {
		var a [4]byte
		if err := k.new(mustHex("4401020304")).ReadByteArray(a[:]); err != nil || a != [4]byte{1, 2, 3, 4} {
			t.Errorf("%s ReadByteArray(4 into 4) = %x, %v", k.name, a, err)
		}
		var c [5]byte
		if err := k.new(mustHex("5f42010243030405ff")).ReadByteArray(c[:]); err != nil || c != [5]byte{1, 2, 3, 4, 5} {
			t.Errorf("%s ReadByteArray(indefinite 5 into 5) = %x, %v", k.name, c, err)
		}
		for _, size := range []int{0, 3, 5} {
			dst := make([]byte, size)
			if err := strict(k.new(mustHex("4401020304"))).ReadByteArray(dst); !errors.Is(err, genrt.ErrLength) {
				t.Errorf("%s ReadByteArray(4 into %d), strict = %v, want ErrLength", k.name, size, err)
			}
			for i := range dst {
				dst[i] = 0xee
			}
			want := append(mustHex("01020304"), 0)[:size]
			if err := k.new(mustHex("4401020304")).ReadByteArray(dst); err != nil || !bytes.Equal(dst, want) {
				t.Errorf("%s ReadByteArray(4 into %d) = %x, %v, want %x (cut or zero-filled)", k.name, size, dst, err, want)
			}
		}
		if err := strict(k.new(mustHex("5f420102ff"))).ReadByteArray(make([]byte, 3)); !errors.Is(err, genrt.ErrStrict) {
			t.Errorf("%s ReadByteArray(indefinite 2 into 3), strict = %v, want ErrStrict", k.name, err)
		}
		if err := k.new(mustHex("6401020304")).ReadByteArray(a[:]); !errors.Is(err, genrt.ErrType) {
			t.Errorf("%s ReadByteArray(text) = %v, want ErrType", k.name, err)
		}
	}
}

// TestReuseClearedGrow: a slice from ReuseCleared, grown by Grow, hands out
// only zero elements, whether s was nil, too small, reused for a definite
// length or reused for an indefinite one (all of its capacity cleared), and
// when Grow goes past the capacity; a reused slice keeps its array.
func TestReuseClearedGrow(t *testing.T) {
	type elem struct {
		P *int
		N int
	}
	one := 1
	stale := func(n, c int) []elem {
		s := make([]elem, n, c)
		for i := range s[:c] {
			s[:c][i] = elem{&one, i + 1}
		}
		return s
	}
	d := genrt.NewBytesDecoder(make([]byte, 64))
	for _, tc := range []struct {
		name      string
		s         []elem
		n, grow   int
		sameArray bool
	}{
		{"nil", nil, 3, 3, false},
		{"too small", stale(2, 2), 3, 3, false},
		{"definite", stale(5, 8), 3, 3, true},
		{"definite, all", stale(8, 8), 8, 8, true},
		{"indefinite", stale(5, 8), -1, 8, true},
		{"indefinite, past the capacity", stale(5, 8), -1, 20, false},
		{"empty, indefinite", stale(0, 0), -1, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first *elem
			if cap(tc.s) > 0 {
				first = &tc.s[:1][0]
			}
			s := genrt.ReuseCleared(d, tc.s, tc.n)
			if len(s) != 0 {
				t.Fatalf("len %d after ReuseCleared", len(s))
			}
			for i := range tc.grow {
				s = genrt.Grow(s)
				if len(s) != i+1 {
					t.Fatalf("len %d after %d Grows", len(s), i+1)
				}
				if s[i] != (elem{}) {
					t.Fatalf("element %d is %+v, not zero", i, s[i])
				}
				s[i] = elem{&one, -1} // what a decoder writes
			}
			if same := first != nil && &s[0] == first; same != tc.sameArray {
				t.Errorf("kept the array: %v, want %v", same, tc.sameArray)
			}
		})
	}
}

// textKeyContents are texts of n bytes: ASCII, with a two-byte character
// where there is room, and with one byte made 0xff (not UTF-8) at each
// place in turn.
func textKeyContents(n int) []string {
	ascii := strings.Repeat("k", n)
	out := []string{ascii}
	if n >= 2 {
		out = append(out, ascii[:n-2]+"é")
	}
	for i := range n {
		b := []byte(ascii)
		b[i] = 0xff
		out = append(out, string(b))
	}
	return out
}
