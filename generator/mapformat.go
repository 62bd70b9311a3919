package generator

import (
	"fmt"
	"go/types"
	"slices"
)

// A map-format struct (//cborgen:map) is written as fxamacker/cbor writes
// a struct without toarray: a map of its fields keyed by Field.Key, where
// a field tagged omitempty or omitzero is left out when its value is
// empty or zero by fxamacker's rules. This file decides, once, at
// generation time, how each such field is tested (Field.Omit), and
// refuses what fxamacker would decide only by reflection.

// checkMapFormats refuses directives that contradict //cborgen:map and
// fills in Field.Omit for the fields of every map-format struct.
func checkMapFormats(f *File) error {
	var errs []error
	byName := map[string]*Struct{}
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
				errs = append(errs, &posError{pos: fd.Pos, msg: fmt.Sprintf("field %s.%s: ", s.Name, fd.Name) + fmt.Sprintf(format, args...)})
			}
			if fd.isReserved() {
				fail("runtime.Reserved keeps a slot of an array; a //cborgen:map type has keys, not slots: delete the field (its key may stay unused)")
				continue
			}
			fd.Omit = nil
			if fd.OmitEmpty {
				test, ok, err := emptyTest(fd.Type, byName, q)
				if err != nil {
					fail("omitempty: %v", err)
				} else if ok {
					fd.Omit = append(fd.Omit, test)
				}
			}
			if fd.OmitZero {
				test, err := zeroTest(fd.Type, q)
				if err != nil {
					fail("omitzero: %v", err)
				} else if !slices.Contains(fd.Omit, test) {
					fd.Omit = append(fd.Omit, test)
				}
			}
		}
	}
	if len(errs) > 0 {
		return joinPosErrors(errs)
	}
	return nil
}

// emptyTest is fxamacker/cbor's omitempty test for a value of type t; ok
// is false for a type whose values are never empty (a struct with its own
// marshaler, generated ones included; time.Time; big.Int).
func emptyTest(t Type, structs map[string]*Struct, q types.Qualifier) (test omitTest, ok bool, err error) {
	switch t := t.(type) {
	case Bool:
		return omitTest{omitFalse}, true, nil
	case Int, Float:
		return omitTest{omitNumZero}, true, nil
	case String, Bytes, Slice, Map:
		return omitTest{omitLen}, true, nil
	case ByteArray:
		return omitTest{omitAlways}, t.N == 0, nil
	case Array:
		return omitTest{omitAlways}, t.N == 0, nil
	case Pointer, Union:
		return omitTest{omitNil}, true, nil
	case StructRef:
		if s := structs[t.Name]; s != nil && s.Embeddable {
			return omitTest{}, false, fmt.Errorf("%s is //cborgen:embeddable, so fxamacker/cbor would not call its methods and would test it field by field; drop omitempty", t.Name)
		} else if s != nil && s.HasTag && s.Value != nil {
			// A //cborgen:tag value type is, to fxamacker, a plain type
			// in its TagSet (which takes no type with marshalers): empty
			// as its underlying value is, so a nil Dict is left out,
			// not written as an untagged null a TagSet reader refuses.
			return emptyTest(s.Value, structs, q)
		}
		return omitTest{}, false, nil // fxamacker calls its MarshalCBOR: never empty
	case Time, BigInt:
		return omitTest{}, false, nil
	case Marshaler:
		if t.Raw || isNamed(t.Go, fxamackerPath, "ByteString") {
			return omitTest{omitLen}, true, nil
		}
		return omitTest{}, false, nil
	case BinaryMarshaler:
		return omitTest{omitBinary}, true, nil
	case Dynamic, Split:
		return emptyTestOf(t.goType(), q)
	case TypeParam:
		return omitTest{}, false, fmt.Errorf("whether a value of type parameter %s is empty depends on the type argument; drop omitempty", types.TypeString(t.Go, q))
	}
	return omitTest{}, false, fmt.Errorf("not supported for this type")
}

// emptyTestOf is the omitempty test of a type that fxamacker/cbor
// encodes: by its marshalers, else by its kind.
func emptyTestOf(t types.Type, q types.Qualifier) (omitTest, bool, error) {
	name := types.TypeString(t, q)
	switch {
	case hasMethod(t, "MarshalCBOR"):
		return omitTest{}, false, nil
	case hasMethod(t, "MarshalBinary"):
		return omitTest{omitBinary}, true, nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return omitTest{omitFalse}, true, nil
		case u.Info()&types.IsString != 0:
			return omitTest{omitLen}, true, nil
		case u.Info()&(types.IsInteger|types.IsFloat) != 0:
			return omitTest{omitNumZero}, true, nil
		}
	case *types.Slice, *types.Map:
		return omitTest{omitLen}, true, nil
	case *types.Array:
		return omitTest{omitAlways}, u.Len() == 0, nil
	case *types.Pointer, *types.Interface:
		return omitTest{omitNil}, true, nil
	case *types.Struct:
		return omitTest{}, false, fmt.Errorf("fxamacker/cbor tests a struct of type %s field by field, by reflection; drop omitempty, or generate %s", name, name)
	}
	return omitTest{}, false, fmt.Errorf("not supported for type %s", name)
}

// zeroTest is fxamacker/cbor's omitzero test for a value of type t: the
// type's IsZero method when it has one, else Go's zero value, as
// reflect.Value.IsZero tells it.
func zeroTest(t Type, q types.Qualifier) (omitTest, error) {
	name := types.TypeString(t.goType(), q)
	switch t.(type) {
	case TypeParam:
		return omitTest{}, fmt.Errorf("whether a value of type parameter %s is zero depends on the type argument; drop omitzero", name)
	case BigInt:
		return omitTest{omitBigZero}, nil
	}
	goT := t.goType()
	if hasIsZero(goT) {
		switch goT.Underlying().(type) {
		case *types.Pointer:
			return omitTest{omitNilOrIsZero}, nil
		case *types.Interface:
			return omitTest{}, fmt.Errorf("an interface with an IsZero method is tested by fxamacker/cbor through its dynamic value; drop omitzero")
		}
		return omitTest{omitIsZero}, nil
	}
	switch u := goT.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return omitTest{omitFalse}, nil
		case u.Info()&types.IsString != 0:
			return omitTest{omitLen}, nil
		case u.Info()&(types.IsInteger|types.IsFloat) != 0:
			return omitTest{omitNumZero}, nil // reflect's IsZero: -0.0 == 0 (Go 1.22 and later)
		}
	case *types.Slice, *types.Map, *types.Pointer, *types.Interface:
		return omitTest{omitNil}, nil
	case *types.Array, *types.Struct:
		if types.Comparable(goT) {
			return omitTest{omitEqual}, nil // what reflect's IsZero compares
		}
		return omitTest{}, fmt.Errorf("%s is not comparable, so its zero value cannot be told with ==; give it an IsZero() bool method", name)
	}
	return omitTest{}, fmt.Errorf("not supported for type %s", name)
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
