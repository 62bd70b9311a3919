package build

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The omitempty test of a type that fxamacker/cbor encodes by reflection
// (a field of type Dynamic or Split), decided here as fxamacker decides it
// when it first meets the type (newEncodeFunc and isEmptyStruct in its
// encode.go): by the type's marshalers, else by its kind. A struct is
// tested field by field: it is never empty when one of its fields on the
// wire lacks omitempty, and otherwise empty when each of them is empty by
// its own type's test, a field promoted through a nil embedded pointer
// counting as empty; a struct with fxamacker's toarray option is empty
// only when it has no fields on the wire. The generator reads the
// struct's fields from its type, so a struct of another package is
// tested without generating that package.

// emptyTestOf is the omitempty test of a type that fxamacker/cbor
// encodes; ok is false for a type whose values are never empty. nested
// is true for a field inside a struct that is tested field by field,
// where the generated test is one expression and cannot call
// MarshalBinary. A struct that its package's //go:generate line will
// generate (pending) is never empty, as a type with MarshalCBOR.
func emptyTestOf(t types.Type, q types.Qualifier, pending *pendingGeneration, nested bool) (model.OmitTest, bool, error) {
	t = types.Unalias(t)
	name := types.TypeString(t, q)
	if _, ok := t.Underlying().(*types.Pointer); ok {
		return model.OmitTest{Kind: model.OmitNil}, true, nil
	}
	// The types fxamacker tells apart before it looks at marshalers.
	switch {
	case isNamed(t, fxamackerPath, "SimpleValue"):
		return model.OmitTest{Kind: model.OmitNumZero}, true, nil
	case isNamed(t, fxamackerPath, "Tag"), isNamed(t, "time", "Time"), isNamed(t, "math/big", "Int"):
		return model.OmitTest{}, false, nil
	case isNamed(t, fxamackerPath, "RawMessage"), isNamed(t, fxamackerPath, "ByteString"):
		return model.OmitTest{Kind: model.OmitLen}, true, nil
	case hasMethod(t, "MarshalCBOR"):
		return model.OmitTest{}, false, nil
	case hasMethod(t, "MarshalBinary"):
		if nested {
			return model.OmitTest{}, false, fmt.Errorf("fxamacker/cbor calls MarshalBinary of %s to tell whether it is empty, inside a struct it tests field by field; drop omitempty", name)
		}
		return model.OmitTest{Kind: model.OmitBinary}, true, nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return model.OmitTest{Kind: model.OmitFalse}, true, nil
		case u.Info()&types.IsString != 0:
			return model.OmitTest{Kind: model.OmitLen}, true, nil
		case u.Kind() == types.Uintptr:
			// fxamacker/cbor has no encoder for uintptr.
		case u.Info()&(types.IsInteger|types.IsFloat) != 0:
			return model.OmitTest{Kind: model.OmitNumZero}, true, nil
		}
	case *types.Slice, *types.Map:
		return model.OmitTest{Kind: model.OmitLen}, true, nil
	case *types.Array:
		return model.OmitTest{Kind: model.OmitAlways}, u.Len() == 0, nil
	case *types.Interface:
		return model.OmitTest{Kind: model.OmitNil}, true, nil
	case *types.Struct:
		if n, ok := t.(*types.Named); ok && pending != nil && pending.generates(n.Origin().Obj()) {
			return model.OmitTest{}, false, nil
		}
		return structEmptyTest(t, q, pending)
	}
	return model.OmitTest{}, false, fmt.Errorf("not supported for type %s", name)
}

// structEmptyTest is fxamacker/cbor's isEmptyStruct for the struct type
// t, decided now: never empty (ok false), always empty (OmitAlways), or
// the test of each field (OmitFields).
func structEmptyTest(t types.Type, q types.Qualifier, pending *pendingGeneration) (model.OmitTest, bool, error) {
	name := types.TypeString(t, q)
	st := t.Underlying().(*types.Struct)
	fields, errs := visibleFields(token.NewFileSet(), name, t)
	if len(errs) > 0 {
		msg := errs[0].Error()
		if e, ok := errs[0].(*model.PosError); ok {
			msg = e.Msg
		}
		return model.OmitTest{}, false, fmt.Errorf("fxamacker/cbor cannot encode a struct of type %s: %s", name, msg)
	}
	var wire []candidate
	for _, c := range fields {
		if c.reserved == nil {
			wire = append(wire, c)
		}
	}
	toArray, err := structToArray(st, name)
	if err != nil {
		return model.OmitTest{}, false, err
	}
	if toArray || !slices.ContainsFunc(wire, func(c candidate) bool { return !c.tag.omitEmpty }) {
		if len(wire) == 0 {
			return model.OmitTest{Kind: model.OmitAlways}, true, nil
		}
		if toArray {
			return model.OmitTest{}, false, nil
		}
	} else {
		return model.OmitTest{}, false, nil // a field without omitempty: never empty
	}
	parts := &model.OmitParts{}
	for _, c := range wire {
		test, ok, err := emptyTestOf(c.v.Type(), q, pending, true)
		if err != nil {
			return model.OmitTest{}, false, fmt.Errorf("field %s.%s: %v", name, c.v.Name(), err)
		}
		if !ok {
			return model.OmitTest{}, false, nil // a field that is never empty
		}
		if test.Kind == model.OmitAlways {
			continue
		}
		path, err := selectorPath(t, c)
		if err != nil {
			return model.OmitTest{}, false, fmt.Errorf("field %s.%s: %v", name, c.v.Name(), err)
		}
		parts.Parts = append(parts.Parts, model.OmitPart{Path: path, Test: test})
	}
	if len(parts.Parts) == 0 {
		return model.OmitTest{Kind: model.OmitAlways}, true, nil
	}
	return model.OmitTest{Kind: model.OmitFields, Fields: parts}, true, nil
}

// structToArray reports whether the struct has fxamacker/cbor's toarray
// (or toindefarray) option, as fxamacker reads it from the field "_".
func structToArray(st *types.Struct, name string) (bool, error) {
	opts := structOptions(st)
	a, ia := hasStructOption(opts, ",toarray"), hasStructOption(opts, ",toindefarray")
	if a && ia {
		return false, fmt.Errorf("fxamacker/cbor refuses the struct %s: it has both toarray and toindefarray", name)
	}
	return a || ia, nil
}

// selectorPath is the Go selectors that reach the promoted field c from a
// value of the struct type t, as code of another package may write them:
// an unexported embedded struct is left out and Go promotes past it; the
// selectors are checked to reach the very field fxamacker reads.
func selectorPath(t types.Type, c candidate) ([]model.OmitStep, error) {
	var path []model.OmitStep
	for _, e := range c.via {
		if token.IsExported(e.Name) {
			path = append(path, model.OmitStep{Name: e.Name, Ptr: e.Ptr != nil})
		} else if e.Ptr != nil {
			return nil, fmt.Errorf("it is promoted through the unexported embedded pointer %s, which code outside its package cannot test against nil; drop omitempty", e.Name)
		}
	}
	path = append(path, model.OmitStep{Name: c.v.Name()})
	var index []int
	cur := t
	for _, s := range path {
		obj, idx, _ := types.LookupFieldOrMethod(cur, false, nil, s.Name)
		if obj == nil {
			return nil, fmt.Errorf("code outside its package cannot reach it")
		}
		index = append(index, idx...)
		cur = obj.Type()
	}
	if !slices.Equal(index, c.index) {
		return nil, fmt.Errorf("Go's selector %s reaches another field than fxamacker/cbor reads; drop omitempty", c.v.Name())
	}
	return path, nil
}
