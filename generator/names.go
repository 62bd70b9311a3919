package generator

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// renderPath stands for the generated file's import path while the code
// is rendered, so that jennifer writes each reference to one of the
// package's own types as selfAlias.T (importing the package's real path
// under that alias), which tells it apart from a local variable of the
// generated code with the same name. resolveNames turns those references
// back into plain names, after renaming any local they would collide with.
const (
	renderPath = "cborgen.invalid/render"
	selfAlias  = "cborgenself"
)

// resolveNames rewrites rendered source: every selfAlias.T becomes T, and
// a local of the generated code named like one of those types (a user
// type called field, err or v) is renamed until it clashes with nothing
// in taken, the package scope. The source is otherwise left byte for
// byte as it was.
func resolveNames(src []byte, ownPath string, taken map[string]bool) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing rendered code: %v\n%s", err, numberLines(src))
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }

	// The import block, written again without the stand-in.
	var imports *ast.GenDecl
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			imports = g
		}
	}
	if imports == nil {
		return src, nil
	}
	var specs []string
	for _, s := range imports.Specs {
		is := s.(*ast.ImportSpec)
		if path, _ := strconv.Unquote(is.Path.Value); path == ownPath {
			continue
		}
		text := is.Path.Value
		if is.Name != nil {
			text = is.Name.Name + " " + text
		}
		specs = append(specs, text)
	}
	sort.Slice(specs, func(i, j int) bool { return importPath(specs[i]) < importPath(specs[j]) })
	block := "import (\n\t" + strings.Join(specs, "\n\t") + "\n)"
	if len(specs) == 1 {
		block = "import " + specs[0]
	}
	edits = append(edits, edit{off(imports.Pos()), off(imports.End()), block})

	// Own types: selfAlias.T becomes T.
	own := map[string]bool{}
	ownRef := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == selfAlias {
				own[sel.Sel.Name] = true
				ownRef[sel.Sel] = true
				edits = append(edits, edit{off(sel.Pos()), off(sel.Sel.Pos()), ""})
			}
		}
		return true
	})

	// Locals named like an own type get another name.
	rename := map[string]string{}
	for name := range own {
		renamed := name + "_"
		for taken[renamed] || own[renamed] {
			renamed += "_"
		}
		rename[name] = renamed
	}
	skip := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.FuncDecl:
			skip[n.Name] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				skip[id] = true // a field name in a composite literal
			}
		case *ast.ImportSpec:
			return false
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || skip[id] || ownRef[id] || id.Name == selfAlias {
			return true
		}
		if to, ok := rename[id.Name]; ok && id != f.Name {
			edits = append(edits, edit{off(id.Pos()), off(id.End()), to})
		}
		return true
	})

	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var out []byte
	at := 0
	for _, e := range edits {
		out = append(out, src[at:e.from]...)
		out = append(out, e.text...)
		at = e.to
	}
	return append(out, src[at:]...), nil
}

// importPath is the quoted path of an import spec's text.
func importPath(spec string) string {
	if i := strings.IndexByte(spec, '"'); i >= 0 {
		return spec[i:]
	}
	return spec
}
