package build

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// Anonymous struct types (a field of type struct{...}, []struct{...},
// *struct{...} or map[string]struct{}) have no methods of their own, so
// fxamacker/cbor writes them by reflection: as a map keyed by field name,
// or as an array when they carry its toarray option, exactly as it writes
// a named struct without cbor-gen. The builder gives each use a hidden
// named copy, declared in the output with the methods of a
// //cborgen:map type (or of an array type with the toarray option, which
// has no legacy form), so that the bytes are fxamacker's; the holder
// reaches them by converting the field's address, (*cborAnon_T_F)(&v.F),
// which Go allows since the two types have identical underlying types.
//
// The copy is named after the field that uses it (cborAnon_Holder_Items,
// and cborAnon_Holder_Items_Inner for a struct inside that one), not after
// its place among the others, so that the schema record, which names the
// copy as a field's kind and records its keys as those of any map type,
// stays the same when other types come and go.

// anonPrefix starts the names of the hidden copies.
const anonPrefix = "cborAnon_"

// anonAt is where the modeler is, for naming the copies: the struct (or
// value type) and field whose type it is translating.
type anonAt struct {
	name string // "Holder_Items"
	pos  token.Pos
}

// at sets where the modeler is: the field field of the type owner (field
// "" for a value type's underlying type); it returns the setting to put
// back.
func (m *modeler) at(owner, field string, pos token.Pos) anonAt {
	prev := m.anonAt
	name := strings.TrimPrefix(owner, anonPrefix)
	if field != "" {
		name += "_" + field
	}
	m.anonAt = anonAt{name: name, pos: pos}
	return prev
}

// anonModel is the model of the anonymous struct type st: a reference to
// its hidden copy, which it translates and adds to the run.
func (m *modeler) anonModel(st *types.Struct) (model.Type, error) {
	if m.anonAt.name == "" {
		return nil, fmt.Errorf("anonymous struct types are supported only as (part of) a field's type")
	}
	if err := m.writable(st); err != nil {
		return nil, fmt.Errorf("an anonymous struct that the generated file cannot declare: %v", err)
	}
	if mentionsTypeParam(st, map[types.Type]bool{}) {
		return nil, fmt.Errorf("an anonymous struct that uses a type parameter; declare a named generic struct type and add it to -type")
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Embedded() && !isMarker(f.Type()) {
			return nil, fmt.Errorf("an anonymous struct with an embedded field (%s); declare a named struct type and add it to -type", f.Name())
		}
	}
	name := anonPrefix + m.anonAt.name
	for m.pkg.Scope().Lookup(name) != nil || m.anonNames[name] {
		name += "_"
	}
	if m.anonNames == nil {
		m.anonNames = map[string]bool{}
	}
	m.anonNames[name] = true
	tn := types.NewTypeName(m.anonAt.pos, m.pkg, name, nil)
	types.NewNamed(tn, st, nil)
	prev := m.anonAt
	s := m.structModel(tn)
	m.anonAt = prev
	s.Anon = st
	s.MapFormat = !hasToArray(tn)
	m.directives(s, tn)
	m.anons = append(m.anons, s)
	return model.StructRef{Go: st, Name: m.typeString(st), Local: name, HasSize: true, Anon: true}, nil
}

// isMarker reports whether t, the type of an embedded field, is a marker
// that contributes nothing but struct options: a struct type whose
// fields are all "_" and which has no methods, as the Cardano libraries'
// cbor.StructAsArray (struct{ _ struct{} `cbor:",toarray"` }). Embedded
// in an anonymous struct it adds no field and no method (so fxamacker
// still writes the struct by reflection), only its options
// (structOptions): such a struct is an array, as fxamacker writes it.
func isMarker(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	if _, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() != "_" {
			return false
		}
	}
	return types.NewMethodSet(types.NewPointer(t)).Len() == 0
}

// mentionsTypeParam reports whether t refers to a type parameter.
func mentionsTypeParam(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if mentionsTypeParam(t.TypeArgs().At(i), seen) {
				return true
			}
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if mentionsTypeParam(t.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Map:
		return mentionsTypeParam(t.Key(), seen) || mentionsTypeParam(t.Elem(), seen)
	case interface{ Elem() types.Type }:
		return mentionsTypeParam(t.Elem(), seen)
	}
	return false
}
