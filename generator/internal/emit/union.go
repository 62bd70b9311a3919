package emit

import (
	"slices"
	"sort"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// A union (//cborgen:union on an interface type) gets five functions,
// which every field, element or map value of its type calls:
//
//	func AppendValueCBOR(dst []byte, x Value) ([]byte, error)
//	func SizeValueCBOR(x Value) int
//	func DecodeValueCBOR(d *runtime.Decoder) (Value, error)
//	func MarshalValueCBOR(x Value) ([]byte, error)
//	func UnmarshalValueCBOR(data []byte) (Value, error)
//
// Encoding is the variant's own AppendCBOR (null for nil). Decoding looks
// at the item first (runtime.Decoder.TryKind, PeekKind): a tag number picks the
// variant declared with that //cborgen:tag; an untagged item picks the
// untagged variant of its type (a struct takes arrays and maps, a named
// string text, a named integer integers...). build refuses unions (checkUnions)
// where that choice is not unique.

// The classes of untagged items a variant can claim: the major type
// that holds them (a constant of the runtime's), and for major type 7 the
// test of the item's initial byte (k.Initial) that tells them apart.
var untaggedClasses = map[string]struct {
	major  string
	simple func() jen.Code
}{
	"unsigned integer": {major: "MajorUint"},
	"negative integer": {major: "MajorNeg"},
	"byte string":      {major: "MajorBytes"},
	"text string":      {major: "MajorText"},
	"array":            {major: "MajorArray"},
	"map":              {major: "MajorMap"},
	"bool": {major: "MajorSimple", simple: func() jen.Code {
		return jen.Id("k").Dot("Initial").Op("==").Lit(0xf4).Op("||").Id("k").Dot("Initial").Op("==").Lit(0xf5)
	}},
	"float": {major: "MajorSimple", simple: func() jen.Code {
		return jen.Id("k").Dot("Initial").Op(">=").Lit(0xf9).Op("&&").Id("k").Dot("Initial").Op("<=").Lit(0xfb)
	}},
}

// majorOrder is the order of the cases of a dispatcher's switch on the
// major type: by number.
var majorOrder = []string{"MajorUint", "MajorNeg", "MajorBytes", "MajorText", "MajorArray", "MajorMap", "MajorSimple"}

// unionFuncs emits the five functions of the union u (and, for a union
// with an untagged text variant, the rest of its dispatcher).
func (e *emitter) unionFuncs(u *model.UnionType) jen.Code {
	return jen.Add(e.unionAppend(u)).Line().Line().
		Add(e.unionSize(u)).Line().Line().
		Add(e.unionDecode(u)).Line().Line().
		Add(e.unionMarshal(u)).Line().Line().
		Add(e.unionUnmarshal(u))
}

// variantType is the Go type of v in a type switch: the struct, or a
// pointer to it for a variant that implements the union by pointer.
func (e *emitter) variantType(v *model.Variant) jen.Code {
	if v.Ptr {
		return jen.Op("*").Add(e.typeRef(v.Struct))
	}
	return e.typeRef(v.Struct)
}

// unionAppend emits UnionAppend: a type switch over the variants.
func (e *emitter) unionAppend(u *model.UnionType) jen.Code {
	cases := []jen.Code{jen.Case(jen.Nil()).Block(jen.Return(rt("AppendNull").Call(jen.Id("dst")), jen.Nil()))}
	for _, v := range u.Variants {
		ret := jen.Id("x").Dot("AppendCBOR").Call(jen.Id("dst"))
		if _, text := v.Struct.Value.(model.String); text && !v.Ptr && !v.Struct.HasTag && !v.Struct.Body {
			// Untagged text, most items of text-heavy documents: what
			// its AppendCBOR writes, without the call.
			ret = jen.List(jen.Append(rt("AppendTextHead").Call(jen.Id("dst"), jen.Len(jen.Id("x"))), jen.Id("x").Op("...")), jen.Nil())
		}
		cases = append(cases, jen.Case(e.variantType(v)).Block(jen.Return(ret)))
	}
	return jen.Commentf("%s appends the encoding of x, one of %s's variants (null for nil).", model.UnionFunc(u, "Append"), u.Name).Line().
		Func().Id(model.UnionFunc(u, "Append")).Params(jen.Id("dst").Index().Byte(), jen.Id("x").Add(e.unionIface(u))).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch(jen.Id("x").Op(":=").Id("x").Assert(jen.Type())).Block(cases...),
		jen.Return(jen.Nil(), rt("NotAVariantToEncode").Call(jen.Lit(u.Name), jen.Id("x"))),
	)
}

// unionSize emits UnionSize: the variant's SizeCBOR, 1 for null.
func (e *emitter) unionSize(u *model.UnionType) jen.Code {
	var cases []jen.Code
	for _, v := range u.Variants {
		cases = append(cases, jen.Case(e.variantType(v)).Block(jen.Return(jen.Id("x").Dot(model.MethodSize).Call())))
	}
	return jen.Commentf("%s returns an upper bound of the length of x's encoding.", model.UnionFunc(u, "Size")).Line().
		Func().Id(model.UnionFunc(u, "Size")).Params(jen.Id("x").Add(e.unionIface(u))).Int().Block(
		jen.Switch(jen.Id("x").Op(":=").Id("x").Assert(jen.Type())).Block(cases...),
		jen.Return(jen.Lit(1)),
	)
}

// unionDecode emits UnionDecode, the dispatcher: it looks at the next
// item's kind (runtime.Decoder.TryKind, in line, else PeekKind) and
// decodes the variant that claims it: a tagged item by a switch on its
// tag number, an untagged one by a switch on its major type (and for
// major type 7, on its initial byte).
func (e *emitter) unionDecode(u *model.UnionType) jen.Code {
	if u.By != model.UnionByKind {
		return e.contentDecode(u) // content.go
	}
	tagged, untagged, catchAll := e.unionDecodeCases(u)
	var body []jen.Code
	if len(tagged) > 0 {
		body = append(body, jen.If(jen.Id("k").Dot("Tagged")).Block(jen.Switch(jen.Id("k").Dot("Tag")).Block(tagged...)).
			Else().Block(jen.Switch(jen.Id("k").Dot("Initial").Op(">>").Lit(5)).Block(untagged...)))
	} else {
		body = append(body, jen.If(jen.Op("!").Id("k").Dot("Tagged")).Block(jen.Switch(jen.Id("k").Dot("Initial").Op(">>").Lit(5)).Block(untagged...)))
	}
	if catchAll != nil {
		// Every other item: kept as its bytes, written back as they are.
		body = append(body, e.decodeVariant(u, catchAll)...)
	} else {
		body = append(body, jen.Return(jen.Nil(), jen.Id("d").Dot("NoVariant").Call(jen.Lit(u.Name), jen.Id("k"))))
	}
	dispatch := append([]jen.Code{
		jen.List(jen.Id("k"), jen.Id("ok")).Op(":=").Id("d").Dot("TryKind").Call(),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Var().Id("err").Error(),
			jen.If(jen.List(jen.Id("k"), jen.Id("err")).Op("=").Id("d").Dot("PeekKind").Call(), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		),
	}, body...)
	name := model.UnionFunc(u, "Decode")
	signature := func(name string) *jen.Statement {
		return jen.Func().Id(name).Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Params(e.unionIface(u), jen.Error())
	}
	v := textVariant(u)
	if v == nil {
		return jen.Commentf("%s reads one %s from d: the variant its tag number, or untagged its type, picks.", name, u.Name).Line().
			Add(signature(name)).Block(dispatch...)
	}
	// Short text first, without the dispatch: the commonest item of
	// text-heavy documents. The variant's own DecodeCBOR reads it the same
	// way (TryString, or a view under ZeroCopy), so the result is the
	// same. The rest of the dispatcher is a function of its own, which
	// the loops over containers of the union's values call once their own
	// try at short text has missed.
	kind := model.UnionKindFunc(u)
	return jen.Commentf("%s reads one %s from d: the variant its tag number, or untagged its type, picks.", name, u.Name).Line().
		Add(signature(name)).Block(
		jen.Comment("Short ASCII text: the "+v.Struct.Name+" variant, without the dispatch."),
		jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("d").Dot("TryText").Call(), jen.Id("ok")).Block(
			jen.Return(rt("BoxString").Call(jen.Id("d"), jen.Qual(e.path, u.Name).Call(e.typeRef(v.Struct).Call(jen.Lit(""))), jen.Id("x")), jen.Nil()),
		),
		jen.Return(jen.Id(kind).Call(jen.Id("d"))),
	).Line().Line().
		Commentf("%s is %s after its first case, short text, has missed.", kind, name).Line().
		Add(signature(kind)).Block(dispatch...)
}

// textVariant is the variant of u that untagged text decodes into when
// its DecodeCBOR is the generated one of a string value type (boxed by
// genrt.BoxString): no tag, no hooks, held by value. The dispatcher
// tries TryString for it before it looks at the item's kind. Nil when u
// has no such variant.
func textVariant(u *model.UnionType) *model.Variant {
	for _, v := range u.Variants {
		if _, ok := v.Struct.Value.(model.String); ok && !v.Ptr && !v.Struct.HasTag && !v.Struct.Body && !v.Struct.CatchAll {
			return v
		}
	}
	return nil
}

// unionDecodeCases returns the cases of the dispatcher's two switches, in
// a fixed order so that the output is reproducible: the tagged variants
// by number; the untagged ones by major type, null and the variants of
// major type 7 in a switch of their own; and the catch-all variant (nil
// if there is none), which the dispatcher decodes when no case returns.
func (e *emitter) unionDecodeCases(u *model.UnionType) (tagged, untagged []jen.Code, catchAll *model.Variant) {
	for _, v := range u.Variants {
		if v.Struct.HasTag {
			tagged = append(tagged, jen.Case(jen.Op(strconv.FormatUint(v.Struct.Tag, 10))).Block(e.decodeVariant(u, v)...))
		}
	}
	type variantCase struct {
		majors []string
		v      *model.Variant
	}
	byMajor := map[string]variantCase{}
	simple := []jen.Code{jen.Case(jen.Id("k").Dot("Null").Call()).Block(
		jen.If(jen.Id("err").Op(":=").Id("d").Dot("Skip").Call(), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Return(jen.Nil(), jen.Nil()),
	)}
	for _, v := range u.Variants {
		if v.Struct.CatchAll {
			catchAll = v
			continue
		}
		if v.Struct.HasTag && !v.Struct.TagOptional {
			continue
		}
		cs := model.ClassesOf(v.Struct)
		sort.Slice(cs, func(i, j int) bool {
			return slices.Index(majorOrder, untaggedClasses[cs[i]].major) < slices.Index(majorOrder, untaggedClasses[cs[j]].major) ||
				untaggedClasses[cs[i]].major == untaggedClasses[cs[j]].major && cs[i] < cs[j]
		})
		var majors []string
		var tests []jen.Code
		for _, c := range cs {
			if t := untaggedClasses[c]; t.simple != nil {
				tests = append(tests, t.simple())
			} else {
				majors = append(majors, t.major)
			}
		}
		// A variant claims whole major types, or values of major type 7
		// (build gives each class to one variant).
		if len(majors) > 0 {
			byMajor[majors[0]] = variantCase{majors, v}
		}
		if len(tests) > 0 {
			cond := jen.Add(tests[0])
			for _, t := range tests[1:] {
				cond = cond.Op("||").Add(t)
			}
			simple = append(simple, jen.Case(cond).Block(e.decodeVariant(u, v)...))
		}
	}
	for _, m := range majorOrder {
		if m == "MajorSimple" {
			untagged = append(untagged, jen.Case(rt(m)).Block(jen.Switch().Block(simple...)))
		} else if c, ok := byMajor[m]; ok {
			var ms []jen.Code
			for _, m := range c.majors {
				ms = append(ms, rt(m))
			}
			untagged = append(untagged, jen.Case(ms...).Block(e.decodeVariant(u, c.v)...))
		}
	}
	return tagged, untagged, catchAll
}

// decodeVariant is the body of a dispatcher's case: decode the variant v
// and return it.
func (e *emitter) decodeVariant(u *model.UnionType, v *model.Variant) []jen.Code {
	decl := jen.Var().Id("x").Add(e.typeRef(v.Struct))
	if v.Ptr {
		decl = jen.Id("x").Op(":=").New(e.typeRef(v.Struct))
	}
	// A variant of a string or number kind is boxed in a cell of the
	// decoder's (genrt.BoxString, BoxScalar), not a heap object each.
	ret := jen.Id("x")
	if !v.Ptr {
		switch v.Struct.Value.(type) {
		case model.String:
			ret = rt("BoxString").Call(jen.Id("d"), jen.Qual(e.path, u.Name).Call(e.typeRef(v.Struct).Call(jen.Lit(""))), jen.String().Call(jen.Id("x")))
		case model.Int, model.Float:
			ret = rt("BoxScalar").Call(jen.Id("d"), jen.Qual(e.path, u.Name).Call(e.typeRef(v.Struct).Call(jen.Lit(0))), jen.Id("x"))
		}
	}
	return []jen.Code{
		decl,
		jen.If(jen.Id("err").Op(":=").Id("x").Dot("DecodeCBOR").Call(jen.Id("d")), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Return(ret, jen.Nil()),
	}
}

// unionMarshal emits UnionMarshal: UnionAppend into a pooled buffer
// (genrt.Buffer), copied out. A union's values hold maps and slices of
// values, whose size UnionSize finds only by a walk as long as the
// encoding.
func (e *emitter) unionMarshal(u *model.UnionType) jen.Code {
	return jen.Commentf("%s returns the encoding of x (null for nil).", model.UnionFunc(u, "Marshal")).Line().
		Func().Id(model.UnionFunc(u, "Marshal")).Params(jen.Id("x").Add(e.unionIface(u))).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Id("b").Op(":=").Add(rt("GetBuffer")).Call(),
		jen.Return(jen.Id("b").Dot("Finish").Call(jen.Id(model.UnionFunc(u, "Append")).Call(jen.Id("b").Dot("B"), jen.Id("x")))),
	)
}

// unionUnmarshal emits UnionUnmarshal: UnionDecode of exactly one item.
func (e *emitter) unionUnmarshal(u *model.UnionType) jen.Code {
	return jen.Commentf("%s decodes data, which must hold exactly one %s.", model.UnionFunc(u, "Unmarshal"), u.Name).Line().
		Func().Id(model.UnionFunc(u, "Unmarshal")).Params(jen.Id("data").Index().Byte()).Params(e.unionIface(u), jen.Error()).Block(
		jen.Id("d").Op(":=").Add(rt("NewBytesDecoder")).Call(jen.Id("data")),
		jen.List(jen.Id("x"), jen.Id("err")).Op(":=").Id(model.UnionFunc(u, "Decode")).Call(jen.Id("d")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), atRoot(jen.Id("err"), u.Name, "WholeInput"))),
		jen.If(jen.Id("d").Dot("Offset").Call().Op("!=").Int64().Call(jen.Len(jen.Id("data")))).Block(
			jen.Return(jen.Nil(), atRoot(jen.Id("d").Dot("Errorf").Call(rt("ErrTrailing"), jen.Lit("unexpected data after the value")), u.Name, "WholeInput")),
		),
		jen.Return(jen.Id("x"), jen.Nil()),
	)
}

// unionIface is the union's interface type.
func (e *emitter) unionIface(u *model.UnionType) jen.Code { return jen.Qual(e.path, u.Name) }
