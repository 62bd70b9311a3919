package generator

import (
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/packages"
)

// pendingGeneration answers whether a struct type of another package,
// which has no generated methods yet, will have them once go generate
// reaches its package: a first go generate ./... visits packages in path
// order, so a package can be generated before the package whose types its
// fields hold. The answer comes from that package's own //go:generate
// line: its -type list, or without one the default selection.
type pendingGeneration struct {
	dir   string   // the generated package's directory, where go list runs
	flags []string // build flags of the run
	runs  map[string][]Config
}

// generates reports whether obj's package has a //go:generate line that
// runs cbor-gen on obj.
func (p *pendingGeneration) generates(obj *types.TypeName) bool {
	if obj.Pkg() == nil || !obj.Exported() || !isStructType(obj) {
		return false
	}
	if skip, _ := notGenerated(obj); skip {
		return false
	}
	for _, run := range p.generateRuns(obj.Pkg().Path()) {
		if len(run.Types) == 0 || slices.Contains(run.Types, obj.Name()) {
			return true // without -type: every exported struct type without methods of its own
		}
	}
	return false
}

// generateRuns returns the runs of the //go:generate lines in the package
// at path that run cbor-gen on that package itself, read as -check ./...
// reads them; a line that does not run cbor-gen as it should generates
// nothing.
func (p *pendingGeneration) generateRuns(path string) []Config {
	if runs, ok := p.runs[path]; ok {
		return runs
	}
	if p.runs == nil {
		p.runs = map[string][]Config{}
	}
	p.runs[path] = nil
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: p.dir, BuildFlags: p.flags}, path)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].GoFiles) == 0 {
		return nil
	}
	dir := filepath.Dir(pkgs[0].GoFiles[0])
	found, err := packageDirectives(dir, pkgs[0].GoFiles)
	if err != nil {
		return nil
	}
	var runs []Config
	for _, d := range found {
		cfg, err := directiveConfig(d, dir)
		if err != nil || cfg.Pattern != dir && cfg.Pattern != path {
			continue // not a run, or a run on another package
		}
		runs = append(runs, cfg)
	}
	p.runs[path] = runs
	return runs
}
