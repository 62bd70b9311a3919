// Package gencode holds the person record with codecs written by hand in
// the style of the code github.com/andyleap/gencode generates: the fields in
// a fixed order with no framing, string lengths and the integer as varints
// (the integer zigzagged), the time (Unix nanoseconds) and the float as 8
// little-endian bytes, the bool as a byte; a Size pass before Marshal, and
// an Unmarshal that checks nothing: short or corrupt input makes it panic
// with an index out of range, as generated gencode does. The strings are
// copied.
package gencode

import (
	"math"
	"time"
)

// Person is the person record of the benchmarks (workload/person).
type Person struct {
	Name     string
	BirthDay time.Time
	Phone    string
	Siblings int64
	Spouse   bool
	Money    float64
}

// Size returns the length of d's encoding.
func (d *Person) Size() (s uint64) {
	{
		l := uint64(len(d.Name))
		for t := l; t >= 0x80; t >>= 7 {
			s++
		}
		s += 1 + l
	}
	{
		l := uint64(len(d.Phone))
		for t := l; t >= 0x80; t >>= 7 {
			s++
		}
		s += 1 + l
	}
	{
		t := uint64(d.Siblings<<1) ^ uint64(d.Siblings>>63)
		for ; t >= 0x80; t >>= 7 {
			s++
		}
		s++
	}
	return s + 8 + 1 + 8
}

// Marshal writes d into buf, reusing it when it has room, and returns the
// encoding.
func (d *Person) Marshal(buf []byte) ([]byte, error) {
	size := d.Size()
	if uint64(cap(buf)) >= size {
		buf = buf[:size]
	} else {
		buf = make([]byte, size)
	}
	i := uint64(0)
	{
		l := uint64(len(d.Name))
		t := l
		for t >= 0x80 {
			buf[i] = byte(t) | 0x80
			t >>= 7
			i++
		}
		buf[i] = byte(t)
		i++
		copy(buf[i:], d.Name)
		i += l
	}
	{
		u := uint64(d.BirthDay.UnixNano())
		_ = buf[i+7]
		buf[i+0], buf[i+1], buf[i+2], buf[i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		buf[i+4], buf[i+5], buf[i+6], buf[i+7] = byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56)
		i += 8
	}
	{
		l := uint64(len(d.Phone))
		t := l
		for t >= 0x80 {
			buf[i] = byte(t) | 0x80
			t >>= 7
			i++
		}
		buf[i] = byte(t)
		i++
		copy(buf[i:], d.Phone)
		i += l
	}
	{
		t := uint64(d.Siblings<<1) ^ uint64(d.Siblings>>63)
		for t >= 0x80 {
			buf[i] = byte(t) | 0x80
			t >>= 7
			i++
		}
		buf[i] = byte(t)
		i++
	}
	{
		if d.Spouse {
			buf[i] = 1
		} else {
			buf[i] = 0
		}
		i++
	}
	{
		u := math.Float64bits(d.Money)
		_ = buf[i+7]
		buf[i+0], buf[i+1], buf[i+2], buf[i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		buf[i+4], buf[i+5], buf[i+6], buf[i+7] = byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56)
		i += 8
	}
	return buf[:i], nil
}

// Unmarshal reads d from buf and returns the number of bytes read.
func (d *Person) Unmarshal(buf []byte) (uint64, error) {
	i := uint64(0)
	{
		l := uint64(buf[i] & 0x7f)
		for s := uint(7); buf[i]&0x80 != 0; s += 7 {
			i++
			l |= uint64(buf[i]&0x7f) << s
		}
		i++
		d.Name = string(buf[i : i+l])
		i += l
	}
	{
		_ = buf[i+7]
		u := uint64(buf[i]) | uint64(buf[i+1])<<8 | uint64(buf[i+2])<<16 | uint64(buf[i+3])<<24 |
			uint64(buf[i+4])<<32 | uint64(buf[i+5])<<40 | uint64(buf[i+6])<<48 | uint64(buf[i+7])<<56
		d.BirthDay = time.Unix(0, int64(u))
		i += 8
	}
	{
		l := uint64(buf[i] & 0x7f)
		for s := uint(7); buf[i]&0x80 != 0; s += 7 {
			i++
			l |= uint64(buf[i]&0x7f) << s
		}
		i++
		d.Phone = string(buf[i : i+l])
		i += l
	}
	{
		t := uint64(buf[i] & 0x7f)
		for s := uint(7); buf[i]&0x80 != 0; s += 7 {
			i++
			t |= uint64(buf[i]&0x7f) << s
		}
		i++
		d.Siblings = int64(t>>1) ^ -int64(t&1)
	}
	{
		d.Spouse = buf[i] == 1
		i++
	}
	{
		_ = buf[i+7]
		u := uint64(buf[i]) | uint64(buf[i+1])<<8 | uint64(buf[i+2])<<16 | uint64(buf[i+3])<<24 |
			uint64(buf[i+4])<<32 | uint64(buf[i+5])<<40 | uint64(buf[i+6])<<48 | uint64(buf[i+7])<<56
		d.Money = math.Float64frombits(u)
		i += 8
	}
	return i, nil
}
