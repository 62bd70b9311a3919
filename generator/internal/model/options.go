package model

import (
	"fmt"
	"strings"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// KeyOrder is the order in which generated encoders write map keys.
type KeyOrder int

// ParseKeyOrder reads the -sort flag.
func ParseKeyOrder(s string) (KeyOrder, error) {
	switch s {
	case "", "bytewise":
		return OrderBytewise, nil
	case "length":
		return OrderLengthFirst, nil
	case "none":
		return OrderNone, nil
	}
	return 0, fmt.Errorf("-sort %q: want bytewise, length or none", s)
}

// RuntimeName is the runtime constant that names the order.
func (o KeyOrder) RuntimeName() string {
	switch o {
	case OrderLengthFirst:
		return "SortLengthFirst"
	case OrderNone:
		return "SortNone"
	}
	return "SortBytewise"
}

// ParseFloatMode reads the -float flag: whether every float is written
// at its Go width (none) rather than in its shortest exact form.
func ParseFloatMode(s string) (none bool, err error) {
	switch s {
	case "", "shortest":
		return false, nil
	case "none":
		return true, nil
	}
	return false, fmt.Errorf("-float %q: want shortest or none", s)
}

// TimeOptions is how time.Time values are written: one of fxamacker's
// time modes (runtime.TimeMode has them in its order), with or without
// tag 0/1.
type TimeOptions struct {
	Mode genrt.TimeMode
	Tag  bool
}

// TimeModes are the values of the -time flag.
var TimeModes = []struct {
	flag, Name string
	Mode       genrt.TimeMode
}{
	{"unix", "TimeUnix", genrt.TimeUnix},
	{"unixmicro", "TimeUnixMicro", genrt.TimeUnixMicro},
	{"unixdynamic", "TimeUnixDynamic", genrt.TimeUnixDynamic},
	{"rfc3339", "TimeRFC3339", genrt.TimeRFC3339},
	{"rfc3339nano", "TimeRFC3339Nano", genrt.TimeRFC3339Nano},
	{"rfc3339nanoutc", "TimeRFC3339NanoUTC", genrt.TimeRFC3339NanoUTC},
}

// ParseTimeOptions reads the -time and -timetag flags.
func ParseTimeOptions(s string, tag bool) (TimeOptions, error) {
	if s == "" {
		s = "unix"
	}
	var names []string
	for _, m := range TimeModes {
		if m.flag == s {
			return TimeOptions{Mode: m.Mode, Tag: tag}, nil
		}
		names = append(names, m.flag)
	}
	return TimeOptions{}, fmt.Errorf("-time %q: want one of %s", s, strings.Join(names, ", "))
}

const (
	OrderBytewise    KeyOrder = iota // RFC 8949 §4.2.1 core deterministic: bytewise on encoded keys
	OrderLengthFirst                 // RFC 7049 canonical: shorter encoded keys first
	OrderNone                        // Go's map order: fastest, not deterministic
)
