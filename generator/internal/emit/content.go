package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// Unions chosen by content (//cborgen:union first, //cborgen:union key K)
// and their variants, each of which names its case with //cborgen:case V
// in a field (model.Case.Field). The variant's AppendCBOR writes V in that
// field's place whatever the field holds, so a value built without it
// still says which variant it is; its decoders refuse another value there
// (runtime.Decoder.WrongCase). A //cborgen:union first variant also gets
// cborDecodeAfterFirst, the rest of its array after the case, which the
// dispatcher calls once it has read the head and the case.
//
// In outline, the dispatcher of a //cborgen:union first (testdata/golden/
// contentunion has whole ones):
//
//	func DecodeCertCBOR(d *runtime.Decoder) (Cert, error) {
//		k, ok := d.TryKind()
//		...
//		if k.Tagged || k.Initial>>5 != genrt.MajorArray {
//			(null is nil; anything else the catch-all, or NoVariant)
//		}
//		n, err := d.ReadCaseHead("Cert")
//		...
//		at := d.Offset()
//		c, err := d.ReadCaseInt()
//		...
//		switch c {
//		case 0:
//			x := new(StakeReg)
//			x.Kind = 0
//			if err := x.cborDecodeAfterFirst(d, n); err != nil { ... }
//			return x, nil
//		...
//		}
//		return nil, d.NoCaseInt("Cert", at, c)
//	}
//
// and of a //cborgen:union key K: Mark, FindKeyText (or FindKeyInt), the
// case, Rewind, then the variant's own DecodeCBOR over the whole map.

// isCaseField reports whether field i of s holds its //cborgen:case.
func isCaseField(s *model.Struct, i int) bool { return s.Case != nil && s.Case.Field == i }

// caseEncoding is the encoding of the constant c.
func caseEncoding(c model.Constant) []byte {
	if c.Text {
		return genrt.AppendString(nil, c.Str)
	}
	return genrt.AppendInt(nil, c.Int)
}

// appendCase is the statement that writes the case of s.
func appendCase(s *model.Struct) jen.Code {
	var codes []jen.Code
	enc := caseEncoding(s.Case.Constant)
	if s.Case.Text {
		// A string literal, the head as escapes and the text as itself.
		var b strings.Builder
		b.WriteByte('"')
		for _, c := range enc[:len(enc)-len(s.Case.Str)] {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
		quoted := fmt.Sprintf("%+q", s.Case.Str) // ASCII only, so no byte can join the escapes above
		b.WriteString(quoted[1 : len(quoted)-1])
		b.WriteByte('"')
		codes = []jen.Code{jen.Op(b.String()).Op("...")}
	} else {
		for _, b := range enc {
			codes = append(codes, jen.Op(fmt.Sprintf("0x%02x", b)))
		}
	}
	f := s.Fields[s.Case.Field]
	return jen.Id("dst").Op("=").Append(append([]jen.Code{jen.Id("dst")}, codes...)...).
		Commentf("case %s, whatever %s holds", s.Case.Token(), f.Name)
}

// caseValue is the case of s as a Go constant.
func caseValue(s *model.Struct) jen.Code {
	if s.Case.Text {
		return jen.Lit(s.Case.Str)
	}
	return jen.Lit(int(s.Case.Int))
}

// caseCheck is what follows the decoding of s's case field, whose
// encoding started at offset caseAt: another value is an error.
func caseCheck(s *model.Struct) jen.Code {
	f := s.Fields[s.Case.Field]
	found, want := jen.String().Call(fieldExpr(f)), jen.Lit(s.Case.Str)
	if !s.Case.Text {
		conv := jen.Int64()
		if t, ok := f.Type.(model.Int); ok && !t.Signed {
			conv = jen.Uint64()
		}
		found, want = conv.Clone().Call(fieldExpr(f)), jen.Int64().Call(jen.Lit(int(s.Case.Int)))
	}
	return jen.If(fieldExpr(f).Op("!=").Add(caseValue(s))).Block(
		jen.Return(rt("AtField").Call(jen.Id("d").Dot("WrongCase").Call(jen.Lit(s.Name), jen.Id("caseAt"), found, want), jen.Lit(f.Name))),
	)
}

// firstVariant reports whether s is a variant of a //cborgen:union first:
// an array struct with a case.
func firstVariant(s *model.Struct) bool {
	return s.Case != nil && s.Case.Field == 0 && !s.MapFormat && s.Value == nil
}

// decodeAfterFirstMethod emits cborDecodeAfterFirst of a //cborgen:union
// first variant: the elements after the first of an array of n elements
// (-1: up to its break) whose head and first element the dispatcher
// read; it leaves the array.
func (e *emitter) decodeAfterFirstMethod(s *model.Struct) jen.Code {
	nf := len(s.Fields)
	var body []jen.Code
	if evolving(s) {
		body = evolvingElems(s, 1) // evolve.go
	} else {
		body = []jen.Code{
			jen.If(jen.Id("n").Op("!=").Lit(nf)).Block(
				jen.For(jen.Id("i").Op(":=").Lit(1), jen.Empty(), jen.Id("i").Op("++")).Block(
					jen.If(
						jen.List(jen.Id("more"), jen.Id("err")).Op(":=").Id("d").Dot("NextField").Call(jen.Id("n"), jen.Id("i"), jen.Lit(nf)),
						jen.Op("!").Id("more"),
					).Block(jen.Return(jen.Id("err"))),
					decodeFieldsCall(jen.Id("i"), jen.Id("i").Op("+").Lit(1)),
				),
			),
		}
		if nf > 1 {
			body = append(body, decodeFieldsCall(jen.Lit(1), jen.Lit(nf)))
		}
		body = append(body, jen.Id("d").Dot("Leave").Call(), jen.Return(jen.Nil()))
	}
	return jen.Commentf("%s reads the rest of an array of n elements (-1: up to its break)", model.MethodDecodeAfterFirst).Line().
		Comment("whose head and first element, the case, a //cborgen:union first dispatcher read.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(model.MethodDecodeAfterFirst).
		Params(jen.Id("d").Op("*").Add(rt("Decoder")), jen.Id("n").Int()).Error().
		Block(body...)
}

// contentDecode emits the dispatcher of a union chosen by content.
func (e *emitter) contentDecode(u *model.UnionType) jen.Code {
	var catchAll *model.Variant
	var variants []*model.Variant
	text := false
	for _, v := range u.Variants {
		if v.Struct.CatchAll {
			catchAll = v
			continue
		}
		variants = append(variants, v)
		text = v.Struct.Case.Text
	}
	ret := func(err jen.Code) jen.Code { return jen.Return(jen.Nil(), err) }
	ifErr := func(wrap func(jen.Code) jen.Code) jen.Code {
		return jen.If(jen.Id("err").Op("!=").Nil()).Block(ret(wrap(jen.Id("err"))))
	}
	same := func(c jen.Code) jen.Code { return c }
	major, what := "MajorArray", "array"
	if u.By == model.UnionByKey {
		major, what = "MajorMap", "map"
	}
	// Anything but an untagged array (map): null is nil; the rest the
	// catch-all's, or no variant's.
	other := []jen.Code{
		jen.If(jen.Id("k").Dot("Null").Call()).Block(
			jen.If(jen.Id("err").Op(":=").Id("d").Dot("Skip").Call(), jen.Id("err").Op("!=").Nil()).Block(ret(jen.Id("err"))),
			jen.Return(jen.Nil(), jen.Nil()),
		),
	}
	if catchAll != nil {
		other = append(other, e.decodeVariant(u, catchAll)...)
	} else {
		other = append(other, ret(jen.Id("d").Dot("NoVariant").Call(jen.Lit(u.Name), jen.Id("k"))))
	}
	body := []jen.Code{
		jen.List(jen.Id("k"), jen.Id("ok")).Op(":=").Id("d").Dot("TryKind").Call(),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Var().Id("err").Error(),
			jen.If(jen.List(jen.Id("k"), jen.Id("err")).Op("=").Id("d").Dot("PeekKind").Call(), jen.Id("err").Op("!=").Nil()).Block(ret(jen.Id("err"))),
		),
		jen.If(jen.Id("k").Dot("Tagged").Op("||").Id("k").Dot("Initial").Op(">>").Lit(5).Op("!=").Add(rt(major))).Block(other...),
	}
	readCase, noCase := "ReadCaseInt", "NoCaseInt"
	if text {
		readCase, noCase = "ReadCaseText", "NoCaseText"
	}
	var cases []jen.Code
	mark := catchAll != nil || u.By == model.UnionByKey
	if u.By == model.UnionByFirst {
		if mark {
			// An unknown case goes back to the array's start, for the
			// catch-all to keep it whole.
			body = append(body, jen.Id("m").Op(":=").Id("d").Dot("Mark").Call())
		}
		body = append(body,
			jen.List(jen.Id("n"), jen.Id("err")).Op(":=").Id("d").Dot("ReadCaseHead").Call(jen.Lit(u.Name)),
			ifErr(same),
			caseAt(catchAll),
			jen.List(jen.Id("c"), jen.Id("err")).Op(":=").Id("d").Dot(readCase).Call(),
			ifErr(func(err jen.Code) jen.Code { return rt("AtIndex").Call(err, jen.Lit(0)) }),
		)
		for _, v := range variants {
			s := v.Struct
			var code []jen.Code
			if mark {
				code = append(code, jen.Id("d").Dot("Release").Call(jen.Id("m")))
			}
			code = append(code, e.variantDecl(v),
				jen.Id("x").Dot(s.Fields[0].Name).Op("=").Add(caseValue(s)),
				jen.If(jen.Id("err").Op(":=").Id("x").Dot(model.MethodDecodeAfterFirst).Call(jen.Id("d"), jen.Id("n")), jen.Id("err").Op("!=").Nil()).Block(
					ret(atRoot(jen.Id("err"), s.Name, "OneItem")),
				),
				jen.Return(jen.Id("x"), jen.Nil()),
			)
			cases = append(cases, jen.Case(caseValue(s)).Block(code...))
		}
	} else {
		find, key := "FindKeyInt", jen.Lit(int(u.Key.Int))
		if u.Key.Text {
			find, key = "FindKeyText", jen.Lit(u.Key.Str)
		}
		atKey := func(err jen.Code) jen.Code { return rt("AtKey").Call(err, key) }
		if !u.Key.Text {
			atKey = func(err jen.Code) jen.Code { return rt("AtKey").Call(err, jen.Int64().Call(key)) }
		}
		body = append(body,
			jen.Comment("The map's keys up to "+u.Key.Token()+", the case; then back to its start, to decode it once."),
			jen.Id("m").Op(":=").Id("d").Dot("Mark").Call(),
			jen.Id("start").Op(":=").Id("d").Dot("Offset").Call(),
			jen.List(jen.Id("found"), jen.Id("err")).Op(":=").Id("d").Dot(find).Call(key),
			ifErr(same),
			jen.If(jen.Op("!").Id("found")).Block(ret(jen.Id("d").Dot("NoKey").Call(jen.Lit(u.Name), jen.Id("start"), jen.Lit(u.Key.Token())))),
			caseAt(catchAll),
			jen.List(jen.Id("c"), jen.Id("err")).Op(":=").Id("d").Dot(readCase).Call(),
			ifErr(atKey),
			jen.Id("d").Dot("Rewind").Call(jen.Id("m")),
		)
		for _, v := range variants {
			cases = append(cases, jen.Case(caseValue(v.Struct)).Block(e.decodeVariant(u, v)...))
		}
	}
	subject := jen.Id("c")
	if text {
		subject = jen.String().Call(jen.Id("c"))
	}
	body = append(body, jen.Switch(subject).Block(cases...))
	if catchAll != nil {
		if u.By == model.UnionByFirst {
			body = append(body, jen.Id("d").Dot("Rewind").Call(jen.Id("m")))
		}
		body = append(body, e.decodeVariant(u, catchAll)...)
	} else {
		body = append(body, ret(jen.Id("d").Dot(noCase).Call(jen.Lit(u.Name), jen.Id("at"), jen.Id("c"))))
	}
	by := "the first element of an array"
	if u.By == model.UnionByKey {
		by = "the value of map key " + u.Key.Token()
	}
	return jen.Commentf("%s reads one %s from d: the variant whose case %s holds.", model.UnionFunc(u, "Decode"), u.Name, by).Line().
		Commentf("Any item but an untagged %s is null (nil) or %s.", what, map[bool]string{true: "the catch-all's", false: "an error"}[catchAll != nil]).Line().
		Func().Id(model.UnionFunc(u, "Decode")).Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Params(e.unionIface(u), jen.Error()).
		Block(body...)
}

// caseAt notes where the case starts, for the error of a case no
// variant has; with a catch-all there is none.
func caseAt(catchAll *model.Variant) jen.Code {
	if catchAll != nil {
		return jen.Null()
	}
	return jen.Id("at").Op(":=").Id("d").Dot("Offset").Call()
}

// variantDecl declares x, a new value of the variant v.
func (e *emitter) variantDecl(v *model.Variant) jen.Code {
	if v.Ptr {
		return jen.Id("x").Op(":=").New(e.typeRef(v.Struct))
	}
	return jen.Var().Id("x").Add(e.typeRef(v.Struct))
}
