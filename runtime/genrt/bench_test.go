package genrt_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// nestedItem is a ~1 KB item of every shape: maps with text keys, arrays,
// tags, floats, byte strings and an indefinite-length array.
var nestedItem = func() []byte {
	var b []byte
	b = genrt.AppendMapHead(b, 8)
	for i := 0; i < 8; i++ {
		b = genrt.AppendString(b, fmt.Sprintf("field-%d", i))
		b = genrt.AppendArrayHead(b, 6)
		b = genrt.AppendUint(b, uint64(i)*1000003)
		b = genrt.AppendFloat64(b, float64(i)+0.1)
		b = genrt.AppendTag(b, 1)
		b = genrt.AppendInt(b, -int64(i)*77777)
		b = genrt.AppendBytes(b, bytes.Repeat([]byte{byte(i)}, 40))
		b = genrt.AppendString(b, "some text value")
		b = append(b, 0x9f)
		for j := 0; j < 5; j++ {
			b = genrt.AppendMapHead(b, 1)
			b = genrt.AppendUint(b, uint64(j))
			b = genrt.AppendBool(b, j%2 == 0)
		}
		b = append(b, 0xff)
	}
	return b
}()

// rewindReader replays data forever, so that a stream decoder can be
// benchmarked without building a new one per iteration.
type rewindReader struct {
	data []byte
	off  int
}

func (r *rewindReader) Read(p []byte) (int, error) {
	if r.off == len(r.data) {
		r.off = 0
	}
	n := copy(p, r.data[r.off:])
	r.off += n
	return n, nil
}

// streamOf returns a reader decoder over endless copies of item.
func streamOf(item []byte) *genrt.Decoder {
	return genrt.NewDecoder(&rewindReader{data: item})
}

func benchEncode(b *testing.B, f func([]byte) []byte) {
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for i := 0; i < b.N; i++ {
		buf = f(buf[:0])
	}
}

func BenchmarkAppendUint(b *testing.B) {
	benchEncode(b, func(d []byte) []byte { return genrt.AppendUint(d, 1<<40+12345) })
}
func BenchmarkAppendInt(b *testing.B) {
	benchEncode(b, func(d []byte) []byte { return genrt.AppendInt(d, -1<<30-7) })
}
func BenchmarkAppendFloat64(b *testing.B) {
	vals := []float64{1.5, 100000, 1.1, math.NaN(), 5.960464477539063e-8}
	i := 0
	benchEncode(b, func(d []byte) []byte { i++; return genrt.AppendFloat64(d, vals[i%len(vals)]) })
}
func BenchmarkAppendString(b *testing.B) {
	benchEncode(b, func(d []byte) []byte { return genrt.AppendString(d, "a typical field value") })
}
func BenchmarkAppendHead(b *testing.B) {
	benchEncode(b, func(d []byte) []byte { return genrt.AppendHead(d, genrt.MajorArray, 1000) })
}

func BenchmarkMapSorter100(b *testing.B) {
	m := make(map[string]int64, 100)
	for i := 0; i < 100; i++ {
		m[fmt.Sprintf("key-%03d", (i*37)%100)] = int64(i)
	}
	for _, order := range []struct {
		name  string
		order genrt.KeyOrder
	}{{"bytewise", genrt.SortBytewise}, {"lengthfirst", genrt.SortLengthFirst}, {"none", genrt.SortNone}} {
		b.Run(order.name, func(b *testing.B) {
			benchEncode(b, func(d []byte) []byte {
				return encodeMap(d, m, order.order, genrt.AppendString, appendInt64)
			})
		})
	}
}

// benchRead runs read over item with both decoders: the bytes decoder is
// Reset per iteration, the stream decoder reads endless copies.
func benchRead(b *testing.B, item []byte, read func(*genrt.Decoder) error) {
	b.Run("bytes", func(b *testing.B) {
		b.ReportAllocs()
		d := genrt.NewBytesDecoder(item)
		for i := 0; i < b.N; i++ {
			d.Reset(item)
			if err := read(d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reader", func(b *testing.B) {
		b.ReportAllocs()
		d := streamOf(item)
		for i := 0; i < b.N; i++ {
			if err := read(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkReadUint64(b *testing.B) {
	benchRead(b, genrt.AppendUint(nil, 1<<40+12345), func(d *genrt.Decoder) error { _, err := d.ReadUint64(); return err })
}
func BenchmarkReadInt64(b *testing.B) {
	benchRead(b, genrt.AppendInt(nil, -1<<30-7), func(d *genrt.Decoder) error { _, err := d.ReadInt64(); return err })
}
func BenchmarkReadFloat64(b *testing.B) {
	benchRead(b, genrt.AppendFloat64(nil, 1.1), func(d *genrt.Decoder) error { _, err := d.ReadFloat64(); return err })
}
func BenchmarkReadArrayHead(b *testing.B) {
	benchRead(b, genrt.AppendArrayHead(nil, 0), func(d *genrt.Decoder) error {
		_, err := d.ReadArrayHead()
		d.Leave()
		return err
	})
}
func BenchmarkReadString(b *testing.B) {
	benchRead(b, genrt.AppendString(nil, "a typical field value"), func(d *genrt.Decoder) error { _, err := d.ReadString(); return err })
}
func BenchmarkSkip(b *testing.B) {
	benchRead(b, nestedItem, (*genrt.Decoder).Skip)
}
func BenchmarkValid(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := genrt.Valid(nestedItem); err != nil {
			b.Fatal(err)
		}
	}
}

// TestZeroAllocs: encoding into a buffer with room, integer, float and head
// reads, and Skip allocate nothing, on both decoders.
func TestZeroAllocs(t *testing.T) {
	buf := make([]byte, 0, 256)
	enc := map[string]func([]byte) []byte{
		"AppendUint":      func(d []byte) []byte { return genrt.AppendUint(d, math.MaxUint64) },
		"AppendInt":       func(d []byte) []byte { return genrt.AppendInt(d, math.MinInt64) },
		"AppendFloat64":   func(d []byte) []byte { return genrt.AppendFloat64(d, 1.1) },
		"AppendFloat32":   func(d []byte) []byte { return genrt.AppendFloat32(d, 1.5) },
		"AppendString":    func(d []byte) []byte { return genrt.AppendString(d, "text") },
		"AppendBytes":     func(d []byte) []byte { return genrt.AppendBytes(d, []byte{1, 2, 3}) },
		"AppendHead":      func(d []byte) []byte { return genrt.AppendHead(d, genrt.MajorMap, 70000) },
		"AppendTag":       func(d []byte) []byte { return genrt.AppendTag(d, 55799) },
		"AppendArrayHead": func(d []byte) []byte { return genrt.AppendArrayHead(d, 3) },
		"AppendBool+Null": func(d []byte) []byte { return genrt.AppendNull(genrt.AppendBool(d, true)) },
	}
	for name, f := range enc {
		if n := testing.AllocsPerRun(100, func() { buf = f(buf[:0]) }); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}

	reads := []struct {
		name string
		item []byte
		read func(*genrt.Decoder) error
	}{
		{"ReadUint64", genrt.AppendUint(nil, math.MaxUint64), func(d *genrt.Decoder) error { _, err := d.ReadUint64(); return err }},
		{"ReadInt64", genrt.AppendInt(nil, math.MinInt64), func(d *genrt.Decoder) error { _, err := d.ReadInt64(); return err }},
		{"ReadInt8", genrt.AppendInt(nil, -100), func(d *genrt.Decoder) error { _, err := d.ReadInt8(); return err }},
		{"ReadUint16", genrt.AppendUint(nil, 65535), func(d *genrt.Decoder) error { _, err := d.ReadUint16(); return err }},
		{"ReadFloat64", genrt.AppendFloat64(nil, 1.1), func(d *genrt.Decoder) error { _, err := d.ReadFloat64(); return err }},
		{"ReadFloat32/f16", genrt.AppendFloat64(nil, 1.5), func(d *genrt.Decoder) error { _, err := d.ReadFloat32(); return err }},
		{"ReadBool", []byte{0xf5}, func(d *genrt.Decoder) error { _, err := d.ReadBool(); return err }},
		{"ReadNull", []byte{0xf6}, func(d *genrt.Decoder) error { _, err := d.ReadNull(); return err }},
		{"ReadTag", []byte{0xc1, 0x00}, func(d *genrt.Decoder) error {
			if _, err := d.ReadTag(); err != nil {
				return err
			}
			_, err := d.ReadUint8()
			return err
		}},
		{"ReadArrayHead", mustHex("83010203"), func(d *genrt.Decoder) error {
			if _, err := d.ReadArrayHead(); err != nil {
				return err
			}
			for i := 0; i < 3; i++ {
				if _, err := d.ReadUint8(); err != nil {
					return err
				}
			}
			d.Leave()
			return nil
		}},
		{"ReadMapHead+ReadKey", mustHex("a2 6161 01 20 02"), func(d *genrt.Decoder) error {
			if _, err := d.ReadMapHead(); err != nil {
				return err
			}
			for i := 0; i < 2; i++ {
				if _, err := d.ReadKey(); err != nil {
					return err
				}
				if _, err := d.ReadUint8(); err != nil {
					return err
				}
			}
			d.Leave()
			return nil
		}},
		{"ReadByteArray", mustHex("4401020304"), func(d *genrt.Decoder) error {
			var a [4]byte
			return d.ReadByteArray(a[:])
		}},
		{"Skip", nestedItem, (*genrt.Decoder).Skip},
	}
	for _, r := range reads {
		bd := genrt.NewBytesDecoder(r.item)
		if n := testing.AllocsPerRun(100, func() {
			bd.Reset(r.item)
			if err := r.read(bd); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("bytes %s allocates %v times", r.name, n)
		}
		sd := streamOf(r.item)
		if err := r.read(sd); err != nil { // first read fills the buffer
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() {
			if err := r.read(sd); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("reader %s allocates %v times", r.name, n)
		}
	}
}

// TestStreamSkipLargeItemNoCopy: skipping a long string on a stream
// discards through the read buffer; the buffer does not grow to the
// string's size.
func TestStreamSkipLargeItemNoCopy(t *testing.T) {
	const size = 8 << 20
	item := genrt.AppendHead(nil, genrt.MajorBytes, size)
	r := io.MultiReader(bytes.NewReader(item), io.LimitReader(zeros{}, size), bytes.NewReader([]byte{0x07}))
	d := genrt.NewDecoder(r)
	n := allocBytes(func() {
		if err := d.Skip(); err != nil {
			t.Fatal(err)
		}
	})
	if n > 1<<20 {
		t.Errorf("Skip of an %d-byte string allocated %d bytes", size, n)
	}
	if v, err := d.ReadUint8(); v != 7 || err != nil {
		t.Errorf("item after the string: %d, %v", v, err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
