package genrt_test

import (
	"testing"
	"time"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// BenchmarkTimeRFC3339 writes and reads an RFC 3339 time with nanoseconds
// and an offset, with the runtime's own code and, for comparison in the
// same run, the way it was done with the time package (AppendFormat;
// a copy of the text and time.Parse).
func BenchmarkTimeRFC3339(b *testing.B) {
	tm := time.Date(1987, 6, 15, 8, 30, 12, 123456789, time.FixedZone("", 2*3600))
	enc, err := genrt.AppendTime(nil, tm, genrt.TimeRFC3339Nano, true)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	b.Run("impl=runtime/op=Append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = genrt.AppendTime(buf[:0], tm, genrt.TimeRFC3339Nano, true)
		}
	})
	b.Run("impl=time/op=Append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var text [40]byte
			t := tm.AppendFormat(text[:0], time.RFC3339Nano)
			buf = genrt.AppendTag(buf[:0], 0)
			buf = genrt.AppendHead(buf, genrt.MajorText, uint64(len(t)))
			buf = append(buf, t...)
		}
	})
	d := genrt.NewBytesDecoder(enc)
	b.Run("impl=runtime/op=Read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.Reset(enc)
			if _, err := d.ReadTime(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=time/op=Read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.Reset(enc)
			if _, err := d.ReadTag(); err != nil {
				b.Fatal(err)
			}
			s, err := d.ReadString()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := time.Parse(time.RFC3339, s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTimeRFC3339Varied writes RFC 3339 times with nanoseconds of
// 4096 instants spread over 300 years (a different date, clock and
// fraction each call, in a fixed zone), so that the tables the writer
// reads are not warm for one date alone; op=Same writes one of them again
// and again.
func BenchmarkTimeRFC3339Varied(b *testing.B) {
	loc := time.FixedZone("", 2*3600)
	var times [4096]time.Time
	x := uint64(88172645463325252) // xorshift64
	for i := range times {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		times[i] = time.Unix(int64(x%(300*365*86400))-100*365*86400, int64(x>>40)%1e9).In(loc)
	}
	buf := make([]byte, 0, 64)
	b.Run("op=Varied", func(b *testing.B) {
		i := 0
		for b.Loop() {
			buf, _ = genrt.AppendTime(buf[:0], times[i&4095], genrt.TimeRFC3339Nano, false)
			i++
		}
	})
	b.Run("op=Same", func(b *testing.B) {
		for b.Loop() {
			buf, _ = genrt.AppendTime(buf[:0], times[7], genrt.TimeRFC3339Nano, false)
		}
	})
}
