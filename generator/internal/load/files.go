package load

import (
	"bytes"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// A File is a Go file of a package directory read for its syntax alone:
// one the type check of the current build configuration does not see (a
// test file, a file that its build constraints leave out), or any file of
// another package of the module (-check ./...). Only checks that need no
// types read it: the embedding of a generated type (build/embedfiles.go).
type File struct {
	Path   string    // absolute
	Syntax *ast.File // as parsed; possibly partial when the file does not parse
	Test   bool      // its name ends in _test.go
	// Build is its //go:build line (without the //go:build), "" when
	// it has none.
	Build string
	// Left is true when the go command leaves it out of the package as
	// the run builds it (its constraints, its name's GOOS or GOARCH).
	Left bool
}

// ParseFiles parses the Go files of dir, in file name order, but for
// the absolute paths in skip (the files the type check has, the output)
// and the files the go command never reads (names starting with _ or .),
// into fset, comments included (the builder checks their //cborgen:
// lines). left are the files of the package that the current build
// configuration leaves out, by absolute path. Syntax errors are not
// reported: what parses is checked, and the go command reports the rest
// when it builds that file.
func ParseFiles(fset *token.FileSet, dir string, skip, left map[string]bool) []*File {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []*File
	for _, e := range entries {
		base := e.Name()
		if e.IsDir() || !strings.HasSuffix(base, ".go") || strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".") {
			continue
		}
		path := filepath.Join(dir, base)
		if skip[path] {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		f, _ := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if f == nil || f.Name == nil {
			continue
		}
		files = append(files, &File{Path: path, Syntax: f, Test: strings.HasSuffix(base, "_test.go"), Build: BuildLine(src), Left: left[path]})
	}
	return files
}

// BuildLine returns the expression of the //go:build line in the
// header of the Go source src (before its package clause), or "".
func BuildLine(src []byte) string {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimSpace(line)
		if constraint.IsGoBuild(string(line)) {
			return strings.TrimSpace(strings.TrimPrefix(string(line), "//go:build"))
		}
		if bytes.HasPrefix(line, []byte("package ")) {
			break
		}
	}
	return ""
}
