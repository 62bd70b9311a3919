package cbgcompat

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
)

// claimLike is the encoding of a power.Claim: an array of an integer and
// two go-state-types big.Ints, one of 38 bytes and zero.
var claimLike = []byte{
	0x83, 0x1a, 0x60, 0x4c, 0x5b, 0x30, 0x58, 0x27, 0x00, 0xe9, 0xba, 0x0f, 0xbb, 0x39, 0xf8, 0x51,
	0x71, 0xf6, 0xef, 0x77, 0x82, 0x98, 0x70, 0x43, 0xf6, 0x83, 0xd1, 0xb4, 0xfa, 0x89, 0x0c, 0xb5,
	0xe7, 0xca, 0xe3, 0xcf, 0x1c, 0x0f, 0xe6, 0x0a, 0xa3, 0xf5, 0xe9, 0x0c, 0x32, 0x18, 0x79, 0x40,
}

type claimValue struct {
	kind     int64
	raw, adj *big.Int
}

// decodeClaim reads claimLike from r as a generated UnmarshalCBOR does.
func decodeClaim(v *claimValue, r *bytes.Reader) error {
	d, owned := NewDecoder(r)
	start := d.Pos()
	err := func() error {
		if _, n, err := d.ReadHeader(); err != nil || n != 3 {
			return err
		}
		var err error
		if v.kind, err = d.Int64(); err != nil {
			return err
		}
		if v.raw, err = d.FilInt(); err != nil {
			return err
		}
		v.adj, err = d.FilInt()
		return err
	}()
	return d.End(owned, start, err)
}

// TestDecodersShared: goroutines that decode at the same time, through
// the spare Decoder and the pool, each read their own item and leave
// their reader where it ends (run with -race).
func TestDecodersShared(t *testing.T) {
	want := new(big.Int).SetBytes(claimLike[9:47])
	inGoroutines(t, func(g int) string {
		in := append(append([]byte(nil), claimLike...), byte(g))
		for range 2000 {
			r := bytes.NewReader(in)
			var v claimValue
			if err := decodeClaim(&v, r); err != nil || v.kind != 0x604c5b30 || v.raw.Cmp(want) != 0 || v.adj.Sign() != 0 {
				return "a decode read another value"
			}
			if c, err := r.ReadByte(); err != nil || c != byte(g) || r.Len() != 0 {
				return "a reader left elsewhere than the item's end"
			}
		}
		return ""
	})
}

// inGoroutines runs f(0) to f(7) at the same time and fails t with what
// each returns that is not "".
func inGoroutines(t *testing.T, f func(g int) string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e := f(g); e != "" {
				errs <- e
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// BenchmarkDecodeClaim: one goroutine, and one per P, each with its own
// value and reader.
func BenchmarkDecodeClaim(b *testing.B) {
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		var v claimValue
		r := bytes.NewReader(claimLike)
		for b.Loop() {
			r.Reset(claimLike)
			if err := decodeClaim(&v, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var v claimValue
			r := bytes.NewReader(claimLike)
			for pb.Next() {
				r.Reset(claimLike)
				if err := decodeClaim(&v, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// marshalLike writes an array of n and a text of g's, as a generated
// MarshalCBOR(io.Writer) does: into a Writer of GetWriter, then once to out.
func marshalLike(out *bytes.Buffer, n uint64, text string) error {
	cw := GetWriter()
	cw.Buf = append(AppendHeader(cw.Buf, MajArray, 2), 0x1b)
	cw.Buf = binary.BigEndian.AppendUint64(cw.Buf, n)
	cw.Buf = append(AppendHeader(cw.Buf, MajTextString, uint64(len(text))), text...)
	return cw.Flush(out)
}

// TestWritersShared: goroutines that encode at the same time, through
// the spare Writers and the pool, each write their own bytes, and a
// Writer taken while its goroutine's slot is empty again (an encode
// inside an encode) is given back to the slot or the pool (run with
// -race).
func TestWritersShared(t *testing.T) {
	inGoroutines(t, func(g int) string {
		text := strings.Repeat(string(rune('a'+g)), 10+g)
		want := append([]byte{0x82, 0x1b, 0, 0, 0, 0, 0, 0, 0, byte(g), 0x60 | byte(len(text))}, text...)
		var out bytes.Buffer
		for i := range 2000 {
			out.Reset()
			outer := GetWriter() // held while the inner encode runs
			if err := marshalLike(&out, uint64(g), text); err != nil || !bytes.Equal(out.Bytes(), want) {
				return fmt.Sprintf("goroutine %d, encode %d: % x, want % x", g, i, out.Bytes(), want)
			}
			outer.Put()
		}
		return ""
	})
}
