package load

import (
	"context"
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// Deps is what go list -export -deps says of the package in a directory:
// the files the build takes and leaves out, and the export data of every
// package it depends on and of the runtime packages generated code
// imports. The regeneration cache digests it.
type Deps struct {
	GoFiles, CompiledGoFiles, IgnoredFiles, OtherFiles []string
	// Exports are "id exportfile" for each dependency, sorted.
	Exports []string
}

// ListDeps lists the package in dir whose output is out, with the
// dependencies' export data; ok is false when the list fails or a
// dependency has no export data (its contents would then go unpinned).
// The go list stops when ctx is done.
func ListDeps(ctx context.Context, dir, out string, buildFlags []string) (deps *Deps, ok bool) {
	pcfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedExportFile,
		Context:    ctx,
		Dir:        dir,
		BuildFlags: buildFlags,
	}
	if flag, cleanup, err := StubOverlay(out, dir); err == nil && flag != "" {
		defer cleanup()
		pcfg.BuildFlags = append(buildFlags[:len(buildFlags):len(buildFlags)], flag)
	}
	pkgs, err := packages.Load(pcfg, append([]string{"."}, model.SupportPaths...)...)
	if err != nil {
		return nil, false
	}
	var main *packages.Package
	var exports []string
	pinned := true
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if main == nil && slices.Contains(pkgs, p) && !model.IsSupport(p.PkgPath) {
			main = p
			return
		}
		if p.ExportFile == "" && p.PkgPath != "unsafe" { // unsafe has none: the compiler knows it
			pinned = false
		}
		exports = append(exports, p.ID+" "+p.ExportFile)
	})
	if !pinned || main == nil {
		return nil, false
	}
	slices.Sort(exports)
	return &Deps{
		GoFiles: main.GoFiles, CompiledGoFiles: main.CompiledGoFiles,
		IgnoredFiles: main.IgnoredFiles, OtherFiles: main.OtherFiles,
		Exports: exports,
	}, true
}

// GoFiles returns the Go files of the package at path, as the go command
// in dir with buildFlags finds it; ok is false when it finds no one
// package there.
func GoFiles(dir string, buildFlags []string, path string) (files []string, ok bool) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: dir, BuildFlags: buildFlags}, path)
	if err != nil || len(pkgs) != 1 {
		return nil, false
	}
	return pkgs[0].GoFiles, true
}

// Listed is one package of a pattern, as go list names its files.
type Listed struct {
	Path         string   // the import path
	Dir          string   // its directory ("" when the go command gives none)
	GoFiles      []string // the files the build takes
	IgnoredFiles []string // those its constraints leave out
}

// List lists the packages pattern matches, with buildFlags, for -check
// over several packages.
func List(pattern string, buildFlags []string) ([]Listed, error) {
	pkgs, err := goLoad(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, BuildFlags: buildFlags}, pattern)
	if err != nil {
		return nil, err
	}
	listed := make([]Listed, len(pkgs))
	for i, p := range pkgs {
		listed[i] = Listed{Path: p.PkgPath, Dir: p.Dir, GoFiles: p.GoFiles, IgnoredFiles: p.IgnoredFiles}
	}
	return listed, nil
}
