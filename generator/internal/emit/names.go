package emit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
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
//
// Most runs rename nothing: resolveTokens then does the whole job from
// the token stream, and the parse below is left for the runs where a
// local may need another name.
func resolveNames(src []byte, ownPath string, taken map[string]bool) ([]byte, error) {
	if out, ok := resolveTokens(src, ownPath); ok {
		return out, nil
	}
	return resolveParsed(src, ownPath, taken)
}

// resolveParsed is resolveNames from the syntax tree of src.
func resolveParsed(src []byte, ownPath string, taken map[string]bool) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parsing rendered code: %v\n%s", err, model.NumberLines(src))
	}
	imports := importDecl(f)
	if imports == nil {
		return src, nil
	}
	ed := &sourceEdits{fset: fset}
	ed.dropImport(imports, ownPath)
	own, ownRef := ed.unqualifyOwn(f)
	ed.renameLocals(f, own, ownRef, taken)
	return ed.apply(src), nil
}

// importDecl is the import declaration of f, nil if it has none.
func importDecl(f *ast.File) *ast.GenDecl {
	var imports *ast.GenDecl
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			imports = g
		}
	}
	return imports
}

// sourceEdits collects replacements of byte ranges of a source file.
type sourceEdits struct {
	fset  *token.FileSet
	edits []sourceEdit
}

type sourceEdit struct {
	from, to int
	text     string
}

func (ed *sourceEdits) replace(from, to token.Pos, text string) {
	ed.edits = append(ed.edits, sourceEdit{ed.fset.Position(from).Offset, ed.fset.Position(to).Offset, text})
}

// dropImport writes the import block again without ownPath, the
// stand-in for the package's own types.
func (ed *sourceEdits) dropImport(imports *ast.GenDecl, ownPath string) {
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
	ed.replace(imports.Pos(), imports.End(), importBlock(specs))
}

// unqualifyOwn turns selfAlias.T into T. It returns the own type names
// used and the identifiers that name them.
func (ed *sourceEdits) unqualifyOwn(f *ast.File) (own map[string]bool, ownRef map[*ast.Ident]bool) {
	own, ownRef = map[string]bool{}, map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == selfAlias {
				own[sel.Sel.Name] = true
				ownRef[sel.Sel] = true
				ed.replace(sel.Pos(), sel.Sel.Pos(), "")
			}
		}
		return true
	})
	return own, ownRef
}

// renameLocals gives the locals named like an own type another name, one
// that is neither taken in the package nor an own type's.
func (ed *sourceEdits) renameLocals(f *ast.File, own map[string]bool, ownRef map[*ast.Ident]bool, taken map[string]bool) {
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
			ed.replace(id.Pos(), id.End(), to)
		}
		return true
	})
}

// apply returns src with the edits made.
func (ed *sourceEdits) apply(src []byte) []byte {
	sort.Slice(ed.edits, func(i, j int) bool { return ed.edits[i].from < ed.edits[j].from })
	var out []byte
	at := 0
	for _, e := range ed.edits {
		out = append(out, src[at:e.from]...)
		out = append(out, e.text...)
		at = e.to
	}
	return append(out, src[at:]...)
}

// importBlock is the import declaration of specs (each "name path" or
// "path"), sorted by path.
func importBlock(specs []string) string {
	sort.Slice(specs, func(i, j int) bool { return importPath(specs[i]) < importPath(specs[j]) })
	if len(specs) == 1 {
		return "import " + specs[0]
	}
	return "import (\n\t" + strings.Join(specs, "\n\t") + "\n)"
}

// importPath is the quoted path of an import spec's text.
func importPath(spec string) string {
	if i := strings.IndexByte(spec, '"'); i >= 0 {
		return spec[i:]
	}
	return spec
}

// resolveTokens does resolveNames' work from the token stream alone, when
// that is enough: it reports false, and leaves the work to the parse,
// when an identifier that is neither a selector nor a reference through
// selfAlias is named like one of the own types (a local that may need
// another name), when the source does not scan, or when it is not shaped
// as jennifer writes it (one import declaration, selfAlias always followed
// by .T). An identifier after a period is the selector of a SelectorExpr,
// the only place where the parse leaves names alone that the scan cannot
// also tell; the parse leaves a few more (method names, keys of composite
// literals), so a false here is sometimes needless but never wrong.
func resolveTokens(src []byte, ownPath string) ([]byte, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	bad := false
	s.Init(file, src, func(token.Position, string) { bad = true }, 0)

	type edit struct{ from, to int }
	var cuts []edit // selfAlias. before each own type
	own := map[string]bool{}
	idents := map[string]bool{} // identifiers that are neither selectors nor own references
	importFrom, importTo := -1, -1
	var specs []string
	prev := token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.IMPORT:
			if importFrom >= 0 {
				return nil, false
			}
			importFrom = file.Offset(pos)
			var ok bool
			if specs, importTo, ok = scanImports(&s, file, ownPath); !ok {
				return nil, false
			}
			prev = token.RPAREN
			continue
		case token.IDENT:
			switch {
			case lit == selfAlias && prev != token.PERIOD:
				if _, dot, _ := s.Scan(); dot != token.PERIOD {
					return nil, false
				}
				selPos, sel, name := s.Scan()
				if sel != token.IDENT {
					return nil, false
				}
				own[name] = true
				cuts = append(cuts, edit{file.Offset(pos), file.Offset(selPos)})
				tok = token.IDENT
			case prev != token.PERIOD:
				idents[lit] = true
			}
		}
		prev = tok
	}
	if bad {
		return nil, false
	}
	for name := range own {
		if idents[name] {
			return nil, false
		}
	}
	if importFrom < 0 {
		return src, true // as resolveNames: without imports there is nothing to resolve
	}
	out := make([]byte, 0, len(src))
	out = append(out, src[:importFrom]...)
	out = append(out, importBlock(specs)...)
	at := importTo
	for _, c := range cuts {
		if c.from < at {
			return nil, false
		}
		out = append(out, src[at:c.from]...)
		at = c.to
	}
	return append(out, src[at:]...), true
}

// scanImports reads an import declaration after its keyword and returns
// its specs as resolveNames writes them (without the one of ownPath) and
// the offset where the declaration ends.
func scanImports(s *scanner.Scanner, file *token.File, ownPath string) (specs []string, end int, ok bool) {
	// spec reads one spec from its first token, and returns the offset
	// of its end.
	spec := func(pos token.Pos, tok token.Token, lit string) (int, bool) {
		name := ""
		switch tok {
		case token.IDENT:
			name = lit
			pos, tok, lit = s.Scan()
		case token.PERIOD:
			name = "."
			pos, tok, lit = s.Scan()
		}
		if tok != token.STRING {
			return 0, false
		}
		end := file.Offset(pos) + len(lit)
		if path, _ := strconv.Unquote(lit); path != ownPath {
			if name != "" {
				lit = name + " " + lit
			}
			specs = append(specs, lit)
		}
		return end, true
	}
	pos, tok, lit := s.Scan()
	if tok != token.LPAREN {
		end, ok := spec(pos, tok, lit)
		return specs, end, ok
	}
	for {
		pos, tok, lit = s.Scan()
		if tok == token.RPAREN {
			return specs, file.Offset(pos) + 1, true
		}
		if _, ok := spec(pos, tok, lit); !ok {
			return nil, 0, false
		}
		switch pos, tok, _ = s.Scan(); tok {
		case token.RPAREN: // the last spec, with no semicolon before the parenthesis
			return specs, file.Offset(pos) + 1, true
		case token.SEMICOLON:
		default:
			return nil, 0, false
		}
	}
}
