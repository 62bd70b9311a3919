package generator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// ErrStale is the error Generate returns, wrapped with a diff, when
// Config.Check is set and the file on disk differs from what would be
// generated.
var ErrStale = errors.New("generated file is out of date")

// Generate runs the pipeline: load the package, build the model, check it
// against the schema record, emit the source, then write the output file
// and the record, or with Check compare both with the files on disk.
func Generate(cfg Config) error {
	if cfg.Check && cfg.AcceptBreak {
		return errors.New("-accept-break rewrites the schema record and cannot be combined with -check; run it once by hand, never from a //go:generate line")
	}
	if err := inModule(cfg.Pattern); err != nil {
		return err
	}
	if cfg.Check && strings.Contains(cfg.Pattern, "...") {
		return checkAll(cfg)
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
		return err
	}
	if cfg.Check {
		return checkOutput(out)
	}
	oldLock, err := os.ReadFile(out.LockPath)
	switch {
	case os.IsNotExist(err):
		where := relPath(out.LockPath)
		if !strings.ContainsRune(where, filepath.Separator) {
			where = out.LockPath // go generate runs in the package directory: say which one
		}
		logf(cfg.Log, "cbor-gen: no schema record at %s: starting one. Commit it with %s; from now on every run compares the types with it (%s)\n",
			where, filepath.Base(out.Path), schemaDoc)
	case err != nil:
		return err
	case cfg.AcceptBreak && len(cfg.Types) == 0:
		if err := sameTypeSet(cfg, oldLock, out); err != nil {
			return err // and nothing was accepted
		}
	}
	flush()
	// The output and the record as a pair: both or neither (writepair.go).
	changed, err := writeFiles(osFS{}, []pendingWrite{{out.Path, out.Source}, {out.LockPath, out.Lock}})
	if err != nil {
		return err
	}
	// The notes once per change, not on every go generate.
	if changed && !cfg.Quiet {
		printNotes(cfg.Log, out.Notes)
	}
	return nil
}

// checkAll is -check over a pattern of several packages (./...), as CI
// runs it: every package it matches that has a //go:generate line running
// cbor-gen is checked with that line's arguments, in its directory, as go
// generate would run it; a package with no such line but a cbor_gen.go
// that this generator wrote, with the defaults (a cbor_gen.go of another
// generator is left alone). Every stale file and every error is reported.
func checkAll(cfg Config) error {
	if len(cfg.Types) > 0 || cfg.Output != "" || len(Config{Sort: cfg.Sort, Time: cfg.Time, TimeTag: cfg.TimeTag, NilEmpty: cfg.NilEmpty}.Args()) > 0 {
		return fmt.Errorf("-check %s reads each package's flags from its //go:generate lines; give no other flag than -tags", cfg.Pattern)
	}
	buildFlags := tagFlags(cfg.Tags)
	pkgs, err := goLoad(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, BuildFlags: buildFlags}, cfg.Pattern)
	if err != nil {
		return err
	}
	var problems []string
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
			if !ourOutput(filepath.Join(dir, DefaultOutput)) {
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
			if err := Generate(run); err != nil {
				stale = stale || errors.Is(err, ErrStale)
				problems = append(problems, err.Error())
			}
		}
	}
	if checked == 0 {
		return fmt.Errorf("-check %s: no package has a //go:generate line running cbor-gen or a %s", cfg.Pattern, DefaultOutput)
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
	return first == "// "+generatedHeader+"\n"
}

// joinedStale is the errors of a -check over several packages, of which
// at least one is a stale file: errors.Is(err, ErrStale) holds.
type joinedStale struct{ error }

func (joinedStale) Is(target error) bool { return target == ErrStale }

// checkOutput compares a run's output with the files on disk.
func checkOutput(out *Output) error {
	var stale []string
	for _, f := range []struct {
		path string
		src  []byte
	}{{out.Path, out.Source}, {out.LockPath, out.Lock}} {
		old, err := os.ReadFile(f.path)
		if err != nil && !os.IsNotExist(err) {
			return err
		}
		if !bytes.Equal(old, f.src) {
			stale = append(stale, fmt.Sprintf("%s (run go generate)\n%s", relPath(f.path), Diff("disk/"+relPath(f.path), "generated", old, f.src)))
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
	old, err := parseRecord(out.LockPath, oldLock)
	if err != nil {
		return nil // a record that does not parse is written anew
	}
	cur, err := parseRecord(out.LockPath, out.Lock)
	if err != nil {
		return err
	}
	was, now := old.typeNames(), cur.typeNames()
	if strings.Join(was, ",") == strings.Join(now, ",") {
		return nil
	}
	fix := cfg
	fix.Types = was
	return fmt.Errorf("-accept-break without -type would generate %s, but the schema record %s holds %s. "+
		"Name the types, as the //go:generate line does; to keep the recorded ones:\n\t%s",
		strings.Join(now, ", "), relPath(out.LockPath), strings.Join(was, ", "), commandLine(fix, "-accept-break"))
}

// typeNames returns the names of the types in the record, sorted.
func (r *record) typeNames() []string {
	names := make([]string, 0, len(r.types))
	for name := range r.types {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
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
		return errors.New("GO111MODULE=off: cbor-gen needs module mode (the generated code imports " + modulePath + "/runtime); unset it")
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
		relPath(dir), modulePath, modulePath)
}

// Output is what one run produces: the generated source and the schema
// record, with the paths they belong at.
type Output struct {
	Path     string // the generated Go file
	Source   []byte
	LockPath string // the schema record beside it (LockPath(Path))
	Lock     []byte
	// Notes are the run's file:line:col: notes (a field on the slow
	// path, a type left out), which Generate prints when it writes a
	// changed output or record.
	Notes []string
}

// Render runs the pipeline up to the generated source and schema record,
// and returns both without writing anything.
func Render(cfg Config) (*Output, error) {
	order, err := parseKeyOrder(cfg.Sort)
	if err != nil {
		return nil, err
	}
	tm, err := parseTimeOptions(cfg.Time, cfg.TimeTag)
	if err != nil {
		return nil, err
	}
	cache := startCache(cfg)
	defer cache.close()
	if out, notes, ok := cache.lookup(); ok {
		out.Notes = notes
		return out, nil
	}
	l, err := load(cfg.Pattern, cfg.Output, cfg.Tags)
	if err != nil {
		return nil, err
	}
	cache.pinBeside()
	f, err := buildModel(l, cfg.Types, cfg.Tags, order)
	if err != nil {
		return nil, err
	}
	f.Time = tm
	f.NilEmpty = cfg.NilEmpty
	lockPath := LockPath(l.outPath)
	old, err := readRecord(lockPath)
	if err != nil {
		return nil, err
	}
	sc := checkSchema(f, l.outPath, old)
	if err := judgeBreaks(cfg, f, lockPath, sc); err != nil {
		return nil, err
	}
	for _, s := range f.Structs {
		s.Optional = len(s.Fields) - sc.required[s.Name]
	}
	if err := checkMapFormats(f); err != nil {
		return nil, err
	}
	if err := checkUnions(f); err != nil {
		return nil, err
	}
	if err := checkEmbedding(l, f); err != nil {
		return nil, err
	}
	rendered, err := emitFile(f)
	if err != nil {
		return nil, err
	}
	src, err := finishOutput(l, rendered)
	if err != nil {
		return nil, err
	}
	out := &Output{Path: l.outPath, Source: src, LockPath: lockPath, Lock: sc.record, Notes: f.Notes}
	if cache != nil && !f.Pending {
		cache.store(cfg.Cache, out, f.Notes)
	}
	return out, nil
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
func judgeBreaks(cfg Config, f *File, lockPath string, sc *schemaResult) error {
	if sc.unreadable != nil {
		if !cfg.AcceptBreak {
			return fmt.Errorf("%v\n(fix the schema record, or write it anew once with\n\t%s\n)", sc.unreadable, acceptBreakCommand(cfg, f))
		}
		logf(cfg.Log, "-accept-break: the schema record does not parse and is written anew:\n%v\n", sc.unreadable)
	}
	if sc.breaks != nil {
		if !cfg.AcceptBreak {
			return fmt.Errorf("%v\ncbor-gen: these changes would make existing data decode wrongly (see %s and %s); undo them, or if no stored data must survive them, rewrite the record once with\n\t%s", sc.breaks, relPath(lockPath), schemaDoc, acceptBreakCommand(cfg, f))
		}
		logf(cfg.Log, "-accept-break: accepting changes that make existing data decode wrongly; %s is rewritten:\n%v\n", relPath(lockPath), sc.accepted)
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
