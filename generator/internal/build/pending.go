package build

import (
	"go/types"
	"slices"
)

// pendingGeneration answers whether a struct type of another package,
// which has no generated methods yet, will have them once go generate
// reaches its package: a first go generate ./... visits packages in path
// order, so a package can be generated before the package whose types its
// fields hold. The answer comes from that package's own //go:generate
// line: its -type list, or without one the default selection. The lines
// are read by the caller (Options.Pending), as -check ./... reads them.
type pendingGeneration struct {
	selections func(path string) [][]string // Options.Pending
	runs       map[string][][]string        // its answers, by package path; nil until asked
}

// generates reports whether obj's package has a //go:generate line that
// runs cbor-gen on obj.
func (p *pendingGeneration) generates(obj *types.TypeName) bool {
	if p.selections == nil || obj.Pkg() == nil || !obj.Exported() || !isStructType(obj) {
		return false
	}
	if skip, _ := notGenerated(obj); skip {
		return false
	}
	for _, names := range p.runsOf(obj.Pkg().Path()) {
		if len(names) == 0 || slices.Contains(names, obj.Name()) {
			return true // without -type: every exported struct type without methods of its own
		}
	}
	return false
}

// runsOf returns the -type lists of the runs of the package at path,
// asking once per package.
func (p *pendingGeneration) runsOf(path string) [][]string {
	if runs, ok := p.runs[path]; ok {
		return runs
	}
	if p.runs == nil {
		p.runs = map[string][][]string{}
	}
	runs := p.selections(path)
	p.runs[path] = runs
	return runs
}
