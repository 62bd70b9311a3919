package generator

import (
	"fmt"
	"io"
	"strings"

	"github.com/cborgen/cborgen/runtime"
)

// DefaultOutput is the name of the generated file in the package
// directory when Config.Output is empty.
const DefaultOutput = "cbor_gen.go"

// Config is one run of the generator: what the command's flags say.
type Config struct {
	Pattern string   // package directory or pattern; "" means "."
	Types   []string // struct types to generate; empty means every eligible one
	Output  string   // output file; "" means DefaultOutput in the package directory
	Check   bool     // compare with the file on disk instead of writing it
	Tags    []string // build tags for loading the package
	Sort    string   // map key order: "bytewise" (the default), "length" or "none"
	// Time is how time.Time values are written, one of fxamacker/cbor's
	// time modes: "unix" (the default), "unixmicro", "unixdynamic",
	// "rfc3339", "rfc3339nano" or "rfc3339nanoutc". TimeTag adds tag 1
	// (numbers) or 0 (text) before each non-zero time.
	Time    string
	TimeTag bool
	// NilEmpty writes nil slices, maps and byte slices as empty ones
	// (80, a0, 40) instead of null, as fxamacker's NilContainerAsEmpty.
	NilEmpty bool

	// AcceptBreak accepts changes that would make stored data decode
	// wrongly and rewrites the schema record to match the types
	// (schema.go); Log receives what was accepted, and, when Generate
	// writes a changed output or record, a note for each field that goes
	// through fxamacker/cbor with reflection (interface fields: the slow
	// path) and each type left out. A nil Log discards both; Quiet
	// discards the notes.
	AcceptBreak bool
	Log         io.Writer
	Quiet       bool

	// Cache is the directory of the regeneration cache (cache.go); ""
	// means none. The command sets it (DefaultCache).
	Cache string

	// Command is how the user runs the generator ("go tool cbor-gen",
	// the command of their //go:generate line: see GenerateCommand), for
	// the commands that messages tell them to run; "" means the Go tool
	// form.
	Command string
}

// keyOrder is the order in which generated encoders write map keys.
type keyOrder int

// parseKeyOrder reads the -sort flag.
func parseKeyOrder(s string) (keyOrder, error) {
	switch s {
	case "", "bytewise":
		return orderBytewise, nil
	case "length":
		return orderLengthFirst, nil
	case "none":
		return orderNone, nil
	}
	return 0, fmt.Errorf("-sort %q: want bytewise, length or none", s)
}

// runtimeName is the runtime constant that names the order.
func (o keyOrder) runtimeName() string {
	switch o {
	case orderLengthFirst:
		return "SortLengthFirst"
	case orderNone:
		return "SortNone"
	}
	return "SortBytewise"
}

// timeOptions is how time.Time values are written: one of fxamacker's
// time modes (runtime.TimeMode has them in its order), with or without
// tag 0/1.
type timeOptions struct {
	mode runtime.TimeMode
	tag  bool
}

// timeModes are the values of the -time flag.
var timeModes = []struct {
	flag, name string
	mode       runtime.TimeMode
}{
	{"unix", "TimeUnix", runtime.TimeUnix},
	{"unixmicro", "TimeUnixMicro", runtime.TimeUnixMicro},
	{"unixdynamic", "TimeUnixDynamic", runtime.TimeUnixDynamic},
	{"rfc3339", "TimeRFC3339", runtime.TimeRFC3339},
	{"rfc3339nano", "TimeRFC3339Nano", runtime.TimeRFC3339Nano},
	{"rfc3339nanoutc", "TimeRFC3339NanoUTC", runtime.TimeRFC3339NanoUTC},
}

// parseTimeOptions reads the -time and -timetag flags.
func parseTimeOptions(s string, tag bool) (timeOptions, error) {
	if s == "" {
		s = "unix"
	}
	var names []string
	for _, m := range timeModes {
		if m.flag == s {
			return timeOptions{mode: m.mode, tag: tag}, nil
		}
		names = append(names, m.flag)
	}
	return timeOptions{}, fmt.Errorf("-time %q: want one of %s", s, strings.Join(names, ", "))
}

const (
	orderBytewise    keyOrder = iota // RFC 8949 §4.2.1 core deterministic: bytewise on encoded keys
	orderLengthFirst                 // RFC 7049 canonical: shorter encoded keys first
	orderNone                        // Go's map order: fastest, not deterministic
)
