package genrt

import (
	"errors"
	"math"
	"strconv"
	"time"
)

// TimeMode is how a time.Time is written; the modes are fxamacker/cbor's
// EncOptions.Time modes, with the same names and behaviour. A zero
// time.Time is written as null in every mode, with or without a tag.
type TimeMode uint8

const (
	TimeUnix           TimeMode = iota // integer seconds (fxamacker's default, and CoreDetEncOptions')
	TimeUnixMicro                      // float seconds, rounded to the microsecond
	TimeUnixDynamic                    // integer seconds when whole (after rounding to the microsecond), else float
	TimeRFC3339                        // text, whole seconds, the time's own offset
	TimeRFC3339Nano                    // text, nanoseconds, the time's own offset
	TimeRFC3339NanoUTC                 // text, nanoseconds, in UTC
)

// ErrTimeRange is the error AppendTime returns for a time that RFC 3339
// text cannot hold: a year outside 0000-9999 or an offset of a day or more.
var ErrTimeRange = errors.New("cbor: time.Time outside the range of RFC 3339 (years 0000-9999, offsets under 24h)")

// ReadTime reads a time as fxamacker/cbor's default decoding options read
// into a time.Time: RFC 3339 text, integer or float seconds since the
// epoch, each with or without tags (every tag is ignored, but tags 0-3 must
// hold the content RFC 8949 §3.4 requires). Numbers give a time in
// time.Local, as time.Unix does; float NaN and infinities give the zero
// time. Null and undefined give the zero time too (fxamacker leaves the
// value unchanged instead: the same on a fresh value).
func (d *Decoder) ReadTime() (time.Time, error) {
	// The common forms without a tag: RFC 3339 text, and epoch seconds
	// (the in-line reads). The rest is out of line, so that this part
	// has a small frame.
	if p := d.buf[d.off:]; len(p) != 0 && p[0]>>5 == MajorText {
		// tryRFC3339 in line: the text's parse is the one call.
		if h, n := rfc3339Text(p, d.opts.MaxStringLength); n != 0 {
			if t, ok := parseRFC3339(p[h : h+n]); ok {
				d.off += h + n
				return t, nil
			}
		}
	} else if x, ok := d.TryUint(math.MaxInt64); ok {
		return time.Unix(int64(x), 0), nil
	} else if x, ok := d.TryNeg(math.MaxInt64); ok {
		return time.Unix(-1-int64(x), 0), nil
	}
	return d.readTime()
}

// readTime is ReadTime for the forms its in-line reads do not take:
// tags, null and undefined, floats, text that is not RFC 3339's fast
// form, and errors.
func (d *Decoder) readTime() (time.Time, error) {
	start := d.Offset()
	b, err := d.skipTags()
	if err != nil {
		return time.Time{}, err
	}
	switch {
	case b == byteNull || b == byteUndefined:
		d.off++
		return time.Time{}, nil
	case b>>5 == MajorText:
		if t, ok := d.tryRFC3339(); ok {
			return t, nil
		}
		s, err := d.ReadString()
		if err != nil {
			return time.Time{}, err
		}
		t, perr := time.Parse(time.RFC3339, s)
		if perr != nil {
			return time.Time{}, d.errAt(start, ErrType, "text "+strconv.Quote(s)+" is not an RFC 3339 time: "+perr.Error())
		}
		return t, nil
	case b>>5 == MajorUint || b>>5 == MajorNeg:
		neg, mag, at, err := d.readInt("time")
		if err != nil {
			return time.Time{}, err
		}
		if mag > math.MaxInt64 {
			return time.Time{}, d.rangeError(at, neg, mag, "time.Time (int64 seconds)")
		}
		if neg {
			return time.Unix(-1-int64(mag), 0), nil
		}
		return time.Unix(int64(mag), 0), nil
	case b == byteFloat16 || b == byteFloat32 || b == byteFloat64:
		f, err := d.ReadFloat64()
		if err != nil {
			return time.Time{}, err
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return time.Time{}, nil
		}
		secs, frac := math.Modf(f)
		if secs >= math.MaxInt64 || secs < math.MinInt64 {
			return time.Time{}, d.errAt(start, ErrRange, "float "+strconv.FormatFloat(f, 'g', -1, 64)+" overflows time.Time (int64 seconds)")
		}
		return time.Unix(int64(secs), int64(frac*1e9)), nil
	}
	return time.Time{}, d.typeError(d.Offset(), b, "time (RFC 3339 text or epoch seconds)")
}

// skipTags reads the tags before an item, checking the content of tags
// 0-3 as fxamacker/cbor does, and returns the initial byte of the item.
// Tags within tags count towards MaxDepth.
func (d *Decoder) skipTags() (byte, error) {
	b, err := d.peek()
	if err == nil && b>>5 == MajorTag {
		if _, err = d.stripTags(); err == nil {
			b, err = d.peek()
		}
	}
	return b, err
}

// tryRFC3339 reads a definite text string with a shortest head, buffered
// whole and within MaxStringLength, that parseRFC3339 accepts, without
// copying it. It consumes nothing when it reports false; ReadTime then
// reads the text the general way. Text parseRFC3339 accepts is ASCII, so
// valid UTF-8.
func (d *Decoder) tryRFC3339() (time.Time, bool) {
	p := d.buf[d.off:]
	h, n := rfc3339Text(p, d.opts.MaxStringLength)
	if n == 0 {
		return time.Time{}, false
	}
	t, ok := parseRFC3339(p[h : h+n])
	if ok {
		d.off += h + n
	}
	return t, ok
}

// rfc3339Text returns the length h of the head of the text string at the
// start of p, which holds at least one byte, and the length n of the
// text, when the head is a shortest one, the text is long enough for RFC
// 3339's shortest form, within max and all in p; else n is 0. It is small
// enough to be inlined.
func rfc3339Text(p []byte, max int) (h, n int) {
	n, h = int(p[0]&0x1f), 1
	if n == 24 && len(p) >= 2 && p[1] >= 24 {
		n, h = int(p[1]), 2
	}
	if n < 20 || n >= 24 && h == 1 || n > len(p)-h || n > max {
		return 0, 0
	}
	return h, n
}
