package generator

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/build"
	"github.com/cborgen/cborgen/generator/internal/cache"
	"github.com/cborgen/cborgen/generator/internal/compat"
	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/generator/internal/schema"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// Settings are the settings that shape the output. Each one is a flag
// of the command (BindFlags), goes into the command lines that messages
// print (Config.Args), and into the key of the regeneration cache, which
// hashes the whole value: a setting added here reaches all three, and a
// test fails when it does not.
type Settings struct {
	Types  []string // struct types to generate; empty means every eligible one
	Output string   // output file; "" means DefaultOutput in the package directory
	Tags   []string // build tags for loading the package
	Sort   string   // map key order: "bytewise" (the default), "length" or "none"
	// Time is how time.Time values are written, one of fxamacker/cbor's
	// time modes: "unix" (the default), "unixmicro", "unixdynamic",
	// "rfc3339", "rfc3339nano" or "rfc3339nanoutc". TimeTag adds tag 1
	// (numbers) or 0 (text) before each non-zero time.
	Time    string
	TimeTag bool
	// NilEmpty writes nil slices, maps and byte slices as empty ones
	// (80, a0, 40) instead of null, as fxamacker's NilContainerAsEmpty.
	NilEmpty bool
	// Float is how floats are written: "shortest" (the default: the
	// shortest of float16, float32 and float64 that keeps the value, as
	// CoreDetEncOptions) or "none" (every float at its Go width, float32
	// in 5 bytes and float64 in 9, as fxamacker's ShortestFloatNone and
	// its default EncOptions).
	Float string
	// NoLegacy gives no type of the run the legacy map decoder, as if
	// each were //cborgen:nolegacy.
	NoLegacy bool
	// Small writes the smaller and slower form of the same code, for
	// programs with many types: the runtime's reads and writes are called
	// rather than put in line at each field, and each type's decoder
	// reads both formats in one loop over the runtime's table of its keys.
	// The bytes, the checks and the API are the default output's.
	Small bool
	// Tests also writes TestPath(Output): for every generated type a
	// round trip on random values, byte equality with fxamacker/cbor
	// when the module requires it, a fuzz target and benchmarks.
	Tests bool
	// Compat is "" (this generator's own API and format) or
	// "whyrusleeping": the API and the bytes of whyrusleeping/cbor-gen
	// for the types of the run (docs/guide.md, "Coming from
	// whyrusleeping/cbor-gen"). MaxArray, MaxBytes and MaxString are
	// then its Gen limits (MaxArrayLength, MaxByteLength,
	// MaxStringLength); 0 is its default.
	Compat                        string
	MaxArray, MaxBytes, MaxString int
}

// Config is one run of the generator: what the command's flags say. The
// settings that shape the output are its Settings; the other fields say
// which package, what to do with the output, and where to report.
type Config struct {
	Pattern string // package directory or pattern; "" means "."
	Settings
	Check bool // compare with the file on disk instead of writing it

	// AcceptBreak accepts changes that would make stored data decode
	// wrongly and rewrites the schema record to match the types
	// (docs/schema.md); Log receives what was accepted, and, when
	// Generate writes a changed output or record, a note for each field
	// that goes through fxamacker/cbor with reflection (interface fields:
	// the slow path) and each type left out. A nil Log discards both;
	// Quiet discards the notes.
	AcceptBreak bool
	Log         io.Writer
	Quiet       bool

	// Progress receives, when loading the package takes more than two
	// seconds (a first run with a cold build cache), a line saying what
	// the run is doing; nil (the default) prints nothing. The command sets
	// it when its standard error is a terminal and -q is not given.
	Progress io.Writer

	// Cache is the directory of the regeneration cache; "" means none.
	// The command sets it (DefaultCache).
	Cache string

	// Invocation is how the user invokes the generator, the words before
	// its arguments ("go tool cbor-gen", or those of their //go:generate
	// line: see GoGenerateInvocation), for the commands that messages tell
	// them to run; "" means the Go tool form.
	Invocation string
}

// options are the settings of s as the stages take them, checked.
type options struct {
	build  build.Options
	compat *compat.Options // nil: not -compat
}

// options parses and checks the settings.
func (s Settings) options() (options, error) {
	if s.Compat != "" || s.MaxArray != 0 || s.MaxBytes != 0 || s.MaxString != 0 {
		return s.compatOptions()
	}
	order, err := model.ParseKeyOrder(s.Sort)
	if err != nil {
		return options{}, err
	}
	tm, err := model.ParseTimeOptions(s.Time, s.TimeTag)
	if err != nil {
		return options{}, err
	}
	floatNone, err := model.ParseFloatMode(s.Float)
	if err != nil {
		return options{}, err
	}
	if floatNone && (tm.Mode == genrt.TimeUnixMicro || tm.Mode == genrt.TimeUnixDynamic) {
		// fxamacker would write those times' floats in 9 bytes too; the
		// runtime writes them in the shortest form.
		return options{}, fmt.Errorf("-float none with -time %s is not supported: times are written as floats in their shortest form", s.Time)
	}
	return options{build: build.Options{Types: s.Types, Order: order, Time: tm, NilEmpty: s.NilEmpty,
		FloatNone: floatNone, NoLegacy: s.NoLegacy, Small: s.Small}}, nil
}

// cacheKey encodes every field of s, by name, for the key of the
// regeneration cache: a field added to Settings is in the key without
// being listed here.
func (s Settings) cacheKey() []byte {
	var b []byte
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Bool {
			b = fmt.Appendf(b, "%s %t\n", v.Type().Field(i).Name, f.Bool())
		} else if f.Kind() == reflect.Int {
			b = fmt.Appendf(b, "%s %d\n", v.Type().Field(i).Name, f.Int())
		} else {
			b = fmt.Appendf(b, "%s %q\n", v.Type().Field(i).Name, f.Interface())
		}
	}
	return b
}

// DefaultOutput is the name of the generated file in the package
// directory when Config.Output is empty.
const DefaultOutput = "cbor_gen.go"

// LockPath returns the path of the schema record of the output file out:
// out with ".go" replaced by ".lock".
func LockPath(out string) string { return schema.LockPath(out) }

// TestPath returns the path of the generated tests of the output file
// out (-tests): out with ".go" replaced by "_test.go".
func TestPath(out string) string { return strings.TrimSuffix(out, ".go") + "_test.go" }

// CacheEnv is the environment variable that sets the cache directory of
// the command, or turns the cache off ("off").
const CacheEnv = "CBORGEN_CACHE"

// DefaultCache returns the cache directory for the command: $CBORGEN_CACHE,
// or cbor-gen in the user cache directory; "" when CBORGEN_CACHE is off or
// there is no user cache directory.
func DefaultCache() string { return cache.DefaultDir() }

// compatOptions checks the settings of a -compat run: its own limits,
// and none of the settings of this generator's format, which it does not
// write.
func (s Settings) compatOptions() (options, error) {
	if s.Compat != compat.Mode {
		if s.Compat == "" {
			return options{}, errors.New("-max-array, -max-bytes and -max-string are the limits of -compat whyrusleeping; add it, or drop them")
		}
		return options{}, fmt.Errorf("-compat %s: the one compatible target is whyrusleeping (whyrusleeping/cbor-gen)", s.Compat)
	}
	var other []string
	for _, f := range []struct {
		set  bool
		name string
	}{{s.Sort != "" && s.Sort != "bytewise", "-sort"}, {s.Time != "" && s.Time != "unix", "-time"}, {s.TimeTag, "-timetag"},
		{s.NilEmpty, "-nilempty"}, {s.Float != "" && s.Float != "shortest", "-float"}, {s.NoLegacy, "-nolegacy"}, {s.Small, "-small"}, {s.Tests, "-tests"}} {
		if f.set {
			other = append(other, f.name)
		}
	}
	if len(other) > 0 {
		return options{}, fmt.Errorf("-compat whyrusleeping writes whyrusleeping/cbor-gen's format, which %s does not shape; drop it", strings.Join(other, ", "))
	}
	for _, l := range []struct {
		v    int
		name string
	}{{s.MaxArray, "-max-array"}, {s.MaxBytes, "-max-bytes"}, {s.MaxString, "-max-string"}} {
		if l.v < 0 || l.v > 1<<31-1 {
			return options{}, fmt.Errorf("%s %d: a limit is from 1 to %d (0: whyrusleeping/cbor-gen's default)", l.name, l.v, 1<<31-1)
		}
	}
	return options{compat: &compat.Options{Types: s.Types, MaxArray: s.MaxArray, MaxBytes: s.MaxBytes, MaxString: s.MaxString}}, nil
}
