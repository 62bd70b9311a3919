package build

import (
	"fmt"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// checkUnions refuses, with file:line:col errors naming the clashing
// variants, a union whose items could go to more than one variant, or to
// none: no variants, two variants under one tag number, two untagged
// variants written as the same type, a variant that cannot be told apart.
// It also refuses a union whose functions' names the package declares.
func checkUnions(f *model.File) error {
	var errs []error
	for _, u := range f.Unions {
		at := func(format string, args ...any) {
			errs = append(errs, &model.PosError{Pos: u.Pos, Msg: fmt.Sprintf("union %s: ", u.Name) + fmt.Sprintf(format, args...)})
		}
		if len(u.Variants) == 0 {
			at("no variants: no type of the run implements it (generate its variants, or name them with -type)")
			continue
		}
		for _, verb := range []string{"Append", "Size", "Decode", "Marshal", "Unmarshal"} {
			if name := model.UnionFunc(u, verb); f.Taken[name] {
				at("the package declares %s, the name of a function cbor-gen generates for the union", name)
			}
		}
		tags, classes := map[uint64]string{}, map[string]string{}
		catchAll := ""
		for _, v := range u.Variants {
			s := v.Struct
			if s.CatchAll {
				switch {
				case catchAll != "":
					at("variants %s and %s are both //cborgen:catchall", catchAll, s.Name)
				case s.HasTag:
					at("variant %s is //cborgen:catchall and has a tag: the catch-all takes every item no other variant claims, tagged or not", s.Name)
				}
				catchAll = s.Name
				continue
			}
			if s.HasTag {
				if other, ok := tags[s.Tag]; ok {
					at("variants %s and %s are both tag %d", other, s.Name, s.Tag)
				}
				tags[s.Tag] = s.Name
				if !s.TagOptional {
					continue
				}
			}
			cs := model.ClassesOf(s)
			if cs == nil {
				at("variant %s cannot be told apart from the others by its type: give it a //cborgen:tag", s.Name)
			}
			for _, c := range cs {
				if other, ok := classes[c]; ok {
					at("variants %s and %s are both untagged %s: tell them apart with //cborgen:tag", other, s.Name, pluralClass(c))
				}
				classes[c] = s.Name
			}
		}
	}
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}

func pluralClass(c string) string {
	if c == "bool" || c == "float" {
		return c + "s"
	}
	if c == "map" {
		return "maps"
	}
	return c + "s"
}
