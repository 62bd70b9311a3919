package build

import (
	"go/types"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The field that keeps what a struct's decoder does not know: a field of
// type runtime.Unknown of the struct itself (exported or not, tagged or
// not), which is never encoded as a field. A map-format struct keeps in
// it the pairs whose keys name no field, an //cborgen:extensible struct
// the elements after its last field; the encoder writes them back.

// isUnknownType reports whether t is runtime.Unknown.
func isUnknownType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == model.UnknownName && n.Obj().Pkg() != nil && model.IsRuntimeType(n.Obj().Pkg().Path())
}

// unknownField finds the runtime.Unknown field of the struct st itself
// and sets s.Unknown to its name; a second one is an error.
func (m *modeler) unknownField(s *model.Struct, st *types.Struct) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !isUnknownType(f.Type()) {
			continue
		}
		if f.Embedded() {
			m.errorf(f.Pos(), "field %s.%s: embed no runtime.Unknown; declare a named field of that type (Extra runtime.Unknown) to keep what the decoder does not know", s.Name, f.Name())
			continue
		}
		if s.Unknown != "" {
			m.errorf(f.Pos(), "field %s.%s: a second runtime.Unknown field (%s keeps the unknown content already)", s.Name, f.Name(), s.Unknown)
			continue
		}
		s.Unknown = f.Name()
	}
}

// unknownCheck refuses a runtime.Unknown field where nothing unknown can
// come: a struct that is neither a map-format nor an //cborgen:extensible
// one. It runs after the directives, which say which it is.
func (m *modeler) unknownCheck(s *model.Struct, tn *types.TypeName) {
	if s.Unknown == "" || s.MapFormat || s.Extensible {
		return
	}
	m.directiveErrs = append(m.directiveErrs, &model.PosError{Pos: m.fset.Position(tn.Pos()), Msg: "type " + s.Name + ": field " + s.Unknown +
		" (runtime.Unknown) keeps the keys of a //cborgen:map type that name no field, or the elements of an //cborgen:extensible array type past its last field; " +
		s.Name + " is an array type that refuses both: add //cborgen:extensible to keep newer versions' elements, or remove the field " +
		"(the legacy map form's unknown keys are skipped: the array format has no place for them)"})
}
