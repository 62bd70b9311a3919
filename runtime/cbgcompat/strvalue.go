package cbgcompat

import (
	"math"
	"unsafe"
)

// StringValues makes values of T, a type whose value is one string and
// nothing else (go-cid's Cid and go-address's Address are both
// struct{ str string }, the bytes of the CID or address), from bytes
// that its constructor takes, without the constructor's copy and
// parse: the runtime checks the bytes itself (CheckCid, CheckAddress),
// copies them into the Decoder's block of short strings, and the value
// is that string.
//
// T's fields are unexported, so the value is made through unsafe. That
// is sound only while T is laid out as a string and the check agrees
// with T's constructor; NewStringValues tests both once, and a
// StringValues whose test failed makes no value: Make reports false for
// every input and the generated code calls T's constructor, as it
// would without this.
type StringValues[T comparable] struct {
	ok    bool
	check func([]byte) bool
}

// NewStringValues tests that values of T can be made from strings: T is
// the size of a string; on each probe (bytes at the edges of what parse,
// T's own constructor, takes) check and parse agree, an accepted probe
// being one parse returns without an error and not the zero T; at least
// one probe is accepted; and each accepted probe converted to a T
// equals what parse made of it. key, when not nil, returns the string a
// T holds (go-cid's KeyString): for each accepted probe it must return
// the very string converted, the same bytes at the same address.
func NewStringValues[T comparable](parse func([]byte) (T, error), key func(T) string, check func([]byte) bool, probes []string) StringValues[T] {
	var zero T
	if unsafe.Sizeof(zero) != unsafe.Sizeof("") {
		return StringValues[T]{}
	}
	took := 0
	for _, p := range probes {
		want, err := parse([]byte(p))
		ok := err == nil && want != zero
		if ok != check([]byte(p)) {
			return StringValues[T]{}
		}
		if !ok {
			continue
		}
		took++
		got := *(*T)(unsafe.Pointer(&p))
		if got != want {
			return StringValues[T]{}
		}
		if key != nil {
			if k := key(got); len(k) != len(p) || unsafe.StringData(k) != unsafe.StringData(p) {
				return StringValues[T]{}
			}
		}
	}
	if took == 0 {
		return StringValues[T]{}
	}
	return StringValues[T]{ok: true, check: check}
}

// OK reports whether the test of NewStringValues held.
func (c StringValues[T]) OK() bool { return c.ok }

// Make returns b as a T, its bytes copied into d's block of short
// strings (BlockString), when the test of NewStringValues held and
// check takes b; else it reports false, for the caller to call T's
// constructor (which also gives the error b deserves).
func (c StringValues[T]) Make(d *Decoder, b []byte) (T, bool) {
	var v T
	if !c.ok || !c.check(b) {
		return v, false
	}
	s := d.str(b)
	return *(*T)(unsafe.Pointer(&s)), true
}

// MakePtr is Make for a field that points to a T (*cid.Cid,
// *address.Address): the T is one of d's block (see FilIntPtr), its
// own, which no other decode writes.
func (c StringValues[T]) MakePtr(d *Decoder, b []byte) (*T, bool) {
	if !c.ok || !c.check(b) {
		return nil, false
	}
	p := d.newRef()
	*p = d.str(b)
	return (*T)(unsafe.Pointer(p)), true
}

// BlockString returns b as a string: short ones (up to 64 bytes, every
// CID and address of the Filecoin and atproto formats) are copied into
// the Decoder's block of short strings, one allocation for many.
func (d *Decoder) BlockString(b []byte) string { return d.str(b) }

// ValidCid reports whether CheckCid takes b.
func ValidCid(b []byte) bool { return cidV1Short(b) || checkCid(b) == nil }

// CidProbes are the probes of NewStringValues for go-cid's Cast: CIDs
// of version 0 and 1, and bytes at the edges of what it refuses.
var CidProbes = []string{
	"\x12\x20" + digest32,
	"\x01\x71\xa0\xe4\x02\x20" + digest32,
	"\x01\x55\x00\x00",
	"\x01\x55\x00\x01\x07",
	"\x12\x20" + digest32[:31],
	"\x12\x20" + digest32 + "\x00",
	"\x01\x71\xa0\xe4\x02\x20" + digest32[:31],
	"\x01\x71\xa0\xe4\x02\x20" + digest32 + "\x00",
	"\x01\x55\x80\x00\x00\x00",
	"\x02\x55\x00\x00",
	"\x01\x55\x00",
	"\x01\x55\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00\x00",
	"\x01\x55\x00\x80\x80\x80\x80\x08",
	"",
}

const digest32 = "0123456789abcdef0123456789abcdef"

// AddressProbes are the probes of NewStringValues for go-address's
// NewFromBytes: addresses of each protocol, and bytes at the edges of
// what it refuses (lengths one short and one over, varints too long or
// not minimal, an unknown protocol, the empty Undef).
var AddressProbes = []string{
	"\x00\x00",
	"\x00\xe8\x07",
	"\x00\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
	"\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
	"\x00\x80\x00",
	"\x00\xe8\x07\x00",
	"\x00\xe8",
	"\x01" + digest32[:20],
	"\x01" + digest32[:19],
	"\x01" + digest32[:20] + "0",
	"\x02" + digest32[:20],
	"\x02" + digest32[:19],
	"\x02" + digest32[:20] + "0",
	"\x03" + digest32 + digest32[:16],
	"\x03" + digest32 + digest32[:15],
	"\x03" + digest32 + digest32[:17],
	"\x04\x0a" + digest32[:20],
	"\x04\x0a",
	"\x04\x0a" + digest32 + digest32[:22],
	"\x04\x0a" + digest32 + digest32[:23],
	"\x04\x80\x0a",
	"\x04",
	"\x05" + digest32[:20],
	"\x00",
	"",
}

// CheckAddress reports whether b is an address that
// github.com/filecoin-project/go-address's UnmarshalCBOR (v1) takes:
// NewFromBytes takes it and it is not empty (Undef). The protocol byte
// first: 0, an ID, one unsigned varint (as go-varint reads it) of at
// most 2^63-1, nothing after; 1 (secp256k1) and 2 (actor), 20 bytes;
// 3 (BLS), 48 bytes; 4 (delegated), a namespace varint of at most
// 2^63-1 and at most 54 bytes after it.
func CheckAddress(b []byte) bool {
	if len(b) < 2 {
		return false
	}
	payload := b[1:]
	switch b[0] {
	case 0:
		v, n := uvarint(payload)
		return n > 0 && n == len(payload) && v <= math.MaxInt64
	case 1, 2:
		return len(payload) == 20
	case 3:
		return len(payload) == 48
	case 4:
		v, n := uvarint(payload)
		return n > 0 && v <= math.MaxInt64 && len(payload)-n <= 54
	}
	return false
}
