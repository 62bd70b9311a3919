package generator_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cborgen/cborgen/generator"
)

// BenchmarkGenerateLarge generates a package of 1000 ten-field types and
// reports the size of the output (lines and bytes per type). With
// CBORGEN_LARGE_COMPILE=1 it also builds the package once and reports the
// build's time and peak memory (the compiler's, on Linux).
func BenchmarkGenerateLarge(b *testing.B) {
	const types = 1000
	dir := generator.LargePackage(b, types)
	var out *generator.Output
	var err error
	b.ReportAllocs()
	for b.Loop() {
		out, err = generator.Render(generator.Config{Pattern: dir})
		if err != nil {
			b.Fatal(err)
		}
	}
	lines := bytes.Count(out.Source, []byte("\n"))
	b.ReportMetric(float64(lines)/types, "lines/type")
	b.ReportMetric(float64(len(out.Source))/types, "bytes/type")
	if os.Getenv("CBORGEN_LARGE_COMPILE") == "" {
		return
	}
	if err := os.WriteFile(out.Path, out.Source, 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	start := time.Now()
	msg, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("go build: %v\n%s", err, msg)
	}
	b.ReportMetric(time.Since(start).Seconds(), "build-s")
	if ru, ok := maxRSS(cmd); ok {
		b.ReportMetric(float64(ru)/(1<<20), "build-peak-MiB")
	}
}

// TestLargePackage: a package of many types generates and compiles (a
// smaller one with -short).
func TestLargePackage(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 20
	}
	dir := generator.LargePackage(t, n)
	out, err := generator.Render(generator.Config{Pattern: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(out.Source), ") AppendCBOR("); got != n {
		t.Errorf("%d AppendCBOR methods, want %d", got, n)
	}
}

// BenchmarkRegenerateHeavy regenerates (an output is already on disk) a
// package of 200 types that depends on about 250 packages, and reports the
// time against that of go list -export -deps of the package, which is the
// least a load that reads export data costs: the ratio should stay under
// 1.5. x-go-list is a run over unchanged sources, as go generate ./... and
// -check in CI mostly make, with the regeneration cache (cache.go);
// uncached-x-go-list the same run without it; changed-x-go-list one after
// a type of the package changed, as when a user regenerates after an edit
// (the cache misses, and the package, with its old output, is not in the
// build cache).
func BenchmarkRegenerateHeavy(b *testing.B) {
	dir := generator.LargePackage(b, 200,
		"net/http NewRequest",
		"html/template New",
		"golang.org/x/tools/go/ssa NewProgram",
		"github.com/fxamacker/cbor/v2 Marshal",
	)
	first, err := generator.Render(generator.Config{Pattern: dir})
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(first.Path, first.Source, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(first.LockPath, first.Lock, 0o644); err != nil {
		b.Fatal(err)
	}
	list := func() time.Duration {
		start := time.Now()
		cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}", ".")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("go list: %v\n%s", err, out)
		}
		return time.Since(start)
	}
	cache := b.TempDir()
	render := func(cache string) time.Duration {
		start := time.Now()
		if _, err := generator.Render(generator.Config{Pattern: dir, Cache: cache}); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	input := filepath.Join(dir, "large.go")
	orig, err := os.ReadFile(input)
	if err != nil {
		b.Fatal(err)
	}
	list()        // warm the build cache
	render(cache) // and the regeneration cache
	var gen, uncached, changed, base time.Duration
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		gen += render(cache)
		uncached += render("")
		// A change the build cache has not seen: a new type.
		n++
		edit := fmt.Appendf(bytes.Clone(orig), "\ntype Extra%d struct{ A int }\n", n)
		if err := os.WriteFile(input, edit, 0o644); err != nil {
			b.Fatal(err)
		}
		changed += render(cache)
		if err := os.WriteFile(input, orig, 0o644); err != nil {
			b.Fatal(err)
		}
		base += list()
	}
	b.ReportMetric(gen.Seconds()/base.Seconds(), "x-go-list")
	b.ReportMetric(uncached.Seconds()/base.Seconds(), "uncached-x-go-list")
	b.ReportMetric(changed.Seconds()/base.Seconds(), "changed-x-go-list")
}
