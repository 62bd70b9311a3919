package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// truncationItems are the valid items whose every strict prefix must be
// reported as truncated: all of Appendix A plus items with long heads, long
// strings and deep mixtures.
func truncationItems() []appendixAExample {
	items := append([]appendixAExample(nil), appendixA...)
	long := strings.Repeat("x", 300)
	items = append(items,
		appendixAExample{"300-byte text", "79012c" + fmt.Sprintf("%x", long), long, true},
		appendixAExample{"300-byte bytes", "59012c" + fmt.Sprintf("%x", long), []byte(long), true},
		appendixAExample{"nested map", "a2 61 61 83 01 f93e00 a1 00 f6 61 62 c1 1a 514b67b0",
			mp("a", arr(uint64(1), 1.5, mp(uint64(0), tNull{})), "b", tTag{1, uint64(1363896240)}), true},
		appendixAExample{"indefinite in indefinite", "bf 61 61 9f 7f 61 61 ff 5f 41 00 ff ff ff",
			imp("a", iarr("a", []byte{0})), false},
		appendixAExample{"int64 min", "3b 7fffffffffffffff", int64(-1 << 63), true},
	)
	return items
}

func TestTruncation(t *testing.T) {
	cases := 0
	for _, ex := range truncationItems() {
		data := mustHex(ex.hex)
		for n := 1; n < len(data); n++ {
			cases++
			prefix := data[:n]
			if err := genrt.Valid(prefix); !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("Valid(%x) [prefix of %s] = %v, want io.ErrUnexpectedEOF", prefix, ex.diag, err)
			}
			for _, k := range decoderKinds {
				if _, err := skipAll(k, prefix); !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%s Skip(%x) [prefix of %s] = %v, want io.ErrUnexpectedEOF", k.name, prefix, ex.diag, err)
				} else {
					asError(t, err)
				}
				if err := readTree(k.new(prefix), ex.want); !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("%s typed read of %x [prefix of %s] = %v, want io.ErrUnexpectedEOF", k.name, prefix, ex.diag, err)
				}
			}
		}
	}
	// The empty input is no item at all: an error, either io.EOF (clean end
	// at an item boundary) or io.ErrUnexpectedEOF.
	if err := genrt.Valid(nil); err == nil {
		t.Errorf("Valid(nil) = nil")
	}
	for _, k := range decoderKinds {
		if _, err := skipAll(k, nil); err == nil {
			t.Errorf("%s Skip(empty) = nil", k.name)
		}
	}
	if cases < 300 {
		t.Fatalf("only %d prefixes checked", cases)
	}
}

// forgedHeads declare enormous lengths and are followed by three bytes.
func forgedHeads() []string {
	var heads []string
	for _, major := range []byte{2, 3, 4, 5} {
		for _, n := range []string{"0000000100000000", "8000000000000000", "ffffffffffffffff", "7fffffffffffffff"} {
			heads = append(heads, fmt.Sprintf("%02x%s010203", major<<5|27, n))
		}
		heads = append(heads, fmt.Sprintf("%02xffffffff010203", major<<5|26))
	}
	return heads
}

// allocBytes returns the bytes allocated by f.
func allocBytes(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const forgedAllocBound = 64 << 10

func TestForgedLengths(t *testing.T) {
	big := genrt.DefaultOptions()
	big.MaxArrayElements = int(^uint(0) >> 1)
	big.MaxMapPairs = int(^uint(0) >> 1)
	big.MaxStringLength = int(^uint(0) >> 1)
	for _, h := range forgedHeads() {
		data := mustHex(h)
		major := data[0] >> 5
		if n := allocBytes(func() {
			if err := genrt.Valid(data); err == nil {
				t.Errorf("Valid(%s) = nil", h)
			}
		}); n > forgedAllocBound {
			t.Errorf("Valid(%s) allocated %d bytes", h, n)
		}
		for _, k := range decoderKinds {
			for _, opts := range []struct {
				name string
				o    genrt.Options
			}{{"default limits", genrt.DefaultOptions()}, {"no limits", big}} {
				read := func(d *genrt.Decoder) error {
					switch major {
					case genrt.MajorBytes:
						_, err := d.ReadBytes(nil)
						return err
					case genrt.MajorText:
						_, err := d.ReadString()
						return err
					case genrt.MajorArray:
						n, err := d.ReadArrayHead()
						if err != nil {
							return err
						}
						// A stream cannot know its remaining length; reading
						// the elements must fail at the end of the data.
						for i := 0; i < n; i++ {
							if err := d.Skip(); err != nil {
								return err
							}
						}
						return nil
					default:
						n, err := d.ReadMapHead()
						if err != nil {
							return err
						}
						for i := 0; i < n; i++ {
							if err := d.Skip(); err != nil {
								return err
							}
							if err := d.Skip(); err != nil {
								return err
							}
						}
						return nil
					}
				}
				for _, op := range []struct {
					name string
					f    func(*genrt.Decoder) error
				}{{"Skip", (*genrt.Decoder).Skip}, {"typed read", read}} {
					d := k.new(data)
					d.SetOptions(opts.o)
					var err error
					n := allocBytes(func() { err = op.f(d) })
					if err == nil {
						t.Errorf("%s %s %s(%s) = nil", k.name, opts.name, op.name, h)
						continue
					}
					asError(t, err)
					if n > forgedAllocBound {
						t.Errorf("%s %s %s(%s) allocated %d bytes", k.name, opts.name, op.name, h, n)
					}
				}
			}
		}
	}
}

// TestForgedStringLimit: with default options a declared length over
// MaxStringLength is ErrLimit on a stream before any byte of it is read.
func TestForgedStringLimit(t *testing.T) {
	for _, h := range []string{"5b0000000100000000010203", "7a10000000010203"} {
		for _, k := range decoderKinds {
			d := k.new(mustHex(h))
			var err error
			if mustHex(h)[0]>>5 == genrt.MajorBytes {
				_, err = d.ReadBytes(nil)
			} else {
				_, err = d.ReadString()
			}
			if k.name == "reader" && !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s read of %s = %v, want ErrLimit", k.name, h, err)
			}
			if err == nil {
				t.Errorf("%s read of %s = nil", k.name, h)
			}
		}
	}
}

func nested(open string, n int, inner string) []byte {
	return mustHex(strings.Repeat(open, n) + inner)
}

func TestNestingDepth(t *testing.T) {
	deep := []struct {
		name string
		data []byte
	}{
		{"arrays", nested("81", 10000, "00")},
		{"indefinite arrays", nested("9f", 10000, "")},
		{"maps", nested("a100", 10000, "00")},
		{"indefinite maps", nested("bf00", 10000, "")},
		{"tags", nested("c6", 10000, "00")},
		{"arrays of tags", nested("81c6", 10000, "00")},
	}
	for _, c := range deep {
		if err := genrt.Valid(c.data); !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("Valid(10000 nested %s) = %v, want ErrLimit", c.name, err)
		}
		for _, k := range decoderKinds {
			if _, err := skipAll(k, c.data); !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s Skip(10000 nested %s) = %v, want ErrLimit", k.name, c.name, err)
			}
		}
	}
}

// TestNestingLimitMatchesFxamacker: 32 levels pass, 33 fail, for the runtime
// and for fxamacker's default decoder alike.
func TestNestingLimitMatchesFxamacker(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(levels int) []byte
		// fxamacker decodes maps into map[any]any, which cannot hold a map
		// as a key: for "map keys" only well-formedness is compared.
		fxDecode bool
	}{
		{"arrays", func(n int) []byte { return nested("81", n, "00") }, true},
		{"empty innermost array", func(n int) []byte { return nested("81", n-1, "80") }, true},
		{"maps", func(n int) []byte { return nested("a100", n, "00") }, true},
		{"indefinite arrays", func(n int) []byte {
			return mustHex(strings.Repeat("9f", n) + strings.Repeat("ff", n))
		}, true},
		{"indefinite maps", func(n int) []byte {
			return mustHex(strings.Repeat("bf00", n-1) + "bfff" + strings.Repeat("ff", n-1))
		}, true},
		{"map keys", func(n int) []byte {
			return mustHex(strings.Repeat("a1", n) + "00" + strings.Repeat("00", n))
		}, false},
		// fxamacker counts a tag as a level only when its content is a tag
		// too: 33 directly nested tags are 32 levels.
		{"tags", func(n int) []byte { return nested("c6", n+1, "00") }, true},
		{"arrays of tags", func(n int) []byte { return nested("81c6", n, "00") }, true},
		{"tags of arrays", func(n int) []byte { return nested("c681", n, "00") }, true},
		{"arrays of tag pairs", func(n int) []byte {
			return mustHex(strings.Repeat("81c6c6", n/2) + strings.Repeat("81", n%2) + "00")
		}, true},
	} {
		for _, levels := range []int{32, 33} {
			data := c.make(levels)
			wantOK := levels == 32
			fxErr := cbor.Wellformed(data)
			if (fxErr == nil) != wantOK {
				t.Errorf("fxamacker Wellformed(%d %s) = %v", levels, c.name, fxErr)
			}
			if c.fxDecode {
				if err := fxValid(data); (err == nil) != wantOK {
					t.Errorf("fxamacker decode(%d %s) = %v", levels, c.name, err)
				}
			}
			err := genrt.Valid(data)
			if wantOK && err != nil {
				t.Errorf("Valid(%d %s) = %v, want nil", levels, c.name, err)
			}
			if !wantOK && !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("Valid(%d %s) = %v, want ErrLimit", levels, c.name, err)
			}
			for _, k := range decoderKinds {
				off, err := skipAll(k, data)
				if wantOK && (err != nil || off != int64(len(data))) {
					t.Errorf("%s Skip(%d %s) = %v after %d of %d bytes", k.name, levels, c.name, err, off, len(data))
				}
				if !wantOK && !errors.Is(err, genrt.ErrLimit) {
					t.Errorf("%s Skip(%d %s) = %v, want ErrLimit", k.name, levels, c.name, err)
				}
			}
		}
	}
}

// TestNestingReadArrayHead: each ReadArrayHead enters one level; the 33rd
// fails, Skip counts from the current level, and Leave gives a level back.
func TestNestingReadArrayHead(t *testing.T) {
	data := nested("81", 40, "00")
	for _, k := range decoderKinds {
		d := k.new(data)
		var err error
		levels := 0
		for ; levels < 40; levels++ {
			if _, err = d.ReadArrayHead(); err != nil {
				break
			}
		}
		if levels != 32 || !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("%s: %d ReadArrayHead calls succeeded, then %v; want 32 then ErrLimit", k.name, levels, err)
		}

		// 32 open levels: skipping an empty array would be level 33.
		d = k.new(nested("81", 32, "80"))
		for i := 0; i < 32; i++ {
			if _, err := d.ReadArrayHead(); err != nil {
				t.Fatalf("%s: level %d: %v", k.name, i+1, err)
			}
		}
		if err := d.Skip(); !errors.Is(err, genrt.ErrLimit) {
			t.Errorf("%s: Skip of an array at level 33 = %v, want ErrLimit", k.name, err)
		}

		// 31 open levels, then 100 sibling arrays at level 32, each opened
		// and left: without Leave the second one would be level 33.
		b := bytes.Repeat([]byte{0x81}, 30)
		b = genrt.AppendArrayHead(b, 100)
		b = append(b, bytes.Repeat([]byte{0x80}, 100)...)
		d = k.new(b)
		for i := 0; i < 31; i++ {
			if _, err := d.ReadArrayHead(); err != nil {
				t.Fatalf("%s: level %d: %v", k.name, i+1, err)
			}
		}
		for i := 0; i < 100; i++ {
			if n, err := d.ReadArrayHead(); err != nil || n != 0 {
				t.Fatalf("%s: sibling %d at level 32: %d, %v", k.name, i, n, err)
			}
			d.Leave()
		}
		for i := 0; i < 31; i++ {
			d.Leave()
		}
		checkAtEnd(t, d, len(b))
	}
}

func TestMaxDepthOption(t *testing.T) {
	for _, k := range decoderKinds {
		for _, levels := range []int{4, 5} {
			d := k.new(nested("81", levels, "00"))
			o := genrt.DefaultOptions()
			o.MaxDepth = 4
			d.SetOptions(o)
			err := d.Skip()
			if levels == 4 && err != nil {
				t.Errorf("%s MaxDepth 4, %d levels: %v", k.name, levels, err)
			}
			if levels == 5 && !errors.Is(err, genrt.ErrLimit) {
				t.Errorf("%s MaxDepth 4, %d levels: %v, want ErrLimit", k.name, levels, err)
			}
		}
		// A deeper limit than the default is honoured too.
		d := k.new(nested("81", 100, "00"))
		o := genrt.DefaultOptions()
		o.MaxDepth = 100
		d.SetOptions(o)
		if err := d.Skip(); err != nil {
			t.Errorf("%s MaxDepth 100, 100 levels: %v", k.name, err)
		}
	}
}
