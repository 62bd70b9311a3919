package generator_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator"
)

// uncachedGoldens are the golden cases whose types hold structs of
// another package without generated methods (mapkeys: image.Point keys),
// whose //go:generate lines (build/pending.go) the cache digest does not
// cover.
var uncachedGoldens = map[string]bool{"foreign": true, "mapkeys": true}

// TestCacheGoldens: every golden case, rendered a second time, comes from
// the regeneration cache (but those of uncachedGoldens, which it never
// keeps), equal to the first run and to the file checked in.
func TestCacheGoldens(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(goldenDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		dirs = dirs[:min(len(dirs), 4)]
	}
	cache := t.TempDir()
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg := goldenConfig(t, dir)
			cfg.Cache = cache
			first, err := generator.Render(cfg)
			if err != nil {
				t.Fatal(err)
			}
			hits := generator.CacheHits()
			second, err := generator.Render(cfg)
			if err != nil {
				t.Fatal(err)
			}
			// The run of a case that reads another package's
			// //go:generate lines is not kept: the digest does not
			// cover them.
			if name := filepath.Base(dir); uncachedGoldens[name] {
				if generator.CacheHits() != hits {
					t.Fatalf("the second run came from the cache; its result depends on another package's //go:generate lines")
				}
				return
			}
			if generator.CacheHits() != hits+1 {
				t.Fatalf("the second run did not come from the cache")
			}
			onDisk, err := os.ReadFile(first.Path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(second.Source, first.Source) || !bytes.Equal(second.Lock, first.Lock) || !bytes.Equal(second.Source, onDisk) {
				t.Errorf("the cached output differs from the run's or the golden file")
			}
		})
	}
}

// cacheModule lays out a module, with this repository through a replace
// directive, holding the files given (paths relative to the module).
func cacheModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum")) // no checksum database lookups
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	files["go.mod"] = "module example.com/cached\n\ngo 1.24\n\nrequire github.com/cborgen/cborgen v0.0.0\n\nreplace github.com/cborgen/cborgen => " + root + "\n"
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, path, src)
	}
	return dir
}

const absent = "\x00absent"

const cachedSource = `package cached

import "example.com/cached/dep"

type Item struct {
	ID   dep.ID
	Name string
	Any  any
}
`

// TestCacheInputs: every input of a run (the package's files, a
// dependency, the schema record, the flags) changes what the cache
// answers, and what it answers is what a run without it writes; going
// back to earlier inputs finds their entry again; a damaged entry is a
// miss; the notes of a run come back with its output.
func TestCacheInputs(t *testing.T) {
	dir := cacheModule(t, map[string]string{
		"cached.go":  cachedSource,
		"dep/dep.go": "package dep\n\ntype ID uint32\n",
	})
	cache := t.TempDir()
	var log bytes.Buffer
	cfg := generator.Config{Pattern: dir, Cache: cache, Log: &log}
	if err := generator.Generate(cfg); err != nil {
		t.Fatal(err)
	}
	firstLog := log.String()
	if !strings.Contains(firstLog, "note:") {
		t.Fatalf("no note for the interface field in the log:\n%s", firstLog)
	}

	// render runs with the cache and without, and checks both agree;
	// it reports whether the cache answered.
	render := func(cfg generator.Config) (*generator.Output, bool) {
		t.Helper()
		hits := generator.CacheHits()
		log.Reset()
		got, err := generator.Render(cfg)
		if err != nil {
			t.Fatal(err)
		}
		hit := generator.CacheHits() > hits
		cachedLog := log.String()
		plain := cfg
		plain.Cache = ""
		log.Reset()
		want, err := generator.Render(plain)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Source, want.Source) || !bytes.Equal(got.Lock, want.Lock) {
			t.Fatalf("with the cache (hit %v) the output differs from a run without it", hit)
		}
		if cachedLog != log.String() || !slices.Equal(got.Notes, want.Notes) {
			t.Fatalf("with the cache (hit %v) the log is\n%s\nand the notes %q; without it\n%s\nand %q", hit, cachedLog, got.Notes, log.String(), want.Notes)
		}
		return got, hit
	}
	base, hit := render(cfg)
	if len(base.Notes) == 0 {
		t.Fatal("no note for the interface field in the output")
	}
	if !hit {
		t.Fatal("a run over the inputs of the last one missed the cache")
	}
	onDisk, _ := os.ReadFile(base.Path)
	if !bytes.Equal(base.Source, onDisk) {
		t.Fatal("the cached output differs from the file written")
	}
	// go generate's run ("." in the directory, GOOS and GOARCH set, its
	// command) and -check ./...'s (the directory) share entries.
	t.Chdir(dir)
	t.Setenv("GOOS", goruntime.GOOS)
	t.Setenv("GOARCH", goruntime.GOARCH)
	asGenerate := cfg
	asGenerate.Pattern, asGenerate.Invocation = "", "go run example.com/cbor-gen"
	if _, hit := render(asGenerate); !hit {
		t.Error("a run as go generate makes it missed the entry of the same inputs")
	}

	changes := []struct {
		name   string
		file   string // relative to dir
		src    string
		cfg    func(*generator.Config)
		change bool // the output changes
		stays  bool // the run writes nothing, and the inputs stay as they were before it
	}{
		{name: "a field added", file: "cached.go", src: strings.Replace(cachedSource, "Any  any\n", "Any  any\n\tMore []int\n", 1), change: true},
		{name: "a dependency's type", file: "dep/dep.go", src: "package dep\n\ntype ID uint64\n", change: true},
		{name: "a new file", file: "more.go", src: "package cached\n\ntype More struct{ A, B int }\n", change: true},
		{name: "a file the build leaves out", file: "other_plan9.go", src: "package cached\n\nconst x = 1\n"},
		{name: "the schema record removed", file: "cbor_gen.lock", src: absent, stays: true},
		{name: "a flag", cfg: func(c *generator.Config) { c.Sort = "none" }},
	}
	for _, c := range changes {
		run := cfg
		var undo func()
		if c.cfg != nil {
			c.cfg(&run)
		} else {
			path := filepath.Join(dir, c.file)
			old, err := os.ReadFile(path)
			existed := err == nil
			if c.src == absent {
				os.Remove(path)
			} else {
				write(t, path, c.src)
			}
			undo = func() {
				if existed {
					write(t, path, string(old))
				} else {
					os.Remove(path)
				}
			}
		}
		got, hit := render(run)
		if hit {
			t.Errorf("%s: the cache answered", c.name)
		}
		if c.change && bytes.Equal(got.Source, base.Source) {
			t.Errorf("%s: the output did not change", c.name)
		}
		if !c.stays {
			// As go generate runs it: the output and the record written.
			if err := generator.Generate(run); err != nil {
				t.Fatal(err)
			}
		}
		if _, hit := render(run); hit == c.stays {
			t.Errorf("%s: the second run hit the cache: %v", c.name, hit)
		}
		if undo != nil {
			undo()
		}
		write(t, base.Path, string(base.Source))
		write(t, base.LockPath, string(base.Lock))
	}
	if _, hit := render(cfg); !hit {
		t.Error("back at the first inputs, the cache missed")
	}

	// A damaged entry is a miss.
	entries, err := filepath.Glob(filepath.Join(cache, "*-*"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no entries in the cache (%v)", err)
	}
	if len(entries) > 4 {
		t.Errorf("%d entries for one output, want at most 4", len(entries))
	}
	for _, e := range entries {
		data, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 1
		write(t, e, string(data))
	}
	if _, hit := render(cfg); hit {
		t.Error("a damaged entry answered")
	}
}

// TestColdBuildCache: with a build cache that holds nothing, a run does
// not wait for the go command to compile every dependency (the standard
// library's included) for export data; it type-checks them from source,
// writes what a warm run writes, and leaves them uncompiled. It runs
// twice: the first time without an entry in the regeneration cache, the
// second with one, whose pinning would compile them too.
func TestColdBuildCache(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the standard library from source")
	}
	dir := filepath.Join(goldenDir, "basic")
	want, err := os.ReadFile(filepath.Join(dir, "cbor_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	warm, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	for _, round := range []string{"without a cache entry", "with a cache entry"} {
		t.Setenv("GOCACHE", t.TempDir())
		cfg := goldenConfig(t, dir)
		cfg.Cache = cache
		if round == "with a cache entry" {
			// An entry made with a warm build cache.
			t.Setenv("GOCACHE", strings.TrimSpace(string(warm)))
			if _, err := generator.Render(cfg); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GOCACHE", t.TempDir())
		}
		out, err := generator.Render(cfg)
		if err != nil {
			t.Fatalf("%s: %v", round, err)
		}
		if !bytes.Equal(out.Source, want) {
			t.Errorf("%s: the output differs from the golden file", round)
		}
		cmd := exec.Command("go", "list", "-f", "{{.Stale}}", "fmt")
		stale, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(string(stale)) != "true" {
			t.Errorf("%s: the run compiled fmt into the empty build cache", round)
		}
	}
}
