package genrt

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // the zones below on any machine
)

// zones the differential tests put times in: UTC, named zones with
// daylight saving and odd offsets, fixed zones with seconds in the offset.
func testZones(t *testing.T) []*time.Location {
	zones := []*time.Location{time.UTC, time.Local,
		time.FixedZone("", 0), time.FixedZone("X", -30), time.FixedZone("", 5*3600+45*60),
		time.FixedZone("", -(23*3600 + 59*60 + 59)), time.FixedZone("", 24*3600), time.FixedZone("", -25*3600),
		time.FixedZone("", 3600+17), time.FixedZone("", -59)}
	for _, name := range []string{"America/New_York", "Europe/Lisbon", "Asia/Kolkata", "Australia/Lord_Howe", "Africa/Monrovia", "Pacific/Kiritimati"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		zones = append(zones, loc)
	}
	return zones
}

// randomTime returns times spread over years -2..10002 and beyond, with
// and without nanoseconds, whole milliseconds and microseconds.
func randomTime(rng *rand.Rand) time.Time {
	var secs int64
	switch rng.Intn(4) {
	case 0: // anywhere in 0000-9999 and a little beyond
		secs = -62167219200 - 3*86400 + rng.Int63n(253402300800+62167219200+6*86400)
	case 1: // near now
		secs = 1_700_000_000 + rng.Int63n(200_000_000)
	case 2: // near the edges of the years written
		edges := []int64{-62167219200, 253402300800, 0, 951782400, 4107542400}
		secs = edges[rng.Intn(len(edges))] + rng.Int63n(4*86400) - 2*86400
	default: // far out
		secs = rng.Int63() >> rng.Intn(30)
		if rng.Intn(2) == 0 {
			secs = -secs
		}
	}
	var ns int64
	switch rng.Intn(4) {
	case 0:
	case 1:
		ns = rng.Int63n(1000) * 1_000_000
	case 2:
		ns = rng.Int63n(1_000_000) * 1000
	default:
		ns = rng.Int63n(1_000_000_000)
	}
	return time.Unix(secs, ns)
}

// formatReference is what AppendTime wrote before the runtime wrote the
// text itself: Time.AppendFormat and fxamacker's range.
func formatReference(t time.Time, layout string) ([]byte, bool) {
	s := t.AppendFormat(nil, layout)
	if len(s) < 20 || s[4] != '-' {
		return nil, false
	}
	if s[len(s)-1] == 'Z' {
		return s, true
	}
	z := s[len(s)-6:]
	return s, (z[0] == '+' || z[0] == '-') && (z[1] < '2' || z[1] == '2' && z[2] < '4')
}

// appendRFC3339 appends t as t.AppendFormat(dst, time.RFC3339) does, or
// time.RFC3339Nano with nanos: AppendTime's text without its head (into a
// buffer with room for it, AppendTime's own path); false, appending
// nothing, where AppendTime returns ErrTimeRange. AppendTime writes the
// zero time as null, never as text: its text is AppendFormat's here.
func appendRFC3339(dst []byte, t time.Time, nanos bool) ([]byte, bool) {
	layout, mode := time.RFC3339, TimeRFC3339
	if nanos {
		layout, mode = time.RFC3339Nano, TimeRFC3339Nano
	}
	if t.IsZero() {
		return t.AppendFormat(dst, layout), true
	}
	at := len(dst)
	out, err := AppendTime(slices.Grow(dst, 37), t, mode, false)
	if err != nil {
		return out[:at], false
	}
	head := 1
	if out[at] == 0x78 {
		head = 2
	}
	return append(out[:at], out[at+head:]...), true
}

func TestAppendRFC3339MatchesAppendFormat(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	zones := testZones(t)
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for i := 0; i < n; i++ {
		tm := randomTime(rng).In(zones[rng.Intn(len(zones))])
		for _, nanos := range []bool{false, true} {
			layout := time.RFC3339
			if nanos {
				layout = time.RFC3339Nano
			}
			want, wok := formatReference(tm, layout)
			got, gok := appendRFC3339([]byte("x"), tm, nanos)
			if gok != wok || gok && !bytes.Equal(got[1:], want) || !gok && string(got) != "x" {
				t.Fatalf("%v (%s): appendRFC3339 = %q %v, AppendFormat %q %v", tm, layout, got, gok, want, wok)
			}
		}
	}
}

// parseMutations returns text around the RFC 3339 format: valid times,
// and times with one byte changed, cut or added.
func parseInputs(rng *rand.Rand, zones []*time.Location) []string {
	var out []string
	for i := 0; i < 4000; i++ {
		tm := randomTime(rng).In(zones[rng.Intn(len(zones))])
		s := tm.Format(time.RFC3339Nano)
		if rng.Intn(3) == 0 {
			s = tm.Format(time.RFC3339)
		}
		out = append(out, s)
		b := []byte(s)
		for m := 1 + rng.Intn(2); m > 0 && len(b) > 0; m-- {
			p := rng.Intn(len(b))
			alphabet := "0123456789:+-.,TtZz 9"
			switch rng.Intn(3) {
			case 0:
				b[p] = alphabet[rng.Intn(len(alphabet))]
			case 1:
				b = append(b[:p], b[p+1:]...)
			default:
				b = append(b[:p], append([]byte{alphabet[rng.Intn(len(alphabet))]}, b[p:]...)...)
			}
		}
		out = append(out, string(b))
	}
	out = append(out,
		"2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2000-02-29T23:59:59.999999999999Z", "1900-02-29T00:00:00Z",
		"0000-01-01T00:00:00Z", "9999-12-31T23:59:59+23:59", "2006-01-02T15:04:05-00:00", "2006-01-02T15:04:05+24:00",
		"2006-01-02T15:04:05.Z", "2006-01-02T15:04:05,5Z", "2006-01-02T15:04:60Z", "2006-01-02t15:04:05z",
		"2006-01-02T15:04:05.123456789123+05:30", "2006-01-02T15:04:05", "2006-1-02T15:04:05Z", "2006-01-02T15:04:05+0530",
		"2006-01-02T15:04:05.000Z", "2006-01-02T24:00:00Z", "2006-13-02T15:04:05Z", "2006-00-02T15:04:05Z",
		// More than nine digits where nine and a zone would fit.
		"2006-01-02T15:04:05.12345678901234Z", "2006-01-02T15:04:05.1234567891", "2006-01-02T15:04:05.123456789+01:00",
		"2006-01-02T15:04:05.1234567890-01:00", "2006-01-02T15:04:05.123456789012-01:00", "2006-01-02T15:04:05.123456789",
	)
	return out
}

func TestParseRFC3339MatchesTimeParse(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	zones := testZones(t)
	// Local decides which zone time.Parse gives a time in: run with a
	// local zone that has daylight saving, then with the machine's own.
	saved := time.Local
	defer func() { time.Local = saved }()
	for _, local := range []*time.Location{zones[10], zones[11], saved, time.UTC} {
		time.Local = local
		for _, s := range parseInputs(rng, zones) {
			want, werr := time.Parse(time.RFC3339, s)
			got, ok := parseRFC3339([]byte(s))
			if ok && (werr != nil || !sameTime(got, want)) {
				t.Fatalf("local %v: parseRFC3339(%q) = %v (%v), time.Parse %v (%v), %v", local, s, got, got.Location(), want, want.Location(), werr)
			}
			if ok != (werr == nil) && ok {
				t.Fatalf("parseRFC3339(%q) accepts what time.Parse rejects", s)
			}
			// ReadTime: fast path or time.Parse, the same time either way.
			d := NewBytesDecoder(append(AppendTag(nil, 0), AppendString(nil, s)...))
			rt, rerr := d.ReadTime()
			if (rerr == nil) != (werr == nil) || rerr == nil && !sameTime(rt, want) {
				t.Fatalf("ReadTime(%q) = %v, %v; time.Parse %v, %v", s, rt, rerr, want, werr)
			}
			if _, fast := scanRFC3339([]byte(s)); fast != ok {
				t.Fatalf("scanRFC3339(%q) = %v, parseRFC3339 %v", s, fast, ok)
			}
		}
	}
}

// TestParseRFC3339Round: every time written is read back as the same
// instant by the fast path, without time.Parse.
func TestParseRFC3339Round(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	zones := testZones(t)
	for i := 0; i < 20000; i++ {
		tm := randomTime(rng).In(zones[rng.Intn(len(zones))])
		text, ok := appendRFC3339(nil, tm, true)
		if !ok {
			continue
		}
		got, ok := parseRFC3339(text)
		if !ok || got.Unix() != tm.Unix()+int64(offsetSeconds(tm)) || got.Nanosecond() != tm.Nanosecond() {
			t.Fatalf("%q: parseRFC3339 = %v, %v; want %v", text, got, ok, tm)
		}
	}
}

// sameTime reports whether a and b are the same instant in the same kind
// of location: UTC, Local, or a fixed zone with the same name and offset
// (time.FixedZone makes a new *Location for most offsets).
func sameTime(a, b time.Time) bool {
	an, ao := a.Zone()
	bn, bo := b.Zone()
	la, lb := a.Location(), b.Location()
	same := la == lb || la != time.UTC && la != time.Local && lb != time.UTC && lb != time.Local && la.String() == lb.String()
	return same && a.Equal(b) && an == bn && ao == bo && a.String() == b.String()
}

// offsetSeconds is the seconds part of t's zone offset, which RFC 3339
// text drops.
func offsetSeconds(t time.Time) int {
	_, off := t.Zone()
	return off % 60
}

func TestAppendTimeAllocs(t *testing.T) {
	tm := time.Date(2026, 11, 30, 21, 0, 0, 123456789, time.FixedZone("", 3600))
	buf := make([]byte, 0, 64)
	for _, mode := range []TimeMode{TimeRFC3339, TimeRFC3339Nano, TimeRFC3339NanoUTC} {
		if n := testing.AllocsPerRun(100, func() { buf, _ = AppendTime(buf[:0], tm, mode, true) }); n != 0 {
			t.Errorf("mode %d: %v allocations", mode, n)
		}
	}
	data := append(AppendTag(nil, 0), AppendString(nil, "2026-11-30T21:00:00.123456789Z")...)
	if n := testing.AllocsPerRun(100, func() {
		d := Decoder{buf: data, opts: &builtinOpts[0]}
		if _, err := d.ReadTime(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ReadTime: %v allocations", n)
	}
}

func ExampleAppendTime_text() {
	tm := time.Date(2026, 11, 30, 21, 0, 0, 500_000_000, time.UTC)
	b, _ := AppendTime(nil, tm, TimeRFC3339Nano, true)
	fmt.Println(strconv.Quote(string(b[2:])))
	// Output: "2026-11-30T21:00:00.5Z"
}

// TestDaysFromCivil compares daysFromCivil with the time package on days
// of years 0000 to 9999 (every day of a full run, every 13th in -short).
func TestDaysFromCivil(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 13
	}
	start := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := 0; ; d += step {
		day := start.AddDate(0, 0, d)
		if day.Year() > 9999 {
			break
		}
		if got, want := daysFromCivil(day.Year(), int(day.Month()), day.Day()), day.Unix()/86400; got != want {
			t.Fatalf("%s: %d days, want %d", day.Format(time.DateOnly), got, want)
		}
		hi, lo, md := civil(uint32(d) + 146097 - 60)
		if text := fmt.Sprintf("%c%c-%c%c", byte(md), byte(md>>8), byte(md>>16), byte(md>>24)); int(hi*100+lo) != day.Year() || lo > 100 || text != day.Format("01-02") {
			t.Fatalf("civil(%d) = %d|%d %q, want %s", d+146097-60, hi, lo, text, day.Format(time.DateOnly))
		}
	}
}

// TestDigits8 compares digits8 with strconv on every byte at every place
// of eight-digit numbers.
func TestDigits8(t *testing.T) {
	for _, base := range []string{"00000000", "12345678", "99999999", "90817263", "00000001"} {
		for i := 0; i < 8; i++ {
			for c := 0; c < 256; c++ {
				b := []byte(base)
				b[i] = byte(c)
				got, ok := digits8(b)
				want, err := strconv.Atoi(string(b))
				valid := err == nil && c >= '0' && c <= '9'
				if ok != valid || ok && got != want {
					t.Fatalf("digits8(%q) = %d, %v; want %d, %v", b, got, ok, want, valid)
				}
			}
		}
	}
}

// TestScanRFC3339EveryByte puts every byte value at every place of valid
// texts: the fast path accepts a text only when time.Parse accepts it and
// reads the same time, and takes every digit in the date and clock that
// time.Parse takes.
func TestScanRFC3339EveryByte(t *testing.T) {
	for _, valid := range []string{"1987-06-15T08:30:12.123456789+02:00", "2024-02-29T23:59:59Z", "0000-01-01T00:00:00-23:59",
		"2006-01-02T15:04:05.1234567Z", "2006-01-02T15:04:05.123456789Z", "9999-12-31T23:59:59.1+23:59"} {
		if _, ok := scanRFC3339([]byte(valid)); !ok {
			t.Fatalf("scanRFC3339(%q) refused", valid)
		}
		for p := 0; p < len(valid); p++ {
			for c := 0; c < 256; c++ {
				b := []byte(valid)
				b[p] = byte(c)
				got, ok := parseRFC3339(b)
				want, err := time.Parse(time.RFC3339, string(b))
				if ok && (err != nil || !sameTime(got, want)) {
					t.Fatalf("parseRFC3339(%q) = %v, true; time.Parse %v, %v", b, got, want, err)
				}
				if !ok && err == nil && c >= '0' && c <= '9' && p < 19 {
					t.Fatalf("parseRFC3339(%q) refused what time.Parse reads as %v", b, want)
				}
			}
		}
	}
}

// TestParseRFC3339ZoneSpans reads times in order across the offset changes
// of zones with daylight saving time, written in the local zone's offsets
// and in others, as time.Parse reads them: the span of Local's offset
// that parseRFC3339 remembers never decides a time outside it.
func TestParseRFC3339ZoneSpans(t *testing.T) {
	zones := testZones(t)
	saved := time.Local
	defer func() { time.Local = saved }()
	step := 37 * time.Minute
	if testing.Short() {
		step = 7 * time.Hour
	}
	for _, local := range []*time.Location{zones[10], zones[13], time.UTC} {
		time.Local = local
		for _, written := range []*time.Location{local, zones[10], zones[11], zones[4]} {
			start := time.Date(2023, 1, 1, 0, 0, 0, 123, time.UTC)
			for tm := start; tm.Before(start.AddDate(1, 0, 7)); tm = tm.Add(step) {
				s := tm.In(written).Format(time.RFC3339Nano)
				want, err := time.Parse(time.RFC3339, s)
				got, ok := parseRFC3339([]byte(s))
				if err != nil || !ok || !sameTime(got, want) {
					t.Fatalf("local %v: parseRFC3339(%q) = %v (%v), %v; time.Parse %v (%v), %v",
						local, s, got, got.Location(), ok, want, want.Location(), err)
				}
			}
		}
	}
}

// TestParseRFC3339Concurrent reads times of different offsets and spans
// of Local's offset from several goroutines at once (run it with -race):
// each gets what time.Parse gives, whatever the others recorded.
func TestParseRFC3339Concurrent(t *testing.T) {
	zones := testZones(t)
	saved := time.Local
	defer func() { time.Local = saved }()
	time.Local = zones[10]
	var texts []string
	var want []time.Time
	start := time.Date(2024, 1, 1, 0, 0, 0, 5, time.UTC)
	for i := range 400 {
		tm := start.Add(time.Duration(i) * 22 * time.Hour).In(zones[10+i%4])
		s := tm.Format(time.RFC3339Nano)
		w, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		texts, want = append(texts, s), append(want, w)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 50 {
				for i := range texts {
					k := (i*7 + g*13 + r) % len(texts)
					got, ok := parseRFC3339([]byte(texts[k]))
					if !ok || !sameTime(got, want[k]) {
						errs <- fmt.Sprintf("parseRFC3339(%q) = %v (%v), %v; want %v (%v)", texts[k], got, got.Location(), ok, want[k], want[k].Location())
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestAppendTimeText checks AppendTime's text modes, with and without tag
// 0, after other bytes: a text string of what Time.AppendFormat writes,
// with a one-byte head below 24 bytes and a two-byte one from 24; a time
// out of range leaves dst as it was.
func TestAppendTimeText(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	zones := testZones(t)
	n := 20000
	if testing.Short() {
		n = 3000
	}
	modes := map[TimeMode]string{TimeRFC3339: time.RFC3339, TimeRFC3339Nano: time.RFC3339Nano, TimeRFC3339NanoUTC: time.RFC3339Nano}
	for i := 0; i < n; i++ {
		tm := randomTime(rng).In(zones[rng.Intn(len(zones))])
		if tm.IsZero() {
			continue
		}
		for mode, layout := range modes {
			for _, tag := range []bool{false, true} {
				ref := tm
				if mode == TimeRFC3339NanoUTC {
					ref = tm.UTC()
				}
				text, ok := formatReference(ref, layout)
				got, err := AppendTime([]byte{0xaa}, tm, mode, tag)
				want := []byte{0xaa}
				if ok {
					if tag {
						want = AppendTag(want, 0)
					}
					want = AppendString(want, string(text))
				}
				if !bytes.Equal(got, want) || (err == nil) != ok {
					t.Fatalf("AppendTime(%v, mode %d, tag %v) = % x, %v; want % x (%q)", tm, mode, tag, got, err, want, text)
				}
			}
		}
	}
}

// TestDigitBytes4x2 compares digitBytes4x2 of the halves of eight-digit
// numbers with strconv on the edges of each lane's split and on numbers
// spread over 0 to 10^8.
func TestDigitBytes4x2(t *testing.T) {
	step := uint32(97)
	if testing.Short() {
		step = 9973
	}
	check := func(v uint32) {
		w := digitBytes4x2(v/10_000, v%10_000)
		var got [8]byte
		for i := range got {
			got[i] = '0' + byte(w>>(8*i))
		}
		if want := fmt.Sprintf("%08d", v); string(got[:]) != want {
			t.Fatalf("digitBytes4x2 of %d's halves = %q, want %q", v, got, want)
		}
	}
	for v := uint32(0); v < 100_000_000; v += step {
		check(v)
	}
	for _, v := range []uint32{0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10001, 99990000, 99999999, 12345678, 90000009} {
		check(v)
	}
}

// TestAppendRFC3339ZoneSpans writes times in order across the offset
// changes of zones with daylight saving time (and their 30-minute and
// historical offsets), alternating between zones, Local and UTC, as
// AppendFormat writes them: the span of a location's offset that
// appendRFC3339 remembers never decides a time outside it.
func TestAppendRFC3339ZoneSpans(t *testing.T) {
	zones := testZones(t)
	saved := time.Local
	defer func() { time.Local = saved }()
	time.Local = zones[10] // New York
	step := 37 * time.Minute
	if testing.Short() {
		step = 5 * time.Hour
	}
	for _, from := range []time.Time{
		time.Date(2023, 1, 1, 0, 0, 0, 123, time.UTC),
		time.Date(1915, 1, 1, 0, 0, 0, 0, time.UTC), // before and across the first transitions
		time.Date(2037, 1, 1, 0, 0, 0, 5, time.UTC), // after the last, by the zone's rule
	} {
		for _, mix := range [][]*time.Location{
			{zones[10]}, {zones[11]}, {zones[13]}, {time.Local},
			{zones[10], zones[11]}, {zones[13], time.UTC, zones[4]}, {time.Local, zones[10], zones[1]},
		} {
			i := 0
			for tm := from; tm.Before(from.AddDate(1, 0, 7)); tm = tm.Add(step) {
				w := tm.In(mix[i%len(mix)])
				i++
				for _, nanos := range []bool{false, true} {
					layout := time.RFC3339
					if nanos {
						layout = time.RFC3339Nano
					}
					want, _ := formatReference(w, layout)
					got, ok := appendRFC3339(nil, w, nanos)
					if !ok || !bytes.Equal(got, want) {
						t.Fatalf("%v in %v: appendRFC3339 = %q, %v; AppendFormat %q", w, w.Location(), got, ok, want)
					}
				}
			}
		}
	}
}

// TestAppendRFC3339UTCAssigned: a program that assigns another location to
// time.UTC makes a Time in UTC and one in that location report the same
// Location; appendRFC3339 still writes each with its own offset.
func TestAppendRFC3339UTCAssigned(t *testing.T) {
	saved := time.UTC
	defer func() { time.UTC = saved }()
	east := time.FixedZone("E", 3*3600)
	utc := time.Date(2026, 12, 6, 1, 2, 3, 0, saved)
	time.UTC = east
	for range 3 {
		for _, tm := range []time.Time{utc, utc.In(east)} {
			want, _ := formatReference(tm, time.RFC3339)
			if got, ok := appendRFC3339(nil, tm, false); !ok || !bytes.Equal(got, want) {
				t.Fatalf("%v: appendRFC3339 = %q, %v; want %q", tm, got, ok, want)
			}
		}
	}
}

// TestAppendRFC3339Concurrent writes times of different zones and spans
// of their offsets from several goroutines at once (run it with -race):
// each gets what AppendFormat writes, whatever the others recorded.
func TestAppendRFC3339Concurrent(t *testing.T) {
	zones := testZones(t)
	var times []time.Time
	var want [][]byte
	start := time.Date(2024, 1, 1, 0, 0, 0, 5, time.UTC)
	for i := range 400 {
		tm := start.Add(time.Duration(i) * 22 * time.Hour).In(zones[i%len(zones)])
		w, ok := formatReference(tm, time.RFC3339Nano)
		if !ok {
			w = nil // an offset of a day or more
		}
		times, want = append(times, tm), append(want, w)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for r := range 50 {
				for i := range times {
					k := (i*7 + g*13 + r) % len(times)
					var ok bool
					buf, ok = appendRFC3339(buf[:0], times[k], true)
					if ok != (want[k] != nil) || ok && !bytes.Equal(buf, want[k]) {
						errs <- fmt.Sprintf("%v: appendRFC3339 = %q, %v; want %q", times[k], buf, ok, want[k])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
