package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// readItems decodes an array of text strings as generated code for
// Items []string would, wrapping errors with the element index.
func readItems(d *genrt.Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if _, err := d.ReadString(); err != nil {
			return genrt.AtIndex(err, i)
		}
	}
	d.Leave()
	return nil
}

func TestErrorPathAndFormat(t *testing.T) {
	// [ "a", "b", "c", 1 ]: element 3 is an integer at offset 7.
	data := mustHex("84 6161 6162 6163 01")
	for _, k := range decoderKinds {
		err := readItems(k.new(data))
		err = genrt.AtField(err, "Items")
		err = genrt.AtRoot(err, "Order", genrt.WholeInput)
		want := "cbor: Order.Items[3]: expected text string, found unsigned integer at offset 7"
		if err == nil || err.Error() != want {
			t.Errorf("%s: error = %v\nwant %s", k.name, err, want)
		}
		e := asError(t, err)
		if e.Offset != 7 || !errors.Is(err, genrt.ErrType) || e.Unwrap() != genrt.ErrType {
			t.Errorf("%s: Offset %d, Unwrap %v", k.name, e.Offset, e.Unwrap())
		}
	}

	// A field inside an element inside a field.
	err := genrt.NewBytesDecoder(mustHex("01")).Errorf(genrt.ErrType, "expected text string, found unsigned integer")
	err = genrt.AtField(err, "SKU")
	err = genrt.AtIndex(err, 3)
	err = genrt.AtField(err, "Items")
	err = genrt.AtRoot(err, "Order", genrt.WholeInput)
	if got, want := err.Error(), "cbor: Order.Items[3].SKU: expected text string, found unsigned integer at offset 0"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	// Without a type name the path starts with the first field.
	err = genrt.AtField(genrt.AtField(genrt.NewBytesDecoder(nil).Errorf(genrt.ErrRange, "too big"), "B"), "A")
	if got, want := err.Error(), "cbor: A.B: too big at offset 0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Without any path there is no path segment.
	err = genrt.NewBytesDecoder(nil).Errorf(genrt.ErrRange, "too big: %d", 300)
	if got, want := err.Error(), "cbor: too big: 300 at offset 0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	// Inside a key.
	err = genrt.AtField(genrt.InKey(genrt.AtField(genrt.NewBytesDecoder(nil).Errorf(genrt.ErrType, "x"), "Hash")), "ByCred")
	if got, want := genrt.AtRoot(err, "Index", genrt.WholeInput).Error(), "cbor: Index.ByCred[key].Hash: x at offset 0"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	// Map keys.
	for _, c := range []struct {
		key  any
		want string
	}{
		{"sku", `cbor: Stock["sku"]: x at offset 0`},
		{int64(-4), `cbor: Stock[-4]: x at offset 0`},
		{uint64(18446744073709551615), `cbor: Stock[18446744073709551615]: x at offset 0`},
		{7, `cbor: Stock[7]: x at offset 0`},
		{true, `cbor: Stock[true]: x at offset 0`},
		{1.5, `cbor: Stock[1.5]: x at offset 0`},
		{[]byte{0x0a, 0xff}, `cbor: Stock[h'0aff']: x at offset 0`},
		{nil, `cbor: Stock[?]: x at offset 0`},
	} {
		err := genrt.AtKey(genrt.NewBytesDecoder(nil).Errorf(genrt.ErrType, "x"), c.key)
		err = genrt.AtRoot(err, "Stock", genrt.WholeInput)
		if err.Error() != c.want {
			t.Errorf("AtKey(%v): %q, want %q", c.key, err.Error(), c.want)
		}
	}

	// After WholeInput the root that the DecodeCBOR inside named stays: a
	// union's Unmarshal does not rename its variant's errors.
	err = genrt.AtRoot(genrt.AtRoot(genrt.NewBytesDecoder(nil).Errorf(genrt.ErrType, "x"), "Inner", genrt.OneItem), "Outer", genrt.WholeInput)
	if got := err.Error(); got != "cbor: Inner: x at offset 0" {
		t.Errorf("AtRoot WholeInput over OneItem: %q", got)
	}
	// After OneItem the outer type replaces it: the outermost DecodeCBOR
	// names the path.
	err = genrt.AtField(genrt.AtRoot(genrt.NewBytesDecoder(nil).Errorf(genrt.ErrType, "x"), "Inner", genrt.OneItem), "In")
	err = genrt.AtRoot(err, "Outer", genrt.OneItem)
	if got := err.Error(); got != "cbor: Outer.In: x at offset 0" {
		t.Errorf("AtRoot OneItem twice: %q", got)
	}
}

func TestErrorWrappersPassOtherErrors(t *testing.T) {
	plain := errors.New("plain")
	for _, f := range []func(error) error{
		func(e error) error { return genrt.AtField(e, "F") },
		func(e error) error { return genrt.AtIndex(e, 1) },
		func(e error) error { return genrt.AtKey(e, "k") },
		func(e error) error { return genrt.AtRoot(e, "T", genrt.OneItem) },
		func(e error) error { return genrt.AtRoot(e, "T", genrt.WholeInput) },
	} {
		if f(nil) != nil {
			t.Errorf("wrapper turned nil into an error")
		}
		if f(plain) != plain {
			t.Errorf("wrapper changed an error that is not a *genrt.Error")
		}
	}
	for _, f := range []func(error) error{
		func(e error) error { return genrt.AtField(e, "F") },
		func(e error) error { return genrt.AtIndex(e, 1) },
		func(e error) error { return genrt.AtKey(e, "k") },
		func(e error) error { return genrt.AtRoot(e, "T", genrt.OneItem) },
	} {
		if f(io.EOF) != io.EOF {
			t.Errorf("wrapper changed io.EOF")
		}
	}
	// UnmarshalCBOR's AtRoot: no data at all is a truncated item.
	if err := genrt.AtRoot(io.EOF, "T", genrt.WholeInput); !errors.Is(err, io.ErrUnexpectedEOF) || err.Error() != "cbor: T: no data at offset 0" {
		t.Errorf("AtRoot(io.EOF, WholeInput) = %v, want a *Error wrapping io.ErrUnexpectedEOF", err)
	} else {
		asError(t, err)
	}
	// A *Error wrapped by fmt.Errorf still gets its path.
	inner := genrt.NewBytesDecoder(nil).Errorf(genrt.ErrType, "x")
	outer := genrt.AtField(fmt.Errorf("context: %w", inner), "F")
	if !errors.Is(outer, genrt.ErrType) || inner.Error() != "cbor: F: x at offset 0" {
		t.Errorf("wrapped: %v / %v", outer, inner)
	}
}

func TestErrorTruncationUnwrap(t *testing.T) {
	for _, k := range decoderKinds {
		_, err := k.new(mustHex("64494554")).ReadString()
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s: %v does not wrap io.ErrUnexpectedEOF", k.name, err)
		}
		asError(t, err)
	}
}

func TestErrorHelpers(t *testing.T) {
	d := genrt.NewBytesDecoder(mustHex("a1 6161 01"))
	d.SetOptions(genrt.Options{Strict: true})
	if _, err := d.ReadMapHead(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadKey(); err != nil {
		t.Fatal(err)
	}
	err := d.DuplicateField("Name")
	if e := asError(t, err); e.Offset != 3 || !errors.Is(err, genrt.ErrDuplicateKey) {
		t.Errorf("DuplicateField: %v", err)
	}
	err = genrt.WrongLength(d, 3, 2)
	if e := asError(t, err); e.Offset != 3 || !errors.Is(err, genrt.ErrLength) {
		t.Errorf("WrongLength: %v", err)
	}
	err = d.Errorf(genrt.ErrRange, "value out of range")
	if e := asError(t, err); e.Offset != 3 || !errors.Is(err, genrt.ErrRange) || e.Msg != "value out of range" {
		t.Errorf("Errorf: %v", err)
	}
}

// TestErrorOffsetsOnLongStreams: offsets count from the start of the
// stream, also after the reader decoder dropped consumed bytes from its
// buffer.
func TestErrorOffsetsOnLongStreams(t *testing.T) {
	const items = 20000
	data := append(bytes.Repeat([]byte{0x17}, items), mustHex("84 6161 6162 6163 01")...)
	for _, k := range decoderKinds {
		d := k.new(data)
		for i := 0; i < items; i++ {
			if v, err := d.ReadUint8(); err != nil || v != 23 {
				t.Fatalf("%s item %d: %d, %v", k.name, i, v, err)
			}
		}
		if d.Offset() != items {
			t.Errorf("%s: Offset = %d, want %d", k.name, d.Offset(), items)
		}
		err := readItems(d)
		if e := asError(t, err); e.Offset != items+7 {
			t.Errorf("%s: error offset %d, want %d", k.name, e.Offset, items+7)
		}
	}
}

// TestErrorOffsets pins where errors point: at the first byte of the
// offending item.
func TestErrorOffsets(t *testing.T) {
	cases := []struct {
		hex  string
		read func(*genrt.Decoder) error
		off  int64
		is   error
	}{
		{"83 01 02 1901f4", func(d *genrt.Decoder) error {
			d.ReadArrayHead()
			d.ReadUint8()
			d.ReadUint8()
			_, err := d.ReadUint8()
			return err
		}, 3, genrt.ErrRange},
		{"82 6161 62ffff", func(d *genrt.Decoder) error {
			d.ReadArrayHead()
			d.ReadString()
			_, err := d.ReadString()
			return err
		}, 3, genrt.ErrUTF8},
		{"82 00 1c", func(d *genrt.Decoder) error { return d.Skip() }, 2, genrt.ErrSyntax},
		{"82 00 ff", func(d *genrt.Decoder) error { return d.Skip() }, 2, genrt.ErrSyntax},
	}
	for _, c := range cases {
		for _, k := range decoderKinds {
			err := c.read(k.new(mustHex(c.hex)))
			if e := asError(t, err); e.Offset != c.off || !errors.Is(err, c.is) {
				t.Errorf("%s %s: %v, want %v at offset %d", k.name, c.hex, err, c.is, c.off)
			}
		}
	}
}

// TestPeekMajorEOF: between items a stream ends cleanly with io.EOF; in
// the middle of an item it is io.ErrUnexpectedEOF.
func TestPeekMajorEOF(t *testing.T) {
	for _, k := range decoderKinds {
		d := k.new(mustHex("0001"))
		for i := 0; i < 2; i++ {
			if m, err := d.PeekMajor(); m != genrt.MajorUint || err != nil {
				t.Fatalf("%s PeekMajor = %d, %v", k.name, m, err)
			}
			d.Skip()
		}
		if _, err := d.PeekMajor(); err != io.EOF {
			t.Errorf("%s PeekMajor at the end = %#v, want io.EOF itself", k.name, err)
		}
		d = k.new(mustHex("9f"))
		if n, err := d.ReadArrayHead(); n != -1 || err != nil {
			t.Fatalf("%s ReadArrayHead(9f) = %d, %v", k.name, n, err)
		}
		if _, err := d.PeekMajor(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s PeekMajor inside an array at the end = %v, want io.ErrUnexpectedEOF", k.name, err)
		}
		// A tag without content is truncated, not a clean end.
		d = k.new(mustHex("c1"))
		if tag, err := d.ReadTag(); tag != 1 || err != nil {
			t.Fatalf("%s ReadTag(c1) = %d, %v", k.name, tag, err)
		}
		if _, err := d.PeekMajor(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s PeekMajor after a tag at the end = %v, want io.ErrUnexpectedEOF", k.name, err)
		}
		d = k.new(mustHex("c100"))
		d.ReadTag()
		d.ReadUint64()
		if _, err := d.PeekMajor(); err != io.EOF {
			t.Errorf("%s PeekMajor after a tagged item = %v, want io.EOF", k.name, err)
		}
	}
}
