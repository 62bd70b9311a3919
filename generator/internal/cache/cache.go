// Package cache is the regeneration cache: bytes in, bytes out. A run
// names its inputs (the package directory, the output file, the encoded
// settings, the build flags); Start digests them with the generator and
// the go command's view of the package, Lookup returns an earlier run's
// output, schema record and notes, and Store keeps this run's. It holds
// no configuration and no output type of the generator: the root package
// turns its settings into bytes and the entry back into its output.
//
//	Start      the quick digest of the directory, and the pinning of the
//	           other inputs (before the run, or beside it: PinBeside)
//	Lookup     an entry for the same inputs
//	Store      this run's entry, unless a file changed while it ran
//	Close      stops a pinning still going
//	entries    appendEntry and parseEntry: the format of an entry file
package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// The regeneration cache. A run whose inputs are those of an earlier run
// writes what that run wrote: go generate ./... over a repository, and
// -check in CI, mostly regenerate packages that did not change, and the
// output of a large package costs several times its load to emit, format
// and type-check. The cache keeps, for each output file, the last output
// and schema record written, under a digest of everything they were made
// from:
//
//   - the generator (the running executable's contents) and the run's
//     settings (Config, and the go command's environment);
//   - every file of the package directory the go command or the
//     generator reads (the Go files, those the build constraints leave
//     out, the schema record), byte for byte, the output itself excepted;
//   - every dependency, by the path of its export data in the go
//     command's build cache, whose name is the digest of its contents
//     (the types, fields, tags and methods the generator reads of it).
//
// Finding them takes a go list -export -deps of the package, about what
// loading it without type-checking costs. Entries are named by a digest
// of the directory's Go files and schema record too, which takes no go
// list: when no entry has that name, as after an edit of the package, the
// run cannot hit, and the go list runs beside the run's own load instead
// of before it, once the load is done. A run that looked and missed loads the package in full
// after it. A run whose result the digest does not cover (a dependency
// without export data, types that other packages' //go:generate lines
// decide: build/pending.go) stores nothing. Errors are never stored: a run that
// fails fails again.
//
// The generator's Config.Cache names the directory; the command takes
// the user cache directory's cbor-gen, or CBORGEN_CACHE (off: no cache). It keeps the
// cacheSlots entries of each output used last, and removes any not used
// for cacheMaxAge.
const (
	cacheMagic  = "cbor-gen regeneration cache 1\n"
	cacheMaxAge = 30 * 24 * time.Hour
	cacheSlots  = 4 // entries kept per output file
)

// Env is the environment variable that sets the cache directory of the
// command, or turns the cache off ("off").
const Env = "CBORGEN_CACHE"

// DefaultDir returns the cache directory for the command: $CBORGEN_CACHE,
// or cbor-gen in the user cache directory; "" when CBORGEN_CACHE is off or
// there is no user cache directory.
func DefaultDir() string {
	switch v := os.Getenv(Env); v {
	case "off":
		return ""
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(dir, "cbor-gen")
	default:
		return v
	}
}

// cacheEnv are variables of the go command's environment that change
// what a load finds; the digest covers their effect already (the files
// the build takes, export data), and takes them in as well so that no
// subtle one slips by. Not GOOS, GOARCH and GOROOT, which go generate
// sets and a run by hand usually does not: their effect is in the files
// and the export data.
var cacheEnv = []string{"GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT", "GOWORK", "GO111MODULE", "GOTOOLCHAIN", "GOAMD64", "GOARM64"}

// Run is the cache's part in one run. Before the run it digests
// the directory's Go files and schema record (quick), which names the
// entries made from them: when there is none, the run cannot hit, and the
// other inputs are pinned beside it, for storing its output, instead of
// before it.
type Run struct {
	cacheDir           string
	settings           []byte   // every setting that shapes the output, encoded
	flags              []string // the build flags of the run's load
	dir, out, lockPath string
	prefix             string   // the start of the names of the output's entries
	quick              [32]byte // digest of the directory's Go files and schema record
	quickFiles         []string
	inputs             *runInputs      // pinned before the run
	pinning            chan *runInputs // or being pinned beside it
	pinLater           func()          // starts pinning (pinBeside)
	cancel             context.CancelFunc
	cold               bool // pinning found the build cache without export data
}

// Cold reports that pinning the run's inputs before it took too long:
// the build cache lacks the dependencies' export data. The run cannot
// hit and stores nothing.
func (c *Run) Cold() bool { return c != nil && c.cold }

// Drop leaves the run out of the cache: it pins nothing beside the run
// and stores nothing. For a run whose load found the build cache cold
// (pinning beside it would compile every dependency).
func (c *Run) Drop() {
	if c == nil {
		return
	}
	c.pinLater = nil
	c.inputs = nil
}

// runInputs pins the inputs of one run for the cache.
type runInputs struct {
	others [32]byte // digest of the generator, the settings and the dependencies
	local  [32]byte // digest of the package's other files (Run.quick has the directory's Go files)
	files  []string // the files local covers, sorted
}

// Start starts the cache's part in a run, with the cache in cacheDir,
// that writes out (and its schema record lockPath) for the package in
// dir, with settings (the encoded settings that shape the output) and
// the package loaded with buildFlags; nil when its inputs cannot be
// pinned. A nil *Run misses and stores nothing.
func Start(cacheDir, dir, out, lockPath string, settings []byte, buildFlags []string) *Run {
	if _, ok := generatorDigest(); !ok {
		return nil
	}
	c := &Run{cacheDir: cacheDir, settings: settings, flags: buildFlags, dir: dir, out: out, lockPath: lockPath}
	c.prefix = filepath.Join(cacheDir, fmt.Sprintf("%x", sha256.Sum256([]byte(out)))[:16]) + "-"
	c.quickFiles = []string{c.lockPath}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if name := filepath.Join(dir, e.Name()); strings.HasSuffix(name, ".go") && name != out {
			c.quickFiles = append(c.quickFiles, name)
		}
	}
	slices.Sort(c.quickFiles)
	var ok bool
	if c.quick, ok = digestFiles(c.quickFiles, "", nil); !ok {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	if found, _ := filepath.Glob(c.prefix + quickName(c.quick) + "-*"); len(found) > 0 {
		// Pinning reads the dependencies' export data, which the go
		// command compiles first when the build cache lacks it (a new
		// Go version, a cleaned cache): a minute where a run from
		// source takes seconds. When pinning takes longer than
		// load.ColdAfter and the build cache is cold, the run goes
		// without the cache, and the load goes to source at once.
		pinned := make(chan *runInputs, 1)
		go func() { pinned <- readInputs(ctx, c) }()
		timer := time.NewTimer(load.ColdAfter)
		defer timer.Stop()
		select {
		case c.inputs = <-pinned:
		case <-timer.C:
			if load.BuildCacheCold(ctx, dir, buildFlags) {
				cancel()
				<-pinned
				c.cold = true
			} else {
				c.inputs = <-pinned
			}
		}
		return c
	}
	c.pinLater = func() {
		c.pinning = make(chan *runInputs, 1)
		go func() { c.pinning <- readInputs(ctx, c) }()
	}
	return c
}

// Out is the output file of the run; "" for a nil Run.
func (c *Run) Out() string {
	if c == nil {
		return ""
	}
	return c.out
}

// PinBeside starts pinning the inputs of a run that cannot hit, once the
// run has loaded the package: the go list then finds in the build cache
// what the load's own go list compiled, and runs while the run emits,
// formats and type-checks its output.
func (c *Run) PinBeside() {
	if c != nil && c.pinLater != nil {
		c.pinLater()
		c.pinLater = nil
	}
}

// Close ends the cache's part in the run: a pinning still going is
// stopped (its go list too).
func (c *Run) Close() {
	if c == nil {
		return
	}
	c.cancel()
	if c.pinning != nil {
		<-c.pinning
		c.pinning = nil
	}
}

func quickName(sum [32]byte) string { return fmt.Sprintf("%x", sum[:6]) }

// readInputs pins the inputs of the run that c is part of; nil when they
// cannot be pinned (the cache is then not used).
func readInputs(ctx context.Context, c *Run) *runInputs {
	self, _ := generatorDigest()
	deps, ok := load.ListDeps(ctx, c.dir, c.out, c.flags)
	if !ok {
		return nil
	}

	h := sha256.New()
	fmt.Fprintf(h, "%s%x\n", cacheMagic, self)
	// The settings that make the output (the caller encodes every one of
	// them): not the pattern (the directory it names is what counts: go
	// generate's "." and -check ./...'s directory share entries), nor the
	// command that messages quote (errors are not stored).
	fmt.Fprintf(h, "dir %q out %q\n", c.dir, c.out)
	fmt.Fprintf(h, "settings %q\n", c.settings)
	for _, v := range cacheEnv {
		fmt.Fprintf(h, "env %s=%q\n", v, os.Getenv(v))
	}
	for _, d := range deps.Exports {
		fmt.Fprintf(h, "dep %s\n", d)
	}
	// Which files the build takes, and which it leaves out (the output
	// aside: whether it exists yet does not matter).
	for _, list := range [][]string{deps.GoFiles, deps.CompiledGoFiles, deps.IgnoredFiles} {
		fmt.Fprintf(h, "files %q\n", slices.DeleteFunc(slices.Clone(list), func(f string) bool { return f == c.out }))
	}
	in := &runInputs{}
	h.Sum(in.others[:0])

	// The package's files that the go command lists beyond the
	// directory's Go files and record, which quick covers (cgo's output,
	// assembly and C files).
	files := map[string]bool{}
	for _, list := range [][]string{deps.GoFiles, deps.CompiledGoFiles, deps.IgnoredFiles, deps.OtherFiles} {
		for _, f := range list {
			files[f] = true
		}
	}
	delete(files, c.out)
	for _, f := range c.quickFiles {
		delete(files, f)
	}
	for f := range files {
		in.files = append(in.files, f)
	}
	slices.Sort(in.files)
	if in.local, ok = digestFiles(in.files, "", nil); !ok {
		return nil
	}
	return in
}

// digestFiles digests the names and contents of files, with the file
// named as its contents; a file that does not exist counts as such
// (the schema record before the first run).
func digestFiles(files []string, as string, contents []byte) (sum [32]byte, ok bool) {
	h := sha256.New()
	for _, name := range files {
		data, err := os.ReadFile(name)
		if name == as {
			data, err = contents, nil
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(h, "absent %q\n", name)
		case err != nil:
			return sum, false
		default:
			fmt.Fprintf(h, "file %q %d\n", name, len(data))
			h.Write(data)
		}
	}
	h.Sum(sum[:0])
	return sum, true
}

// key is the digest of all the inputs, with quick the digest of the
// directory's Go files and record.
func (in *runInputs) key(quick [32]byte) [32]byte {
	return sha256.Sum256(slices.Concat(in.others[:], quick[:], in.local[:]))
}

// entry is the name of the cache file for the inputs.
func (c *Run) entry(quick [32]byte, in *runInputs) string {
	key := in.key(quick)
	return fmt.Sprintf("%s%s-%x", c.prefix, quickName(quick), key[:12])
}

// Lookup returns the output, the schema record and the notes of an
// earlier run with the same inputs, if the cache holds them.
func (c *Run) Lookup() (source, lock []byte, notes []string, ok bool) {
	if c == nil || c.inputs == nil {
		return nil, nil, nil, false
	}
	entry := c.entry(c.quick, c.inputs)
	data, err := os.ReadFile(entry)
	if err != nil {
		return nil, nil, nil, false
	}
	source, lock, notes, ok = parseEntry(data, c.inputs.key(c.quick))
	if !ok {
		return nil, nil, nil, false
	}
	// The entries of an output used last are kept (keepLatest).
	now := time.Now()
	os.Chtimes(entry, now, now)
	Hits.Add(1)
	return source, lock, notePaths(notes, model.RelPath), true
}

// notePosition matches the file of a note's file:line:col.
var notePosition = regexp.MustCompile(`^(.+?\.go)(:\d+:\d+: )`)

// notePaths rewrites the file of each note's position with to: a note
// names its file relative to the working directory, which another run
// sharing the entry (go generate's in the package, -check ./...'s at the
// module's root) need not share, so entries hold absolute paths.
func notePaths(notes []string, to func(string) string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		if m := notePosition.FindStringSubmatchIndex(n); m != nil {
			n = to(n[:m[3]]) + n[m[3]:]
		}
		out[i] = n
	}
	return out
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// Store keeps source, lock and notes as the result of the run, unless a file of
// the package changed while the run read it. Failing to store is no
// error: the next run only misses.
//
// The entry is stored for the inputs as they are once the run has
// written its output: with its schema record, which the first run
// writes, and a run that changes the types rewrites, and which the next
// run reads. (A run whose record the writing changes does not run again
// with the same inputs: they were stale.) A run with the record it
// wrote gives the same output, as -check right after a run shows.
func (c *Run) Store(source, lock []byte, notes []string) {
	if c == nil {
		return
	}
	in := c.inputs
	if c.pinning != nil {
		in = <-c.pinning
		c.pinning = nil
	}
	if in == nil {
		return
	}
	// The files are as they were before the run, and as the pinning
	// read them.
	if quick, ok := digestFiles(c.quickFiles, "", nil); !ok || quick != c.quick {
		return
	}
	if local, ok := digestFiles(in.files, "", nil); !ok || local != in.local {
		return
	}
	written, ok := digestFiles(c.quickFiles, c.lockPath, lock)
	if !ok {
		return
	}
	data := appendEntry(nil, in.key(written), source, lock, notePaths(notes, absPath))
	if err := os.MkdirAll(c.cacheDir, 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.cacheDir, "tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.entry(written, in))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return
	}
	c.keepLatest()
	trimCache(c.cacheDir)
}

// keepLatest removes all but the cacheSlots entries of the output used
// last: a few, so that going back and forth between branches still hits.
func (c *Run) keepLatest() {
	names, err := filepath.Glob(c.prefix + "*")
	if err != nil || len(names) <= cacheSlots {
		return
	}
	type entry struct {
		name string
		used time.Time
	}
	var entries []entry
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil {
			entries = append(entries, entry{n, fi.ModTime()})
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return b.used.Compare(a.used) })
	for _, e := range entries[min(cacheSlots, len(entries)):] {
		os.Remove(e.name)
	}
}

// An entry is the magic line, the key, the output, the schema record and
// the notes, each a uvarint length and its bytes, then the SHA-256 of
// all that before it, so that a torn or damaged file reads as a miss.
func appendEntry(b []byte, key [32]byte, source, lock []byte, notes []string) []byte {
	b = append(b, cacheMagic...)
	b = append(b, key[:]...)
	b = binary.AppendUvarint(b, uint64(len(source)))
	b = append(b, source...)
	b = binary.AppendUvarint(b, uint64(len(lock)))
	b = append(b, lock...)
	b = binary.AppendUvarint(b, uint64(len(notes)))
	for _, n := range notes {
		b = binary.AppendUvarint(b, uint64(len(n)))
		b = append(b, n...)
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// parseEntry reads an entry written by appendEntry for key.
func parseEntry(data []byte, key [32]byte) (source, lock []byte, notes []string, ok bool) {
	body, sum, ok := cutSum(data)
	if !ok {
		return nil, nil, nil, false
	}
	if sha256.Sum256(body) != sum {
		return nil, nil, nil, false
	}
	rest, ok := bytes.CutPrefix(body, []byte(cacheMagic))
	if !ok || len(rest) < len(key) || !bytes.Equal(rest[:len(key)], key[:]) {
		return nil, nil, nil, false
	}
	rest = rest[len(key):]
	next := func() ([]byte, bool) {
		n, w := binary.Uvarint(rest)
		if w <= 0 || n > uint64(len(rest)-w) {
			return nil, false
		}
		field := rest[w : w+int(n)]
		rest = rest[w+int(n):]
		return field, true
	}
	if source, ok = next(); !ok {
		return nil, nil, nil, false
	}
	if lock, ok = next(); !ok {
		return nil, nil, nil, false
	}
	count, w := binary.Uvarint(rest)
	if w <= 0 || count > uint64(len(rest)) {
		return nil, nil, nil, false
	}
	rest = rest[w:]
	for range count {
		n, ok := next()
		if !ok {
			return nil, nil, nil, false
		}
		notes = append(notes, string(n))
	}
	if len(rest) != 0 {
		return nil, nil, nil, false
	}
	return source, lock, notes, true
}

func cutSum(data []byte) (body []byte, sum [32]byte, ok bool) {
	if len(data) < len(sum) {
		return nil, sum, false
	}
	body = data[:len(data)-len(sum)]
	copy(sum[:], data[len(body):])
	return body, sum, true
}

// trimCache removes the entries of dir not used for cacheMaxAge, at most
// once a day (the mtime of the file "trimmed" says when it last ran).
func trimCache(dir string) {
	marker := filepath.Join(dir, "trimmed")
	if fi, err := os.Stat(marker); err == nil && time.Since(fi.ModTime()) < 24*time.Hour {
		return
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() == "trimmed" || e.IsDir() {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > cacheMaxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Hits counts the runs the cache answered, for the tests.
var Hits atomic.Int64

// generatorDigest is the digest of the running executable: a generator
// built from other source, even a checkout's, gets other entries.
var generatorDigest = sync.OnceValues(func() ([32]byte, bool) {
	var sum [32]byte
	exe, err := os.Executable()
	if err != nil {
		return sum, false
	}
	f, err := os.Open(exe)
	if err != nil {
		return sum, false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, false
	}
	h.Sum(sum[:0])
	return sum, true
})
