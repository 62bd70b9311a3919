package genrt

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"time"
)

// AppendTime appends t as fxamacker/cbor writes it with the given mode,
// preceded by tag 0 (text) or 1 (numbers) when tag is set. The only error
// is ErrTimeRange, in the RFC 3339 modes.
func AppendTime(dst []byte, t time.Time, mode TimeMode, tag bool) ([]byte, error) {
	if t.IsZero() {
		return AppendNull(dst), nil
	}
	if mode < TimeRFC3339 {
		if tag || mode != TimeUnix {
			return appendTimeNumber(dst, t, mode, tag), nil
		}
		return AppendInt(dst, t.Unix()), nil
	}
	if mode == TimeRFC3339NanoUTC {
		t = t.UTC()
	}
	if tag || cap(dst)-len(dst) < 37 {
		// The tag, and room for the text and its head: then the same.
		return appendTimeText(dst, t, mode, tag)
	}
	// The text, 20 to 35 bytes, as t.AppendFormat writes it with
	// time.RFC3339 or time.RFC3339Nano, is written after a two-byte
	// head, which becomes one byte when it is shorter than 24. Nothing in
	// this path calls anything (but learning a location's offset), so
	// that t stays in registers.
	at := len(dst)
	hb := (*[37]byte)(dst[at : at+37])
	b := (*[35]byte)(hb[2:])
	secs := t.Unix()
	zone := uint64('Z')
	if loc := t.Location(); loc != utcLoc {
		// A Time in UTC and one in the location a program may have
		// assigned to time.UTC both report that location: never cached.
		if zone = offsets.find(loc, secs); zone == 0 || loc == time.UTC {
			if zone = offsets.learn(t); zone == 0 {
				return dst, ErrTimeRange // an offset of a day or more
			}
		}
	}
	offset := int64(zone) >> 41
	// The local date and clock in seconds since 0000-01-01T00:00:00,
	// which holds every year written and only those (an overflow of
	// secs+offset wraps far outside).
	local := uint64(secs + offset - minRFC3339)
	if local >= maxRFC3339-minRFC3339 {
		return dst, ErrTimeRange
	}
	days, rem := uint32(local/86400), uint32(local%86400)
	hi, lo, md := civil(days + 146097 - 60)
	if lo == 100 { // January or February of a year ending in 00
		hi, lo = hi+1, 0
	}
	// 2006-01-02T15:04:05.999999999-07:00
	put2(b[0:2], hi)
	put2(b[2:4], lo)
	b[4] = '-'
	binary.LittleEndian.PutUint16(b[5:7], uint16(md))
	b[7] = '-'
	binary.LittleEndian.PutUint16(b[8:10], uint16(md>>16))
	b[10] = 'T'
	hm := rem / 60
	h := hm / 60
	put2(b[11:13], h)
	b[13] = ':'
	put2(b[14:16], hm-h*60)
	b[16] = ':'
	put2(b[17:19], rem-hm*60)
	n := 19
	if ns := uint32(t.Nanosecond()); mode != TimeRFC3339 && ns != 0 {
		// Nine digits, then the trailing zeros dropped, as AppendFormat
		// writes RFC3339Nano: the first digit, then eight in one word.
		// The first digit, and the halves of the eight others, each from
		// divisions of ns that do not wait for one another.
		first, q := ns/100_000_000, ns/10_000
		b[19] = '.'
		b[20] = byte('0' + first)
		w := digitBytes4x2(q-first*10_000, ns-q*10_000)
		binary.LittleEndian.PutUint64(b[21:29], w+0x3030303030303030)
		// The zeros at the end are the word's high zero bytes; when all
		// eight are zeros, the first digit is not. Most fractions end in
		// a digit other than 0: then the length, which the rest of the
		// caller's writing waits for, needs none of the digits.
		n = 29
		if ns%10 == 0 {
			n -= bits.LeadingZeros64(w) / 8
		}
	}
	// The zone's text, "Z" or "±hh:mm", in six bytes (a shorter one is
	// followed by bytes that the next field or the slice's end covers).
	z := (*[6]byte)(b[n&31:]) // n is at most 29
	binary.LittleEndian.PutUint32(z[0:4], uint32(zone&0xffffff)|':'<<24)
	binary.LittleEndian.PutUint16(z[4:6], uint16(zone>>24))
	n += 1 + 5*int(zone>>40&1)
	if n >= 24 {
		hb[0], hb[1] = 0x78, byte(n)
		return dst[:at+2+n], nil
	}
	hb[0] = 0x60 | byte(n)
	copy(hb[1:], hb[2:2+n&31])
	return dst[:at+1+n], nil
}

// appendTimeText is AppendTime's text when it writes tag 0 or dst has
// not the room for the longest text: it writes the tag and makes the
// room, then appends as AppendTime does (t is already in UTC in mode
// TimeRFC3339NanoUTC).
func appendTimeText(dst []byte, t time.Time, mode TimeMode, tag bool) ([]byte, error) {
	start := len(dst)
	if tag {
		dst = append(dst, 0xc0) // tag 0
	}
	dst = slices.Grow(dst, 37)
	out, err := AppendTime(dst, t, mode, false)
	if err != nil {
		return dst[:start], err
	}
	return out, nil
}

// appendTimeNumber is AppendTime in the modes that write numbers, when it
// writes tag 1 or floats.
func appendTimeNumber(dst []byte, t time.Time, mode TimeMode, tag bool) []byte {
	if tag {
		dst = AppendTag(dst, 1)
	}
	if mode != TimeUnix {
		return appendTimeFloat(dst, t, mode)
	}
	return AppendInt(dst, t.Unix())
}

// appendTimeFloat is AppendTime in the modes TimeUnixMicro and
// TimeUnixDynamic, after the tag.
func appendTimeFloat(dst []byte, t time.Time, mode TimeMode) []byte {
	t = t.UTC().Round(time.Microsecond)
	secs, nsecs := t.Unix(), t.Nanosecond()
	if mode == TimeUnixDynamic {
		if nsecs == 0 {
			return AppendInt(dst, secs)
		}
		return AppendFloat64(dst, float64(secs)+float64(nsecs)/1e9)
	}
	// Within the range of UnixNano, computed as fxamacker computes it,
	// so that the float is the same to the last bit.
	if secs >= math.MinInt64/1_000_000_000 && secs <= math.MaxInt64/1_000_000_000-1 {
		return AppendFloat64(dst, float64(t.UnixNano())/1e9)
	}
	return AppendFloat64(dst, float64(secs)+float64(nsecs)/1e9)
}
