package genrt

import (
	"math"
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
	// The text, 20 to 35 bytes, is written after a two-byte head, which
	// becomes one byte when it is shorter than 24. Nothing in this path
	// calls anything but formatRFC3339, so that t stays in registers.
	h := len(dst)
	b := (*[37]byte)(dst[h : h+37])
	n, ok := formatRFC3339((*[35]byte)(b[2:]), t, mode != TimeRFC3339)
	if !ok {
		return dst, ErrTimeRange
	}
	if n >= 24 {
		b[0], b[1] = 0x78, byte(n)
		return dst[:h+2+n], nil
	}
	b[0] = 0x60 | byte(n)
	copy(b[1:], b[2:2+n&31])
	return dst[:h+1+n], nil
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
