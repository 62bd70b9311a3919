package runtime_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/cborgen/cborgen/runtime"
)

// pair is what cbor-gen would generate for struct{ A, B uint64 }, by hand:
// an array of two integers.
type pair struct{ A, B uint64 }

func (p *pair) DecodeCBOR(d *runtime.Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	if n != 2 {
		return runtime.WrongLength(d, 2, n)
	}
	if p.A, err = d.ReadUint64(); err != nil {
		return runtime.AtField(err, "A")
	}
	if p.B, err = d.ReadUint64(); err != nil {
		return runtime.AtField(err, "B")
	}
	d.Leave()
	return nil
}

// box holds a list of pairs, to nest.
type box[T any] struct{ Items []pair }

func (b *box[T]) DecodeCBOR(d *runtime.Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	b.Items = make([]pair, d.Hint(n))[:0]
	for i := 0; i < n; i++ {
		b.Items = append(b.Items, pair{})
		if err := b.Items[i].DecodeCBOR(d); err != nil {
			return runtime.AtField(runtime.AtIndex(err, i), "Items")
		}
	}
	d.Leave()
	return nil
}

func TestUnmarshal(t *testing.T) {
	var p pair
	if err := runtime.Unmarshal(mustHex("82 01 02"), &p, runtime.Options{}); err != nil || p != (pair{1, 2}) {
		t.Fatalf("Unmarshal = %+v, %v", p, err)
	}
	for _, c := range []struct {
		hex  string
		opts runtime.Options
		want string
		is   error
	}{
		{"", runtime.Options{}, "cbor: pair: unexpected end of data in item head at offset 0", io.ErrUnexpectedEOF},
		{"82 01", runtime.Options{}, "cbor: pair: array elements 2 exceed the 1 byte left at offset 0", io.ErrUnexpectedEOF},
		{"82 01 19", runtime.Options{}, "cbor: pair.B: unexpected end of data in item head at offset 2", io.ErrUnexpectedEOF},
		{"82 01 02 03", runtime.Options{}, "cbor: pair: unexpected data after the value at offset 3", runtime.ErrTrailing},
		{"82 01 1801", runtime.Options{Strict: true}, "cbor: pair: head is not the shortest for its argument at offset 2", runtime.ErrStrict},
		{"82 01 1801", runtime.Options{}, "", nil},
		{"82 01 02", runtime.Options{MaxArrayElements: 1}, "cbor: pair: array elements 2 exceed limit 1 at offset 0", runtime.ErrLimit},
	} {
		err := runtime.Unmarshal(mustHex(c.hex), &p, c.opts)
		if c.is == nil {
			if err != nil {
				t.Errorf("Unmarshal(%s, %+v) = %v", c.hex, c.opts, err)
			}
			continue
		}
		if err == nil || err.Error() != c.want || !errors.Is(err, c.is) {
			t.Errorf("Unmarshal(%s, %+v):\n got %v\nwant %s", c.hex, c.opts, err, c.want)
		}
		asError(t, err)
	}
	// The root is the type's name without type arguments.
	var b box[int]
	err := runtime.Unmarshal(mustHex("81 82 01 f6"), &b, runtime.Options{})
	if want := "cbor: box.Items[0].B: expected integer, found null at offset 3"; err == nil || err.Error() != want {
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
	d := runtime.NewBytesDecoder(mustHex("82 83 01 02 03 82 04 05"))
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
	d := runtime.NewBytesDecoder(nil)
	d.SetOptions(runtime.Options{MaxDepth: 1 << 30})
	if got := d.Options().MaxDepth; got != 65535 {
		t.Errorf("MaxDepth = %d, want 65535", got)
	}
}
