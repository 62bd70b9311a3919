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
	if len(b) > 2 && b[0] == 0x12 && b[1] == 32 {
		if len(b) < 34 {
			return errors.New("invalid cid: not enough bytes for cid v0")
		}
		if len(b) != 34 {
			return errTrailingCid
		}
		return nil
	}
	vers, n, err := uvarint(b)
	if err != nil {
		return err
	}
	if vers != 1 {
		return errors.New("invalid cid: expected 1 as the cid version number")
	}
	_, cn, err := uvarint(b[n:])
	if err != nil {
		return err
	}
	mh := b[n+cn:]
	if len(mh) < 2 {
		return errors.New("invalid cid: multihash too short")
	}
	_, c1, err := uvarint(mh)
	if err != nil {
		return err
	}
	length, c2, err := uvarint(mh[c1:])
	if err != nil {
		return err
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

// uvarint reads an unsigned varint as go-varint's FromUvarint: at most 9
// bytes, the last one's high bit clear, no trailing zero byte.
func uvarint(b []byte) (uint64, int, error) {
	var x uint64
	var s uint
	for i, c := range b {
		if (i == 8 && c >= 0x80) || i >= 9 {
			return 0, 0, errors.New("invalid cid: varints larger than uint63 not supported")
		}
		if c < 0x80 {
			if c == 0 && s > 0 {
				return 0, 0, errors.New("invalid cid: varint not minimally encoded")
			}
			return x | uint64(c)<<s, i + 1, nil
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, 0, errors.New("invalid cid: varint cut short")
}
