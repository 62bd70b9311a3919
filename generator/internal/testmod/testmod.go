// Package testmod writes modules for the generator's tests: packages of
// many types in a module that uses this repository through a replace
// directive. Only tests import it.
package testmod

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Large writes a package of n struct types of ten fields each, in
// a module that uses this repository, and returns its directory. The
// fields are a mix of what real records hold: numbers, strings, bytes, a
// time, a slice, a map, an optional value and a nested generated type.
func Large(tb testing.TB, n int, imports ...string) string {
	tb.Helper()
	root := Root(tb)
	dir := tb.TempDir()
	if t, ok := tb.(interface{ Setenv(k, v string) }); ok {
		t.Setenv("GOFLAGS", "-mod=mod") // the new module's go.sum is not tidy
		t.Setenv("GOWORK", "off")
	}
	mod := "module example.com/large\n\ngo 1.24\n\nrequire (\n\tgithub.com/cborgen/cborgen v0.0.0\n\tgithub.com/fxamacker/cbor/v2 v2.10.0\n\tgolang.org/x/tools v0.42.0\n)\n\nreplace github.com/cborgen/cborgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		tb.Fatal(err)
	}
	// The checkout's verified sums: no checksum database lookups.
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err != nil {
		tb.Fatal(err)
	} else if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
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

// Root returns the directory of this repository's checkout, the module
// the tests' modules replace cborgen with: the nearest directory at or
// above the working directory whose go.mod declares it.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(mod, []byte("module github.com/cborgen/cborgen\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod of github.com/cborgen/cborgen at or above the working directory")
		}
		dir = parent
	}
}
