// Package mus holds the person record with codecs written by hand against
// github.com/mus-format/mus-go, as its documentation shows for structs: a
// mus.Serializer of the record made of the package's serializers for the
// fields, in a fixed order (MUS format: varint lengths and integers, raw
// 8-byte time and float, a byte for the bool). PersonMUS copies the two
// strings (ord.String); PersonUnsafeMUS aliases them to the input
// (unsafe.String), mus-go's zero-allocation mode. Both read the same bytes.
package mus

import (
	"time"

	"github.com/mus-format/mus-go/ord"
	"github.com/mus-format/mus-go/raw"
	"github.com/mus-format/mus-go/unsafe"
	"github.com/mus-format/mus-go/varint"
)

// Person is the person record of the benchmarks (workload/person); the time
// travels as Unix nanoseconds, in both time forms of the benchmarks.
type Person struct {
	Name     string
	BirthDay time.Time
	Phone    string
	Siblings int
	Spouse   bool
	Money    float64
}

var (
	// PersonMUS marshals with mus-go's unsafe serializers (the fastest
	// writers; the bytes are those of the ordinary ones) and unmarshals
	// with the ordinary ones, which copy the strings.
	PersonMUS = personMUS{}
	// PersonUnsafeMUS marshals like PersonMUS and unmarshals with the
	// unsafe serializers: the strings alias the input.
	PersonUnsafeMUS = personUnsafeMUS{}
)

type personMUS struct{}

// Marshal writes v into bs, which must hold Size(v) bytes, and returns the
// number of bytes written.
func (personMUS) Marshal(v Person, bs []byte) (n int) {
	n = unsafe.String.Marshal(v.Name, bs)
	n += unsafe.TimeUnixNano.Marshal(v.BirthDay, bs[n:])
	n += unsafe.String.Marshal(v.Phone, bs[n:])
	n += varint.Int.Marshal(v.Siblings, bs[n:])
	n += unsafe.Bool.Marshal(v.Spouse, bs[n:])
	return n + unsafe.Float64.Marshal(v.Money, bs[n:])
}

// Unmarshal reads a record from bs, copying its strings.
func (personMUS) Unmarshal(bs []byte) (v Person, n int, err error) {
	var m int
	if v.Name, n, err = ord.String.Unmarshal(bs); err != nil {
		return
	}
	if v.BirthDay, m, err = raw.TimeUnixNano.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	if v.Phone, m, err = ord.String.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	if v.Siblings, m, err = varint.Int.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	if v.Spouse, m, err = ord.Bool.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	v.Money, m, err = raw.Float64.Unmarshal(bs[n:])
	n += m
	return
}

// Size returns the length of v's encoding.
func (personMUS) Size(v Person) (size int) {
	size = ord.String.Size(v.Name) + raw.TimeUnixNano.Size(v.BirthDay) + ord.String.Size(v.Phone)
	return size + varint.Int.Size(v.Siblings) + ord.Bool.Size(v.Spouse) + raw.Float64.Size(v.Money)
}

// Skip returns the length of the record at the start of bs.
func (personMUS) Skip(bs []byte) (n int, err error) {
	var m int
	if n, err = ord.String.Skip(bs); err != nil {
		return
	}
	if m, err = raw.TimeUnixNano.Skip(bs[n:]); err != nil {
		return
	}
	n += m
	if m, err = ord.String.Skip(bs[n:]); err != nil {
		return
	}
	n += m
	if m, err = varint.Int.Skip(bs[n:]); err != nil {
		return
	}
	n += m
	if m, err = ord.Bool.Skip(bs[n:]); err != nil {
		return
	}
	n += m
	m, err = raw.Float64.Skip(bs[n:])
	return n + m, err
}

type personUnsafeMUS struct{ personMUS }

// Unmarshal reads a record from bs; its strings alias bs.
func (personUnsafeMUS) Unmarshal(bs []byte) (v Person, n int, err error) {
	var m int
	if v.Name, n, err = unsafe.String.Unmarshal(bs); err != nil {
		return
	}
	if v.BirthDay, m, err = unsafe.TimeUnixNano.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	if v.Phone, m, err = unsafe.String.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	if v.Siblings, m, err = varint.Int.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	if v.Spouse, m, err = unsafe.Bool.Unmarshal(bs[n:]); err != nil {
		return
	}
	n += m
	v.Money, m, err = unsafe.Float64.Unmarshal(bs[n:])
	n += m
	return
}

// AppendMUS appends v's encoding to dst, growing it only when its capacity
// is short: the buffer reuse of the benchmarks.
func AppendMUS(dst []byte, v *Person) []byte {
	n := len(dst)
	size := PersonMUS.Size(*v)
	if cap(dst)-n < size {
		dst = append(make([]byte, 0, n+size), dst...)
	}
	dst = dst[:n+size]
	PersonMUS.Marshal(*v, dst[n:])
	return dst
}
