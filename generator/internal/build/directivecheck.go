package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// Every //cborgen: line of the package is checked before anything is
// built: a misspelt directive (//cborgen:unoin), one written as a plain
// comment (// cborgen:nolegacy, as gofmt users write comments) or one
// where it is not read (on a field, a function, a type of a kind it is
// not for, a type of a test file) would otherwise be ignored, and the
// type would silently lose what its author asked for: a union dispatcher,
// the refusal of a signed format's legacy map. The files are the
// package's, type-checked, and the others of its directory (test files,
// other build configurations), read for their syntax.

// checkDirectives returns an error, at its position, for each //cborgen:
// line of the files of l that directiveTable does not allow where it is,
// and the lines it refused (which the modeler then leaves alone).
func checkDirectives(l *load.Package) ([]error, map[*ast.Comment]bool) {
	var errs []error
	refused := map[*ast.Comment]bool{}
	fset := l.Pkg.Fset
	check := func(file *ast.File, info *types.Info, test bool) {
		sites := directiveSites(file, info, test)
		for _, cg := range file.Comments {
			for _, cm := range cg.List {
				if msg := checkDirectiveLine(cm.Text, sites[cg], sites[cg] == nil && inFunc(file, cm.Pos()), file.Name != nil && cm.Pos() < file.Name.Pos()); msg != "" {
					errs = append(errs, &model.PosError{Pos: fset.Position(cm.Pos()), Msg: msg})
					refused[cm] = true
				}
			}
		}
	}
	for _, file := range l.Pkg.Syntax {
		check(file, l.Pkg.TypesInfo, false)
	}
	for _, f := range l.Others {
		if f.Syntax != nil {
			check(f.Syntax, nil, f.Test)
		}
	}
	return errs, refused
}

// A site is what a comment group belongs to, as far as directives go.
type site struct {
	what string // "type T", "field T.F", "func F", ...
	// doc is true for the doc comment of a type, where directives are
	// read; kind is then the type's kind (0: none a directive is for;
	// every kind when only the syntax is known), kindText says it.
	doc      bool
	kind     place
	kindText string
	// where says why a directive is not read here, when it is not.
	where string
}

// directiveSites maps the comment groups of file that belong to a
// declaration to it. info is nil for a file read for its syntax alone;
// test is true for a test file, whose types cbor-gen never generates.
func directiveSites(file *ast.File, info *types.Info, test bool) map[*ast.CommentGroup]*site {
	sites := map[*ast.CommentGroup]*site{}
	add := func(cg *ast.CommentGroup, s *site) {
		if cg != nil {
			sites[cg] = s
		}
	}
	fields := func(owner string, typ ast.Expr) {
		ast.Inspect(typ, func(n ast.Node) bool {
			var list *ast.FieldList
			member := "field"
			switch n := n.(type) {
			case *ast.StructType:
				list = n.Fields
			case *ast.InterfaceType:
				list, member = n.Methods, "method"
			default:
				return true
			}
			for _, f := range list.List {
				name := types.ExprString(f.Type)
				if len(f.Names) > 0 {
					name = f.Names[0].Name
				}
				s := &site{what: member + " " + owner + "." + name, where: "on a " + member}
				add(f.Doc, s)
				add(f.Comment, s)
			}
			return true
		})
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			add(d.Doc, &site{what: "func " + d.Name.Name, where: "on a function"})
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				what := d.Tok.String()
				head := what + " declaration"
				if vs, ok := d.Specs[0].(*ast.ValueSpec); ok && !d.Lparen.IsValid() {
					head = what + " " + vs.Names[0].Name
				}
				add(d.Doc, &site{what: head, where: "on a " + what + " declaration"})
				for _, spec := range d.Specs {
					switch sp := spec.(type) {
					case *ast.ValueSpec:
						s := &site{what: what + " " + sp.Names[0].Name, where: "on a " + what + " declaration"}
						add(sp.Doc, s)
						add(sp.Comment, s)
						if sp.Type != nil {
							fields(sp.Names[0].Name, sp.Type)
						}
					case *ast.ImportSpec:
						s := &site{what: "import", where: "on an import"}
						add(sp.Doc, s)
						add(sp.Comment, s)
					}
				}
				continue
			}
			if d.Lparen.IsValid() {
				add(d.Doc, &site{what: "type group", where: "in the doc comment of a type ( ... ) group: move it to the doc comment of the type it is for, inside the group"})
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := &site{what: "type " + ts.Name.Name, doc: true}
				doc.kind, doc.kindText = typeKind(ts, info)
				if test {
					doc.doc, doc.where = false, "on a type of a test file: cbor-gen generates no type of a test file"
				}
				add(ts.Doc, doc)
				if !d.Lparen.IsValid() {
					add(d.Doc, doc)
				}
				add(ts.Comment, &site{what: "type " + ts.Name.Name, where: "in the comment after the type: move it to the type's doc comment, the lines above it"})
				fields(ts.Name.Name, ts.Type)
			}
		}
	}
	return sites
}

// typeKind is the kind of the type that ts declares, and how errors call
// it: from go/types when info has it, else from the syntax (every kind
// when the syntax does not tell, as type T U does not).
func typeKind(ts *ast.TypeSpec, info *types.Info) (place, string) {
	if info != nil {
		if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok && !tn.IsAlias() {
			named, _ := tn.Type().(*types.Named)
			if named == nil {
				return 0, "not a named type"
			}
			under := types.TypeString(named.Underlying(), types.RelativeTo(tn.Pkg()))
			switch {
			case isStructType(tn):
				return onStruct, "a struct type"
			case isValueType(tn):
				return onValue, "a named " + under + " type"
			}
			if _, ok := named.Underlying().(*types.Interface); ok {
				return onInterface, "an interface type"
			}
			return 0, "a named " + under + " type"
		}
	}
	if ts.Assign.IsValid() {
		return 0, "an alias"
	}
	switch t := ts.Type.(type) {
	case *ast.StructType:
		return onStruct, "a struct type"
	case *ast.InterfaceType:
		return onInterface, "an interface type"
	case *ast.ArrayType, *ast.MapType:
		return onValue, "a named " + types.ExprString(t) + " type"
	case *ast.Ident:
		if types.Universe.Lookup(t.Name) != nil {
			if _, ok := types.Universe.Lookup(t.Name).Type().Underlying().(*types.Basic); ok {
				return onValue, "a named " + t.Name + " type"
			}
		}
		return onStruct | onValue | onInterface, "a named " + t.Name + " type"
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.ParenExpr:
		return onStruct | onValue | onInterface, "a named " + types.ExprString(t) + " type"
	}
	return 0, "a named " + types.ExprString(ts.Type) + " type"
}

// inFunc reports whether pos is inside the body of a function of file.
func inFunc(file *ast.File, pos token.Pos) bool {
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		if found || n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		switch n.(type) {
		case *ast.BlockStmt:
			found = true
			return false
		}
		return true
	})
	return found
}

// checkDirectiveLine says what is wrong with the comment line text
// (the whole comment, // included) at s (nil when it belongs to no
// declaration: inBody inside a function, header before the package
// clause), or "" when it is no //cborgen: line or one that is right
// where it is.
func checkDirectiveLine(text string, s *site, inBody, header bool) string {
	rest, ok := strings.CutPrefix(text, "//")
	if !ok {
		return ""
	}
	trimmed := strings.TrimLeft(rest, " \t")
	body, ok := strings.CutPrefix(trimmed, "cborgen:")
	if !ok {
		return ""
	}
	what := "" // what the line belongs to, as errors start
	switch {
	case s != nil:
		what = s.what + ": "
	case inBody:
		s = &site{where: "inside a function"}
	case header:
		s = &site{where: "in the file's header, before the package clause"}
	default:
		s = &site{where: "outside any declaration"}
	}
	words := strings.Fields(body)
	written := "//cborgen:" + strings.Join(words, " ")
	if len(trimmed) != len(rest) || strings.HasPrefix(body, " ") || strings.HasPrefix(body, "\t") {
		return fmt.Sprintf("%s%q is a plain comment, not a directive, because of its space: Go directives have no space after // or after the colon. Remove the space (%s) (known: %s)",
			what, text, written, knownDirectives())
	}
	if len(words) == 0 {
		return fmt.Sprintf("%s%s: a directive without a name (known: %s)", what, text, knownDirectives())
	}
	forms := directiveForms(words[0])
	if len(forms) == 0 {
		return fmt.Sprintf("%sunknown directive %s (known: %s)", what, text, knownDirectives())
	}
	var usages []string
	var on place
	matched := false
	for _, d := range forms {
		usages = append(usages, "//cborgen:"+d.usage)
		on |= d.on
		matched = matched || matchUsage(strings.Fields(d.usage), words)
	}
	if !matched {
		return fmt.Sprintf("%s%s: want %s (known: %s)", what, text, strings.Join(usages, " or "), knownDirectives())
	}
	if !s.doc {
		where := s.where
		if !strings.Contains(where, ": move it") {
			where += "; a directive goes in the doc comment of the type it is for"
		}
		return fmt.Sprintf("%s%s is not read %s (known: %s)", what, written, where, knownDirectives())
	}
	if s.kind&on == 0 {
		have := "cbor-gen reads no directive on such a type"
		if list := directivesOn(s.kind); list != "" {
			have = "directives of " + s.kindText + ": " + list
		}
		return fmt.Sprintf("%s%s is for %s; %s is %s (%s)", what, written, placeText(on), strings.TrimPrefix(s.what, "type "), s.kindText, have)
	}
	return ""
}

// directiveForms returns the rows of directiveTable named name.
func directiveForms(name string) []directive {
	var out []directive
	for _, d := range directiveTable {
		if n, _, _ := strings.Cut(d.usage, " "); n == name {
			out = append(out, d)
		}
	}
	return out
}

// matchUsage reports whether the words of a directive line fit the
// words of a usage: literal words as they are, a word in capitals any
// one word, one that ends in ... (V...) the rest of the line.
func matchUsage(usage, words []string) bool {
	for i, u := range usage {
		if i >= len(words) {
			return false
		}
		if rest, ok := strings.CutSuffix(u, "..."); ok && isPlaceholder(rest) {
			return true
		}
		if !isPlaceholder(u) && u != words[i] {
			return false
		}
	}
	return len(words) == len(usage)
}

// isPlaceholder reports whether the usage word u stands for a value (N,
// K, V, F).
func isPlaceholder(u string) bool {
	return u == strings.ToUpper(u) && u != strings.ToLower(u)
}

// knownDirectives lists directiveTable's usages, sorted.
func knownDirectives() string {
	return usagesWhere(func(directive) bool { return true })
}

// directivesOn lists the usages the doc comment of a type of kind may
// hold.
func directivesOn(kind place) string {
	return usagesWhere(func(d directive) bool { return d.on&kind != 0 })
}

func usagesWhere(keep func(directive) bool) string {
	var out []string
	for _, d := range directiveTable {
		if keep(d) {
			out = append(out, "//cborgen:"+d.usage)
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// placeText says which types a directive for on is for.
func placeText(on place) string {
	var out []string
	if on&onStruct != 0 {
		out = append(out, "struct types")
	}
	if on&onValue != 0 {
		out = append(out, "named basic, slice, array and map types")
	}
	if on&onInterface != 0 {
		out = append(out, "interface types")
	}
	return strings.Join(out, " and ")
}
