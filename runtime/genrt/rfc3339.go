package genrt

import (
	"encoding/binary"
	"math"
	"sync/atomic"
	"time"
)

// RFC 3339 text written and read without the time package's layout
// machinery. The reader accepts exactly what time.Parse's own fast path
// for time.RFC3339 accepts (YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM), fields in
// range) and builds the same time.Time; the callers hand anything else to
// time.Parse, so every input it accepts is still accepted. The writer
// (AppendTime's text, encode_time.go, with the tables and caches here)
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
	clockFields  = 0x00ff0000ff0000ff // the pairs of clock: hour, minute, second
	clockLimits  = 0x0044000044000068 // 128-60, 128-60, 128-24
	clockTops    = 0x0080000080000080
	highNibbles  = 0xf0f0f0f0f0f0f0f0
	plusSix      = 0x0606060606060606
)

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
	date := binary.LittleEndian.Uint64(b[0:8]) ^ datePattern
	day := binary.LittleEndian.Uint64(b[8:16]) ^ dayPattern
	clock := binary.LittleEndian.Uint64(b[11:19]) ^ clockPattern
	// Every digit's byte at most 9 (no high nibble, none after adding 6;
	// a byte of 0xfa or more, whose 6 carries into the next, has a high
	// nibble already) and every separator's 0, in the three words at
	// once.
	bad := date&(highNibbles|dateSeps) | day&(highNibbles|daySeps) | clock&(highNibbles|clockSeps) |
		((date+plusSix)|(day+plusSix)|(clock+plusSix))&highNibbles
	date, day, clock = pairsWord(date), pairsWord(day), pairsWord(clock)
	// The hour, minute and second (bytes 0, 3 and 6 of clock, each at
	// most 99) are in range when adding 128 less their limit sets no top
	// bit.
	if bad|(clock&clockFields+clockLimits)&clockTops != 0 {
		return f, false
	}
	year := int(date&0xff)*100 + int(date>>16&0xff)
	month, mday := int(date>>40&0x7f), int(day&0xff)
	hour, min, sec := int(clock&0xff), int(clock>>24&0xff), int(clock>>48&0xff)
	// Month 1-12 and a day of it: monthDays is 0 for other months.
	if uint(mday-1) >= uint(monthDays[month]) && (month != 2 || mday != 29 || !isLeap(year)) {
		return f, false
	}
	f.local = daysFromCivil(year, month, mday)*86400 + int64(hour*3600+min*60+sec)
	s := b[19:]
	rest := len(s) // the bytes after the fraction: the zone
	if len(s) >= 2 && s[0] == '.' && s[1]-'0' <= 9 {
		// Nine digits at most count, as in time.Parse; the rest are
		// read past. Nine and no more, the usual case, in one step.
		n, nsec := 1, 0
		if len(s) >= 10 {
			if v, ok := digits8(s[1:9]); ok {
				nsec, n = v, 9
				if c := s[9] - '0'; c <= 9 {
					nsec, n = v*10+int(c), 10
				}
			}
		}
		// After nine digits, a zone's length left ("Z" or "±hh:mm")
		// needs no loop: its first byte, if a digit, fails the zone's
		// test below, and time.Parse reads the text.
		if n != 10 || len(s) != 11 && len(s) != 16 {
			for ; n < len(s) && s[n]-'0' <= 9; n++ {
				if n <= 9 {
					nsec = nsec*10 + int(s[n]-'0')
				}
			}
			if n < 10 {
				nsec *= pow10[10-n]
			}
		}
		f.nsec = int32(nsec)
		rest = len(s) - n
	}
	if rest == 1 && b[len(b)-1] == 'Z' {
		f.utc = true
		return f, true
	}
	if rest != 6 {
		return f, false
	}
	// ±hh:mm, the last six of at least 20 bytes, in the high six bytes
	// of the last word: XORed with its pattern, the digits' values and a
	// zero for the colon.
	z := binary.LittleEndian.Uint64(b[len(b)-8:]) >> 16
	sign := byte(z)
	v := z ^ zonePattern
	if v&zoneDigits != 0 || (v+zoneSix)&zoneDigits != 0 || v&0xff000000 != 0 || sign != '+' && sign != '-' {
		return f, false
	}
	p := pairsWord(v &^ 0xff)
	hh, mm := int32(p>>8&0xff), int32(p>>32&0xff)
	if hh > 23 || mm > 59 {
		return f, false
	}
	f.zone = (hh*60 + mm) * 60
	if sign == '-' {
		f.zone = -f.zone
	}
	return f, true
}

// The zone's "±hh:mm" in the low six bytes of a word: the pattern ('0'
// where a digit goes, the colon, nothing for the sign), the high nibbles
// of the digits' bytes, and six in each.
const (
	zonePattern = 0x30303a303000
	zoneDigits  = 0xf0f000f0f000
	zoneSix     = 0x060600060600
)

func isLeap(year int) bool { return year%4 == 0 && (year%100 != 0 || year%400 == 0) }

// monthDays[m] is the number of days of month m (1-12) in a year that is
// not a leap year, and 0 for the other numbers of two digits (below 128,
// so that an index masked to 7 bits needs no bounds check).
var monthDays = [128]uint8{1: 31, 2: 28, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}

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
	// the seconds since 1970 follow from the civil date directly. The
	// location is found before the time is made, so that the time is
	// made once, in registers.
	secs := f.local - int64(f.zone)
	if f.utc {
		return time.Unix(secs, int64(f.nsec)).UTC(), true
	}
	loc := findZone(secs, f.zone)
	if loc == nil {
		loc = learnZone(secs, f.zone)
	}
	return time.Unix(secs, int64(f.nsec)).In(loc), true
}

// zones is what parseRFC3339 learnt last of the time zones: a zoneSpan,
// never changed once stored (a new one replaces it). It saves the lookup
// in time.Local and the call of time.FixedZone while the times read fall
// in one span of Local's offset, with one atomic load and no lock; a
// span is allocated only when one is learnt.
var zones atomic.Pointer[zoneSpan]

// A zoneSpan says that over span instants from start (Unix seconds)
// local, when it is time.Local, has the offset localOff, and that fixed
// is the fixed zone of the offset fixedOff, read last (none when fixed is
// nil: fixedOff is then outside the offsets read).
type zoneSpan struct {
	local              *time.Location
	start              int64  // the span's first instant
	span               uint64 // its length: secs is in it when secs-start, unsigned, is less
	localOff, fixedOff int32
	fixed              *time.Location
}

// noOffset is an offset that no text read has (they are under a day):
// zoneSpan's offsets where it has none.
const noOffset = math.MinInt32

// findZone returns the location of the instant secs written with offset
// zone (less than a day), or nil when zones does not know it. It is small
// enough to be inlined.
func findZone(secs int64, zone int32) *time.Location {
	z := zones.Load()
	if z == nil || z.local != time.Local || uint64(secs-z.start) >= z.span {
		return nil
	}
	if z.localOff == zone {
		return z.local
	}
	if z.fixedOff == zone {
		return z.fixed
	}
	return nil
}

// learnZone returns the location time.Parse gives the instant secs
// written with offset zone: time.Local when Local has that offset then,
// else a fixed zone with no name; and records it in zones.
func learnZone(secs int64, zone int32) *time.Location {
	local := time.Local
	lt := time.Unix(secs, 0).In(local)
	_, off := lt.Zone()
	z := &zoneSpan{local: local, localOff: int32(off), fixedOff: noOffset}
	if int(z.localOff) != off {
		z.localOff = noOffset // no offset read is this far
	}
	loc := local
	if off != int(zone) {
		loc = time.FixedZone("", int(zone))
		z.fixed, z.fixedOff = loc, zone
	} else if old := zones.Load(); old != nil {
		z.fixed, z.fixedOff = old.fixed, old.fixedOff // still the fixed zone of its offset
	}
	start, end := zoneBounds(lt)
	z.start, z.span = start, uint64(end-start)
	zones.Store(z)
	return loc
}

// The local seconds of 0000-01-01T00:00:00 and 10000-01-01T00:00:00,
// counted from 1970-01-01T00:00:00.
const (
	minRFC3339 = -62167219200
	maxRFC3339 = 253402300800
)

// digitBytes4x2 returns the four decimal digits of hi and then the four
// of lo (each below 10^4) as the bytes of a little-endian word, the
// first digit in the low byte, each byte the digit's value: the quarters,
// then the digits split in all lanes at once by multiplying with
// reciprocals (exact for these ranges: 10486/2^20 for /100 below 10^4,
// 103/2^10 for /10 below 100). A caller that has the halves from
// divisions of its own value in parallel starts the split sooner.
func digitBytes4x2(hi, lo uint32) uint64 {
	w := uint64(hi) | uint64(lo)<<32 // four digits in each 32-bit lane
	q := (w * 10486 >> 20) & 0x0000007f_0000007f
	w = q | (w-q*100)<<16 // two digits in each 16-bit lane
	q = (w * 103 >> 10) & 0x000f_000f_000f_000f
	return q | (w-q*10)<<8
}

// offsets is what AppendTime learnt last of the offset of a location:
// over span instants from start (Unix seconds) loc has the offset that
// zone holds, a zone word. It saves Time.Zone's lookup and the offset's
// formatting while the times written fall in one span of one location.
// Readers and the writer meet through seq, odd while the writer writes
// (a sequence lock: a reader that sees it change uses nothing it read);
// nothing is allocated, so that a program writing times of several
// locations in turn does not allocate for each (the reader's zones, one
// immutable span, allocate when they learn one).
var offsets offsetCache

type offsetCache struct {
	seq   atomic.Uint64
	loc   atomic.Pointer[time.Location]
	start atomic.Int64  // the span's first instant
	span  atomic.Uint64 // its length: secs is in it when secs-start, unsigned, is less
	zone  atomic.Uint64
}

// zoneBounds returns Time.ZoneBounds in Unix seconds, the end excluded,
// with the smallest and largest int64 where it has no bound.
func zoneBounds(t time.Time) (start, end int64) {
	s, e := t.ZoneBounds()
	start, end = math.MinInt64, math.MaxInt64
	if !s.IsZero() {
		start = s.Unix()
	}
	if !e.IsZero() {
		end = e.Unix()
	}
	return start, end
}

// utcLoc is the location of a Time in UTC, as Time.Location returns it
// unless a program assigns another location to time.UTC.
var utcLoc = time.UTC

// find returns the zone word of the instant secs in loc, or 0 when the
// cache does not know it. It is small enough to be inlined.
func (c *offsetCache) find(loc *time.Location, secs int64) uint64 {
	seq := c.seq.Load()
	if seq&1 != 0 || loc != c.loc.Load() || uint64(secs-c.start.Load()) >= c.span.Load() {
		return 0
	}
	if zone := c.zone.Load(); c.seq.Load() == seq {
		return zone
	}
	return 0
}

// learn returns t's zone word, computed, and records it with the span of
// t's location that has that offset, unless another goroutine is
// recording at the same time. A time in the location that time.UTC names
// (another than UTC only when a program assigned it) is never recorded.
func (c *offsetCache) learn(t time.Time) uint64 {
	_, off := t.Zone()
	zone := zoneWord(off)
	loc := t.Location()
	seq := c.seq.Load()
	if loc == time.UTC || seq&1 != 0 || !c.seq.CompareAndSwap(seq, seq+1) {
		return zone
	}
	start, end := zoneBounds(t)
	c.start.Store(start)
	c.span.Store(uint64(end - start))
	c.loc.Store(loc)
	c.zone.Store(zone)
	c.seq.Store(seq + 2)
	return zone
}

// zoneWord returns the zone word of the offset off (seconds east of UTC):
// the offset in its top 23 bits (signed); in its low five bytes the text
// AppendFormat writes for it in time.RFC3339 less the colon, "Z" or
// "±hhmm" with the seconds dropped; and bit 40 set for the second form. It
// returns 0 for an offset of 24 hours or more, which RFC 3339 cannot
// write.
func zoneWord(off int) uint64 {
	if off == 0 {
		return 'Z'
	}
	m, sign := off/60, uint64('+') // minutes, truncated as AppendFormat truncates
	if m < 0 {
		m, sign = -m, '-'
	}
	if m/60 >= 24 {
		return 0
	}
	return sign | uint64(digitPairs[m/60])<<8 | uint64(digitPairs[m%60])<<24 | 1<<40 | uint64(off)<<41
}

// put2 writes v, 0-99, as two digits.
func put2(b []byte, v uint32) {
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
// -0400-03-01 (one 400-year era before March 1 of year 0), for years 0
// to 9999, as the year's first two digits and its last two (100 in
// January and February of a year ending in 00: the caller carries it),
// and the month and the day as text (monthDayText), by Neri and
// Schneider's algorithm ("Euclidean affine functions and their
// application to calendar algorithms", 2022): the century, the year of
// the century and the day of the year (counted from March) follow from
// one division and one multiplication each. Its caller waits for its
// results (the text it writes waits on the longest chain of dependent
// steps): the halves of the year come from the century and the year of
// the century without a division by 100, January and February (the next
// year) from the product before the day of the year is divided out of
// it, and the month and day from one load of a table of the days of a
// year, where computing them (one more multiplication, a division by a
// constant and two loads of digits) made the chain a third longer.
func civil(days uint32) (hi, lo, monthDay uint32) {
	n1 := 4*days + 3
	p2 := 2939745 * uint64(n1%146097|3) // 2939745/2^32 is 4/1461 near enough
	doy := uint32(p2) / (4 * 2939745)
	// 1 when doy >= 306, January or February: the carry of adding
	// 2^32 - 306×4×2939745 to the product's low half.
	next := uint32((p2&0xffffffff + 1<<32 - 306*4*2939745) >> 32)
	return n1/146097 - 4, uint32(p2>>32) + next, monthDayText[doy]
}

// monthDayText[doy] is the month and day of the day doy (0-365) of a year
// counted from March 1, as the text civil's caller writes: the month's two
// digits in the low 16 bits, the day's in the high.
var monthDayText = func() (t [366]uint32) {
	for doy := range uint32(366) {
		m := (5*doy + 2) / 153 // 0 for March
		day := doy - (153*m+2)/5 + 1
		month := m + 3
		if m >= 10 {
			month = m - 9
		}
		t[doy] = uint32(digitPairs[month]) | uint32(digitPairs[day])<<16
	}
	return t
}()

// pow10[i] is 10 to the power i, for scaling a fraction of fewer than nine
// digits to nanoseconds.
var pow10 = [...]int{1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000}

// daysFromCivil returns the days from 1970-01-01 to the given date of the
// proleptic Gregorian calendar (the inverse of civil0), for years 0 to
// 9999: counted in years from March 1 of a year 400 before year 0, so
// that every quantity is positive and the divisions are unsigned.
func daysFromCivil(year, month, day int) int64 {
	y := uint32(year) + 400
	if month <= 2 {
		y--
	}
	c := y / 100
	doy := uint32(daysBeforeMonth[month&15]) + uint32(day) - 1 // [0, 365], from March 1
	// 365 days a year, one more every fourth, one less every hundredth
	// but the four-hundredth: 1461/4 a year less the centuries plus
	// their quarter.
	days := 1461*y/4 - c + c/4 + doy // since -0400-03-01
	return int64(days) - 719468 - 146097
}

// daysBeforeMonth[m] is the number of days from March 1 to the first day
// of month m (1-12) of a year counted from March, as daysFromCivil counts.
var daysBeforeMonth = func() (t [16]int16) {
	for m := 1; m <= 12; m++ {
		t[m] = int16((153*((m+9)%12) + 2) / 5)
	}
	return t
}()
