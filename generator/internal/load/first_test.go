package load

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// step is a fake load: it returns v or err after d, or the context's
// error when it is cancelled first, and records that it ran and was
// stopped.
type step struct {
	d       time.Duration
	v       string
	err     error
	ran     bool
	stopped bool
}

func (s *step) run(ctx context.Context) (string, error) {
	s.ran = true
	select {
	case <-time.After(s.d):
		return s.v, s.err
	case <-ctx.Done():
		s.stopped = true
		return "", ctx.Err()
	}
}

// probe is a fake BuildCacheCold.
func probe(cold bool) func(context.Context) bool {
	return func(context.Context) bool { return cold }
}

func TestFirst(t *testing.T) {
	// The delays are far apart, so that a loaded machine's pauses do not
	// change which load finishes first.
	const ms = time.Millisecond
	bad, worse := errors.New("export load failed"), errors.New("source load failed in a dependency")
	own := errors.New("source load failed in the package")
	final := func(err error) bool { return err == own }
	for _, tc := range []struct {
		name                 string
		delay                time.Duration // before the probe
		warm                 bool          // the probe finds the build cache warm
		fast, slow           step
		want                 string
		wantErr              error
		slowRan, fastStopped bool
		slowStopped          bool
	}{
		{name: "warm cache: the export load alone", delay: time.Hour, fast: step{d: 0, v: "export"}, slow: step{d: 0, v: "source"}, want: "export"},
		{name: "fast error before the delay", delay: time.Hour, fast: step{d: 0, err: bad}, slow: step{d: 0, v: "source"}, wantErr: bad},
		{name: "cold cache: the source load wins", delay: 10 * ms, fast: step{d: time.Hour, v: "export"}, slow: step{d: 10 * ms, v: "source"},
			want: "source", slowRan: true, fastStopped: true},
		{name: "the export load finishes while the source load runs", delay: 10 * ms, fast: step{d: 300 * ms, v: "export"}, slow: step{d: time.Hour, v: "source"},
			want: "export", slowRan: true, slowStopped: true},
		{name: "a source error in a dependency waits for the export load", delay: 10 * ms, fast: step{d: 300 * ms, v: "export"}, slow: step{d: 0, err: worse},
			want: "export", slowRan: true},
		{name: "both fail: the export load's error", delay: 10 * ms, fast: step{d: 300 * ms, err: bad}, slow: step{d: 0, err: worse},
			wantErr: bad, slowRan: true},
		{name: "a slow load on a warm cache is waited for", delay: 10 * ms, warm: true, fast: step{d: 100 * ms, v: "export"}, slow: step{d: 0, v: "source"},
			want: "export"},
		{name: "an error in the package itself is final", delay: 10 * ms, fast: step{d: time.Hour, v: "export"}, slow: step{d: 0, err: own},
			wantErr: own, slowRan: true, fastStopped: true},
		{name: "the export load fails, the source load succeeds", delay: 10 * ms, fast: step{d: 100 * ms, err: bad}, slow: step{d: 400 * ms, v: "source"},
			want: "source", slowRan: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := first(context.Background(), tc.delay, final, probe(!tc.warm), tc.fast.run, tc.slow.run)
			if got != tc.want || !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Errorf("got %q, %v; want %q, %v", got, err, tc.want, tc.wantErr)
			}
			if tc.slow.ran != tc.slowRan {
				t.Errorf("source load ran: %v, want %v", tc.slow.ran, tc.slowRan)
			}
			if tc.fast.stopped != tc.fastStopped || tc.slow.stopped != tc.slowStopped {
				t.Errorf("stopped: export %v source %v; want %v %v", tc.fast.stopped, tc.slow.stopped, tc.fastStopped, tc.slowStopped)
			}
		})
	}
}

// TestLoadFromSource loads one package both ways, reading its
// dependencies' export data and type-checking them from source, and
// finds the same package: its files, its types and the runtime packages
// beside it.
func TestLoadFromSource(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command twice")
	}
	dir, err := filepath.Abs("../../../examples/storage")
	if err != nil {
		t.Fatal(err)
	}
	load := func(source bool) *Package {
		t.Helper()
		pcfg := &packages.Config{Mode: LoadMode, Dir: dir}
		if source {
			pcfg.Mode |= packages.NeedDeps | packages.NeedImports
		}
		l, err := loadWith(pcfg, dir, filepath.Join(dir, "cbor_gen.go"))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	a, b := load(false), load(true)
	paths := func(l *Package) []string {
		var out []string
		for _, p := range l.Support {
			out = append(out, p.PkgPath)
		}
		slices.Sort(out)
		return out
	}
	if pa, pb := paths(a), paths(b); len(pa) < 2 || !slices.Equal(pa, pb) {
		t.Fatalf("support packages %v from export data, %v from source", pa, pb)
	}
	if len(a.Pkg.GoFiles) == 0 || !slices.Equal(a.Pkg.GoFiles, b.Pkg.GoFiles) {
		t.Errorf("files %v from export data, %v from source", a.Pkg.GoFiles, b.Pkg.GoFiles)
	}
	names := a.Pkg.Types.Scope().Names()
	if len(names) == 0 || !slices.Equal(names, b.Pkg.Types.Scope().Names()) {
		t.Fatalf("names %v from export data, %v from source", names, b.Pkg.Types.Scope().Names())
	}
	for _, n := range names {
		ta := a.Pkg.Types.Scope().Lookup(n).Type().Underlying().String()
		tb := b.Pkg.Types.Scope().Lookup(n).Type().Underlying().String()
		if ta != tb {
			t.Errorf("%s is %s from export data, %s from source", n, ta, tb)
		}
	}
}

// TestBuildCacheCold asks about one package with the build cache as it is
// once the package is built, and with an empty one.
func TestBuildCacheCold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	dir, err := filepath.Abs("../../../examples/storage")
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", os.DevNull, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if BuildCacheCold(context.Background(), dir, nil) {
		t.Errorf("cold right after go build")
	}
	t.Setenv("GOCACHE", t.TempDir())
	if !BuildCacheCold(context.Background(), dir, nil) {
		t.Errorf("not cold with an empty build cache")
	}
}
