package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/testmod"
)

// goldenForTests are the golden cases whose packages -tests is tried on:
// every kind of type, format and setting the generator has.
var goldenForTests = []string{"basic", "containers", "nested", "mapformat", "mapkeys", "union", "typetag", "tags",
	"timemode", "sortnone", "sortlength", "nilempty", "floatnone", "optional", "raw", "body", "anonymous",
	"marshalers", "toarray", "realworld", "required", "unnamed"}

// TestGeneratedTests runs -tests on copies of golden packages in a new
// module that requires fxamacker/cbor, then go vet and go test on them:
// the round trips, fxamacker's bytes, the fuzz targets' seeds and one
// round of each benchmark. -check then finds the tests fresh; the
// schema record is the one a run without -tests writes.
func TestGeneratedTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a module of generated tests")
	}
	root := testmod.Root(t)
	dir := t.TempDir()
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/gt\n\ngo 1.24\n\nrequire (\n\tgithub.com/cborgen/cborgen v0.0.0\n\tgithub.com/fxamacker/cbor/v2 v2.10.0\n)\n\nreplace github.com/cborgen/cborgen => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))
	for _, name := range goldenForTests {
		src := filepath.Join(root, "testdata", "golden", name)
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		pkg := filepath.Join(dir, name)
		var goFiles []string
		for _, e := range entries {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasPrefix(n, "cbor_gen") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(src, n))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(pkg, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(pkg, n), strings.ReplaceAll(string(data), "github.com/cborgen/cborgen/testdata/golden/", "example.com/gt/"))
			goFiles = append(goFiles, filepath.Join(pkg, n))
		}
		runs, err := generateRuns(pkg, goFiles)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 0 {
			runs = []Config{{Pattern: pkg}}
		}
		for _, run := range runs {
			run.Tests = true
			if err := Generate(run); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			test, err := os.ReadFile(filepath.Join(pkg, "cbor_gen_test.go"))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !strings.Contains(string(test), "dynamic.Append(") && !strings.Contains(string(test), "no mirror") {
				t.Errorf("%s: no comparison with fxamacker/cbor in the tests", name)
			}
			run.Check = true
			if err := Generate(run); err != nil {
				t.Errorf("%s: -check after -tests: %v", name, err)
			}
		}
	}
	for _, args := range [][]string{
		{"vet", "./..."},
		{"test", "-count=1", "-run", "CBORGen", "-bench", "CBORGen", "-benchtime", "1x", "./..."},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
