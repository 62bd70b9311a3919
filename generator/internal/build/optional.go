package build

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// Two directives of array structs that COSE, ledgers and versioned
// records need:
//
// //cborgen:optional N: the fields from slot N on are optional at the end
// of the array. The encoder ends the array before the trailing run of
// them whose values are zero, as fxamacker/cbor's omitzero tells zero
// (zeroTest: the type's IsZero method, else Go's zero value: false, 0,
// "", nil pointer, slice, map and interface, a struct or array equal to
// its zero value); checkOptional puts that test in each such field's Omit.
// A zero field before a field that is written is written. Decoding takes
// arrays of N or more elements (the directive implies //cborgen:required
// N, directives.go), the missing fields zero: so a value whose trailing
// fields are cut decodes as the value that was written.
//
// //cborgen:raw F: the field F, a []byte that is not encoded, holds the
// bytes each value was decoded from (rawDirective checks F; the emitters
// wrap DecodeCBOR, emit/raw.go).

// checkOptional decides, for every struct with //cborgen:optional, how
// each optional field is tested for zero (Field.Omit), and refuses the
// fields whose zero value cannot be told.
func checkOptional(f *model.File) error {
	var errs []error
	q := func(p *types.Package) string {
		if p.Path() == f.Path {
			return ""
		}
		return p.Name()
	}
	for _, s := range f.Structs {
		if !s.HasOptionalFrom {
			continue
		}
		for _, fd := range s.Fields[s.OptionalFrom:] {
			fail := func(format string, args ...any) {
				errs = append(errs, &model.PosError{Pos: fd.Pos, Msg: fmt.Sprintf("field %s.%s (optional from slot %d): ", s.Name, fd.Name, s.OptionalFrom) + fmt.Sprintf(format, args...)})
			}
			fd.Omit = nil
			if fd.IsReserved() {
				// A retired slot is written as null and read as nothing:
				// always zero.
				fd.Omit = []model.OmitTest{{Kind: model.OmitAlways}}
				continue
			}
			for _, e := range fd.Via {
				if e.Ptr != nil {
					fail("it is promoted through the embedded pointer %s, which may be nil; an optional field must be reached without one", e.Name)
					break
				}
			}
			test, err := zeroTest(fd.Type, q, f.Path)
			if err != nil {
				fail("%v", err)
				continue
			}
			fd.Omit = []model.OmitTest{test}
		}
	}
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}

// rawDirective checks //cborgen:raw F on s: F is a field of the struct
// itself whose type is a byte slice, and it is not encoded (cbor:"-", or
// unexported), so that the bytes it holds are not part of what they hold.
func (m *modeler) rawDirective(s *model.Struct, tn *types.TypeName, at *ast.Comment, fail func(*ast.Comment, string, ...any)) {
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok || s.Value != nil {
		fail(at, "type %s: %s: only a struct has a field to keep its bytes in", s.Name, at.Text)
		return
	}
	if s.Body {
		fail(at, "type %s: %s: a //cborgen:body type's own UnmarshalCBOR receives the bytes already; keep them there", s.Name, at.Text)
		return
	}
	var fv *types.Var
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == s.Raw {
			fv = st.Field(i)
		}
	}
	if fv == nil {
		fail(at, "type %s: %s: the struct has no field %s (a field of the struct itself, not promoted)", s.Name, at.Text, s.Raw)
		return
	}
	if sl, ok := fv.Type().Underlying().(*types.Slice); !ok || !isByte(sl.Elem()) {
		fail(at, "type %s: %s: field %s is %s; the bytes go into a []byte", s.Name, at.Text, s.Raw, fv.Type())
		return
	}
	for _, fd := range s.Fields {
		if fd.Name == s.Raw && len(fd.Via) == 0 {
			fail(at, "type %s: %s: field %s is encoded (slot or key %q); tag it `cbor:\"-\"` so that the bytes a value was read from are not part of its encoding", s.Name, at.Text, s.Raw, fd.Key)
			return
		}
	}
}

// isByte reports whether t is byte (uint8), not a named byte type: a
// []byte converts to the field's type without a copy.
func isByte(t types.Type) bool { return types.Identical(t, types.Typ[types.Byte]) }
