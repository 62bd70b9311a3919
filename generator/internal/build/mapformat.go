package build

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// A map-format struct (//cborgen:map) is written as fxamacker/cbor writes
// a struct without toarray: a map of its fields keyed by Field.Key, where
// a field tagged omitempty or omitzero is left out when its value is
// empty or zero by fxamacker's rules. This file decides, once, at
// generation time, how each such field is tested (Field.Omit), and
// refuses, saying why, what cannot be decided so (a type parameter, an
// interface's IsZero). A struct that fxamacker encodes by reflection is
// tested field by field, as fxamacker tests it (emptystruct.go).

// checkMapFormats refuses directives that contradict //cborgen:map and
// fills in Field.Omit for the fields of every map-format struct. pending
// says which structs of other packages their //go:generate lines will
// generate.
func checkMapFormats(f *model.File, pending *pendingGeneration) error {
	var errs []error
	byName := map[string]*model.Struct{}
	for _, s := range f.Structs {
		byName[s.Name] = s
	}
	// Types in messages as the package's own code names them.
	q := func(p *types.Package) string {
		if p.Path() == f.Path {
			return ""
		}
		return p.Name()
	}
	for _, s := range f.Structs {
		if !s.MapFormat {
			continue
		}
		for _, fd := range s.Fields {
			fail := func(format string, args ...any) {
				errs = append(errs, &model.PosError{Pos: fd.Pos, Msg: fmt.Sprintf("field %s.%s: ", s.Name, fd.Name) + fmt.Sprintf(format, args...)})
			}
			if fd.IsReserved() {
				fail("runtime.Reserved keeps a slot of an array; a //cborgen:map type has keys, not slots: delete the field (its key may stay unused)")
				continue
			}
			fd.Omit = nil
			if fd.OmitEmpty {
				test, ok, err := emptyTest(fd.Type, byName, q, pending)
				if err != nil {
					fail("omitempty: %v", err)
				} else if ok {
					fd.Omit = append(fd.Omit, test)
				}
			}
			if fd.OmitZero {
				test, err := zeroTest(fd.Type, q, f.Path)
				if err != nil {
					fail("omitzero: %v", err)
				} else if !slices.Contains(fd.Omit, test) {
					fd.Omit = append(fd.Omit, test)
				}
			}
		}
	}
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}

// emptyTest is fxamacker/cbor's omitempty test for a value of type t; ok
// is false for a type whose values are never empty (a struct with its own
// marshaler, generated ones included; time.Time; big.Int).
func emptyTest(t model.Type, structs map[string]*model.Struct, q types.Qualifier, pending *pendingGeneration) (test model.OmitTest, ok bool, err error) {
	switch t := t.(type) {
	case model.Bool:
		return model.OmitTest{Kind: model.OmitFalse}, true, nil
	case model.Int, model.Float:
		return model.OmitTest{Kind: model.OmitNumZero}, true, nil
	case model.String, model.Bytes, model.Slice, model.Map:
		return model.OmitTest{Kind: model.OmitLen}, true, nil
	case model.ByteArray:
		return model.OmitTest{Kind: model.OmitAlways}, t.N == 0, nil
	case model.Array:
		return model.OmitTest{Kind: model.OmitAlways}, t.N == 0, nil
	case model.Pointer, model.Union:
		return model.OmitTest{Kind: model.OmitNil}, true, nil
	case model.StructRef:
		if t.Anon {
			// fxamacker writes an anonymous struct by reflection: it
			// tests it field by field (emptystruct.go).
			return emptyTestOf(t.Go, q, pending, false)
		}
		if s := structs[t.Name]; s != nil && s.Embeddable {
			return model.OmitTest{}, false, fmt.Errorf("%s is //cborgen:embeddable, so fxamacker/cbor would not call its methods and would test it field by field; drop omitempty", t.Name)
		} else if s != nil && s.HasTag && s.Value != nil {
			// A //cborgen:tag value type is, to fxamacker, a plain type
			// in its TagSet (which takes no type with marshalers): empty
			// as its underlying value is, so a nil Dict is left out,
			// not written as an untagged null a TagSet reader refuses.
			return emptyTest(s.Value, structs, q, pending)
		}
		return model.OmitTest{}, false, nil // fxamacker calls its MarshalCBOR: never empty
	case model.Time, model.BigInt:
		return model.OmitTest{}, false, nil
	case model.Marshaler:
		if t.Raw || isNamed(t.Go, fxamackerPath, "ByteString") {
			return model.OmitTest{Kind: model.OmitLen}, true, nil
		}
		return model.OmitTest{}, false, nil
	case model.BinaryMarshaler:
		return model.OmitTest{Kind: model.OmitBinary}, true, nil
	case model.Dynamic, model.Split:
		return emptyTestOf(t.GoType(), q, pending, false)
	case model.TypeParam:
		return model.OmitTest{}, false, fmt.Errorf("whether a value of type parameter %s is empty depends on the type argument; drop omitempty", types.TypeString(t.Go, q))
	}
	return model.OmitTest{}, false, fmt.Errorf("not supported for this type")
}

// zeroTest is fxamacker/cbor's omitzero test for a value of type t: the
// type's IsZero method when it has one, else Go's zero value, as
// reflect.Value.IsZero tells it.
func zeroTest(t model.Type, q types.Qualifier, own string) (model.OmitTest, error) {
	name := types.TypeString(t.GoType(), q)
	switch t.(type) {
	case model.TypeParam:
		return model.OmitTest{}, fmt.Errorf("whether a value of type parameter %s is zero depends on the type argument; drop omitzero", name)
	case model.BigInt:
		return model.OmitTest{Kind: model.OmitBigZero}, nil
	}
	goT := t.GoType()
	if hasIsZero(goT) {
		switch goT.Underlying().(type) {
		case *types.Pointer:
			return model.OmitTest{Kind: model.OmitNilOrIsZero}, nil
		case *types.Interface:
			return model.OmitTest{}, fmt.Errorf("an interface with an IsZero method is tested by fxamacker/cbor through its dynamic value; drop omitzero")
		}
		return model.OmitTest{Kind: model.OmitIsZero}, nil
	}
	switch u := goT.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return model.OmitTest{Kind: model.OmitFalse}, nil
		case u.Info()&types.IsString != 0:
			return model.OmitTest{Kind: model.OmitLen}, nil
		case u.Info()&(types.IsInteger|types.IsFloat) != 0:
			return model.OmitTest{Kind: model.OmitNumZero}, nil // reflect's IsZero: -0.0 == 0 (Go 1.22 and later)
		}
	case *types.Slice, *types.Map, *types.Pointer, *types.Interface:
		return model.OmitTest{Kind: model.OmitNil}, nil
	case *types.Array, *types.Struct:
		if types.Comparable(goT) {
			return model.OmitTest{Kind: model.OmitEqual}, nil // what reflect's IsZero compares
		}
		// reflect's IsZero part by part: every field, every element.
		part, err := zeroParts(goT, q, own, name, name)
		if err != nil {
			return model.OmitTest{}, err
		}
		return model.OmitTest{Kind: model.OmitZeroParts, Zero: part}, nil
	}
	return model.OmitTest{}, fmt.Errorf("not supported for type %s", name)
}

// zeroParts is reflect.Value.IsZero of a value of type t, as the
// generated code of package own can test it: == where t is comparable
// (what reflect compares), nil for the kinds that can be nil, else field
// by field (every field but "_", unexported ones too) or element by
// element. path names the part in messages; a field the code cannot
// reach (unexported in another package) or a type it cannot name is
// refused, with the fix.
func zeroParts(t types.Type, q types.Qualifier, own, root, path string) (*model.ZeroPart, error) {
	giveIsZero := func(format string, args ...any) error {
		what := root + " is not comparable and "
		if path != root {
			what += "its part " + strings.TrimPrefix(path, root) + " "
		}
		return fmt.Errorf(what+format+", so the generated code cannot test it for its zero value; give the field's type an IsZero() bool method", args...)
	}
	if _, isParam := types.Unalias(t).(*types.TypeParam); isParam {
		return nil, giveIsZero("holds a value of type parameter %s", types.TypeString(t, q))
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return &model.ZeroPart{Kind: model.PartFalse, Go: t}, nil
		case u.Info()&types.IsString != 0:
			return &model.ZeroPart{Kind: model.PartText, Go: t}, nil
		case u.Info()&types.IsNumeric != 0:
			return &model.ZeroPart{Kind: model.PartNum, Go: t}, nil
		case u.Kind() == types.UnsafePointer:
			return &model.ZeroPart{Kind: model.PartNil, Go: t}, nil
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return &model.ZeroPart{Kind: model.PartNil, Go: t}, nil
	case *types.Struct, *types.Array:
		if types.Comparable(t) {
			if n, ok := types.Unalias(t).(*types.Named); ok && !n.Obj().Exported() && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != own {
				return nil, giveIsZero("holds %s, unexported in package %s", n.Obj().Name(), n.Obj().Pkg().Path())
			}
			return &model.ZeroPart{Kind: model.PartEqual, Go: t}, nil
		}
		if a, ok := u.(*types.Array); ok {
			elem, err := zeroParts(a.Elem(), q, own, root, path+"[i]")
			if err != nil {
				return nil, err
			}
			return &model.ZeroPart{Kind: model.PartElems, Go: t, Elem: elem}, nil
		}
		st := u.(*types.Struct)
		part := &model.ZeroPart{Kind: model.PartFields, Go: t}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if f.Name() == "_" {
				continue // reflect's IsZero passes over "_"
			}
			if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != own {
				return nil, giveIsZero("has the field %s, unexported in package %s", f.Name(), f.Pkg().Path())
			}
			fp, err := zeroParts(f.Type(), q, own, root, path+"."+f.Name())
			if err != nil {
				return nil, err
			}
			part.Fields = append(part.Fields, model.ZeroField{Name: f.Name(), Part: fp})
		}
		return part, nil
	}
	return nil, giveIsZero("holds a %s", types.TypeString(t, q))
}

// hasIsZero reports whether t or *t has the method IsZero() bool, which
// fxamacker/cbor's omitzero calls.
func hasIsZero(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	if _, isPtr := t.Underlying().(*types.Pointer); isPtr {
		ms = types.NewMethodSet(t)
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		ms = types.NewMethodSet(t)
	}
	sel := ms.Lookup(nil, "IsZero")
	if sel == nil {
		return false
	}
	sig, ok := sel.Type().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 &&
		types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool])
}

// hasMethod reports whether t or *t has a method of that name.
func hasMethod(t types.Type, name string) bool {
	return types.NewMethodSet(types.NewPointer(t)).Lookup(nil, name) != nil
}

// fxamackerPath is the import path of fxamacker/cbor.
const fxamackerPath = "github.com/fxamacker/cbor/v2"

// isNamed reports whether t is the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}
