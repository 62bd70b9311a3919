package runtime

import (
	"encoding/binary"
	"time"
)

// RFC 3339 text written and read without the time package's layout
// machinery. The reader accepts exactly what time.Parse's own fast path
// for time.RFC3339 accepts (YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM), fields in
// range) and builds the same time.Time; the callers hand anything else to
// time.Parse, so every input it accepts is still accepted. The writer
// produces what Time.AppendFormat writes for time.RFC3339 and
// time.RFC3339Nano.

// rfc3339 holds the fields of an RFC 3339 date/time.
type rfc3339 struct {
	year, month, day, hour, min, sec, nsec int
	zone                                   int  // offset east of UTC in seconds
	utc                                    bool // written as Z
}

// digits2 returns the two-digit number hl, or -1.
func digits2(h, l byte) int {
	a, b := int(h)-'0', int(l)-'0'
	if uint(a) > 9 || uint(b) > 9 {
		return -1
	}
	return a*10 + b
}

// digits8 returns the number that the eight ASCII digits b[0:8] write,
// or false if one is not a digit: all eight at once, in one word.
func digits8(b []byte) (int, bool) {
	x := binary.LittleEndian.Uint64(b)
	const hi, six = 0xf0f0f0f0f0f0f0f0, 0x0606060606060606
	if x&hi != 0x3030303030303030 || (x+six)&hi != 0x3030303030303030 {
		return 0, false
	}
	d := x - 0x3030303030303030
	d = (d*10 + d>>8) & 0x00ff00ff00ff00ff // pairs of digits, the first in the low byte
	d = (d*100 + d>>16) & 0x0000ffff0000ffff
	d = (d*10000 + d>>32) & 0xffffffff
	return int(d), true
}

// scanRFC3339 reads b as time.Parse's fast path for time.RFC3339 reads it.
// It reports false for anything it does not accept; time.Parse may still
// accept such text through its general parser.
func scanRFC3339(b []byte) (f rfc3339, ok bool) {
	if len(b) < len("2006-01-02T15:04:05Z") {
		return f, false
	}
	h := (*[19]byte)(b[:19])
	y1, y2 := digits2(h[0], h[1]), digits2(h[2], h[3])
	f.month, f.day = digits2(h[5], h[6]), digits2(h[8], h[9])
	f.hour, f.min, f.sec = digits2(h[11], h[12]), digits2(h[14], h[15]), digits2(h[17], h[18])
	if y1|y2|f.month|f.day|f.hour|f.min|f.sec < 0 || h[4] != '-' || h[7] != '-' || h[10] != 'T' || h[13] != ':' || h[16] != ':' {
		return f, false
	}
	f.year = y1*100 + y2
	if f.month < 1 || f.month > 12 || f.day < 1 || f.day > daysIn(f.month, f.year) ||
		f.hour < 0 || f.hour > 23 || f.min < 0 || f.min > 59 || f.sec < 0 || f.sec > 59 {
		return f, false
	}
	s := b[19:]
	if len(s) >= 2 && s[0] == '.' && s[1]-'0' <= 9 {
		// Nine digits at most count, as in time.Parse; the rest are
		// read past.
		n := 1
		if len(s) >= 9 {
			if v, ok := digits8(s[1:9]); ok {
				f.nsec, n = v, 9
			}
		}
		for ; n < len(s) && s[n]-'0' <= 9; n++ {
			if n <= 9 {
				f.nsec = f.nsec*10 + int(s[n]-'0')
			}
		}
		if n < 10 {
			f.nsec *= pow10[10-n]
		}
		s = s[n:]
	}
	if len(s) == 1 && s[0] == 'Z' {
		f.utc = true
		return f, true
	}
	if len(s) != 6 || s[3] != ':' || s[0] != '+' && s[0] != '-' {
		return f, false
	}
	hh, mm := digits2(s[1], s[2]), digits2(s[4], s[5])
	if hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return f, false
	}
	f.zone = (hh*60 + mm) * 60
	if s[0] == '-' {
		f.zone = -f.zone
	}
	return f, true
}

func isLeap(year int) bool { return year%4 == 0 && (year%100 != 0 || year%400 == 0) }

func daysIn(month, year int) int {
	switch month {
	case 2:
		if isLeap(year) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseRFC3339 returns the time time.Parse(time.RFC3339, string(b)) returns,
// without the copy, or false when its fast path does not accept b (the
// caller then calls time.Parse). As time.Parse does, it gives a time in
// time.Local when the local zone has the written offset at that instant,
// else in a fixed zone with no name.
func parseRFC3339(b []byte) (time.Time, bool) {
	f, ok := scanRFC3339(b)
	if !ok {
		return time.Time{}, false
	}
	// The instant in UTC, in the internal form time.Parse gives it (Date
	// in UTC, then the offset subtracted): the fields are in range, so
	// the seconds since 1970 follow from the civil date directly.
	secs := daysFromCivil(f.year, f.month, f.day)*86400 + int64(f.hour*3600+f.min*60+f.sec-f.zone)
	t := time.Unix(secs, int64(f.nsec)).UTC()
	if f.utc {
		return t, true
	}
	if _, off := t.In(time.Local).Zone(); off == f.zone {
		return t.In(time.Local), true
	}
	return t.In(time.FixedZone("", f.zone)), true
}

// appendRFC3339 appends t as t.AppendFormat(dst, time.RFC3339) does, or
// time.RFC3339Nano with nanos, and reports false, appending nothing, when
// the text would fall outside fxamacker/cbor's range: a year outside
// 0000-9999 or an offset of 24 hours or more.
func appendRFC3339(dst []byte, t time.Time, nanos bool) ([]byte, bool) {
	_, offset := t.Zone()
	secs := t.Unix()
	// Far outside years 0000-9999 (and of any overflow below).
	if secs < -62167219200-2*86400 || secs > 253402300800+2*86400 {
		return dst, false
	}
	secs += int64(offset)
	days := secs / 86400
	rem := secs % 86400
	if rem < 0 {
		rem += 86400
		days--
	}
	year, month, day := civil(days)
	zone, sign := offset/60, byte('+') // minutes, truncated as AppendFormat truncates
	if zone < 0 {
		zone, sign = -zone, '-'
	}
	if year < 0 || year > 9999 || zone/60 >= 24 {
		return dst, false
	}
	var b [35]byte // 2006-01-02T15:04:05.999999999-07:00
	put2(b[0:2], year/100)
	put2(b[2:4], year%100)
	b[4] = '-'
	put2(b[5:7], month)
	b[7] = '-'
	put2(b[8:10], day)
	b[10] = 'T'
	r := int(rem)
	put2(b[11:13], r/3600)
	b[13] = ':'
	put2(b[14:16], r/60%60)
	b[16] = ':'
	put2(b[17:19], r%60)
	n := 19
	if ns := t.Nanosecond(); nanos && ns != 0 {
		// Nine digits, then the trailing zeros dropped, as AppendFormat
		// writes RFC3339Nano.
		b[19] = '.'
		hi, lo := ns/100_000, ns%100_000 // 4 and 5 digits
		put2(b[20:22], hi/100)
		put2(b[22:24], hi%100)
		b[24] = byte('0' + lo/10_000)
		put2(b[25:27], lo/100%100)
		put2(b[27:29], lo%100)
		n = 29
		for b[n-1] == '0' {
			n--
		}
	}
	if offset == 0 {
		b[n] = 'Z'
		n++
	} else {
		b[n] = sign
		put2(b[n+1:n+3], zone/60)
		b[n+3] = ':'
		put2(b[n+4:n+6], zone%60)
		n += 6
	}
	return append(dst, b[:n]...), true
}

// put2 writes v, 0-99, as two digits.
func put2(b []byte, v int) {
	p := pairs100[2*v : 2*v+2]
	b[0], b[1] = p[0], p[1]
}

// pairs100 is "00" to "99", for put2.
const pairs100 = "00010203040506070809" + "10111213141516171819" + "20212223242526272829" +
	"30313233343536373839" + "40414243444546474849" + "50515253545556575859" +
	"60616263646566676869" + "70717273747576777879" + "80818283848586878889" + "90919293949596979899"

// civil returns the proleptic Gregorian date of a count of days since
// 1970-01-01 (Howard Hinnant's days_from_civil inverse).
func civil(days int64) (year, month, day int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11]
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	if month > 12 {
		month -= 12
	}
	y := yoe + era*400
	if month <= 2 {
		y++
	}
	return int(y), month, day
}

// pow10[i] is 10 to the power i, for scaling a fraction of fewer than nine
// digits to nanoseconds.
var pow10 = [...]int{1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000}

// daysFromCivil returns the days from 1970-01-01 to the given date of the
// proleptic Gregorian calendar (the inverse of civil).
func daysFromCivil(year, month, day int) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	if year < 0 {
		era = (year - 399) / 400
	}
	yoe := year - era*400                     // [0, 399]
	doy := (153*((month+9)%12)+2)/5 + day - 1 // [0, 365], from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy    // [0, 146096]
	return int64(era*146097+doe) - 719468
}
