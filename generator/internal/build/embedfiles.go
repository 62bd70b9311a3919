package build

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// The embedding check of the files that the type check does not see.
// checkEmbedding reads the package as go/packages type-checked it: one
// build configuration, without its test files. A struct in a test file
// (of the package or of its external _test package), or in a file that
// another build configuration compiles (//go:build go1.27, a _windows.go
// file), that embeds a generated type loses its other fields all the
// same once that file is built. Those files are read for their syntax
// alone, and an embedded field is resolved by its name as written: T in
// a file of the package itself, pkg.T where pkg imports the package of T.
// -check ./... runs the same check over every package of the module,
// against the types the module's runs generate (EmbeddersOf).

// A GeneratedPackage is what the check knows of a package whose types a
// run generates: its name (what an import of it is called when the
// import does not rename it) and the types that get fxamacker's
// MarshalCBOR and UnmarshalCBOR from cbor-gen (not //cborgen:embeddable,
// not //cborgen:body).
type GeneratedPackage struct {
	Name  string
	Types map[string]bool
	// Build is the output's //go:build line ("" when it has none): a
	// file that cannot build with it never sees the generated methods.
	Build string
}

// EmbeddersOf refuses the structs of the files of the package at path
// (all of one directory, parsed into fset) that embed a type of
// generated, by import path, so that Go would promote its generated
// methods to them. It is the check of -check ./... over the packages of
// the module. known reports whether the check knows every type the
// package at an import path generates (a package of the module, or of
// the standard library); a struct that also embeds a type of a package
// it does not know is left alone, since that type may cancel the
// promotion out.
func EmbeddersOf(fset *token.FileSet, files []*load.File, path string, generated map[string]*GeneratedPackage, known func(path string) bool) []error {
	return fileEmbedders(fset, files, path, generated, known)
}

// checkFileEmbedding is the check of the files of the package l that the
// type check did not see, against the types of this run (generated: the
// struct of each chosen type; build: the output's //go:build line) and
// the generated types of the packages the package imports.
func checkFileEmbedding(l *load.Package, f *model.File) []error {
	if len(l.Others) == 0 {
		return nil
	}
	self := &GeneratedPackage{Name: l.Pkg.Types.Name(), Types: map[string]bool{}, Build: f.Build}
	for _, s := range f.Structs {
		if !s.Embeddable && !s.Body && structTypeName(l, s.Name) != nil {
			self.Types[s.Name] = true
		}
	}
	generated := map[string]*GeneratedPackage{l.Pkg.Types.Path(): self}
	for _, imp := range l.Pkg.Types.Imports() {
		gp := &GeneratedPackage{Name: imp.Name(), Types: map[string]bool{}}
		for _, name := range imp.Scope().Names() {
			tn, ok := imp.Scope().Lookup(name).(*types.TypeName)
			if ok && tn.Exported() && !tn.IsAlias() && hasGeneratedMethods(tn.Type()) && hasSignature(tn.Type(), "MarshalCBOR", false) {
				gp.Types[name] = true
			}
		}
		if len(gp.Types) > 0 {
			generated[imp.Path()] = gp
		}
	}
	loaded := map[string]bool{l.Pkg.Types.Path(): true}
	for _, imp := range l.Pkg.Types.Imports() {
		loaded[imp.Path()] = true
	}
	known := func(path string) bool { return loaded[path] || StandardPath(path) }
	return fileEmbedders(l.Pkg.Fset, l.Others, l.Pkg.Types.Path(), generated, known)
}

// fileEmbedders finds, in files, the struct types with exactly one
// embedded field of a type of generated (more than one at a level
// cancel out: Go's selector rules make the method ambiguous). self is the
// import path of the package the files belong to ("": resolve only
// through imports), whose types a file of the same package name names
// without a qualifier.
func fileEmbedders(fset *token.FileSet, files []*load.File, self string, generated map[string]*GeneratedPackage, known func(string) bool) []error {
	// The struct types with MarshalCBOR or UnmarshalCBOR of their own, by
	// package name and type name: hand-written methods win over promoted
	// ones.
	own := map[string]bool{}
	for _, file := range files {
		for _, d := range file.Syntax.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || (fd.Name.Name != "MarshalCBOR" && fd.Name.Name != "UnmarshalCBOR") {
				continue
			}
			if name := baseTypeName(fd.Recv.List[0].Type); name != "" {
				own[file.Syntax.Name.Name+"."+name] = true
			}
		}
	}
	var errs []error
	for _, file := range files {
		errs = append(errs, embeddersIn(fset, file, self, generated, own, known)...)
	}
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i].(*model.PosError).Pos, errs[j].(*model.PosError).Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return errs
}

// embeddersIn is fileEmbedders for one file.
func embeddersIn(fset *token.FileSet, file *load.File, self string, generated map[string]*GeneratedPackage, own map[string]bool, known func(string) bool) []error {
	f := file.Syntax
	pkgName := f.Name.Name
	// The file's imports by the name it uses them with.
	// An import of a package the check does not know, which the file
	// uses by its package name: the check cannot tell which selectors
	// name its types.
	imports := map[string]string{}
	unknownUnnamed := false
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		gp := generated[path]
		switch {
		case spec.Name != nil && spec.Name.Name != "_" && spec.Name.Name != ".":
			imports[spec.Name.Name] = path
		case spec.Name == nil && gp != nil:
			imports[gp.Name] = path
		case spec.Name == nil && !known(path):
			unknownUnnamed = true
		}
	}
	var local *GeneratedPackage // the file's own package, when it is one of generated
	if gp := generated[self]; self != "" && gp != nil && gp.Name == pkgName {
		local = gp
	}
	// Names the file declares itself hide the package's: a type of the
	// same name in another build configuration is another type.
	declared := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					declared[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						declared[n.Name] = true
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil {
				declared[d.Name.Name] = true
			}
		}
	}
	fileExpr := fileConstraintExpr(file)
	// resolve returns the generated type an embedded field's type names,
	// and the package it is of; unknown when it names a type of a
	// package the check does not know.
	resolve := func(expr ast.Expr, hidden map[string]bool) (name string, gp *GeneratedPackage, unknown bool) {
		switch e := TypeNameExpr(expr).(type) {
		case *ast.Ident:
			if local != nil && local.Types[e.Name] && !declared[e.Name] && !hidden[e.Name] {
				return e.Name, local, false
			}
		case *ast.SelectorExpr:
			q, ok := e.X.(*ast.Ident)
			if !ok || declared[q.Name] || hidden[q.Name] {
				return "", nil, false
			}
			path, named := imports[q.Name]
			if gp := generated[path]; named && gp != nil && gp.Types[e.Sel.Name] {
				return e.Sel.Name, gp, false
			}
			return "", nil, named && !known(path) && generated[path] == nil || !named && unknownUnnamed
		}
		return "", nil, false
	}
	var errs []error
	// check reports the struct st, declared as what (at pos), when it
	// gets generated methods through one of its embedded fields; a
	// package-scope type typeName at the field, as checkEmbedding does.
	check := func(st *ast.StructType, pos token.Pos, what, typeName string, hidden map[string]bool) {
		if typeName != "" && own[pkgName+"."+typeName] {
			return
		}
		var via *ast.Field
		var from string
		var fromPkg *GeneratedPackage
		hits, unknowns := 0, 0
		for _, fd := range st.Fields.List {
			if len(fd.Names) > 0 {
				continue
			}
			name, gp, unknown := resolve(fd.Type, hidden)
			if unknown {
				unknowns++
			}
			if gp == nil || !mayBuildTogether(fileExpr, gp.Build) {
				continue
			}
			hits++
			via, from, fromPkg = fd, name, gp
		}
		if hits != 1 || unknowns > 0 {
			return // none, ambiguous, or maybe ambiguous
		}
		if typeName != "" || !pos.IsValid() {
			pos = via.Pos() // where checkEmbedding puts it
		}
		written := types.ExprString(via.Type)
		fieldName := from
		qualified := from
		if fromPkg != local {
			qualified = types.ExprString(unwrapType(via.Type))
		}
		where := fileDescription(file)
		var fixes string
		if typeName != "" {
			fixes = fmt.Sprintf("Give %s MarshalCBOR and UnmarshalCBOR of its own, name the field (%s %s), or mark %s //cborgen:embeddable (generated without those two methods)",
				typeName, fieldName, written, qualified)
		} else {
			fixes = fmt.Sprintf("Mark %s //cborgen:embeddable (generated without those two methods), or name the field (%s %s)", qualified, fieldName, written)
		}
		errs = append(errs, &model.PosError{Pos: fset.Position(pos), Msg: fmt.Sprintf(
			"%s, in %s, embeds %s, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates: Go promotes them to it, "+
				"so fxamacker/cbor would encode it as its %s alone and drop its other fields, in both directions. %s",
			what, where, qualified, qualified, fixes)})
	}
	// The struct of a type declaration is checked with its declaration.
	declaredStruct := map[*ast.StructType]bool{}
	var walk func(n ast.Node, hidden map[string]bool, inFunc bool)
	walk = func(root ast.Node, hidden map[string]bool, inFunc bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n == root {
					return true
				}
				if n.Body != nil {
					walk(n, localTypes(n), true)
				}
				return false
			case *ast.TypeSpec:
				st, ok := n.Type.(*ast.StructType)
				if !ok || n.Assign.IsValid() {
					return true
				}
				declaredStruct[st] = true
				if inFunc {
					check(st, n.Name.Pos(), "the type "+n.Name.Name+" declared inside a function", "", hidden)
				} else {
					check(st, n.Name.Pos(), n.Name.Name, n.Name.Name, hidden)
				}
			case *ast.StructType:
				if !declaredStruct[n] {
					check(n, n.Pos(), "the anonymous struct type "+types.ExprString(n), "", hidden)
				}
			}
			return true
		})
	}
	walk(f, nil, false)
	return errs
}

// StandardPath reports whether path is that of a package of the
// standard library (its first element has no dot), none of which
// cbor-gen generates.
func StandardPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// localTypes are the names of the types declared inside the function fd,
// which hide the package's types of the same names there.
func localTypes(fd *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok {
			names[ts.Name.Name] = true
		}
		return true
	})
	return names
}

// unwrapType is the type an embedded field's type expression names,
// without its * or type arguments.
func unwrapType(expr ast.Expr) ast.Expr {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		default:
			return expr
		}
	}
}

// baseTypeName is the name of a method receiver's type: T of T, *T, T[K].
func baseTypeName(expr ast.Expr) string {
	if id, ok := unwrapType(expr).(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// fileDescription says which file a finding is in, and why the run's
// own type check does not build it.
func fileDescription(file *load.File) string {
	base := filepath.Base(file.Path)
	var why []string
	if file.Test {
		kind := "a test file"
		if strings.HasSuffix(file.Syntax.Name.Name, "_test") {
			kind = "a test file of the external package " + file.Syntax.Name.Name
		}
		why = append(why, kind)
	}
	if file.Build != "" {
		why = append(why, "built only with //go:build "+file.Build)
	} else if e := nameConstraint(base); e != nil && (file.Left || !file.Test) {
		why = append(why, "built only for "+e.String()+" (its name says so)")
	} else if file.Left {
		why = append(why, "which this build configuration leaves out")
	}
	if len(why) == 0 {
		return base
	}
	return base + " (" + strings.Join(why, ", ") + ")"
}

// fileConstraintExpr is the build constraint of file: its //go:build
// line and what its name says, nil when it builds everywhere (or the
// line does not parse).
func fileConstraintExpr(file *load.File) constraint.Expr {
	var expr constraint.Expr
	if file.Build != "" {
		if e, err := constraint.Parse("//go:build " + file.Build); err == nil {
			expr = e
		}
	}
	if byName := nameConstraint(filepath.Base(file.Path)); byName != nil {
		if expr == nil {
			return byName
		}
		return &constraint.AndExpr{X: expr, Y: byName}
	}
	return expr
}

// mayBuildTogether reports whether some build configuration satisfies
// both the constraint a and the //go:build line b ("": none): whether a
// file under a can see the methods of an output under b. At most one
// GOOS and one GOARCH hold at a time; other tags are free. With more
// tags than are worth trying, the answer is yes.
func mayBuildTogether(a constraint.Expr, b string) bool {
	var exprs []constraint.Expr
	if a != nil {
		exprs = append(exprs, a)
	}
	if b != "" {
		e, err := constraint.Parse(b)
		if err != nil {
			return true
		}
		exprs = append(exprs, e)
	}
	if len(exprs) < 2 {
		return true // one constraint alone is met by its own build
	}
	seen := map[string]bool{}
	var tags []string
	collect(exprs, seen, &tags)
	if len(tags) > 16 {
		return true
	}
	for mask := 0; mask < 1<<len(tags); mask++ {
		set := map[string]bool{}
		oses, arches := 0, 0
		for i, t := range tags {
			if mask&(1<<i) != 0 {
				set[t] = true
			}
		}
		for t := range set {
			if knownOS[t] && !set[impliedBy[t]] {
				oses++
			}
			if knownArch[t] {
				arches++
			}
			if set["unix"] && knownOS[t] && !unixOS[t] {
				oses = 2 // unix holds on none of those
			}
		}
		if oses > 1 || arches > 1 {
			continue
		}
		ok := true
		for _, e := range exprs {
			if !e.Eval(func(tag string) bool { return set[tag] }) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// impliedBy names the GOOS that implies each of these (GOOS=android
// satisfies linux too), and unixOS those that satisfy unix.
var (
	impliedBy = map[string]string{"linux": "android", "darwin": "ios", "solaris": "illumos"}
	unixOS    = setOf("aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris")
)

// collect adds the tags of exprs that seen does not hold to tags.
func collect(exprs []constraint.Expr, seen map[string]bool, tags *[]string) {
	var visit func(e constraint.Expr)
	visit = func(e constraint.Expr) {
		switch e := e.(type) {
		case *constraint.TagExpr:
			if !seen[e.Tag] {
				seen[e.Tag] = true
				*tags = append(*tags, e.Tag)
			}
		case *constraint.NotExpr:
			visit(e.X)
		case *constraint.AndExpr:
			visit(e.X)
			visit(e.Y)
		case *constraint.OrExpr:
			visit(e.X)
			visit(e.Y)
		}
	}
	for _, e := range exprs {
		visit(e)
	}
}

// TypeNameExpr is the name in a type expression, as an embedded field or
// a method's receiver writes it: T or pkg.T without the *, parentheses
// and type arguments around it (*T, (T), T[int], *pkg.T[K, V]).
func TypeNameExpr(expr ast.Expr) ast.Expr {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		default:
			return expr
		}
	}
}
