package generator

import (
	"path/filepath"

	"github.com/cborgen/cborgen/generator/internal/load"
)

// pendingRuns returns the answer to build.Options.Pending for a run in
// the package directory dir with buildFlags: the -type lists of the runs
// that the //go:generate lines of the package at path make on that
// package itself, read as -check ./... reads them (a line that does not
// run cbor-gen as it should generates nothing).
func pendingRuns(dir string, buildFlags []string) func(path string) [][]string {
	return func(path string) [][]string {
		files, ok := load.GoFiles(dir, buildFlags, path)
		if !ok || len(files) == 0 {
			return nil
		}
		pkgDir := filepath.Dir(files[0])
		found, err := packageDirectives(pkgDir, files)
		if err != nil {
			return nil
		}
		var runs [][]string
		for _, d := range found {
			cfg, err := directiveConfig(d, pkgDir)
			if err != nil || cfg.Pattern != pkgDir && cfg.Pattern != path {
				continue // not a run, or a run on another package
			}
			runs = append(runs, cfg.Types)
		}
		return runs
	}
}
