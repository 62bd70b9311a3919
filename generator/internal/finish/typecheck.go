package finish

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// typecheckWhole is typecheckOutput as one check.
func typecheckWhole(l *load.Package, src []byte, known map[string]*types.Package) error {
	fset := l.Pkg.Fset
	gen, err := parser.ParseFile(fset, l.OutPath, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("the generated code does not parse (a bug in cbor-gen): %v", err)
	}
	if err := supportMissing(l, gen); err != nil {
		return err
	}
	files := append([]*ast.File{gen}, userFiles(l)...)

	var errs []string
	conf := checkConfig(known, func(err error) {
		te, ok := err.(types.Error)
		if !ok {
			errs = append(errs, err.Error())
			return
		}
		pos := fset.Position(te.Pos)
		inOutput := pos.Filename == l.OutPath
		if toleratedInCheck(te.Msg, inOutput) {
			return
		}
		msg := fmt.Sprintf("%s: %s", model.RelPath(pos.String()), te.Msg)
		if inOutput {
			msg += "\n\t" + strings.TrimSpace(lineOf(src, pos.Line))
		}
		errs = append(errs, msg)
	})
	conf.Check(l.Pkg.PkgPath, fset, files, nil)
	if len(errs) == 0 {
		return nil
	}
	return errors.New(strings.Join(errs, "\n") + "\ncbor-gen: the generated code would not compile, so nothing was written. " +
		"This is a bug in cbor-gen, or a clash between your code and the generated code that it does not foresee: " +
		"report it with the types involved, or leave the type out of -type")
}

// toleratedInCheck reports whether a type error of the package with its
// new output is one that generation cures: a missing generated method,
// except in the output itself, where once the output is there a union's
// functions exist and only another package's methods may be missing
// (that package is generated later in the same go generate ./...).
func toleratedInCheck(msg string, inOutput bool) bool {
	return load.MissingGenerated.MatchString(msg) && (!inOutput || foreignReceiver.MatchString(msg))
}

// supportMissing reports an import of the generated code that the load
// could not provide (the runtime is not in the module, or a go.sum entry
// of its dependencies is missing), with the go command's errors.
func supportMissing(l *load.Package, gen *ast.File) error {
	imports := map[string]bool{}
	for _, is := range gen.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		imports[path] = true
	}
	for _, p := range l.Support {
		if imports[p.ID] && (len(p.Errors) > 0 || p.Types == nil) {
			return load.SupportError(p, l.Dir, l.Flags)
		}
	}
	return nil
}

// userFiles are the package's files, the old output left out.
func userFiles(l *load.Package) []*ast.File {
	var files []*ast.File
	for _, f := range l.Pkg.Syntax {
		if l.Pkg.Fset.File(f.Pos()).Name() != l.OutPath {
			files = append(files, f)
		}
	}
	return files
}

// knownPackages are the packages the output may import, by path: the
// package's dependencies and the runtime's, all from the one load.
func knownPackages(l *load.Package) map[string]*types.Package {
	known := map[string]*types.Package{"unsafe": types.Unsafe}
	var add func(p *types.Package)
	add = func(p *types.Package) {
		if p == nil || known[p.Path()] != nil {
			return
		}
		known[p.Path()] = p
		for _, imp := range p.Imports() {
			add(imp)
		}
	}
	for _, imp := range l.Pkg.Types.Imports() {
		add(imp)
	}
	for _, p := range l.Support {
		if len(p.Errors) == 0 {
			add(p.Types)
		}
	}
	return known
}

// checkConfig is the type checker's configuration for the output check:
// imports from known, errors to report.
func checkConfig(known map[string]*types.Package, report func(error)) *types.Config {
	return &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if p := known[path]; p != nil {
				return p, nil
			}
			return nil, fmt.Errorf("package %s is not among the package's dependencies", path)
		}),
		Error: report,
	}
}

// foreignReceiver matches a missing-method error on a type of another
// package (its name is qualified).
var foreignReceiver = regexp.MustCompile(`type \*?[\w]+\.[\w]+`)

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// lineOf returns line n (1-based) of src.
func lineOf(src []byte, n int) string {
	lines := bytes.Split(src, []byte("\n"))
	if n < 1 || n > len(lines) {
		return ""
	}
	return string(lines[n-1])
}
