package generator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cborgen/cborgen/generator/internal/build"
	"github.com/cborgen/cborgen/generator/internal/cache"
	"github.com/cborgen/cborgen/generator/internal/emit"
	"github.com/cborgen/cborgen/generator/internal/finish"
	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/generator/internal/schema"
)

// ErrStale is the error Generate returns, wrapped with a diff, when
// Config.Check is set and the file on disk differs from what would be
// generated.
var ErrStale = errors.New("generated file is out of date")

// Generate runs the pipeline: load the package, build the model, check it
// against the schema record, emit the source, then write the output file
// and the record, or with Check compare both with the files on disk.
func Generate(cfg Config) error {
	_, err := generate(cfg)
	return err
}

// generate is Generate, and returns what a run of one package rendered
// (nil when it failed before that), whose generated types -check ./...
// looks for in the other packages of the module.
func generate(cfg Config) (*Output, error) {
	if cfg.Check && cfg.AcceptBreak {
		return nil, errors.New("-accept-break rewrites the schema record and cannot be combined with -check; run it once by hand, never from a //go:generate line")
	}
	if err := inModule(cfg.Pattern); err != nil {
		return nil, err
	}
	if cfg.Check && strings.Contains(cfg.Pattern, "...") {
		return nil, checkAll(cfg)
	}
	// What -accept-break without -type would accept is held back until
	// the set of types is known to match the record.
	var held bytes.Buffer
	renderCfg := cfg
	if cfg.AcceptBreak && len(cfg.Types) == 0 && cfg.Log != nil {
		renderCfg.Log = &held
	}
	flush := func() {
		if held.Len() > 0 {
			cfg.Log.Write(held.Bytes())
		}
	}
	out, err := Render(renderCfg)
	if err != nil {
		flush()
		return nil, err
	}
	if cfg.Check {
		return out, checkOutput(out)
	}
	oldLock, err := os.ReadFile(out.LockPath)
	switch {
	case os.IsNotExist(err):
		where := model.RelPath(out.LockPath)
		if !strings.ContainsRune(where, filepath.Separator) {
			where = out.LockPath // go generate runs in the package directory: say which one
		}
		logf(cfg.Log, "cbor-gen: no schema record at %s: starting one. Commit it with %s; from now on every run compares the types with it (%s)\n",
			where, filepath.Base(out.Path), schema.SchemaDoc)
	case err != nil:
		return out, err
	case cfg.AcceptBreak && len(cfg.Types) == 0:
		if err := sameTypeSet(cfg, oldLock, out); err != nil {
			return out, err // and nothing was accepted
		}
	}
	flush()
	// The output and the record as a pair, with the tests of -tests: all
	// or none (writepair.go).
	files := []pendingWrite{{out.Path, out.Source}, {out.LockPath, out.Lock}}
	if out.TestSource != nil {
		files = append(files, pendingWrite{out.TestPath, out.TestSource})
	}
	changed, err := writeFiles(osFS{}, files)
	if err != nil {
		return out, err
	}
	// The notes once per change, not on every go generate.
	if changed && !cfg.Quiet {
		printNotes(cfg.Log, out.Notes)
	}
	return out, nil
}

// checkAll is -check over a pattern of several packages (./...), as CI
// runs it: every package it matches that has a //go:generate line running
// cbor-gen is checked with that line's arguments, in its directory, as go
// generate would run it; a package with no such line but a cbor_gen.go
// that this generator wrote, with the defaults (a cbor_gen.go of another
// generator is left alone). Every stale file and every error is
// reported, and every struct of a package the pattern matches (in any of
// its files) that embeds a type one of the runs generates with
// fxamacker's methods.
func checkAll(cfg Config) error {
	if !cfg.Settings.onlyTags() {
		return fmt.Errorf("-check %s reads each package's flags from its //go:generate lines; give no other flag than -tags", cfg.Pattern)
	}
	buildFlags := load.TagFlags(cfg.Tags)
	pkgs, err := load.List(cfg.Pattern, buildFlags)
	if err != nil {
		return err
	}
	var problems []string
	var outputs []*Output
	stale, checked := false, 0
	for _, p := range pkgs {
		files := append(append([]string{}, p.GoFiles...), p.IgnoredFiles...)
		if len(files) == 0 {
			continue
		}
		dir := filepath.Dir(files[0])
		runs, err := generateRuns(dir, p.GoFiles)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if len(runs) == 0 {
			if !ourOutput(filepath.Join(dir, model.DefaultOutput)) {
				continue
			}
			runs = []Config{{Pattern: dir}}
		}
		for _, run := range runs {
			if len(run.Tags) == 0 {
				run.Tags = cfg.Tags
			}
			run.Check = true // and no Log: only what is stale or wrong
			run.Cache = cfg.Cache
			checked++
			out, err := generate(run)
			if out != nil {
				outputs = append(outputs, out)
			}
			if err != nil {
				stale = stale || errors.Is(err, ErrStale)
				problems = append(problems, err.Error())
			}
		}
	}
	// The structs of every package that embed a type generated in
	// another (embedcheck.go).
	problems = append(problems, moduleEmbedders(pkgs, outputs, problems)...)
	if checked == 0 {
		return fmt.Errorf("-check %s: no package has a //go:generate line running cbor-gen or a %s", cfg.Pattern, model.DefaultOutput)
	}
	if len(problems) == 0 {
		return nil
	}
	err = errors.New(strings.Join(problems, "\n"))
	if stale {
		return fmt.Errorf("%w", joinedStale{err})
	}
	return err
}

// ourOutput reports whether path is a file this generator wrote: it
// starts with the generated-code header. Other generators write files of
// the same name (whyrusleeping/cbor-gen's cbor_gen.go among them).
func ourOutput(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	first, _ := bufio.NewReader(f).ReadString('\n')
	return first == "// "+model.GeneratedHeader+"\n"
}

// joinedStale is the errors of a -check over several packages, of which
// at least one is a stale file: errors.Is(err, ErrStale) holds.
type joinedStale struct{ error }

func (joinedStale) Is(target error) bool { return target == ErrStale }

// checkOutput compares a run's output with the files on disk.
func checkOutput(out *Output) error {
	var stale []string
	files := []struct {
		path string
		src  []byte
	}{{out.Path, out.Source}, {out.LockPath, out.Lock}}
	if out.TestSource != nil {
		files = append(files, struct {
			path string
			src  []byte
		}{out.TestPath, out.TestSource})
	}
	for _, f := range files {
		old, err := os.ReadFile(f.path)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		if !bytes.Equal(old, f.src) {
			stale = append(stale, fmt.Sprintf("%s (run go generate)\n%s", model.RelPath(f.path), Diff("disk/"+model.RelPath(f.path), "generated", old, f.src)))
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%w: %s", ErrStale, strings.Join(stale, "\n"))
	}
	return nil
}

// sameTypeSet refuses an -accept-break run without -type whose default
// set of types differs from the schema record's: a run by hand that
// leaves out the //go:generate line's -type would otherwise add every
// other struct type of the package to the output and the record, or drop
// some, and the next go generate would fail on the record it wrote.
func sameTypeSet(cfg Config, oldLock []byte, out *Output) error {
	old, err := schema.ParseRecord(out.LockPath, oldLock)
	if err != nil {
		return nil // a record that does not parse is written anew
	}
	cur, err := schema.ParseRecord(out.LockPath, out.Lock)
	if err != nil {
		return err
	}
	was, now := old.TypeNames(), cur.TypeNames()
	if strings.Join(was, ",") == strings.Join(now, ",") {
		return nil
	}
	fix := cfg
	fix.Types = was
	return fmt.Errorf("-accept-break without -type would generate %s, but the schema record %s holds %s. "+
		"Name the types, as the //go:generate line does; to keep the recorded ones:\n\t%s",
		strings.Join(now, ", "), model.RelPath(out.LockPath), strings.Join(was, ", "), rerunCommand(fix, "-accept-break"))
}

// inModule reports, with the fix, when the package directory is not in
// a Go module: the generated code imports the runtime from this module,
// and the go command resolves that only in a module.
func inModule(pattern string) error {
	dir := pattern
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if os.Getenv("GO111MODULE") == "off" {
		return errors.New("GO111MODULE=off: cbor-gen needs module mode (the generated code imports " + model.ModulePath + "/runtime); unset it")
	}
	if os.Getenv("GOWORK") != "" && os.Getenv("GOWORK") != "off" {
		return nil // a workspace names its modules itself
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return nil
		}
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			return nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return fmt.Errorf("%s is not in a Go module (no go.mod here or above). The generated code imports %s/runtime, which the go command finds only in a module: run go mod init, then go get -tool %s/cmd/cbor-gen",
		model.RelPath(dir), model.ModulePath, model.ModulePath)
}

// Output is what one run produces: the generated source and the schema
// record, with the paths they belong at.
type Output struct {
	Path     string // the generated Go file
	Source   []byte
	LockPath string // the schema record beside it (LockPath(Path))
	Lock     []byte
	// TestPath and TestSource are the tests of -tests (TestPath(Path));
	// TestSource is nil without -tests.
	TestPath   string
	TestSource []byte
	// Notes are the run's file:line:col: notes (a field on the slow
	// path, a type left out), which Generate prints when it writes a
	// changed output or record.
	Notes []string
}

// Render runs a generation up to the generated source and schema record,
// and returns both, with the run's notes, without writing them: it reads
// the package, the schema record on disk and the regeneration cache,
// reports to cfg.Log what -accept-break accepts, and stores its result in
// the cache. render is the pure part.
func Render(cfg Config) (*Output, error) {
	opts, err := cfg.Settings.options()
	if err != nil {
		return nil, err
	}
	c := startCache(cfg)
	defer c.Close()
	if source, lock, notes, ok := c.Lookup(); ok {
		return &Output{Path: c.Out(), Source: source, LockPath: schema.LockPath(c.Out()), Lock: lock, Notes: notes}, nil
	}
	var l *load.Package
	err = saySlow(cfg, "loading "+patternName(cfg.Pattern)+" and type-checking what it imports (the first run after a change of dependencies or Go version takes longest)", func() error {
		l, err = load.Load(cfg.Pattern, cfg.Output, cfg.Tags, c.Cold())
		return err
	})
	if err != nil {
		return nil, err
	}
	if l.FromSource {
		c.Drop()
	}
	c.PinBeside()
	opts.build.Pending = pendingRuns(l.Dir, l.Flags)
	lockPath := schema.LockPath(l.OutPath)
	old, err := readRecord(lockPath)
	if err != nil {
		return nil, err
	}
	r, err := render(l, old, opts, cfg.AcceptBreak)
	if r != nil && r.schema != nil {
		if err := judgeBreaks(cfg, r.model, lockPath, r.schema); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	out := &Output{Path: l.OutPath, Source: r.source, LockPath: lockPath, Lock: r.schema.Record,
		Notes: append(slices.Clip(r.model.Notes), r.schema.Notes...)}
	if cfg.Tests {
		// The tests are made from the model, which a cached run does
		// not build: startCache leaves such runs out of the cache.
		out.TestPath = TestPath(l.OutPath)
		if out.TestSource, err = emit.Tests(r.model, requiresFxamacker(l.Dir)); err != nil {
			return nil, err
		}
	}
	if c != nil && !r.model.Pending && out.Path == c.Out() {
		c.Store(out.Source, out.Lock, r.model.Notes)
	}
	return out, nil
}

// progressAfter is how long a step runs before the command says what it
// is doing: a fast run prints nothing.
var progressAfter = 2 * time.Second

// saySlow runs step; if it takes longer than progressAfter, it says on
// cfg.Progress (unless cfg.Quiet) what the run is doing, once, as the go
// command says what it downloads. It returns when step has, and after
// the message, if any, is written.
func saySlow(cfg Config, what string, step func() error) error {
	if cfg.Progress == nil || cfg.Quiet {
		return step()
	}
	done, said := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(said)
		t := time.NewTimer(progressAfter)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			fmt.Fprintf(cfg.Progress, "cbor-gen: %s...\n", what)
		}
	}()
	err := step()
	close(done)
	<-said
	return err
}

// patternName is the package pattern of a run as messages name it.
func patternName(pattern string) string {
	if pattern == "" {
		return "."
	}
	return pattern
}

// rendering is what render makes of one package: the model (with its
// notes), the schema check's result and the formatted source.
type rendering struct {
	model  *model.File
	schema *schema.Result
	source []byte
}

// render is the generator between its inputs and its output, and the
// table of contents of a run: build -> schema -> emit -> finish. Its
// inputs are the package l as loaded, the schema record of the previous
// run (nil: none) and the settings; it touches neither disk nor
// environment, log nor cache, but for what opts.build.Pending reads
// (other packages' //go:generate lines, through the caller's reader). It
// stops after the schema check when that finds what would break stored
// data and acceptBreak is false; the caller reports the breaks.
func render(l *load.Package, oldRecord []byte, opts options, acceptBreak bool) (*rendering, error) {
	if opts.compat != nil {
		return renderCompat(l, oldRecord, *opts.compat, acceptBreak) // compat.go
	}
	f, err := build.Model(l, opts.build) // the model, complete
	if err != nil {
		return nil, err
	}
	r := &rendering{model: f}
	r.schema = schema.Check(f, l.OutPath, oldRecord) // against the record: breaks, and Struct.Optional
	if (r.schema.Breaks != nil || r.schema.Unreadable != nil) && !acceptBreak {
		return r, nil
	}
	rendered, err := emit.File(f) // the methods of every type, rendered
	if err != nil {
		return r, err
	}
	r.source, err = finish.Output(l, rendered) // gofmt'd and type-checked with the package
	return r, err
}

func printNotes(w io.Writer, notes []string) {
	if w != nil {
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
}

// readRecord reads the schema record at path: nil when there is none
// yet, the run that starts it.
func readRecord(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
		return nil, nil
	case err != nil:
		return nil, err
	case data == nil:
		return []byte{}, nil // an empty record is there, and does not parse
	}
	return data, nil
}

// judgeBreaks refuses what the schema check found would break stored
// data, with the command that accepts it; with cfg.AcceptBreak it writes
// to cfg.Log what is accepted instead.
func judgeBreaks(cfg Config, f *model.File, lockPath string, sc *schema.Result) error {
	if sc.Unreadable != nil {
		if !cfg.AcceptBreak {
			return fmt.Errorf("%v\n(fix the schema record, or write it anew once with\n\t%s\n)", sc.Unreadable, acceptBreakCommand(cfg, f))
		}
		logf(cfg.Log, "-accept-break: the schema record does not parse and is written anew:\n%v\n", sc.Unreadable)
	}
	if sc.Breaks != nil {
		if !cfg.AcceptBreak {
			return fmt.Errorf("%v\ncbor-gen: these changes would make existing data decode wrongly (see %s and %s); undo them, or if no stored data must survive them, rewrite the record once with\n\t%s", sc.Breaks, model.RelPath(lockPath), schema.SchemaDoc, acceptBreakCommand(cfg, f))
		}
		logf(cfg.Log, "-accept-break: accepting changes that make existing data decode wrongly; %s is rewritten:\n%v\n", model.RelPath(lockPath), sc.Accepted)
	}
	return nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// Source runs the pipeline up to the generated source and returns it with
// the path it belongs at; the schema record is checked but not returned.
func Source(cfg Config) (path string, src []byte, err error) {
	out, err := Render(cfg)
	if err != nil {
		return "", nil, err
	}
	return out.Path, out.Source, nil
}

// startCache starts the cache's part in a run of cfg; nil when cfg has
// no cache or its inputs cannot be pinned.
func startCache(cfg Config) *cache.Run {
	if cfg.Cache == "" || cfg.AcceptBreak || cfg.Tests {
		return nil
	}
	pattern := cfg.Pattern
	if pattern == "" {
		pattern = "."
	}
	flags := load.TagFlags(cfg.Tags)
	dir, err := load.PackageDir(pattern, flags)
	if err != nil {
		return nil
	}
	out, err := load.OutputPath(dir, cfg.Output)
	if err != nil {
		return nil
	}
	return cache.Start(cfg.Cache, dir, out, schema.LockPath(out), cfg.Settings.cacheKey(), flags)
}
