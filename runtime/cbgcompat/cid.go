package cbgcompat

import (
	"errors"
	"math"
)

// CheckCid reports whether b is a CID as github.com/ipfs/go-cid's Cast
// (v0.6) takes it: a version 0 CID (a sha2-256 multihash, 0x12 0x20 and
// 32 bytes), or version 1, a codec and a multihash, each number an
// unsigned varint in its minimal form of at most 9 bytes, nothing after.
// Decoding checks the CIDs in values it skips with it, as
// whyrusleeping/cbor-gen's ScanForLinks does with go-cid, without this
// package depending on go-cid.
func CheckCid(b []byte) error {
	if cidV1Short(b) {
		return nil
	}
	return checkCid(b)
}

// cidV1Short reports whether b is a version 1 CID of the form almost
// every one takes: a codec of one byte, a multihash code of one to three
// bytes (sha2-256 is one, blake2b-256 three), a digest length of one
// byte and the digest, nothing after. Each varint is then minimal when
// its last byte is not zero after others. It reports false for anything
// else, for checkCid to take or refuse.
func cidV1Short(b []byte) bool {
	n := len(b)
	if n < 5 || b[0] != 1 || b[1] >= 0x80 {
		return false
	}
	// l is the offset of the digest length: after the code's last byte.
	l := 3
	if b[2] >= 0x80 {
		l = 4
		if b[3] >= 0x80 {
			l = 5
			if n < 6 || b[4] >= 0x80 || b[4] == 0 {
				return false
			}
		} else if b[3] == 0 {
			return false
		}
	}
	return b[l] < 0x80 && int(b[l]) == n-l-1
}

// checkCid is CheckCid for every form.
func checkCid(b []byte) error {
	if len(b) > 2 && b[0] == 0x12 && b[1] == 32 {
		if len(b) < 34 {
			return errors.New("invalid cid: not enough bytes for cid v0")
		}
		if len(b) != 34 {
			return errTrailingCid
		}
		return nil
	}
	vers, n := uvarint(b)
	if n <= 0 {
		return varintError(n)
	}
	if vers != 1 {
		return errors.New("invalid cid: expected 1 as the cid version number")
	}
	_, cn := uvarint(b[n:])
	if cn <= 0 {
		return varintError(cn)
	}
	mh := b[n+cn:]
	if len(mh) < 2 {
		return errors.New("invalid cid: multihash too short")
	}
	_, c1 := uvarint(mh)
	if c1 <= 0 {
		return varintError(c1)
	}
	length, c2 := uvarint(mh[c1:])
	if c2 <= 0 {
		return varintError(c2)
	}
	if length > math.MaxInt32 {
		return errors.New("invalid cid: digest too long")
	}
	rest := len(mh) - c1 - c2
	if int(length) > rest {
		return errors.New("invalid cid: digest longer than the bytes left")
	}
	if int(length) != rest {
		return errTrailingCid
	}
	return nil
}

var errTrailingCid = errors.New("invalid cid: trailing bytes")

// What uvarint returns for n when it refuses the bytes.
const (
	varintCut        = 0  // no last byte
	varintTooLong    = -1 // more than 9 bytes, or a 9th with its high bit set
	varintNotMinimal = -2 // a last byte of zero after others
)

func varintError(n int) error {
	switch n {
	case varintTooLong:
		return errors.New("invalid cid: varints larger than uint63 not supported")
	case varintNotMinimal:
		return errors.New("invalid cid: varint not minimally encoded")
	}
	return errors.New("invalid cid: varint cut short")
}

// uvarint reads an unsigned varint as go-varint's FromUvarint: at most 9
// bytes, the last one's high bit clear, no trailing zero byte (small
// enough to be inlined: CheckCid reads four). It
// returns the number and its length in bytes, or a length of at most 0
// (varintCut, varintTooLong, varintNotMinimal) when it refuses them.
func uvarint(b []byte) (uint64, int) {
	var x uint64
	var s uint
	for i, c := range b {
		if (i == 8 && c >= 0x80) || i >= 9 {
			return 0, varintTooLong
		}
		if c < 0x80 {
			if c == 0 && s > 0 {
				return 0, varintNotMinimal
			}
			return x | uint64(c)<<s, i + 1
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, varintCut
}
