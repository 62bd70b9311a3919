package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
	"testing/iotest"
)

// legacyFields reads data's map with LegacyField over keys and lists the
// fields it returned, in order; each field's value (an unsigned integer
// here) is read as the generated code would read it. wide gives the
// state words for more than 64 fields.
func legacyFields(d *Decoder, keys *LegacyKeys, wide int) ([]string, error) {
	var m LegacyMap
	if wide > 0 {
		m.Wide = make([]uint64, wide)
	}
	var got []string
	for {
		field, err := d.LegacyField(&m, keys)
		if field < 0 {
			return got, err
		}
		x, err := d.ReadUint64()
		if err != nil {
			return got, err
		}
		got = append(got, fmt.Sprintf("%d=%d", field, x))
	}
}

// legacyMap is a definite map of the pairs kv: text keys (string) or
// integer keys (int), each with an unsigned value.
func legacyMap(kv ...any) []byte {
	b := AppendMapHead(nil, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		switch k := kv[i].(type) {
		case string:
			b = AppendString(b, k)
		case int:
			b = AppendInt(b, int64(k))
		case []byte:
			b = append(b, k...) // a key as raw bytes
		}
		b = AppendUint(b, uint64(kv[i+1].(int)))
	}
	return b
}

func TestLegacyField(t *testing.T) {
	keys := &LegacyKeys{
		Text:  []string{"id", "name", "", "", "Kelvin"},
		Ints:  []IntKey{{Key: 7, Field: 2}, {Key: -3, Field: 3}},
		Names: []string{"ID", "Name", "Seven", "Minus", "Kelvin"},
	}
	indefinite := append([]byte{0xbf}, legacyMap("name", 2, "id", 1)[1:]...)
	indefinite = append(indefinite, 0xff)
	for _, c := range []struct {
		name   string
		data   []byte
		strict bool
		want   []string
		err    error // errors.Is; nil: no error
	}{
		{"in order", legacyMap("id", 1, "name", 2), false, []string{"0=1", "1=2"}, nil},
		{"out of order", legacyMap("Kelvin", 5, "name", 2, "id", 1), false, []string{"4=5", "1=2", "0=1"}, nil},
		{"integer keys", legacyMap(7, 3, -3, 4, 8, 9), false, []string{"2=3", "3=4"}, nil},
		{"unknown keys skipped", legacyMap("x", 1, "id", 1, "", 2, 99, 3), false, []string{"0=1"}, nil},
		{"case folded", legacyMap("ID", 1, "NAME", 2, "kelvin", 5), false, []string{"0=1", "1=2", "4=5"}, nil},
		// The Kelvin sign (three bytes) does not fold to "k" at another length.
		{"fold at the same length only", legacyMap("\u212aelvin", 5), false, nil, nil},
		{"duplicate keeps the first", legacyMap("id", 1, "ID", 9, "id", 8, "name", 2), false, []string{"0=1", "1=2"}, nil},
		// Strict mode checks the whole item before the first field.
		{"duplicate in strict mode", legacyMap("id", 1, "id", 9), true, nil, ErrDuplicateKey},
		{"a key of another type", legacyMap([]byte{0x41, 'x'}, 1), false, nil, ErrType},
		{"an integer key beyond int64", legacyMap([]byte{0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1), false, nil, ErrRange},
		{"invalid UTF-8 key", legacyMap([]byte{0x62, 0xff, 'x'}, 1), false, nil, ErrUTF8},
		{"indefinite", indefinite, false, []string{"1=2", "0=1"}, nil},
		{"null keeps the value", []byte{0xf6}, false, nil, nil},
		{"empty", []byte{0xa0}, false, nil, nil},
		{"not a map", []byte{0x80}, false, nil, ErrType},
		{"truncated", legacyMap("id", 1, "name", 2)[:8], false, []string{"0=1"}, io.ErrUnexpectedEOF},
	} {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", c.name, stream), func(t *testing.T) {
				var d *Decoder
				if stream {
					d = NewDecoder(iotest.OneByteReader(bytes.NewReader(c.data)))
				} else {
					d = NewBytesDecoder(c.data)
				}
				if c.strict {
					d.SetOptions(Options{Strict: true})
				}
				got, err := legacyFields(d, keys, 0)
				if !slices.Equal(got, c.want) {
					t.Errorf("fields %q, want %q", got, c.want)
				}
				switch {
				case c.err == nil && err != nil:
					t.Errorf("error %v", err)
				case c.err != nil && !errors.Is(err, c.err):
					t.Errorf("error %v, want %v", err, c.err)
				case err == nil && d.depth != 0:
					t.Errorf("depth %d after the map", d.depth)
				case err == nil && d.Offset() != int64(len(c.data)):
					t.Errorf("offset %d after the map of %d bytes", d.Offset(), len(c.data))
				}
			})
		}
	}
}

// TestLegacyFieldWide: a struct of more than 64 fields keeps the fields it
// has seen in the words the generated code gives, so that a duplicate of
// field 64 and beyond is found as one of field 0 is.
func TestLegacyFieldWide(t *testing.T) {
	keys := &LegacyKeys{}
	for i := range 130 {
		keys.Text = append(keys.Text, fmt.Sprintf("f%d", i))
	}
	data := legacyMap("f0", 1, "f64", 2, "f129", 3, "f64", 4, "f0", 5, "f1", 6)
	got, err := legacyFields(NewBytesDecoder(data), keys, 3)
	if want := []string{"0=1", "64=2", "129=3", "1=6"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("fields %q, %v; want %q", got, err, want)
	}
	d := NewBytesDecoder(data)
	d.SetOptions(Options{Strict: true})
	if _, err := legacyFields(d, keys, 3); !errors.Is(err, ErrDuplicateKey) {
		t.Errorf("strict: %v, want a duplicate key", err)
	}
}

// TestLegacyFieldNoFields: a struct without fields (nil keys) skips every
// pair, checking each key as one that could name a field.
func TestLegacyFieldNoFields(t *testing.T) {
	var m LegacyMap
	d := NewBytesDecoder(legacyMap("a", 1, 2, 3))
	if field, err := d.LegacyField(&m, nil); field != -1 || err != nil || d.Offset() != 6 {
		t.Errorf("LegacyField = %d, %v at offset %d", field, err, d.Offset())
	}
	m = LegacyMap{}
	if _, err := NewBytesDecoder(legacyMap([]byte{0xf5}, 1)).LegacyField(&m, nil); !errors.Is(err, ErrType) {
		t.Errorf("a key of another type: %v", err)
	}
}

// TestLegacyFieldAllocs: the loop allocates nothing.
func TestLegacyFieldAllocs(t *testing.T) {
	keys := &LegacyKeys{Text: []string{"id", "name"}}
	data := legacyMap("id", 1, "NAME", 2, "other", 3)
	d := NewBytesDecoder(data)
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(data)
		if _, err := legacyFieldsNoList(d, keys); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per map", allocs)
	}
}

func legacyFieldsNoList(d *Decoder, keys *LegacyKeys) (int, error) {
	var m LegacyMap
	n := 0
	for {
		field, err := d.LegacyField(&m, keys)
		if field < 0 {
			return n, err
		}
		if _, err := d.ReadUint64(); err != nil {
			return n, err
		}
		n++
	}
}

// TestLegacyFieldIntegerKeys: a struct whose keys are all integers (no
// Text) takes small integer keys on the fast path and any other on the
// general one, in any order.
func TestLegacyFieldIntegerKeys(t *testing.T) {
	keys := &LegacyKeys{
		Ints:  []IntKey{{Key: 0, Field: 0}, {Key: 23, Field: 1}, {Key: -24, Field: 2}, {Key: 24, Field: 3}, {Key: -1000, Field: 4}},
		Names: []string{"A", "B", "C", "D", "E"},
	}
	data := legacyMap(-1000, 5, 24, 4, 0, 1, -24, 3, 23, 2, -1, 9, 25, 9)
	got, err := legacyFields(NewBytesDecoder(data), keys, 0)
	if want := []string{"4=5", "3=4", "0=1", "2=3", "1=2"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("fields %q, %v; want %q", got, err, want)
	}
	data = legacyMap(0, 1, 0, 2, 23, 3)
	got, err = legacyFields(NewBytesDecoder(data), keys, 0)
	if want := []string{"0=1", "1=3"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("duplicate: fields %q, %v; want %q", got, err, want)
	}
}
