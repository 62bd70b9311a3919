package emit

import (
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
// at the item first (runtime.Decoder.PeekKind): a tag number picks the
// variant declared with that //cborgen:tag; an untagged item picks the
// untagged variant of its type (a struct takes arrays and maps, a named
// string text, a named integer integers...). build refuses unions (checkUnions)
// where that choice is not unique.

// The classes of untagged items a variant can claim, and the test of the
// item's initial byte (k.Initial) that finds each.
var untaggedClasses = map[string]func() jen.Code{
	"unsigned integer": func() jen.Code { return majorIs("MajorUint") },
	"negative integer": func() jen.Code { return majorIs("MajorNeg") },
	"byte string":      func() jen.Code { return majorIs("MajorBytes") },
	"text string":      func() jen.Code { return majorIs("MajorText") },
	"array":            func() jen.Code { return majorIs("MajorArray") },
	"map":              func() jen.Code { return majorIs("MajorMap") },
	"bool": func() jen.Code {
		return jen.Id("k").Dot("Initial").Op("==").Lit(0xf4).Op("||").Id("k").Dot("Initial").Op("==").Lit(0xf5)
	},
	"float": func() jen.Code {
		return jen.Id("k").Dot("Initial").Op(">=").Lit(0xf9).Op("&&").Id("k").Dot("Initial").Op("<=").Lit(0xfb)
	},
}

func majorIs(major string) jen.Code {
	return jen.Id("k").Dot("Initial").Op(">>").Lit(5).Op("==").Add(rt(major))
}

// unionFuncs emits the five functions of the union u.
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
		cases = append(cases, jen.Case(e.variantType(v)).Block(jen.Return(jen.Id("x").Dot("AppendCBOR").Call(jen.Id("dst")))))
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

// unionDecode emits UnionDecode, the dispatcher: it peeks at the next
// item's kind and decodes the variant that claims it.
func (e *emitter) unionDecode(u *model.UnionType) jen.Code {
	cases, catchAll := e.unionDecodeCases(u)
	return jen.Commentf("%s reads one %s from d: the variant its tag number, or untagged its type, picks.", model.UnionFunc(u, "Decode"), u.Name).Line().
		Func().Id(model.UnionFunc(u, "Decode")).Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Params(e.unionIface(u), jen.Error()).Block(
		jen.List(jen.Id("k"), jen.Id("err")).Op(":=").Id("d").Dot("PeekKind").Call(),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Switch().Block(cases...),
		noVariant(catchAll, u.Name),
	)
}

// unionDecodeCases returns the cases of the dispatcher's switch, in a
// fixed order so that the output is reproducible: null, the tagged
// variants by number, the untagged ones by class, and the catch-all
// variant (returned too, nil if there is none) for every other item.
func (e *emitter) unionDecodeCases(u *model.UnionType) (cases []jen.Code, catchAll *model.Variant) {
	cases = append(cases, jen.Case(jen.Id("k").Dot("Null").Call()).Block(
		jen.If(jen.Id("err").Op(":=").Id("d").Dot("Skip").Call(), jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))),
		jen.Return(jen.Nil(), jen.Nil()),
	))
	for _, v := range u.Variants {
		if v.Struct.HasTag {
			cases = append(cases, jen.Case(jen.Id("k").Dot("Tagged").Op("&&").Id("k").Dot("Tag").Op("==").Op(strconv.FormatUint(v.Struct.Tag, 10))).Block(e.decodeVariant(u, v)...))
		}
	}
	for _, v := range u.Variants {
		if v.Struct.CatchAll {
			catchAll = v
			continue
		}
		if v.Struct.HasTag && !v.Struct.TagOptional {
			continue
		}
		cs := model.ClassesOf(v.Struct)
		sort.Strings(cs)
		inner := jen.Add(untaggedClasses[cs[0]]())
		for _, c := range cs[1:] {
			inner = inner.Op("||").Add(untaggedClasses[c]())
		}
		cond := jen.Op("!").Id("k").Dot("Tagged").Op("&&").Parens(inner)
		cases = append(cases, jen.Case(cond).Block(e.decodeVariant(u, v)...))
	}
	if catchAll != nil {
		// Every other item: kept as its bytes, written back as they are.
		cases = append(cases, jen.Default().Block(e.decodeVariant(u, catchAll)...))
	}
	return cases, catchAll
}

// decodeVariant is the body of a dispatcher's case: decode the variant v
// and return it.
func (e *emitter) decodeVariant(u *model.UnionType, v *model.Variant) []jen.Code {
	decl := jen.Var().Id("x").Add(e.typeRef(v.Struct))
	if v.Ptr {
		decl = jen.Id("x").Op(":=").New(e.typeRef(v.Struct))
	}
	// A variant of a string or number kind is boxed in a cell of the
	// decoder's (runtime.BoxString, BoxScalar), not a heap object each.
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
// (runtime.Buffer), copied out. A union's values hold maps and slices of
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

// noVariant is the end of a dispatcher: the error for an item no variant
// claims, or nothing when the catch-all's default case claims them all.
func noVariant(catchAll *model.Variant, union string) jen.Code {
	if catchAll != nil {
		return jen.Null()
	}
	return jen.Return(jen.Nil(), jen.Id("d").Dot("NoVariant").Call(jen.Lit(union), jen.Id("k")))
}
