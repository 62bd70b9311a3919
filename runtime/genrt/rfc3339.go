package genrt

import (
	"encoding/binary"
	"math"
	"slices"
	"sync/atomic"
	"time"
)

// RFC 3339 text written and read without the time package's layout
// machinery. The reader accepts exactly what time.Parse's own fast path
// for time.RFC3339 accepts (YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM), fields in
// range) and builds the same time.Time; the callers hand anything else to
// time.Parse, so every input it accepts is still accepted. The writer
// produces what Time.AppendFormat writes for time.RFC3339 and
// time.RFC3339Nano.

// rfc3339 holds an RFC 3339 date/time as read: small, since it is
// returned by value.
type rfc3339 struct {
	local int64 // the written date and clock in seconds since 1970-01-01, as if in UTC
	nsec  int32
	zone  int32 // offset east of UTC in seconds
	utc   bool  // written as Z
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

// The date and clock, YYYY-MM-DDTHH:MM:SS, read as three overlapping
// little-endian words: b[0:8] "YYYY-MM-", b[8:16] "DDTHH:MM" and b[11:19]
// "HH:MM:SS". Each word XORed with its pattern (a '0' where a digit goes,
// the separator where one goes) has the digits' values in its digit bytes
// and zeros in its separator bytes exactly when the text fits the layout.
const (
	datePattern  = 0x2d30302d30303030 // "0000-00-"
	clockPattern = 0x30303a30303a3030 // "00:00:00"
	dayPattern   = 0x30303a3030543030 // "00T00:00"
	dateSeps     = 0xff0000ff00000000 // bytes 4 and 7
	daySeps      = 0x0000ff0000ff0000 // bytes 2 and 5
	clockSeps    = 0x0000ff0000ff0000 // bytes 2 and 5
	highNibbles  = 0xf0f0f0f0f0f0f0f0
	plusSix      = 0x0606060606060606
)

// digitsWord XORs w with pattern and returns the result, or false when a
// byte that should be a digit is not one or a separator differs.
func digitsWord(w, pattern, seps uint64) (uint64, bool) {
	v := w ^ pattern
	return v, (v&highNibbles | (v+plusSix)&highNibbles | v&seps) == 0
}

// pairsWord returns, in byte i, ten times digit i plus digit i+1 of a
// word of digit values (at most 99 a byte, so no carry).
func pairsWord(v uint64) uint64 { return v*10 + v>>8 }

// scanRFC3339 reads b as time.Parse's fast path for time.RFC3339 reads it.
// It reports false for anything it does not accept; time.Parse may still
// accept such text through its general parser.
func scanRFC3339(b []byte) (f rfc3339, ok bool) {
	if len(b) < len("2006-01-02T15:04:05Z") {
		return f, false
	}
	date, ok1 := digitsWord(binary.LittleEndian.Uint64(b[0:8]), datePattern, dateSeps)
	day, ok2 := digitsWord(binary.LittleEndian.Uint64(b[8:16]), dayPattern, daySeps)
	clock, ok3 := digitsWord(binary.LittleEndian.Uint64(b[11:19]), clockPattern, clockSeps)
	if !ok1 || !ok2 || !ok3 {
		return f, false
	}
	date, day, clock = pairsWord(date), pairsWord(day), pairsWord(clock)
	year := int(date&0xff)*100 + int(date>>16&0xff)
	month, mday := int(date>>40&0xff), int(day&0xff)
	hour, min, sec := int(clock&0xff), int(clock>>24&0xff), int(clock>>48&0xff)
	if month < 1 || month > 12 || mday < 1 || hour > 23 || min > 59 || sec > 59 ||
		mday > int(monthDays[month&15]) && (month != 2 || mday != 29 || !isLeap(year)) {
		return f, false
	}
	f.local = daysFromCivil(year, month, mday)*86400 + int64(hour*3600+min*60+sec)
	s := b[19:]
	if len(s) >= 2 && s[0] == '.' && s[1]-'0' <= 9 {
		// Nine digits at most count, as in time.Parse; the rest are
		// read past.
		n, nsec := 1, 0
		if len(s) >= 9 {
			if v, ok := digits8(s[1:9]); ok {
				nsec, n = v, 9
			}
		}
		for ; n < len(s) && s[n]-'0' <= 9; n++ {
			if n <= 9 {
				nsec = nsec*10 + int(s[n]-'0')
			}
		}
		if n < 10 {
			nsec *= pow10[10-n]
		}
		f.nsec = int32(nsec)
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
	f.zone = int32((hh*60 + mm) * 60)
	if s[0] == '-' {
		f.zone = -f.zone
	}
	return f, true
}

func isLeap(year int) bool { return year%4 == 0 && (year%100 != 0 || year%400 == 0) }

// monthDays[m] is the number of days of month m (1-12) in a year that is
// not a leap year.
var monthDays = [16]uint8{1: 31, 2: 28, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}

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
	secs := f.local - int64(f.zone)
	t := time.Unix(secs, int64(f.nsec)).UTC()
	if f.utc {
		return t, true
	}
	zone := int(f.zone)
	if loc := zones.find(secs, zone); loc != nil {
		return t.In(loc), true
	}
	return t.In(zones.learn(t, zone)), true
}

// zones is what parseRFC3339 learnt last of the time zones: over the
// instants from start to end (Unix seconds, end excluded) time.Local,
// when it was local, has the offset localOff; and fixed is the fixed zone
// of the offset fixedOff, read last. It saves the lookup in time.Local and
// the call of time.FixedZone while the times read fall in one span of
// Local's offset. Readers and the writer meet through seq, odd while the
// writer writes (a sequence lock: a reader that sees it change uses
// nothing it read); nothing is allocated.
var zones zoneCache

type zoneCache struct {
	seq        atomic.Uint64
	local      atomic.Pointer[time.Location]
	start, end atomic.Int64
	localOff   atomic.Int64
	fixed      atomic.Pointer[time.Location]
	fixedOff   atomic.Int64
}

// find returns the location of the instant secs written with offset zone,
// or nil when the cache does not know it.
func (c *zoneCache) find(secs int64, zone int) *time.Location {
	seq := c.seq.Load()
	if seq&1 != 0 {
		return nil
	}
	local := c.local.Load()
	if local != time.Local || secs < c.start.Load() || secs >= c.end.Load() {
		return nil
	}
	loc := local
	if int64(zone) != c.localOff.Load() {
		if loc = c.fixed.Load(); int64(zone) != c.fixedOff.Load() {
			return nil
		}
	}
	if c.seq.Load() != seq {
		return nil
	}
	return loc
}

// learn returns the location time.Parse gives the instant t written with
// offset zone: time.Local when Local has that offset at t, else a fixed
// zone with no name; and records it, unless another goroutine is
// recording at the same time.
func (c *zoneCache) learn(t time.Time, zone int) *time.Location {
	local := time.Local
	lt := t.In(local)
	_, off := lt.Zone()
	loc := local
	if off != zone {
		loc = time.FixedZone("", zone)
	}
	seq := c.seq.Load()
	if seq&1 != 0 || !c.seq.CompareAndSwap(seq, seq+1) {
		return loc
	}
	start, end := lt.ZoneBounds()
	c.start.Store(math.MinInt64)
	if !start.IsZero() {
		c.start.Store(start.Unix())
	}
	c.end.Store(math.MaxInt64)
	if !end.IsZero() {
		c.end.Store(end.Unix())
	}
	c.local.Store(local)
	c.localOff.Store(int64(off))
	if loc != local {
		c.fixed.Store(loc)
		c.fixedOff.Store(int64(zone))
	}
	c.seq.Store(seq + 2)
	return loc
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
	at := len(dst)
	dst = slices.Grow(dst, 35)
	b := (*[35]byte)(dst[at : at+35]) // 2006-01-02T15:04:05.999999999-07:00
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
	return dst[:at+n], true
}

// put2 writes v, 0-99, as two digits.
func put2(b []byte, v int) {
	binary.LittleEndian.PutUint16(b, digitPairs[v&127])
}

// digitPairs[v] is v, 0-99, as two ASCII digits in a little-endian
// uint16 (the first digit in the low byte); 128 entries, so that an index
// masked to 7 bits needs no bounds check.
var digitPairs = func() (t [128]uint16) {
	for v := range 100 {
		t[v] = uint16('0'+v/10) | uint16('0'+v%10)<<8
	}
	return t
}()

// civil returns the proleptic Gregorian date of a count of days since
// 1970-01-01 (Howard Hinnant's days_from_civil inverse), for days from
// 400-03-01 BC on (appendRFC3339 calls it for years -1 to 10000): counted
// from one 400-year era before year 0, every quantity is positive and the
// divisions are unsigned.
func civil(days int64) (year, month, day int) {
	z := uint64(days + 719468 + 146097) // days since -0400-03-01
	era := z / 146097
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11]
	day = int(doy - (153*mp+2)/5 + 1)
	month = int(mp + 3)
	y := int(yoe) + int(era)*400 - 400
	if month > 12 {
		month -= 12
		y++
	}
	return y, month, day
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
	yoe := year - era*400                           // [0, 399]
	doy := int(daysBeforeMonth[month&15]) + day - 1 // [0, 365], from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy          // [0, 146096]
	return int64(era*146097+doe) - 719468
}

// daysBeforeMonth[m] is the number of days from March 1 to the first day
// of month m (1-12) of a year counted from March, as daysFromCivil counts.
var daysBeforeMonth = func() (t [16]int16) {
	for m := 1; m <= 12; m++ {
		t[m] = int16((153*((m+9)%12) + 2) / 5)
	}
	return t
}()
