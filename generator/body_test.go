package generator

import (
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/build"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// The hooks of the snippets below do not call the generated body (the
// snippets are type-checked before anything is generated).
const (
	bodyHooks = "func (v T) MarshalCBOR() ([]byte, error) { return nil, nil }\n" +
		"func (v *T) UnmarshalCBOR(data []byte) error { return nil }\n"
	bodyDecoderHooks = "func (v *T) AppendCBOR(dst []byte) ([]byte, error) { return dst, nil }\n" +
		"func (v *T) DecodeCBOR(d *runtime.Decoder) error { return nil }\n"
)

// TestBodyModel: a //cborgen:body type is selected with its hooks, by
// default and with -type; the types that hold it reach it through its
// own methods (its AppendCBOR and DecodeCBOR when it has them, else
// MarshalCBOR and UnmarshalCBOR), never in line; and what it lacks or
// what contradicts the directive is refused with the fix.
func TestBodyModel(t *testing.T) {
	holder := "type H struct {\n\tA T\n\tB []T\n\tC map[string]T\n\tD *T\n}\n"
	cases := []modelCase{
		{name: "marshal route", src: "//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks + "\n" + holder},
		{name: "decoder route", src: "//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks + bodyDecoderHooks +
			"func (v *T) SizeCBOR() int { return 2 }\n\n" + holder},
		{name: "no hooks", src: "//cborgen:body\ntype T struct{ X int }\n\nfunc (v T) MarshalCBOR() ([]byte, error) { return nil, nil }\n"},
		{name: "half decoder pair", src: "//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks + "func (v *T) AppendCBOR(dst []byte) ([]byte, error) { return dst, nil }\n"},
		{name: "wrong DecodeCBOR", src: "//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks +
			"func (v *T) AppendCBOR(dst []byte) ([]byte, error) { return dst, nil }\nfunc (v *T) DecodeCBOR(data []byte) error { return nil }\n"},
		{name: "wrong SizeCBOR", src: "//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks + "func (v *T) SizeCBOR() int64 { return 0 }\n"},
		{name: "body name taken", src: "//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks + "func (v *T) SizeCBORBody() int { return 0 }\n"},
		{name: "contradictions", src: "//cborgen:body\n//cborgen:embeddable\ntype T struct{ X int }\n\n" + bodyHooks},
		{name: "union variant", src: "//cborgen:union\ntype U interface{ isU() }\n\n//cborgen:body\ntype T struct{ X int }\n\n" + bodyHooks + "func (T) isU() {}\n"},
		{name: "hooks without the directive", src: "type T struct{ X int }\n\n" + bodyHooks},
	}
	ls := loadSnippets(t, cases)
	model0 := func(i int, types ...string) (*model.File, error) {
		return build.Model(ls[i], build.Options{Types: types, Order: model.OrderBytewise})
	}
	for i, route := range []string{"Marshaler", "StructRef"} {
		for _, types := range [][]string{nil, {"T", "H"}} {
			f, err := model0(i, types...)
			if err != nil {
				t.Fatalf("%s: %v", cases[i].name, err)
			}
			var s, h *model.Struct
			for _, st := range f.Structs {
				switch st.Name {
				case "T":
					s = st
				case "H":
					h = st
				}
			}
			if s == nil || !s.Body || h == nil {
				t.Fatalf("%s -type %v: T %+v, H %+v", cases[i].name, types, s, h)
			}
			for _, fd := range h.Fields {
				var inner model.Type = fd.Type
				switch c := fd.Type.(type) {
				case model.Slice:
					inner = c.Elem
				case model.Map:
					inner = c.Elem
				case model.Pointer:
					inner = c.Elem
				}
				switch c := inner.(type) {
				case model.StructRef:
					if route != "StructRef" || c.Local != "" || !c.HasSize {
						t.Errorf("%s: H.%s is %+v, want the %s route", cases[i].name, fd.Name, c, route)
					}
				case model.Marshaler:
					if route != "Marshaler" {
						t.Errorf("%s: H.%s is a Marshaler, want the %s route", cases[i].name, fd.Name, route)
					}
				default:
					t.Errorf("%s: H.%s is %T", cases[i].name, fd.Name, inner)
				}
			}
		}
	}
	for i, want := range map[int][]string{
		2: {"x.go:4:6: -type T: T is //cborgen:body but has no method UnmarshalCBOR(data []byte) error of its own", "write both, or drop the directive"},
		3: {"T is //cborgen:body and has AppendCBOR but not DecodeCBOR(d *runtime.Decoder) error"},
		4: {"T is //cborgen:body and its AppendCBOR or DecodeCBOR has another signature"},
		5: {"T is //cborgen:body and its SizeCBOR is not SizeCBOR() int"},
		6: {"T is //cborgen:body and already has a method SizeCBORBody, which cbor-gen generates for it; remove the method"},
		7: {"x.go:3:1: type T: //cborgen:body: //cborgen:embeddable generates AppendCBOR and DecodeCBOR without"},
		8: {"T is //cborgen:body and implements the //cborgen:union U"},
		9: {"-type T: T already has a method MarshalCBOR; remove it, leave the type out, or mark it //cborgen:body"},
	} {
		_, err := model0(i, "T")
		if err == nil {
			t.Errorf("%s: no error", cases[i].name)
			continue
		}
		inOrder(t, cases[i].name, err.Error(), want)
		if i < 7 { // the default selection refuses the same, without "-type T: "
			_, derr := model0(i)
			if derr == nil || !strings.Contains(derr.Error(), strings.TrimPrefix(want[0], "x.go:4:6: -type T: ")) {
				t.Errorf("%s, default selection: error %v", cases[i].name, derr)
			}
		}
	}
}
