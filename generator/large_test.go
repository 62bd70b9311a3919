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

// largePackage writes a package of n struct types of ten fields each, in
// a module that uses this repository, and returns its directory. The
// fields are a mix of what real records hold: numbers, strings, bytes, a
// time, a slice, a map, an optional value and a nested generated type.
func largePackage(tb testing.TB, n int, imports ...string) string {
	tb.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	if t, ok := tb.(interface{ Setenv(k, v string) }); ok {
		t.Setenv("GOFLAGS", "-mod=mod") // no go.sum in the new module
		t.Setenv("GOWORK", "off")
	}
	mod := "module example.com/large\n\ngo 1.24\n\nrequire (\n\tgithub.com/cborgen/cborgen v0.0.0\n\tgithub.com/fxamacker/cbor/v2 v2.10.0\n\tgolang.org/x/tools v0.42.0\n)\n\nreplace github.com/cborgen/cborgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		tb.Fatal(err)
	}
	var src bytes.Buffer
	src.WriteString("package large\n\nimport \"time\"\n\n")
	// Each import is "path Name": the package uses Name from it, so that
	// it depends on it.
	for i, imp := range imports {
		path, _, _ := strings.Cut(imp, " ")
		fmt.Fprintf(&src, "import p%d %q\n", i, path)
	}
	for i, imp := range imports {
		_, name, _ := strings.Cut(imp, " ")
		fmt.Fprintf(&src, "\nvar _ = p%d.%s\n", i, name)
	}
	src.WriteString("\n")
	for i := 0; i < n; i++ {
		next := (i + 1) % n
		fmt.Fprintf(&src, `type T%d struct {
	ID      uint64            `+"`cbor:\"id\"`"+`
	Name    string            `+"`cbor:\"name\"`"+`
	Count   int32             `+"`cbor:\"count\"`"+`
	Score   float64           `+"`cbor:\"score\"`"+`
	Active  bool              `+"`cbor:\"active\"`"+`
	Data    []byte            `+"`cbor:\"data\"`"+`
	At      time.Time         `+"`cbor:\"at\"`"+`
	Tags    []string          `+"`cbor:\"tags\"`"+`
	Attrs   map[string]int64  `+"`cbor:\"attrs\"`"+`
	Next    *T%d              `+"`cbor:\"next\"`"+`
}

`, i, next)
	}
	if err := os.WriteFile(filepath.Join(dir, "large.go"), src.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// BenchmarkGenerateLarge generates a package of 1000 ten-field types and
// reports the size of the output (lines and bytes per type). With
// CBORGEN_LARGE_COMPILE=1 it also builds the package once and reports the
// build's time and peak memory (the compiler's, on Linux).
func BenchmarkGenerateLarge(b *testing.B) {
	const types = 1000
	dir := largePackage(b, types)
	var out *generator.Output
	var err error
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
	dir := largePackage(t, n)
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
// 1.5.
func BenchmarkRegenerateHeavy(b *testing.B) {
	dir := largePackage(b, 200,
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
	list() // warm the build cache
	var gen, base time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := generator.Render(generator.Config{Pattern: dir}); err != nil {
			b.Fatal(err)
		}
		gen += time.Since(start)
		base += list()
	}
	b.ReportMetric(gen.Seconds()/base.Seconds(), "x-go-list")
}
