package build

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// Reasons to refuse a type named with -type beyond those of explicitType:
// a type that has nothing to generate (recording it in the schema record
// would take -accept-break to undo), and a type the package has only in
// its test files, which cbor-gen does not read.

// nothingToGenerate returns why the type tn, named with -type, has
// nothing to generate, or "": a named basic type (type Name string)
// without a //cborgen:tag directive that implements no union is written
// as its underlying type with or without methods, and generated code
// writes fields of its type in line.
func nothingToGenerate(l *load.Package, tn *types.TypeName, unions []*types.TypeName) string {
	basic, ok := tn.Type().Underlying().(*types.Basic)
	if !ok || isStructType(tn) || hasTagDirective(l, tn) || implementsAny(tn, unions) || hasBodyDoc(l.Pkg.Syntax, tn) {
		return ""
	}
	name := tn.Name()
	return fmt.Sprintf("-type %s: %s is a named %s type without a //cborgen:tag directive that implements no //cborgen:union interface: "+
		"it is written as a plain %s with or without methods (generated code writes fields of type %s in line), so there is nothing to generate. "+
		"Leave it out of -type, or give it a tag with //cborgen:tag N", name, name, basic.Name(), basic.Name(), name)
}

// testFileType returns the position of a type declaration named name in
// the test files of the package directory dir, and whether there is one.
func testFileType(dir, name string) (token.Position, bool) {
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	fset := token.NewFileSet()
	for _, file := range tests {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				if ts := spec.(*ast.TypeSpec); ts.Name.Name == name {
					return fset.Position(ts.Name.Pos()), true
				}
			}
		}
	}
	return token.Position{}, false
}

// testFileTypeError is the error for -type name when the package declares
// name only in the test file at pos.
func testFileTypeError(pos token.Position, name string) error {
	return &model.PosError{Pos: pos, Msg: fmt.Sprintf("-type %s: %s is declared in the test file %s, and cbor-gen reads the package as go build does, without its test files; "+
		"declare %s in a file whose name does not end in _test.go", name, name, filepath.Base(pos.Filename), name)}
}
