package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// checkEmbedding refuses a run after which a struct of the package that
// cbor-gen does not generate would embed a type with generated
// MarshalCBOR/UnmarshalCBOR: Go promotes those methods to the outer
// struct, and fxamacker/cbor would then encode the outer struct as the
// embedded type alone, silently dropping its other fields.
//
// The outer struct is safe when it is generated too, has CBOR methods of
// its own, or when the embedded type is //cborgen:embeddable (generated
// without the two fxamacker methods).
func checkEmbedding(l *load.Package, f *model.File) error {
	generated := map[*types.TypeName]*model.Struct{}
	for _, s := range f.Structs {
		if tn := structTypeName(l, s.Name); tn != nil {
			generated[tn] = s
		}
	}
	// marshals reports whether a value of the named type t will have
	// fxamacker's methods from cbor-gen: a type of this run that is not
	// embeddable, or one of another package generated with them.
	marshals := func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		if !ok {
			return false
		}
		if s, ok := generated[n.Origin().Obj()]; ok {
			return !s.Embeddable && !s.Body // a body type's methods are the program's
		}
		return n.Obj().Pkg() != l.Pkg.Types && hasGeneratedMethods(n) && hasSignature(n, "MarshalCBOR", false)
	}
	var errs []error
	scope := l.Pkg.Types.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !isStructType(tn) || generated[tn] != nil {
			continue
		}
		named := tn.Type().(*types.Named)
		if hasOwnMethod(named, "MarshalCBOR") || hasOwnMethod(named, "UnmarshalCBOR") {
			continue
		}
		if via, _ := promotedFrom(named, marshals); via != nil {
			errs = append(errs, &model.PosError{Pos: l.Pkg.Fset.Position(via.Pos()), Msg: fmt.Sprintf(
				"%s embeds %s, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates: Go promotes them to %s, "+
					"so fxamacker/cbor would encode a %s as its %s alone and drop its other fields. "+
					"Generate %s too (add it to -type), give it MarshalCBOR and UnmarshalCBOR of its own, "+
					"name the field (%s %s), or mark %s //cborgen:embeddable",
				name, via.Name(), name, name, via.Name(), name, via.Name(), types.TypeString(via.Type(), types.RelativeTo(l.Pkg.Types)), via.Name())})
		}
	}
	errs = append(errs, checkHiddenEmbedding(l, generated, marshals)...)
	errs = append(errs, checkFileEmbedding(l, f)...)
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}

// checkHiddenEmbedding finds the struct types that no package-scope name
// declares but that Go would give promoted generated methods all the
// same: a type declared inside a function body (the idiom
// `type alias T` in a hand-written MarshalCBOR, which drops T's methods
// and keeps its fields and embeddings), an anonymous struct type written
// in an expression or a declaration (struct{ Payload; Extra int }{...}),
// and an instance of a generic type (Outer[Payload]) whose embedding
// comes from its type arguments. None of them can be generated or given
// methods of its own, so the only fixes are on the embedded side or in
// the field.
func checkHiddenEmbedding(l *load.Package, generated map[*types.TypeName]*model.Struct, marshals func(types.Type) bool) []error {
	info := l.Pkg.TypesInfo
	if info == nil {
		return nil
	}
	pkgScope := l.Pkg.Types.Scope()
	fset := l.Pkg.Fset
	type finding struct {
		pos  token.Pos
		what string
		via  *types.Var
		from types.Type // the generated type whose methods it gets
	}
	var found []finding
	seen := map[types.Type]bool{}
	check := func(t types.Type, pos token.Pos, what string) {
		if seen[t] {
			return
		}
		seen[t] = true
		if n, ok := t.(*types.Named); ok && (hasOwnMethod(n.Origin(), "MarshalCBOR") || hasOwnMethod(n.Origin(), "UnmarshalCBOR")) {
			return
		}
		if _, ok := t.Underlying().(*types.Struct); !ok {
			return
		}
		if via, from := promotedFrom(t, marshals); via != nil {
			found = append(found, finding{pos, what, via, from})
		}
	}
	for id, obj := range info.Defs {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() || tn.Parent() == nil || tn.Parent() == pkgScope {
			continue
		}
		if _, ok := tn.Type().(*types.Named); ok {
			check(tn.Type(), id.Pos(), fmt.Sprintf("the type %s declared inside a function", tn.Name()))
		}
	}
	for _, inst := range info.Instances {
		n, ok := inst.Type.(*types.Named)
		if !ok || n.Obj().Pkg() != l.Pkg.Types || generated[n.Origin().Obj()] != nil {
			continue // a generated type has methods of its own
		}
		if n.Obj().Parent() == pkgScope && hasPromoted(n.Origin(), marshals) {
			continue // the generic type itself is refused already
		}
		check(n, token.NoPos, "the instance "+types.TypeString(n, types.RelativeTo(l.Pkg.Types)))
	}
	// The struct of a type declaration is the named type's, checked above.
	declared := map[ast.Expr]bool{}
	for _, file := range l.Pkg.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				declared[ts.Type] = true
			}
			return true
		})
	}
	for expr, tv := range info.Types {
		if st, ok := tv.Type.(*types.Struct); ok && tv.IsType() && !declared[expr] {
			check(st, expr.Pos(), "the anonymous struct type "+types.TypeString(st, types.RelativeTo(l.Pkg.Types)))
		}
	}
	var errs []error
	for _, fd := range found {
		pos := fd.pos
		if !pos.IsValid() {
			pos = fd.via.Pos()
		}
		vt := types.TypeString(fd.via.Type(), types.RelativeTo(l.Pkg.Types))
		errs = append(errs, &model.PosError{Pos: fset.Position(pos), Msg: fmt.Sprintf(
			"%s gets the MarshalCBOR and UnmarshalCBOR that cbor-gen generates for %s through its embedded field %s, "+
				"so fxamacker/cbor would encode it as that %s alone and drop its other fields, in both directions. "+
				"Mark %s //cborgen:embeddable (generated without those two methods), or name the field (%s %s)",
			fd.what, typeName(fd.from), fd.via.Name(), typeName(fd.from), typeName(fd.from), fd.via.Name(), vt)})
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

// typeName is the name of the named type t, without its type
// arguments: the type to mark //cborgen:embeddable.
func typeName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// hasPromoted reports whether t gets generated methods through one of
// its embedded fields.
func hasPromoted(t types.Type, marshals func(types.Type) bool) bool {
	via, _ := promotedFrom(t, marshals)
	return via != nil
}

// promotedFrom returns the embedded field through which named would get
// the methods of a type that marshals reports, at the shallowest depth
// where exactly one embedded field has them (two at one depth cancel out,
// as Go's selector rules make the method ambiguous), or nil.
func promotedFrom(named types.Type, marshals func(types.Type) bool) (via *types.Var, from types.Type) {
	type level struct {
		t   types.Type
		top *types.Var // the outer struct's own embedded field it is reached through
	}
	current := []level{{t: named}}
	seen := map[types.Type]bool{named: true}
	for depth := 0; len(current) > 0 && depth < 8; depth++ {
		var found []*types.Var
		var fromType types.Type
		var next []level
		for _, lv := range current {
			st, ok := lv.t.Underlying().(*types.Struct)
			if !ok {
				continue
			}
			for i := 0; i < st.NumFields(); i++ {
				fd := st.Field(i)
				if !fd.Embedded() {
					continue
				}
				t := fd.Type()
				if p, ok := types.Unalias(t).(*types.Pointer); ok {
					t = p.Elem()
				}
				top := lv.top
				if top == nil {
					top = fd
				}
				if marshals(t) {
					found = append(found, top)
					fromType = t
					continue
				}
				if n, ok := types.Unalias(t).(*types.Named); ok && (hasOwnMethod(n, "MarshalCBOR") || hasOwnMethod(n, "UnmarshalCBOR")) {
					continue // its own methods win over any deeper ones
				}
				if !seen[t] {
					seen[t] = true
					next = append(next, level{t: t, top: top})
				}
			}
		}
		if len(found) == 1 {
			return found[0], fromType
		}
		if len(found) > 1 {
			return nil, nil
		}
		current = next
	}
	return nil, nil
}

// hasOwnMethod reports whether the named type declares method name itself.
func hasOwnMethod(named *types.Named, name string) bool {
	for i := 0; i < named.NumMethods(); i++ {
		if named.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// structTypeName finds the type of the package named name.
func structTypeName(l *load.Package, name string) *types.TypeName {
	tn, _ := l.Pkg.Types.Scope().Lookup(name).(*types.TypeName)
	return tn
}
