package build

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// Options are the settings the builder reads.
type Options struct {
	Types []string // the -type list; empty: the default selection
	// Pending returns the -type lists of the runs that the //go:generate
	// lines of the package at path make on it (an empty list: the default
	// selection), or none: what a field may use of another package that
	// go generate has not reached yet. nil asks nothing.
	Pending  func(path string) [][]string
	Order    model.KeyOrder
	Time     model.TimeOptions
	NilEmpty bool
	// FloatNone writes every float at its Go width (-float none).
	FloatNone bool
	// NoLegacy gives no type the legacy map decoder (-nolegacy).
	NoLegacy bool
	// Small writes the smaller, slower form of the code (-small).
	Small bool
}

// Model builds the model of the package l: the types to generate, each
// translated from go/types, with the settings of opts stamped on the
// file, the omit rules of map-format fields decided and the unions and
// embeddings checked. The model is complete when Model returns: the
// emitters read it and nothing else.
func Model(l *load.Package, opts Options) (*model.File, error) {
	f, pending, err := translate(l, opts.Types, opts.Pending, opts.Order, opts.NoLegacy)
	if err != nil {
		return nil, err
	}
	f.Time = opts.Time
	f.NilEmpty = opts.NilEmpty
	f.FloatNone = opts.FloatNone
	f.Small = opts.Small
	if err := checkMapFormats(f, pending); err != nil {
		return nil, err
	}
	if err := checkOptional(f); err != nil { // optional.go
		return nil, err
	}
	// The omit tests may ask too, of the structs inside a struct that
	// fxamacker tests field by field.
	f.Pending = pending.runs != nil
	if err := checkUnions(f); err != nil {
		return nil, err
	}
	if err := checkBodyVariants(f); err != nil {
		return nil, err
	}
	if err := checkEmbedding(l, f); err != nil {
		return nil, err
	}
	return f, nil
}

// translate selects the struct types of the loaded package and
// translates them. With typeNames (-type) empty it takes every exported
// struct type that has no hand-written CBOR methods of its own. pending
// says what other packages will generate (Options.Pending); the answers
// are returned for the omit rules to ask more.
func translate(l *load.Package, typeNames []string, pending func(string) [][]string, order model.KeyOrder, noLegacy bool) (*model.File, *pendingGeneration, error) {
	directiveErrs, refused := checkDirectives(l) // directivecheck.go
	unions := unionInterfaces(l)
	chosen, notes, err := chooseTypes(l, typeNames, unions)
	if err != nil {
		if len(directiveErrs) > 0 {
			// A misspelt or misplaced directive may be why.
			return nil, nil, model.JoinPosErrors(append(directiveErrs, err))
		}
		return nil, nil, err
	}
	build, err := outputConstraint(l, chosen)
	if err != nil {
		return nil, nil, model.JoinPosErrors([]error{err})
	}
	pkg := l.Pkg.Types
	f := &model.File{Package: pkg.Name(), Path: pkg.Path(), Order: order, Build: build, Taken: map[string]bool{}}
	for _, name := range pkg.Scope().Names() {
		f.Taken[name] = true
	}
	m := newModeler(l, pending, unions, chosen)
	m.noLegacy = noLegacy
	m.directiveErrs, m.refused = directiveErrs, refused
	for _, tn := range chosen {
		s := m.structModel(tn)
		m.directives(s, tn)
		f.Structs = append(f.Structs, s)
	}
	f.Unions = m.unionVariants(unions, chosen, f.Structs)
	f.Structs = append(f.Structs, m.anons...) // the copies of anonymous structs (anon.go)
	f.Pending = m.pending.runs != nil
	if len(m.errs) > 0 {
		return nil, nil, model.JoinPosErrors(append(m.errs, directiveErrs...))
	}
	if len(m.directiveErrs) > 0 {
		return nil, nil, model.JoinPosErrors(m.directiveErrs)
	}
	f.Foreign = m.foreignShapes(f.Structs) // foreign.go
	if len(m.notes) > 0 {
		// The slow path is runtime/dynamic, which imports fxamacker/cbor:
		// a module that did not need it before must now list it.
		m.notes = append(m.notes, &model.PosError{Pos: l.Pkg.Fset.Position(chosen[0].Pos()), Msg: "note: the fields on the slow path make " +
			"the generated code import " + model.ModulePath + "/runtime/dynamic, which needs github.com/fxamacker/cbor/v2 in go.mod: " +
			"if the next go build asks for it, run go mod tidy"})
	}
	if notes = append(notes, m.notes...); len(notes) > 0 {
		f.Notes = strings.Split(model.JoinPosErrors(notes).Error(), "\n")
	}
	return f, m.pending, nil
}

// chooseTypes returns the types to generate in source order: those named
// (each once), or with names empty every exported struct type, and every
// exported value type that has a tag directive or implements one of
// unions, that has no CBOR methods of its own, and every exported type
// marked //cborgen:body, whose CBOR methods are its hooks. notes say why
// a type that looks like a candidate is left out.
func chooseTypes(l *load.Package, names []string, unions []*types.TypeName) (chosen []*types.TypeName, notes []error, err error) {
	if len(names) > 0 {
		chosen, err = namedTypes(l, names, unions)
	} else {
		chosen, notes, err = defaultTypes(l, unions)
	}
	if err != nil {
		return nil, nil, err
	}
	fset := l.Pkg.Fset
	sort.SliceStable(chosen, func(i, j int) bool {
		a, b := fset.Position(chosen[i].Pos()), fset.Position(chosen[j].Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return chosen, notes, nil
}

// namedTypes looks up the types named with -type, each once.
func namedTypes(l *load.Package, names []string, unions []*types.TypeName) ([]*types.TypeName, error) {
	pkg := l.Pkg.Types
	var chosen []*types.TypeName
	var errs []error
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		tn, err := explicitType(l, name)
		if err != nil && pkg.Scope().Lookup(name) == nil {
			if pos, ok := testFileType(l.Dir, name); ok {
				err = testFileTypeError(pos, name)
			}
		}
		if err == nil {
			if why := nothingToGenerate(l, tn, unions); why != "" {
				err = &model.PosError{Pos: l.Pkg.Fset.Position(tn.Pos()), Msg: why}
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		chosen = append(chosen, tn)
	}
	if len(errs) > 0 {
		return nil, model.JoinPosErrors(errs)
	}
	return chosen, nil
}

// defaultTypes is the selection without -type; a package with nothing to
// generate is an error.
func defaultTypes(l *load.Package, unions []*types.TypeName) (chosen []*types.TypeName, notes []error, err error) {
	pkg := l.Pkg.Types
	scope := pkg.Scope()
	var errs []error
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() || !(isStructType(tn) || isValueType(tn) && (hasTagDirective(l, tn) || implementsAny(tn, unions) || hasBodyDoc(l.Pkg.Syntax, tn))) {
			continue
		}
		if hasBodyDoc(l.Pkg.Syntax, tn) {
			if why := bodyHooks(tn); why != "" {
				errs = append(errs, &model.PosError{Pos: l.Pkg.Fset.Position(tn.Pos()), Msg: why})
				continue
			}
		} else if skip, why := notGenerated(tn); skip {
			if why != "" {
				notes = append(notes, &model.PosError{Pos: l.Pkg.Fset.Position(tn.Pos()), Msg: "note: " + why})
			}
			continue
		}
		chosen = append(chosen, tn)
	}
	if len(errs) > 0 {
		return nil, nil, model.JoinPosErrors(errs)
	}
	if len(chosen) == 0 {
		return nil, nil, fmt.Errorf("package %s has no exported struct types to generate (name them with -type)", pkg.Path())
	}
	return chosen, notes, nil
}

// newModeler returns the builder of the models of chosen, which knows
// the package's union interfaces and what other packages will generate
// of the types chosen's fields need.
func newModeler(l *load.Package, pending func(string) [][]string, unions, chosen []*types.TypeName) *modeler {
	fset := l.Pkg.Fset
	m := &modeler{
		fset:     fset,
		pkg:      l.Pkg.Types,
		syntax:   l.Pkg.Syntax,
		selected: map[*types.TypeName]bool{},
		visiting: map[*types.Named]bool{},
		pending:  &pendingGeneration{selections: pending},
		unions:   map[*types.TypeName]*model.UnionType{},
	}
	for _, u := range unions {
		um := &model.UnionType{Name: u.Name(), Pos: fset.Position(u.Pos())}
		m.unionDirective(um, u) // unions.go
		m.unions[u] = um
	}
	for _, tn := range chosen {
		m.selected[tn] = true
	}
	return m
}

// unionVariants completes the model of each union with its variants: the
// chosen types (modelled as structs, in the same order) that implement
// it, by value or by pointer.
func (m *modeler) unionVariants(unions, chosen []*types.TypeName, structs []*model.Struct) []*model.UnionType {
	var out []*model.UnionType
	for _, u := range unions {
		um := m.unions[u]
		iface := u.Type().Underlying().(*types.Interface)
		for i, tn := range chosen {
			switch {
			case types.Implements(tn.Type(), iface):
				um.Variants = append(um.Variants, &model.Variant{Struct: structs[i]})
			case types.Implements(types.NewPointer(tn.Type()), iface):
				um.Variants = append(um.Variants, &model.Variant{Struct: structs[i], Ptr: true})
			}
		}
		out = append(out, um)
	}
	return out
}

// explicitType checks a type named with -type.
func explicitType(l *load.Package, name string) (*types.TypeName, error) {
	fset, scope, pkgPath := l.Pkg.Fset, l.Pkg.Types.Scope(), l.Pkg.Types.Path()
	obj := scope.Lookup(name)
	if obj == nil {
		return nil, fmt.Errorf("-type %s: no such type in package %s%s", name, pkgPath, closeNames(scope, name))
	}
	at := func(format string, args ...any) error {
		return &model.PosError{Pos: fset.Position(obj.Pos()), Msg: fmt.Sprintf(format, args...)}
	}
	tn, ok := obj.(*types.TypeName)
	switch {
	case !ok:
		return nil, at("-type %s: %s is not a type", name, name)
	case tn.IsAlias():
		return nil, at("-type %s: %s is an alias; name the type it stands for", name, name)
	case !isStructType(tn) && !isValueType(tn):
		return nil, at("-type %s: %s is not a struct type, nor a named basic, slice, array or map type", name, name)
	}
	if hasBodyDoc(l.Pkg.Syntax, tn) {
		if why := bodyHooks(tn); why != "" {
			return nil, at("-type %s: %s", name, why)
		}
	} else if have := existingMethods(tn); len(have) > 0 {
		return nil, at("-type %s: %s already has a method %s; remove it, leave the type out, or mark it //cborgen:body "+
			"to keep its own MarshalCBOR and UnmarshalCBOR and generate AppendCBORBody and DecodeCBORBody for them to call", name, name, have[0])
	}
	if why := binaryEncoded(tn); why != "" {
		return nil, at("-type %s: %s; generating it would change its encoding and make data written by fxamacker/cbor undecodable. Leave it out of -type, or drop the method (for an embedded time.Time: make it a named field)", name, why)
	}
	return tn, nil
}

// unionInterfaces lists the interface types of the package declared with
// //cborgen:union, in name order.
func unionInterfaces(l *load.Package) []*types.TypeName {
	var out []*types.TypeName
	scope := l.Pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Interface); !ok {
			continue
		}
		for _, cm := range typeDoc(l.Pkg.Syntax, tn) {
			if t := strings.TrimSpace(cm.Text); t == "//cborgen:union" || strings.HasPrefix(t, "//cborgen:union ") {
				out = append(out, tn)
				break
			}
		}
	}
	return out
}

// implementsAny reports whether tn or *tn implements one of the unions.
func implementsAny(tn *types.TypeName, unions []*types.TypeName) bool {
	for _, u := range unions {
		iface := u.Type().Underlying().(*types.Interface)
		if types.Implements(tn.Type(), iface) || types.Implements(types.NewPointer(tn.Type()), iface) {
			return true
		}
	}
	return false
}
