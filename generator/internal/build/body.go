package build

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// //cborgen:body: a type keeps its hand-written MarshalCBOR and
// UnmarshalCBOR (the hooks), and cbor-gen generates the codec they call
// under names of its own, AppendCBORBody, DecodeCBORBody and
// SizeCBORBody. What the builder checks of such a type, and how the
// types that hold one call it: through its hooks, so that they run for
// nested values too.

// hasBodyDoc reports whether the doc comment of tn has a //cborgen:body
// line.
func hasBodyDoc(syntax []*ast.File, tn *types.TypeName) bool {
	for _, cm := range typeDoc(syntax, tn) {
		if strings.TrimSpace(cm.Text) == "//cborgen:body" {
			return true
		}
	}
	return false
}

// bodyHooks says what is wrong with the methods of the //cborgen:body
// type tn, or "": it must declare MarshalCBOR and UnmarshalCBOR itself
// (fxamacker/cbor calls them, and so do generated holders), may declare
// AppendCBOR and DecodeCBOR (as a pair, with the generated signatures:
// holders then call those) and SizeCBOR() int, and must not declare the
// methods generated for it.
func bodyHooks(tn *types.TypeName) string {
	named := tn.Type().(*types.Named)
	name := tn.Name()
	for _, m := range append(append([]string{}, model.BodyNames...), model.MethodDecodeArray, model.MethodDecodeMap, model.MethodDecodeFields, model.MethodDecodeTagged) {
		if hasOwnMethod(named, m) {
			return fmt.Sprintf("%s is //cborgen:body and already has a method %s, which cbor-gen generates for it; remove the method", name, m)
		}
	}
	for _, h := range []struct {
		name, sig string
		in        bool
	}{{"MarshalCBOR", "MarshalCBOR() ([]byte, error)", false}, {"UnmarshalCBOR", "UnmarshalCBOR(data []byte) error", true}} {
		if !hasOwnMethod(named, h.name) || !hasSignature(named, h.name, h.in) {
			return fmt.Sprintf("%s is //cborgen:body but has no method %s of its own: the generated body is called by the type's own "+
				"MarshalCBOR() ([]byte, error) and UnmarshalCBOR(data []byte) error (the hooks fxamacker/cbor and generated holders call), "+
				"which call AppendCBORBody and DecodeCBORBody; write both, or drop the directive to have cbor-gen generate them",
				name, h.sig)
		}
	}
	app, dec := hasOwnMethod(named, "AppendCBOR"), hasOwnMethod(named, "DecodeCBOR")
	switch {
	case app != dec:
		have, lack := "AppendCBOR", "DecodeCBOR(d *runtime.Decoder) error"
		if dec {
			have, lack = "DecodeCBOR", "AppendCBOR(dst []byte) ([]byte, error)"
		}
		return fmt.Sprintf("%s is //cborgen:body and has %s but not %s: generated holders call the pair or neither "+
			"(then MarshalCBOR and UnmarshalCBOR); write the other one, or remove %s", name, have, lack, have)
	case app && !hasGeneratedMethods(named):
		return fmt.Sprintf("%s is //cborgen:body and its AppendCBOR or DecodeCBOR has another signature than "+
			"AppendCBOR(dst []byte) ([]byte, error) and DecodeCBOR(d *runtime.Decoder) error, which generated holders call", name)
	}
	if hasOwnMethod(named, model.MethodSize) && !hasSizeSignature(named) {
		return fmt.Sprintf("%s is //cborgen:body and its %s is not %s() int, which generated holders call", name, model.MethodSize, model.MethodSize)
	}
	return ""
}

// hasSizeSignature reports whether *T has SizeCBOR() int.
func hasSizeSignature(t types.Type) bool {
	sel := types.NewMethodSet(types.NewPointer(t)).Lookup(nil, model.MethodSize)
	if sel == nil {
		return false
	}
	sig := sel.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int])
}

// bodyRef is the model of a value of the //cborgen:body type named (of
// this run) in a type that holds it: the type's own AppendCBOR and
// DecodeCBOR when it has them (and its SizeCBOR if any), else its
// MarshalCBOR and UnmarshalCBOR, as for any type with methods of its
// own. It is never Local, so the emitters do not write its fields in
// line past the hooks.
func (m *modeler) bodyRef(named *types.Named) model.Type {
	if hasGeneratedMethods(named) {
		return model.StructRef{Go: named, Name: m.typeString(named), HasSize: hasSizeSignature(named)}
	}
	return model.Marshaler{Go: named}
}

// bodyDirective refuses what cannot go with //cborgen:body on s: the
// generated codec is called by the type's hooks, so the type neither
// leaves them out for embedding (//cborgen:embeddable) nor is a
// union's catch-all, which the union writes and reads itself.
func (m *modeler) bodyDirective(s *model.Struct, at *ast.Comment) {
	var clash []string
	if s.Embeddable {
		clash = append(clash, "//cborgen:embeddable generates AppendCBOR and DecodeCBOR without MarshalCBOR and UnmarshalCBOR; //cborgen:body generates AppendCBORBody and DecodeCBORBody for hand-written ones: keep one")
	}
	if s.CatchAll {
		clash = append(clash, "a //cborgen:catchall variant keeps the bytes its union reads; it has no hooks to run")
	}
	for _, msg := range clash {
		m.directiveErrs = append(m.directiveErrs, &model.PosError{Pos: m.fset.Position(at.Pos()), Msg: fmt.Sprintf("type %s: //cborgen:body: %s", s.Name, msg)})
	}
}

// checkBodyVariants refuses a //cborgen:body type as a union's variant:
// a union tells its variants apart by the tag or major type that the
// generated code writes, and a body type's hook decides what is written.
func checkBodyVariants(f *model.File) error {
	var errs []error
	for _, u := range f.Unions {
		for _, v := range u.Variants {
			if v.Struct.Body {
				errs = append(errs, &model.PosError{Pos: v.Struct.Pos, Msg: fmt.Sprintf(
					"%s is //cborgen:body and implements the //cborgen:union %s: a union tells its variants apart by what the generated code writes, "+
						"and %s's own MarshalCBOR decides that; drop the directive, or the method that makes %s implement %s",
					v.Struct.Name, u.Name, v.Struct.Name, v.Struct.Name, u.Name)})
			}
		}
	}
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}
