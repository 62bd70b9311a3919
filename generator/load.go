package generator

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode asks go/packages for what the modeler needs and nothing more.
const loadMode = packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo |
	packages.NeedSyntax | packages.NeedFiles

// loaded is a type-checked package and where its generated file goes.
type loaded struct {
	pkg     *packages.Package
	dir     string // absolute package directory
	outPath string // absolute output file path
}

// load finds the package named by cfg.Pattern and type-checks it, leaving
// the command's own output file out: an overlay replaces that file by a
// bare package clause, so a stale or broken earlier output never stops
// its own regeneration.
func load(cfg Config) (*loaded, error) {
	pattern := cfg.Pattern
	if pattern == "" {
		pattern = "."
	}
	var buildFlags []string
	if len(cfg.Tags) > 0 {
		buildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}

	dir, err := packageDir(pattern, buildFlags)
	if err != nil {
		return nil, err
	}
	out := cfg.Output
	if out == "" {
		out = filepath.Join(dir, DefaultOutput)
	}
	if out, err = filepath.Abs(out); err != nil {
		return nil, err
	}

	overlay := map[string][]byte{}
	if _, err := os.Stat(out); err == nil {
		name, err := packageName(out, dir)
		if err != nil {
			return nil, err
		}
		overlay[out] = []byte("package " + name + "\n")
	}

	pkgs, err := packages.Load(&packages.Config{
		Mode:       loadMode,
		Dir:        dir,
		BuildFlags: buildFlags,
		Overlay:    overlay,
	}, ".")
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: found %d packages, want 1", dir, len(pkgs))
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, err
	}
	return &loaded{pkg: pkgs[0], dir: dir, outPath: out}, nil
}

// packageDir returns the directory of the one package pattern names.
// A directory is taken as it is; anything else goes to the go command.
func packageDir(pattern string, buildFlags []string) (string, error) {
	if fi, err := os.Stat(pattern); err == nil && fi.IsDir() {
		return filepath.Abs(pattern)
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles,
		BuildFlags: buildFlags,
	}, pattern)
	if err != nil {
		return "", err
	}
	if len(pkgs) != 1 {
		return "", fmt.Errorf("pattern %q matches %d packages; run cbor-gen once per package", pattern, len(pkgs))
	}
	p := pkgs[0]
	files := append(append([]string{}, p.GoFiles...), p.IgnoredFiles...)
	if len(files) == 0 {
		if err := packageErrors(pkgs); err != nil {
			return "", err
		}
		return "", fmt.Errorf("pattern %q: no Go files found", pattern)
	}
	return filepath.Dir(files[0]), nil
}

// packageName returns the package name for the overlay of the output
// file: the name most other Go files in dir declare, or failing that the
// output's own package clause.
func packageName(out, dir string) (string, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	count := map[string]int{}
	best := ""
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == out {
			continue
		}
		if f, err := parser.ParseFile(fset, name, nil, parser.PackageClauseOnly); err == nil {
			pkg := f.Name.Name
			count[pkg]++
			if best == "" || count[pkg] > count[best] {
				best = pkg
			}
		}
	}
	if best != "" {
		return best, nil
	}
	if f, err := parser.ParseFile(fset, out, nil, parser.PackageClauseOnly); err == nil {
		return f.Name.Name, nil
	}
	return "", fmt.Errorf("%s: cannot tell the package name: no other Go file in %s and its own package clause does not parse", relPath(out), relPath(dir))
}

// packageErrors gathers the errors of pkgs and their imports, each as
// file:line:col: message, as go/packages' PrintErrors shows them.
//
// When the type checker reports a package's errors, the go command's own
// report of the same errors (a "# import/path" block of compiler output)
// is left out, so that each error is printed once; a package's errors are
// in source order, as the compiler prints them.
func packageErrors(pkgs []*packages.Package) error {
	seen := map[string]bool{}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typeErrors := false
		for _, e := range p.Errors {
			typeErrors = typeErrors || e.Kind == packages.TypeError
		}
		errs := append([]packages.Error(nil), p.Errors...)
		sort.SliceStable(errs, func(i, j int) bool { return posLess(errs[i].Pos, errs[j].Pos) })
		for _, e := range errs {
			if typeErrors && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = relPath(e.Pos) + ": " + e.Msg
			}
			if !seen[msg] {
				seen[msg] = true
				msgs = append(msgs, msg)
			}
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "\n"))
}

// posLess orders two file:line:col positions of go/packages errors by
// file, then line and column; an error without a position sorts first.
func posLess(a, b string) bool {
	af, al, ac := splitPos(a)
	bf, bl, bc := splitPos(b)
	if af != bf {
		return af < bf
	}
	if al != bl {
		return al < bl
	}
	return ac < bc
}

// splitPos splits "file:line:col" (or "file:line"); anything else is a
// file name with line and column 0.
func splitPos(pos string) (file string, line, col int) {
	parts := strings.Split(pos, ":")
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	file = strings.Join(parts, ":")
	switch len(nums) {
	case 2:
		return file, nums[0], nums[1]
	case 1:
		return file, nums[0], 0
	}
	return pos, 0, 0
}

// joinPosErrors sorts errors by position and joins them, one a line.
func joinPosErrors(errs []error) error {
	sort.SliceStable(errs, func(i, j int) bool {
		a, aok := errs[i].(*posError)
		b, bok := errs[j].(*posError)
		if !aok || !bok {
			return aok && !bok
		}
		if a.pos.Filename != b.pos.Filename {
			return a.pos.Filename < b.pos.Filename
		}
		return a.pos.Offset < b.pos.Offset
	})
	msgs := make([]string, len(errs))
	for i, e := range errs {
		if pe, ok := e.(*posError); ok {
			pos := pe.pos
			pos.Filename = relPath(pos.Filename)
			msgs[i] = fmt.Sprintf("%s: %s", pos, pe.msg)
		} else {
			msgs[i] = e.Error()
		}
	}
	return errors.New(strings.Join(msgs, "\n"))
}

// relPath shortens a path (or a file:line:col position) under the working
// directory to a relative one, as the go command prints positions.
func relPath(p string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}
