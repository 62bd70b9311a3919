package build

import (
	"bufio"
	"go/types"
	"os"
	"strings"

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
	lines map[string][]string
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
	for _, line := range p.generateLines(obj.Pkg().Path()) {
		types, ok := typeFlag(line)
		if !ok {
			return true // the default: every exported struct type without methods of its own
		}
		for _, name := range strings.Split(types, ",") {
			if strings.TrimSpace(name) == obj.Name() {
				return true
			}
		}
	}
	return false
}

// generateLines returns the arguments of the //go:generate lines in the
// package at path that run cbor-gen.
func (p *pendingGeneration) generateLines(path string) []string {
	if lines, ok := p.lines[path]; ok {
		return lines
	}
	if p.lines == nil {
		p.lines = map[string][]string{}
	}
	p.lines[path] = nil
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: p.dir, BuildFlags: p.flags}, path)
	if err != nil || len(pkgs) != 1 {
		return nil
	}
	var lines []string
	for _, file := range pkgs[0].GoFiles {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "//go:generate ") {
				continue
			}
			fields := strings.Fields(line)
			for i, word := range fields {
				if word == "cbor-gen" || strings.HasSuffix(word, "/cbor-gen") {
					lines = append(lines, strings.Join(fields[i+1:], " "))
					break
				}
			}
		}
		f.Close()
	}
	p.lines[path] = lines
	return lines
}

// typeFlag returns the value of the -type flag in a cbor-gen argument
// list, and whether there is one.
func typeFlag(args string) (string, bool) {
	fields := strings.Fields(args)
	for i, f := range fields {
		f = strings.TrimPrefix(f, "-")
		switch {
		case f == "-type" || f == "type":
			if i+1 < len(fields) {
				return fields[i+1], true
			}
		case strings.HasPrefix(f, "type=") || strings.HasPrefix(f, "-type="):
			return f[strings.Index(f, "=")+1:], true
		}
	}
	return "", false
}
