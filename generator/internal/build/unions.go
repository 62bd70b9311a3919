package build

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// unionDirective reads the arguments of the //cborgen:union line of the
// interface tn into u: none (tag or major type), "first" or "key K".
func (m *modeler) unionDirective(u *model.UnionType, tn *types.TypeName) {
	for _, cm := range typeDoc(m.syntax, tn) {
		t := strings.TrimSpace(cm.Text)
		args, ok := strings.CutPrefix(t, "//cborgen:union")
		if !ok || args != "" && args[0] != ' ' {
			continue
		}
		fail := func() {
			m.directiveErrs = append(m.directiveErrs, &model.PosError{Pos: m.fset.Position(cm.Pos()),
				Msg: fmt.Sprintf("union %s: %s: want //cborgen:union, //cborgen:union first or //cborgen:union key K (K an integer or a quoted text)", u.Name, t)})
		}
		args = strings.TrimSpace(args)
		switch {
		case args == "":
		case args == "first":
			u.By = model.UnionByFirst
		case strings.HasPrefix(args, "key "):
			k, ok := model.ParseConstant(strings.TrimSpace(strings.TrimPrefix(args, "key ")))
			if !ok {
				fail()
				return
			}
			u.By, u.Key = model.UnionByKey, k
		default:
			fail()
		}
		return
	}
}

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
		// Reserved for every union, though only a union with an untagged
		// text variant has it: adding such a variant never makes the
		// package's own names clash.
		if name := model.UnionKindFunc(u); f.Taken[name] {
			at("the package declares %s, the name of a function cbor-gen generates for the union", name)
		}
		if u.By != model.UnionByKind {
			errs = append(errs, checkContentUnion(u)...)
			continue
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
	errs = append(errs, strayCases(f)...)
	if len(errs) > 0 {
		return model.JoinPosErrors(errs)
	}
	return nil
}

// checkContentUnion checks a union chosen by content (//cborgen:union
// first, or key K) and finds the field of each variant that holds its
// case: every variant but the catch-all is an untagged struct with a
// //cborgen:case of the same kind as the others' (all integers or all
// text) and unlike theirs; for first, an array struct whose first field
// is an integer or text field that the case fits; for key K, a
// //cborgen:map struct with a field under key K of that kind, without
// omitempty or omitzero (the case is always written).
func checkContentUnion(u *model.UnionType) []error {
	var errs []error
	at := func(pos model.PosError, format string, args ...any) {
		pos.Msg = fmt.Sprintf("union %s: ", u.Name) + fmt.Sprintf(format, args...)
		errs = append(errs, &pos)
	}
	upos := model.PosError{Pos: u.Pos}
	form := "first"
	if u.By == model.UnionByKey {
		form = "key " + u.Key.Token()
	}
	cases := map[model.Constant]string{}
	var first *model.Variant
	catchAll := ""
	for _, v := range u.Variants {
		s := v.Struct
		vpos := model.PosError{Pos: s.Pos}
		if s.CatchAll {
			if catchAll != "" {
				at(upos, "variants %s and %s are both //cborgen:catchall", catchAll, s.Name)
			}
			if s.HasTag {
				at(vpos, "variant %s is //cborgen:catchall and has a tag: the catch-all takes every item no other variant claims, tagged or not", s.Name)
			}
			catchAll = s.Name
			continue
		}
		switch {
		case s.Value != nil:
			at(vpos, "variant %s: a //cborgen:union %s chooses among structs; %s is not one", s.Name, form, s.Name)
			continue
		case s.Case == nil:
			at(vpos, "variant %s has no //cborgen:case V: a //cborgen:union %s needs the constant that names each variant", s.Name, form)
			continue
		case s.HasTag:
			at(vpos, "variant %s has a //cborgen:tag: a //cborgen:union %s tells its variants apart by their case, not a tag", s.Name, form)
			continue
		case s.Body:
			continue // refused by checkBodyVariants
		}
		if first != nil && first.Struct.Case.Text != s.Case.Text {
			at(vpos, "variants %s and %s: one case is an integer and the other text; the cases of a union are all integers or all text", first.Struct.Name, s.Name)
			continue
		}
		if first == nil {
			first = v
		}
		if other, ok := cases[s.Case.Constant]; ok {
			at(vpos, "variants %s and %s are both //cborgen:case %s", other, s.Name, s.Case.Token())
			continue
		}
		cases[s.Case.Constant] = s.Name
		field := -1
		if u.By == model.UnionByFirst {
			if s.MapFormat {
				at(vpos, "variant %s is a //cborgen:map struct: a //cborgen:union first chooses among array structs by their first element", s.Name)
				continue
			}
			if len(s.Fields) == 0 || s.Fields[0].IsReserved() {
				at(vpos, "variant %s has no first field to hold its case %s", s.Name, s.Case.Token())
				continue
			}
			field = 0
		} else {
			if !s.MapFormat {
				at(vpos, "variant %s is not a //cborgen:map struct: a //cborgen:union key %s chooses among map structs by the value of that key (add //cborgen:map)", s.Name, u.Key.Token())
				continue
			}
			for i, f := range s.Fields {
				if f.KeyAsInt && !u.Key.Text && f.KeyInt == u.Key.Int || !f.KeyAsInt && u.Key.Text && f.Key == u.Key.Str {
					field = i
				}
			}
			if field < 0 {
				at(vpos, "variant %s has no field under key %s to hold its case %s", s.Name, u.Key.Token(), s.Case.Token())
				continue
			}
			if len(s.Fields[field].Omit) > 0 {
				at(model.PosError{Pos: s.Fields[field].Pos}, "variant %s: field %s holds the case and is always written: drop its omitempty or omitzero", s.Name, s.Fields[field].Name)
				continue
			}
		}
		f := s.Fields[field]
		if len(f.Via) > 0 {
			at(model.PosError{Pos: f.Pos}, "variant %s: field %s holds the //cborgen:case %s but is promoted from an embedded struct: declare it in %s itself", s.Name, f.Name, s.Case.Token(), s.Name)
			continue
		}
		if msg := caseFits(s.Case.Constant, f); msg != "" {
			at(model.PosError{Pos: f.Pos}, "variant %s: field %s holds the //cborgen:case %s, but %s", s.Name, f.Name, s.Case.Token(), msg)
			continue
		}
		if s.Case.Field >= 0 && s.Case.Field != field {
			at(vpos, "variant %s is a variant of unions that hold its case in different fields", s.Name)
			continue
		}
		s.Case.Field = field
	}
	return errs
}

// caseFits says why the case c cannot be held by field f ("" when it can):
// a text case needs a string field, an integer one an integer field
// whose type holds it.
func caseFits(c model.Constant, f *model.Field) string {
	switch t := f.Type.(type) {
	case model.String:
		if !c.Text {
			return "it is a string field and the case an integer"
		}
		return ""
	case model.Int:
		if c.Text {
			return "it is an integer field and the case text"
		}
		bits := t.Bits
		if bits == 0 {
			bits = 32 // int and uint hold at least 32 bits everywhere
		}
		lo, hi := int64(0), int64(1)<<(bits-1)
		if t.Signed {
			lo = -hi
		}
		hi--
		if !t.Signed {
			if bits == 64 {
				hi = 1<<63 - 1
			} else {
				hi = int64(1)<<bits - 1
			}
		}
		if c.Int < lo || c.Int > hi {
			return fmt.Sprintf("its type does not hold %d", c.Int)
		}
		return ""
	}
	return "it is neither an integer nor a string field"
}

// strayCases refuses //cborgen:case on a type that is a variant of no
// union chosen by content: the directive would do nothing.
func strayCases(f *model.File) []error {
	used := map[*model.Struct]bool{}
	for _, u := range f.Unions {
		if u.By == model.UnionByKind {
			continue
		}
		for _, v := range u.Variants {
			used[v.Struct] = true
		}
	}
	var errs []error
	for _, s := range f.Structs {
		if s.Case != nil && !used[s] {
			errs = append(errs, &model.PosError{Pos: s.Pos, Msg: fmt.Sprintf("type %s: //cborgen:case names a variant of a union chosen by content (//cborgen:union first, or key K), and %s is a variant of none", s.Name, s.Name)})
		}
	}
	return errs
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
