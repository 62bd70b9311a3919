package generator

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The command line: the flags that fill a Config, the //go:generate lines
// that hold them, and the command a message tells the user to run. Two
// words keep apart what they name: an invocation is the words that start
// cbor-gen ("go tool cbor-gen", "go run .../cmd/cbor-gen@v1.2.0"), before
// its arguments; a command is a whole shell command line, an invocation
// with arguments, that a message tells the user to run.

// toolInvocation is how a module that follows the README invokes the
// generator.
const toolInvocation = "go tool cbor-gen"

// BindFlags defines the command's flags on fs, writing into cfg. Call the
// function it returns after fs.Parse to fill the list-valued fields.
func BindFlags(fs *flag.FlagSet, cfg *Config) (finish func()) {
	typeList := fs.String("type", "", "comma-separated struct `types` to generate (default: all eligible)")
	fs.StringVar(&cfg.Output, "o", "", "output `file` (default cbor_gen.go in the package directory)")
	fs.BoolVar(&cfg.Check, "check", false, "compare with the files on disk and exit 1 with a diff if they are stale")
	tags := fs.String("tags", "", "comma-separated build `tags`")
	fs.StringVar(&cfg.Sort, "sort", "bytewise", "map key `order`: bytewise, length or none")
	fs.StringVar(&cfg.Time, "time", "unix", "time.Time `mode`: unix, unixmicro, unixdynamic, rfc3339, rfc3339nano or rfc3339nanoutc")
	fs.BoolVar(&cfg.TimeTag, "timetag", false, "write tag 1 (numbers) or 0 (text) before each non-zero time.Time")
	fs.BoolVar(&cfg.NilEmpty, "nilempty", false, "write nil slices, maps and byte slices as empty ones (80, a0, 40), as fxamacker's NilContainerAsEmpty")
	fs.StringVar(&cfg.Float, "float", "shortest", "float `form`: shortest (float16, float32 or float64, whichever keeps the value) or none (every float at its Go width, as fxamacker's ShortestFloatNone)")
	fs.BoolVar(&cfg.NoLegacy, "nolegacy", false, "give no type the legacy map decoder, as //cborgen:nolegacy on each")
	fs.BoolVar(&cfg.Small, "small", false, "write smaller, slower code, for programs with many types: runtime calls instead of in-line reads and writes, one table-driven decoder per type (same bytes, checks and API)")
	fs.BoolVar(&cfg.Tests, "tests", false, "also write the output's _test.go: round trips, fxamacker/cbor equality, a fuzz target and benchmarks per type")
	fs.BoolVar(&cfg.AcceptBreak, "accept-break", false, "accept changes that make stored data decode wrongly and rewrite the schema record (once, by hand)")
	fs.StringVar(&cfg.Compat, "compat", "", "generate another generator's API and bytes: whyrusleeping (MarshalCBOR(io.Writer), UnmarshalCBOR(io.Reader), its tuple and map formats)")
	fs.IntVar(&cfg.MaxArray, "max-array", 0, "with -compat whyrusleeping: the most elements of a slice (Gen.MaxArrayLength; 0: 8192)")
	fs.IntVar(&cfg.MaxBytes, "max-bytes", 0, "with -compat whyrusleeping: the longest byte string (Gen.MaxByteLength; 0: 2 MiB)")
	fs.IntVar(&cfg.MaxString, "max-string", 0, "with -compat whyrusleeping: the longest text string (Gen.MaxStringLength; 0: 8192)")
	fs.BoolVar(&cfg.Quiet, "q", false, "print no notes (fields encoded with reflection, types left out)")
	return func() {
		cfg.Types = splitFlagList(*typeList)
		cfg.Tags = splitFlagList(*tags)
	}
}

func splitFlagList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// Args returns the command-line arguments that give cfg: the flags that
// differ from their defaults, then the package. -check, -accept-break and
// -q are left out; they say what to do, not what to generate.
func (cfg Config) Args() []string {
	args := cfg.Settings.args()
	if cfg.Pattern != "" && cfg.Pattern != "." {
		args = append(args, cfg.Pattern)
	}
	return args
}

// args returns the flags that give s, those that differ from their
// defaults.
func (s Settings) args() []string {
	var args []string
	if len(s.Types) > 0 {
		args = append(args, "-type", strings.Join(s.Types, ","))
	}
	if s.Output != "" {
		args = append(args, "-o", s.Output)
	}
	if len(s.Tags) > 0 {
		args = append(args, "-tags", strings.Join(s.Tags, ","))
	}
	if s.Sort != "" && s.Sort != "bytewise" {
		args = append(args, "-sort="+s.Sort)
	}
	if s.Time != "" && s.Time != "unix" {
		args = append(args, "-time="+s.Time)
	}
	if s.TimeTag {
		args = append(args, "-timetag")
	}
	if s.NilEmpty {
		args = append(args, "-nilempty")
	}
	if s.Float != "" && s.Float != "shortest" {
		args = append(args, "-float="+s.Float)
	}
	if s.NoLegacy {
		args = append(args, "-nolegacy")
	}
	if s.Small {
		args = append(args, "-small")
	}
	if s.Tests {
		args = append(args, "-tests")
	}
	if s.Compat != "" {
		args = append(args, "-compat", s.Compat)
	}
	for _, l := range []struct {
		v    int
		name string
	}{{s.MaxArray, "-max-array"}, {s.MaxBytes, "-max-bytes"}, {s.MaxString, "-max-string"}} {
		if l.v != 0 {
			args = append(args, fmt.Sprintf("%s=%d", l.name, l.v))
		}
	}
	return args
}

// onlyTags reports whether s sets no flag but -tags: what -check ./...
// takes, since it reads the rest from each package's //go:generate lines.
func (s Settings) onlyTags() bool {
	s.Tags = nil
	return len(s.args()) == 0
}

// rerunCommand is the shell command that runs the generator as cfg, plus
// extra flags, in the working directory: what a message tells the user to
// run by hand. It starts the command the way the //go:generate line does
// when the run came from go generate (Config.Invocation), else as the Go
// tool directive does.
func rerunCommand(cfg Config, extra ...string) string {
	words := []string{cfg.Invocation}
	if cfg.Invocation == "" {
		words[0] = toolInvocation
	}
	dir, err := os.Getwd()
	if fi, serr := os.Stat(cfg.Pattern); serr == nil && fi.IsDir() && filepath.IsAbs(cfg.Pattern) {
		// A run of -check ./... names the package by its directory: go
		// there instead, as go generate does.
		dir, err = cfg.Pattern, nil
		cfg.Pattern = ""
		if rel, rerr := filepath.Rel(dir, cfg.Output); rerr == nil && filepath.IsAbs(cfg.Output) && !strings.HasPrefix(rel, "..") {
			cfg.Output = rel
		}
	}
	for _, a := range append(cfg.Args(), extra...) {
		words = append(words, shellQuote(a))
	}
	cmd := strings.Join(words, " ")
	if err == nil {
		cmd = "(cd " + shellQuote(dir) + " && " + cmd + ")"
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=,./:@+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// GoGenerateInvocation returns how the running go generate invoked
// cbor-gen, without its arguments ("go tool cbor-gen", "go run
// github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0"), read from the
// //go:generate line that go generate names in $GOFILE and $GOLINE; ""
// when the command was not run by go generate, or the line cannot be read.
func GoGenerateInvocation() string {
	file, line := os.Getenv("GOFILE"), os.Getenv("GOLINE")
	n, err := strconv.Atoi(line)
	if file == "" || err != nil {
		return ""
	}
	found, err := fileDirectives(file)
	if err != nil {
		return ""
	}
	for _, d := range found {
		if d.line == n {
			return strings.Join(d.command, " ")
		}
	}
	return ""
}

// generateRuns reads the //go:generate lines that run cbor-gen in the Go
// files of the package in dir and returns the Config of each, with the
// package and output made absolute (go generate runs in dir).
func generateRuns(dir string, goFiles []string) ([]Config, error) {
	found, err := packageDirectives(dir, goFiles)
	if err != nil {
		return nil, err
	}
	var runs []Config
	for _, d := range found {
		cfg, err := directiveConfig(d, dir)
		if err != nil {
			return nil, err
		}
		runs = append(runs, cfg)
	}
	return runs, nil
}

// directiveConfig is the Config of the run of the //go:generate line d in
// the package directory dir, with the package and output made absolute.
// A line must name at most one package and neither -check nor
// -accept-break.
func directiveConfig(d generateDirective, dir string) (Config, error) {
	cfg := Config{Invocation: strings.Join(d.command, " ")}
	fs := flag.NewFlagSet("cbor-gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	finish := BindFlags(fs, &cfg)
	if err := fs.Parse(d.args); err != nil || fs.NArg() > 1 || cfg.Check || cfg.AcceptBreak {
		if err == nil {
			err = errors.New("want at most one package and neither -check nor -accept-break")
		}
		return Config{}, fmt.Errorf("%s:%d:1: this //go:generate line does not run cbor-gen as it should: %v", model.RelPath(d.file), d.line, err)
	}
	finish()
	cfg.Pattern = fs.Arg(0)
	if cfg.Pattern == "" || cfg.Pattern == "." {
		cfg.Pattern = dir
	} else if !filepath.IsAbs(cfg.Pattern) && (strings.HasPrefix(cfg.Pattern, "./") || strings.HasPrefix(cfg.Pattern, "../")) {
		cfg.Pattern = filepath.Join(dir, cfg.Pattern)
	}
	if cfg.Output != "" && !filepath.IsAbs(cfg.Output) {
		cfg.Output = filepath.Join(dir, cfg.Output)
	}
	return cfg, nil
}

// acceptBreakCommand is the command that accepts a break in this run: its
// own arguments with the -type list spelled out, so that the run by hand
// generates exactly the types this one does, plus -accept-break.
func acceptBreakCommand(cfg Config, f *model.File) string {
	if len(cfg.Types) == 0 {
		for _, s := range f.Structs {
			if s.Anon == nil { // the copies of anonymous structs come with their holders
				cfg.Types = append(cfg.Types, s.Name)
			}
		}
	}
	return rerunCommand(cfg, "-accept-break")
}
