package genrt_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// A union's catch-all keeps the bytes of an item no other variant claims
// (ReadRawBytes) and writes them back as they are: it must keep exactly the
// items genrt.Valid accepts, and refuse the others with Valid's reason
// and offset.

// catchAllRefused are items that are well-formed but not valid, each with
// the class of its error and the offset it names.
var catchAllRefused = []struct {
	hex    string
	err    error
	offset int64
}{
	{"8161ff", genrt.ErrUTF8, 1},       // invalid UTF-8 in an array
	{"c3a0", genrt.ErrTag, 1},          // tag 3 on a map
	{"c160", genrt.ErrTag, 1},          // tag 1 on text
	{"c00b", genrt.ErrTag, 1},          // tag 0 on an integer
	{"c07f616bff", genrt.ErrTag, 1},    // tag 0 on text that is no date/time
	{"d9d9f78161ff", genrt.ErrUTF8, 4}, // behind self-described CBOR
	{"a2 6161 00 6161 01", genrt.ErrDuplicateKey, 4},
	{"a2 01 00 1801 01", genrt.ErrDuplicateKey, 3}, // keys equal by value
	{"82 00 7f 6161 61ff ff", genrt.ErrUTF8, 5},    // in a chunk
	{"c2 c2 41 01", genrt.ErrTag, 1},
}

// catchAllKept are items a catch-all keeps byte for byte: any tags,
// indefinite lengths, non-shortest heads.
var catchAllKept = []string{
	"00", "f6", "f7", "d9d9f7 f6", "c6 c6 01", "9f 01 9f ff ff", "bf 6161 01 ff", "7f 6161 6162 ff",
	"c0 74 323031332d30332d32315432303a30343a30305a", "c1 fb 41d452d9ec200000", "c2 41 01", "c3 40",
	"18 01", "a2 01 00 02 00", "5f 4101 ff", "d8 20 6161", "d9 0bc3 80",
}

func TestReadRawBytesValid(t *testing.T) {
	for _, c := range catchAllRefused {
		data := mustHex(c.hex)
		if err := genrt.Valid(data); !errors.Is(err, c.err) {
			t.Errorf("Valid(%s) = %v, want %v", c.hex, err, c.err)
		}
		for _, k := range decoderKinds {
			raw, err := k.new(data).ReadRawBytes(nil)
			var e *genrt.Error
			if !errors.Is(err, c.err) || !errors.As(err, &e) || e.Offset != c.offset {
				t.Errorf("%s ReadRawBytes(%s) = %x, %v; want %v at offset %d", k.name, c.hex, raw, err, c.err, c.offset)
			}
		}
	}
	for _, h := range catchAllKept {
		data := mustHex(h)
		if err := genrt.Valid(data); err != nil {
			t.Errorf("Valid(%s) = %v", h, err)
		}
		for _, k := range decoderKinds {
			if raw, err := k.new(data).ReadRawBytes(nil); err != nil || !bytes.Equal(raw, data) {
				t.Errorf("%s ReadRawBytes(%s) = %x, %v; want it kept as it is", k.name, h, raw, err)
			}
		}
	}
}

// checkRawItem reports how ReadRawBytes and Valid disagree on data, if they
// do: ReadRawBytes keeps all of data exactly when Valid accepts it; when it
// refuses, Valid refuses with the same class at the same offset; when it
// keeps an item that does not end the data, Valid finds bytes after it.
func checkRawItem(t *testing.T, data []byte) {
	t.Helper()
	verr := genrt.Valid(data)
	if len(data) == 0 {
		// No item at all: io.ErrUnexpectedEOF (bare, as between the
		// items of a stream), and Valid's "no data".
		if _, err := genrt.NewBytesDecoder(nil).ReadRawBytes(nil); !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(verr, io.ErrUnexpectedEOF) {
			t.Fatalf("ReadRawBytes() = %v; Valid: %v", err, verr)
		}
		return
	}
	for _, k := range decoderKinds {
		d := k.new(data)
		raw, err := d.ReadRawBytes(nil)
		switch {
		case err == nil && d.Offset() == int64(len(data)):
			if verr != nil || !bytes.Equal(raw, data) {
				t.Fatalf("%s ReadRawBytes(%x) = %x; Valid: %v", k.name, data, raw, verr)
			}
		case err == nil:
			if !errors.Is(verr, genrt.ErrTrailing) {
				t.Fatalf("%s ReadRawBytes(%x) kept %x; Valid: %v, want ErrTrailing", k.name, data, raw, verr)
			}
		default:
			var e, ve *genrt.Error
			if !errors.As(err, &e) || !errors.As(verr, &ve) {
				t.Fatalf("%s ReadRawBytes(%x) = %v (%T); Valid: %v", k.name, data, err, err, verr)
			}
			if k.name == "bytes" && (e.Offset != ve.Offset || errors.Unwrap(e) != errors.Unwrap(ve)) {
				t.Fatalf("%s ReadRawBytes(%x) = %v; Valid: %v", k.name, data, err, verr)
			}
		}
	}
}

// TestReadRawBytesAgreesWithValid: random items, most of them valid, some
// with invalid text, duplicate keys or tags 0-3 on the wrong content.
// An empty input is a cut item like any other: a typed error at its
// offset that names what was missing, not a bare io.ErrUnexpectedEOF.
func TestReadRawBytesEmpty(t *testing.T) {
	for _, k := range decoderKinds {
		raw, err := k.new(nil).ReadRawBytes(nil)
		var e *genrt.Error
		if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &e) || e.Offset != 0 || raw != nil {
			t.Errorf("%s ReadRawBytes(empty) = %x, %v; want an error at offset 0 wrapping io.ErrUnexpectedEOF", k.name, raw, err)
		}
	}
}

func TestReadRawBytesAgreesWithValid(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 3000
	}
	r := rand.New(rand.NewPCG(23, 2))
	for range n {
		checkRawItem(t, randomItem(r, nil, 0))
	}
}

func FuzzReadRawBytes(f *testing.F) {
	for _, c := range catchAllRefused {
		f.Add(mustHex(c.hex))
	}
	for _, h := range catchAllKept {
		f.Add(mustHex(h))
	}
	f.Fuzz(checkRawItem)
}

// randomItem appends a random item: scalars, strings (some not UTF-8),
// arrays and maps (some with a key twice, some indefinite), and tags (0-3
// on content of any kind, 55799, others).
func randomItem(r *rand.Rand, dst []byte, depth int) []byte {
	leaf := depth > 3 || r.IntN(3) == 0
	switch k := r.IntN(8); {
	case leaf && k < 4:
		return append(dst, [][]byte{{0x01}, {0x18, 0x01}, {0x20}, {0xf6}, {0xf5}, {0xf9, 0x3c, 0x00}, {0xfb, 0x41, 0xd4, 0x52, 0xd9, 0xec, 0x20, 0, 0}}[r.IntN(7)]...)
	case leaf || k == 4:
		texts := [][]byte{{}, []byte("a"), []byte("2013-03-21T20:04:00Z"), {0xff}, {0xc3, 0x28}, []byte("é")}
		s := texts[r.IntN(len(texts))]
		major := byte(genrt.MajorText)
		if r.IntN(3) == 0 {
			major = genrt.MajorBytes
		}
		if r.IntN(4) == 0 {
			dst = append(dst, major<<5|31)
			dst = genrt.AppendHead(dst, major, uint64(len(s)))
			return append(append(dst, s...), 0xff)
		}
		return append(genrt.AppendHead(dst, major, uint64(len(s))), s...)
	case k == 5:
		n := r.IntN(4)
		if r.IntN(4) == 0 {
			dst = append(dst, 0x9f)
			for range n {
				dst = randomItem(r, dst, depth+1)
			}
			return append(dst, 0xff)
		}
		dst = genrt.AppendArrayHead(dst, n)
		for range n {
			dst = randomItem(r, dst, depth+1)
		}
		return dst
	case k == 6:
		n := r.IntN(3)
		keys := [][]byte{{0x01}, {0x18, 0x01}, {0x02}, {0x61, 'a'}, {0xd9, 0xd9, 0xf7, 0x61, 'a'}, {0x41, 'a'}, {0xc6, 0x01}}
		dst = genrt.AppendMapHead(dst, n)
		for range n {
			dst = append(dst, keys[r.IntN(len(keys))]...)
			dst = randomItem(r, dst, depth+1)
		}
		return dst
	}
	tags := []uint64{0, 1, 2, 3, 6, 55799, 100, 3011}
	dst = genrt.AppendTag(dst, tags[r.IntN(len(tags))])
	return randomItem(r, dst, depth+1)
}

// TestAppendRawValid: a catch-all writes what it would keep, and refuses
// to write what ReadRawBytes refuses to keep.
func TestAppendRawValid(t *testing.T) {
	for _, c := range catchAllRefused {
		if out, err := genrt.AppendRaw(nil, mustHex(c.hex)); !errors.Is(err, c.err) {
			t.Errorf("AppendRaw(%s) = %x, %v; want %v", c.hex, out, err, c.err)
		}
	}
	for _, h := range catchAllKept {
		if out, err := genrt.AppendRaw(nil, mustHex(h)); err != nil || !bytes.Equal(out, mustHex(h)) {
			t.Errorf("AppendRaw(%s) = %x, %v", h, out, err)
		}
	}
	if out, err := genrt.AppendRaw(nil, mustHex("0101")); !errors.Is(err, genrt.ErrTrailing) {
		t.Errorf("AppendRaw(0101) = %x, %v; want ErrTrailing", out, err)
	}
}
