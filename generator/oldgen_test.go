package generator

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// TestOlderGeneratedCodeBuilds builds files that earlier versions of
// cbor-gen wrote, of every generated code version from 2 (MinGenVersion)
// to 8, against this module's runtime, as a dependency's checked-in files
// meet a newer runtime in a user's module. testdata/oldgen.tar.gz holds,
// under vN/, golden packages as the version that made generated code
// version N wrote them (git show of testdata/golden at the last commit of
// each version), chosen so that together they call every runtime
// function and Decoder method any of those versions called. Since version
// 9 generated code calls package genrt; runtime keeps the older names,
// and this is the test that it keeps all of them.
func TestOlderGeneratedCodeBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 28 packages of older generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	versions := untarOldgen(t, filepath.Join("testdata", "oldgen.tar.gz"), dir)
	if len(versions) != 7 {
		t.Fatalf("testdata/oldgen.tar.gz holds versions %v, want 2 to 8", versions)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			mod := filepath.Join(dir, v)
			gomod := fmt.Sprintf("module example.com/old\n\ngo 1.24\n\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n", model.ModulePath, model.ModulePath, root)
			if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(mod, "go.sum"), sum, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "vet", "./...")
			cmd.Dir = mod
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("code of generated code version %s does not build against this runtime: %v\n%s", strings.TrimPrefix(v, "v"), err, out)
			}
		})
	}
}

// untarOldgen writes the files of the gzipped tar file at name under dir
// and returns its top directories.
func untarOldgen(t *testing.T, name, dir string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	seen := map[string]bool{}
	var tops []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg || !filepath.IsLocal(h.Name) {
			continue
		}
		top, _, _ := strings.Cut(h.Name, "/")
		if !seen[top] {
			seen[top] = true
			tops = append(tops, top)
		}
		path := filepath.Join(dir, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		// The packages import each other under the golden files' paths,
		// which are this module's: a module of their own takes them.
		data = []byte(strings.ReplaceAll(string(data), `"`+model.ModulePath+`/testdata/golden/`, `"example.com/old/`))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tops
}
