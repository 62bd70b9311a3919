package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/build"
	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// moduleEmbedders is the part of -check ./... that looks across
// packages: a struct of any package pkgs lists (any of its files: every
// build configuration, the tests) that embeds a type another package's
// run generates with fxamacker's MarshalCBOR and UnmarshalCBOR gets
// those methods, and loses its other fields. outputs are the runs'
// outputs; a finding at a position that reported already holds (the
// run of the package found it, with its types) is left out.
func moduleEmbedders(pkgs []load.Listed, outputs []*Output, reported []string) []string {
	pathOf := map[string]string{} // package directory -> import path
	listed := map[string]bool{}
	for _, p := range pkgs {
		listed[p.Path] = true
		if dir := listedDir(p); dir != "" {
			pathOf[dir] = p.Path
		}
	}
	generated := map[string]*build.GeneratedPackage{}
	skip := map[string]bool{}
	for _, out := range outputs {
		skip[out.Path] = true
		path := pathOf[filepath.Dir(out.Path)]
		if path == "" {
			continue
		}
		name, types, buildLine := generatedMarshalers(out.Source)
		if len(types) == 0 {
			continue
		}
		gp := generated[path]
		if gp == nil {
			gp = &build.GeneratedPackage{Name: name, Types: map[string]bool{}, Build: buildLine}
			generated[path] = gp
		} else if gp.Build != buildLine {
			gp.Build = "" // outputs under several constraints: assume any
		}
		for _, t := range types {
			gp.Types[t] = true
		}
	}
	if len(generated) == 0 {
		return nil
	}
	known := func(path string) bool { return listed[path] || build.StandardPath(path) }
	seen := map[string]bool{}
	for _, r := range reported {
		for _, line := range strings.Split(r, "\n") {
			if file, rest, ok := strings.Cut(line, ": "); ok && rest != "" {
				seen[file] = true
			}
		}
	}
	var found []error
	for _, p := range pkgs {
		dir := listedDir(p)
		if dir == "" {
			continue
		}
		left := map[string]bool{}
		for _, f := range p.IgnoredFiles {
			left[f] = true
		}
		fset := token.NewFileSet()
		for _, err := range build.EmbeddersOf(fset, load.ParseFiles(fset, dir, skip, left), p.Path, generated, known) {
			if pe, ok := err.(*model.PosError); ok && seen[model.RelPath(pe.Pos.String())] {
				continue
			}
			found = append(found, err)
		}
	}
	if len(found) == 0 {
		return nil
	}
	return []string{model.JoinPosErrors(found).Error()}
}

// listedDir is the directory of a listed package (one of test files
// alone too), "" when it has none.
func listedDir(p load.Listed) string {
	if p.Dir != "" {
		return p.Dir
	}
	for _, files := range [][]string{p.GoFiles, p.IgnoredFiles} {
		if len(files) > 0 {
			return filepath.Dir(files[0])
		}
	}
	return ""
}

// generatedMarshalers reads a generated file: its package name, the
// types it gives fxamacker's MarshalCBOR (no parameters) and its
// //go:build line.
func generatedMarshalers(src []byte) (pkgName string, types []string, buildLine string) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return "", nil, ""
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name != "MarshalCBOR" || fd.Type.Params.NumFields() != 0 {
			continue
		}
		if id, ok := build.TypeNameExpr(fd.Recv.List[0].Type).(*ast.Ident); ok {
			types = append(types, id.Name)
		}
	}
	return f.Name.Name, types, load.BuildLine(src)
}
