package build

import (
	"fmt"
	"go/types"

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
			return !s.Embeddable
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
		if via := promotedFrom(named, marshals); via != nil {
			errs = append(errs, &model.PosError{Pos: l.Pkg.Fset.Position(via.Pos()), Msg: fmt.Sprintf(
				"%s embeds %s, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates: Go promotes them to %s, "+
					"so fxamacker/cbor would encode a %s as its %s alone and drop its other fields. "+
					"Generate %s too (add it to -type), give it MarshalCBOR and UnmarshalCBOR of its own, "+
					"name the field (%s %s), or mark %s //cborgen:embeddable",
				name, via.Name(), name, name, via.Name(), name, via.Name(), types.TypeString(via.Type(), types.RelativeTo(l.Pkg.Types)), via.Name())})
		}
	}
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}

// promotedFrom returns the embedded field through which named would get
// the methods of a type that marshals reports, at the shallowest depth
// where exactly one embedded field has them (two at one depth cancel out,
// as Go's selector rules make the method ambiguous), or nil.
func promotedFrom(named *types.Named, marshals func(types.Type) bool) *types.Var {
	type level struct {
		t   types.Type
		top *types.Var // the outer struct's own embedded field it is reached through
	}
	current := []level{{t: named}}
	seen := map[types.Type]bool{named: true}
	for depth := 0; len(current) > 0 && depth < 8; depth++ {
		var found []*types.Var
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
			return found[0]
		}
		if len(found) > 1 {
			return nil
		}
		current = next
	}
	return nil
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
