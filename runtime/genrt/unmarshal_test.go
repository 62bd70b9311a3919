package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// pair is what cbor-gen would generate for struct{ A, B uint64 }, by hand:
// an array of two integers.
type pair struct{ A, B uint64 }

func (p *pair) DecodeCBOR(d *genrt.Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	if n != 2 {
		return d.Errorf(genrt.ErrLength, "expected array of 2 elements, found %d", n)
	}
	if p.A, err = d.ReadUint64(); err != nil {
		return genrt.AtField(err, "A")
	}
	if p.B, err = d.ReadUint64(); err != nil {
		return genrt.AtField(err, "B")
	}
	d.Leave()
	return nil
}

// box holds a list of pairs, to nest.
type box[T any] struct{ Items []pair }

func (b *box[T]) DecodeCBOR(d *genrt.Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	b.Items = make([]pair, d.Hint(n))[:0]
	for i := 0; i < n; i++ {
		b.Items = append(b.Items, pair{})
		if err := b.Items[i].DecodeCBOR(d); err != nil {
			return genrt.AtField(genrt.AtIndex(err, i), "Items")
		}
	}
	d.Leave()
	return nil
}

// hooked is a //cborgen:body type by hand: pair's decoder under the
// body's name, for its hook to call through UnmarshalBody.
type hooked struct{ P pair }

func (h *hooked) DecodeCBORBody(d *genrt.Decoder) error { return h.P.DecodeCBOR(d) }

// TestUnmarshal: Unmarshal, and UnmarshalBody alike, read exactly one
// item with the options given, name the type as the root of the error's
// path, and refuse bytes after the item.
func TestUnmarshal(t *testing.T) {
	var p pair
	if err := genrt.Unmarshal(mustHex("82 01 02"), &p, genrt.Options{}); err != nil || p != (pair{1, 2}) {
		t.Fatalf("Unmarshal = %+v, %v", p, err)
	}
	for _, c := range []struct {
		hex  string
		opts genrt.Options
		want string
		is   error
	}{
		{"", genrt.Options{}, "cbor: pair: unexpected end of data in item head at offset 0", io.ErrUnexpectedEOF},
		{"82 01", genrt.Options{}, "cbor: pair: array elements 2 exceed the 1 byte left at offset 0", io.ErrUnexpectedEOF},
		{"82 01 19", genrt.Options{}, "cbor: pair.B: unexpected end of data in item head at offset 2", io.ErrUnexpectedEOF},
		{"82 01 02 03", genrt.Options{}, "cbor: pair: unexpected data after the value at offset 3", genrt.ErrTrailing},
		{"82 01 1801", genrt.Options{Strict: true}, "cbor: pair: head is not the shortest for its argument at offset 2", genrt.ErrStrict},
		{"82 01 1801", genrt.Options{}, "", nil},
		{"82 01 02", genrt.Options{MaxArrayElements: 1}, "cbor: pair: array elements 2 exceed limit 1 at offset 0", genrt.ErrLimit},
	} {
		var h hooked
		for _, call := range []struct {
			name, want string
			err        error
		}{
			{"Unmarshal", c.want, genrt.Unmarshal(mustHex(c.hex), &p, c.opts)},
			{"UnmarshalBody", strings.Replace(c.want, "pair", "hooked", 1), genrt.UnmarshalBody(mustHex(c.hex), &h, c.opts)},
		} {
			if c.is == nil {
				if call.err != nil {
					t.Errorf("%s(%s, %+v) = %v", call.name, c.hex, c.opts, call.err)
				}
				continue
			}
			if call.err == nil || call.err.Error() != call.want || !errors.Is(call.err, c.is) {
				t.Errorf("%s(%s, %+v):\n got %v\nwant %s", call.name, c.hex, c.opts, call.err, call.want)
			}
			asError(t, call.err)
		}
		if c.is == nil && h.P != (pair{1, 1}) {
			t.Errorf("UnmarshalBody(%s) = %+v", c.hex, h.P)
		}
	}
	// The root is the type's name without type arguments.
	var b box[int]
	err := genrt.Unmarshal(mustHex("81 82 01 f4"), &b, genrt.Options{})
	if want := "cbor: box.Items[0].B: expected integer, found bool at offset 3"; err == nil || err.Error() != want {
		t.Errorf("Unmarshal(box):\n got %v\nwant %s", err, want)
	}
}

// TestHintBudget: the capacities Hint grants for one input add up to no
// more than its length, however the counts nest, so forged counts cannot
// claim the same bytes at every level; valid input never sees less than
// its count.
func TestHintBudget(t *testing.T) {
	// 8 nested arrays each declaring 80 elements, in 116 bytes.
	data := append(bytes.Repeat(mustHex("9850"), 8), make([]byte, 100)...)
	for _, k := range decoderKinds {
		d := k.new(data)
		total := 0
		for range 8 {
			n, err := d.ReadArrayHead()
			if err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
			total += d.Hint(n)
		}
		if total > len(data) {
			t.Errorf("%s: hints add up to %d for %d bytes", k.name, total, len(data))
		}
	}
	// Valid: [[1, 2, 3], [4, 5]] gets exactly its counts.
	d := genrt.NewBytesDecoder(mustHex("82 83 01 02 03 82 04 05"))
	n, _ := d.ReadArrayHead()
	if h := d.Hint(n); h != 2 {
		t.Errorf("Hint(2) = %d", h)
	}
	for _, want := range []int{3, 2} {
		n, _ := d.ReadArrayHead()
		if h := d.Hint(n); h != want {
			t.Errorf("Hint(%d) = %d", want, h)
		}
		for range n {
			d.ReadUint64()
		}
		d.Leave()
	}
	// A reset decoder starts a new budget.
	d.Reset(mustHex("83 01 02 03"))
	n, _ = d.ReadArrayHead()
	if h := d.Hint(n); h != 3 {
		t.Errorf("after Reset: Hint(3) = %d", h)
	}
}

// TestMaxDepthCap: MaxDepth cannot exceed 65535, so that no setting lets
// input nest deeper than the goroutine stack holds.
func TestMaxDepthCap(t *testing.T) {
	d := genrt.NewBytesDecoder(nil)
	d.SetOptions(genrt.Options{MaxDepth: 1 << 30})
	if got := d.Options().MaxDepth; got != 65535 {
		t.Errorf("MaxDepth = %d, want 65535", got)
	}
}

// texts is a hand-written decoder of [text, bytes, text, ...]: the string
// reads that ZeroCopy changes.
type texts struct {
	S []string
	B [][]byte
}

func (x *texts) DecodeCBOR(d *genrt.Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	x.S, x.B = x.S[:0], x.B[:0]
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			s, ok := d.TryString()
			if !ok {
				if s, err = d.ReadString(); err != nil {
					return err
				}
			}
			x.S = append(x.S, s)
		} else {
			b, err := d.ReadBytes(nil)
			if err != nil {
				return err
			}
			x.B = append(x.B, b)
		}
	}
	d.Leave()
	return nil
}

// TestZeroCopy checks that with ZeroCopy the strings and byte slices of a
// definite length alias the input, that without it (the default) and on
// a stream they do not, and that indefinite-length strings are copied.
func TestZeroCopy(t *testing.T) {
	long := "a text of more than thirty-two bytes, é included"
	data := genrt.AppendArrayHead(nil, 6)
	data = genrt.AppendString(data, "short")
	data = genrt.AppendBytes(data, []byte("bytes"))
	data = genrt.AppendString(data, long)
	data = genrt.AppendBytes(data, []byte{})
	data = append(data, 0x7f, 0x62, 'i', 'n', 0x63, 'd', 'e', 'f', 0xff) // "indef" in chunks
	data = genrt.AppendBytes(data, []byte("tail"))
	want := texts{S: []string{"short", long, "indef"}, B: [][]byte{[]byte("bytes"), {}, []byte("tail")}}
	check := func(name string, x *texts, aliased bool) {
		t.Helper()
		if len(x.S) != 3 || len(x.B) != 3 {
			t.Fatalf("%s: decoded %q %q", name, x.S, x.B)
		}
		for i := range want.S {
			if x.S[i] != want.S[i] || !bytes.Equal(x.B[i], want.B[i]) || x.B[i] == nil {
				t.Fatalf("%s: decoded %q %q, want %q %q", name, x.S, x.B, want.S, want.B)
			}
		}
		in := func(p *byte) bool {
			for i := range data {
				if &data[i] == p {
					return true
				}
			}
			return false
		}
		for i, s := range x.S[:2] {
			if got := in(unsafe.StringData(s)); got != aliased {
				t.Errorf("%s: string %d aliases the input: %v", name, i, got)
			}
		}
		if got := in(unsafe.StringData(x.S[2])); got {
			t.Errorf("%s: an indefinite-length string aliases the input", name)
		}
		for _, i := range []int{0, 2} {
			if got := in(unsafe.SliceData(x.B[i])); got != aliased {
				t.Errorf("%s: byte string %d aliases the input: %v", name, i, got)
			}
			if aliased && cap(x.B[i]) != len(x.B[i]) {
				t.Errorf("%s: an aliased byte slice has room to append into the input", name)
			}
		}
	}
	var x texts
	if err := genrt.Unmarshal(data, &x, genrt.Options{ZeroCopy: true}); err != nil {
		t.Fatal(err)
	}
	check("Unmarshal ZeroCopy", &x, true)
	if err := genrt.Unmarshal(data, &x, genrt.Options{}); err != nil {
		t.Fatal(err)
	}
	check("Unmarshal", &x, false)
	d := genrt.NewBytesDecoder(data)
	d.SetOptions(genrt.Options{ZeroCopy: true})
	if err := x.DecodeCBOR(d); err != nil {
		t.Fatal(err)
	}
	check("bytes decoder ZeroCopy", &x, true)
	d.Reset(data)
	if err := x.DecodeCBOR(d); err != nil {
		t.Fatal(err)
	}
	check("bytes decoder ZeroCopy after Reset", &x, true)
	s := genrt.NewDecoder(bytes.NewReader(data))
	s.SetOptions(genrt.Options{ZeroCopy: true})
	if err := x.DecodeCBOR(s); err != nil {
		t.Fatal(err)
	}
	check("stream ZeroCopy", &x, false)
}

// TestZeroCopyAllocs checks that Unmarshal with ZeroCopy allocates
// nothing for a value of strings, and that invalid UTF-8 is still caught.
func TestZeroCopyAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	data := genrt.AppendArrayHead(nil, 3)
	data = genrt.AppendString(data, "Alice Wonderland")
	data = genrt.AppendBytes(data, []byte("5551234567"))
	data = genrt.AppendString(data, "x")
	x := texts{S: make([]string, 0, 4), B: make([][]byte, 0, 4)}
	opts := genrt.Options{ZeroCopy: true}
	if n := testing.AllocsPerRun(100, func() {
		if err := genrt.Unmarshal(data, &x, opts); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per Unmarshal with ZeroCopy", n)
	}
	bad := bytes.Clone(data)
	bad[len(bad)-1] = 0xff
	if err := genrt.Unmarshal(bad, &x, opts); !errors.Is(err, genrt.ErrUTF8) {
		t.Errorf("invalid UTF-8 with ZeroCopy: %v", err)
	}
}

// TestReadStringEveryByteChecked puts one byte that is not UTF-8 at every
// position of texts of 0 to 40 bytes: ReadString must refuse each, and
// accept the text without it.
func TestReadStringEveryByteChecked(t *testing.T) {
	for n := 0; n <= 40; n++ {
		text := bytes.Repeat([]byte{'a'}, n)
		for bad := -1; bad < n; bad++ {
			b := bytes.Clone(text)
			if bad >= 0 {
				b[bad] = 0xff
			}
			data := append(genrt.AppendHead(nil, genrt.MajorText, uint64(n)), b...)
			data = append(data, 0, 0, 0, 0, 0, 0, 0, 0) // room for word reads past the end
			_, err := genrt.NewBytesDecoder(data).ReadString()
			if (bad >= 0) != errors.Is(err, genrt.ErrUTF8) || bad < 0 && err != nil {
				t.Fatalf("%d bytes, 0xff at %d: %v", n, bad, err)
			}
		}
	}
}

// TestUnmarshalOptionsPerCall: Unmarshal reuses pooled decoders, and each
// call decodes with its own options only, whatever the call before set:
// limits, Strict and ZeroCopy, in every order, on one goroutine (so that
// the calls share a decoder) and from several at once.
func TestUnmarshalOptionsPerCall(t *testing.T) {
	data := mustHex("82 43 616263 78 11 3132333435363738393031323334353637") // [h'616263', 17-byte text]
	strict := mustHex("82 01 1801")
	calls := []struct {
		name string
		run  func() error
	}{
		{"default", func() error {
			var v zcRecord
			if err := genrt.Unmarshal(data, &v, genrt.Options{}); err != nil {
				return err
			}
			if aliases(data, v.Data) || aliasesString(data, v.Text) || v.Text != "12345678901234567" {
				return errors.New("a decode without ZeroCopy aliased the input, or read the wrong text")
			}
			var p pair
			return genrt.Unmarshal(strict, &p, genrt.Options{})
		}},
		{"zero-copy", func() error {
			var v zcRecord
			if err := genrt.Unmarshal(data, &v, genrt.Options{ZeroCopy: true}); err != nil {
				return err
			}
			if !aliases(data, v.Data) || !aliasesString(data, v.Text) {
				return errors.New("a ZeroCopy decode copied")
			}
			return nil
		}},
		{"strict", func() error {
			var p pair
			if err := genrt.Unmarshal(strict, &p, genrt.Options{Strict: true}); !errors.Is(err, genrt.ErrStrict) {
				return fmt.Errorf("Strict: %v, want ErrStrict", err)
			}
			return nil
		}},
		{"short strings", func() error {
			var v zcRecord
			if err := genrt.Unmarshal(data, &v, genrt.Options{MaxStringLength: 16, ZeroCopy: true}); !errors.Is(err, genrt.ErrLimit) {
				return fmt.Errorf("MaxStringLength 16: %v, want ErrLimit", err)
			}
			return nil
		}},
		{"one element", func() error {
			var p pair
			if err := genrt.Unmarshal(strict, &p, genrt.Options{MaxArrayElements: 1}); !errors.Is(err, genrt.ErrLimit) {
				return fmt.Errorf("MaxArrayElements 1: %v, want ErrLimit", err)
			}
			return nil
		}},
	}
	for _, a := range calls {
		for _, b := range calls {
			if err := a.run(); err != nil {
				t.Errorf("%s: %v", a.name, err)
			}
			if err := b.run(); err != nil {
				t.Errorf("%s after %s: %v", b.name, a.name, err)
			}
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(calls))
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				c := calls[(g+i)%len(calls)]
				if err := c.run(); err != nil {
					errs <- fmt.Errorf("%s: %v", c.name, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// aliases reports whether b points into data.
func aliases(data, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	p, start := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return p >= start && p < start+uintptr(len(data))
}

// aliasesString reports whether s points into data.
func aliasesString(data []byte, s string) bool {
	return aliases(data, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// TestFinish: the end of a generated UnmarshalCBOR. A value that took
// all of the input is nil; the decoder's error gets the type's name as
// its root; bytes after the value are ErrTrailing at their offset; no
// data at all is a truncated item.
func TestFinish(t *testing.T) {
	decode := func(data []byte) error {
		d := genrt.NewBytesDecoder(data)
		var p pair
		return d.Finish(p.DecodeCBOR(d), "Pair")
	}
	if err := decode([]byte{0x82, 0x01, 0x02}); err != nil {
		t.Fatalf("whole input: %v", err)
	}
	err := decode([]byte{0x82, 0x01, 0x02, 0x03})
	var e *genrt.Error
	if !errors.Is(err, genrt.ErrTrailing) || !errors.As(err, &e) || e.Offset != 3 || !strings.Contains(err.Error(), "Pair") {
		t.Errorf("trailing byte: %v", err)
	}
	err = decode([]byte{0x82, 0x01, 0x61})
	if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "cbor: Pair.B:") {
		t.Errorf("bad field: %v", err)
	}
	if err := decode(nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("no data: %v", err)
	}
}
