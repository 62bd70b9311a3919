package generator

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// buildModel selects the struct types of the loaded package and translates
// them. With cfg.Types empty it takes every exported struct type that has
// no hand-written CBOR methods of its own.
func buildModel(l *loaded, cfg Config, order keyOrder) (*File, error) {
	pkg := l.pkg.Types
	scope := pkg.Scope()
	var chosen []*types.TypeName
	var errs, notes []error
	unions := unionInterfaces(l)
	if len(cfg.Types) > 0 {
		seen := map[string]bool{}
		for _, name := range cfg.Types {
			if seen[name] {
				continue
			}
			seen[name] = true
			tn, err := explicitType(l.pkg.Fset, scope, name, pkg.Path())
			if err != nil {
				errs = append(errs, err)
				continue
			}
			chosen = append(chosen, tn)
		}
	} else {
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() || !(isStructType(tn) || isValueType(tn) && (hasTagDirective(l, tn) || implementsAny(tn, unions))) {
				continue
			}
			if skip, why := notGenerated(tn); skip {
				if why != "" {
					notes = append(notes, &posError{pos: l.pkg.Fset.Position(tn.Pos()), msg: "note: " + why})
				}
				continue
			}
			chosen = append(chosen, tn)
		}
		if len(chosen) == 0 {
			return nil, fmt.Errorf("package %s has no exported struct types to generate (name them with -type)", pkg.Path())
		}
	}
	if len(errs) > 0 {
		return nil, joinPosErrors(errs)
	}
	fset := l.pkg.Fset
	sort.SliceStable(chosen, func(i, j int) bool {
		a, b := fset.Position(chosen[i].Pos()), fset.Position(chosen[j].Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})

	m := &modeler{
		fset:     fset,
		pkg:      pkg,
		syntax:   l.pkg.Syntax,
		selected: map[*types.TypeName]bool{},
		visiting: map[*types.Named]bool{},
		pending:  &pendingGeneration{dir: l.dir, flags: tagFlags(cfg.Tags)},
		unions:   map[*types.TypeName]*UnionType{},
	}
	for _, u := range unions {
		m.unions[u] = &UnionType{Name: u.Name(), Pos: fset.Position(u.Pos())}
	}
	for _, tn := range chosen {
		m.selected[tn] = true
	}
	build, err := outputConstraint(l, chosen)
	if err != nil {
		return nil, joinPosErrors([]error{err})
	}
	f := &File{Package: pkg.Name(), Path: pkg.Path(), Order: order, Build: build, Taken: map[string]bool{}}
	for _, name := range scope.Names() {
		f.Taken[name] = true
	}
	for _, tn := range chosen {
		s := m.structModel(tn)
		m.directives(s, tn)
		f.Structs = append(f.Structs, s)
	}
	// The variants of each union: the chosen types that implement it.
	for _, u := range unions {
		um := m.unions[u]
		iface := u.Type().Underlying().(*types.Interface)
		for i, tn := range chosen {
			switch {
			case types.Implements(tn.Type(), iface):
				um.Variants = append(um.Variants, &Variant{Struct: f.Structs[i]})
			case types.Implements(types.NewPointer(tn.Type()), iface):
				um.Variants = append(um.Variants, &Variant{Struct: f.Structs[i], Ptr: true})
			}
		}
		f.Unions = append(f.Unions, um)
	}
	if len(m.errs) > 0 {
		return nil, joinPosErrors(m.errs)
	}
	if len(m.directiveErrs) > 0 {
		return nil, joinPosErrors(m.directiveErrs)
	}
	if notes = append(notes, m.notes...); len(notes) > 0 {
		f.Notes = strings.Split(joinPosErrors(notes).Error(), "\n")
	}
	return f, nil
}

// explicitType checks a type named with -type.
func explicitType(fset *token.FileSet, scope *types.Scope, name, pkgPath string) (*types.TypeName, error) {
	obj := scope.Lookup(name)
	if obj == nil {
		return nil, fmt.Errorf("-type %s: no such type in package %s%s", name, pkgPath, closeNames(scope, name))
	}
	at := func(format string, args ...any) error {
		return &posError{pos: fset.Position(obj.Pos()), msg: fmt.Sprintf(format, args...)}
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
	if have := existingMethods(tn); len(have) > 0 {
		return nil, at("-type %s: %s already has a method %s; remove it or leave the type out", name, name, have[0])
	}
	if why := binaryEncoded(tn); why != "" {
		return nil, at("-type %s: %s; generating it would change its encoding and make data written by fxamacker/cbor undecodable. Leave it out of -type, or drop the method (for an embedded time.Time: make it a named field)", name, why)
	}
	return tn, nil
}

// unionInterfaces lists the interface types of the package declared with
// //cborgen:union, in name order.
func unionInterfaces(l *loaded) []*types.TypeName {
	var out []*types.TypeName
	scope := l.pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Interface); !ok {
			continue
		}
		for _, cm := range typeDoc(l.pkg.Syntax, tn) {
			if strings.TrimSpace(cm.Text) == "//cborgen:union" {
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
