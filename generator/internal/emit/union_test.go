package emit

import (
	"testing"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// TestTextVariant: the dispatcher reads short text before its switch only
// for a variant whose DecodeCBOR is the generated one of a string value
// held by value: not behind a tag, hooks, a pointer or the catch-all.
func TestTextVariant(t *testing.T) {
	str := func(mod func(*model.Struct)) *model.Struct {
		s := &model.Struct{Name: "Text", Value: model.String{}}
		if mod != nil {
			mod(s)
		}
		return s
	}
	num := &model.Variant{Struct: &model.Struct{Name: "Num", Value: model.Int{}}}
	for _, tc := range []struct {
		name string
		v    *model.Variant
		want bool
	}{
		{"plain", &model.Variant{Struct: str(nil)}, true},
		{"pointer", &model.Variant{Struct: str(nil), Ptr: true}, false},
		{"tagged", &model.Variant{Struct: str(func(s *model.Struct) { s.HasTag, s.Tag = true, 42 })}, false},
		{"optional tag", &model.Variant{Struct: str(func(s *model.Struct) { s.HasTag, s.Tag, s.TagOptional = true, 42, true })}, false},
		{"hooks", &model.Variant{Struct: str(func(s *model.Struct) { s.Body = true })}, false},
		{"bytes", &model.Variant{Struct: &model.Struct{Name: "Raw", Value: model.Bytes{}}}, false},
	} {
		u := &model.UnionType{Name: "U", Variants: []*model.Variant{num, tc.v}}
		if got := textVariant(u); (got != nil) != tc.want || got != nil && got != tc.v {
			t.Errorf("%s: textVariant = %v, want the variant: %v", tc.name, got, tc.want)
		}
	}
}
