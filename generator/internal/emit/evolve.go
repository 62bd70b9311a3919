package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// decodeEvolvingArrayMethod emits the array decoder of a type that has
// evolved (the schema check): its last Optional fields were added after data was
// first written, so an array may end before them, and those fields are
// then set to zero; with Extensible, elements after the last field, added
// by a newer version of the type, are skipped instead of refused. In
// outline, for an Order that grew from three fields to five
// (testdata/golden/evolve_v2 has whole ones):
//
//	func (v *Order) cborDecodeArray(d *runtime.Decoder) error {
//		n, err := d.ReadStructHead() // genrt.NullKept: a null keeps the value
//		...
//		if n >= 0 && (n < 3 || n > 5) {
//			return d.Errorf(genrt.ErrLength, "expected array of 3 to 5 elements, found %d", n)
//		}
//		for i := 0; ; i++ {
//			more, err := d.NextElem(n, i)
//			...
//			if !more {
//				if i < 3 { return d.Errorf(...) }
//				if i <= 3 { v.Total = 0 }
//				if i <= 4 { v.Tags = nil }
//				break
//			}
//			if i >= 5 { (skip the element, or refuse it) }
//			... v.cborDecodeFields(d, i, i+1)
//		}
//		d.Leave()
//		return nil
//	}
func (e *emitter) decodeEvolvingArrayMethod(s *model.Struct) jen.Code {
	body := append([]jen.Code{
		// A null keeps the value (genrt.NullKept).
		jen.List(jen.Id("n"), jen.Id("err")).Op(":=").Id("d").Dot("ReadStructHead").Call(),
		jen.If(jen.Id("err").Op("!=").Nil().Op("||").Id("n").Op("==").Add(rt("NullKept"))).Block(jen.Return(jen.Id("err"))),
	}, evolvingElems(s, 0)...)
	doc := evolvingDoc(s)
	return doc.Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(model.MethodDecodeArray).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(body...)
}

// evolvingElems reads the elements of an evolving type's array of n
// elements (the local n: -1 when indefinite) from element first on, and
// leaves the array: the array decoder's, from 0, and from 1 that of a
// //cborgen:union first variant, whose case the dispatcher read.
func evolvingElems(s *model.Struct, first int) []jen.Code {
	nf := len(s.Fields)
	required := nf - s.Optional
	want := fmt.Sprintf("%d to %d elements", required, nf)
	if s.Extensible {
		want = "at least " + countOf(required, "element")
	} else if required == nf {
		want = countOf(nf, "element")
	}
	wrongLength := func(found jen.Code) jen.Code {
		return jen.Return(jen.Id("d").Dot("Errorf").Call(rt("ErrLength"),
			jen.Lit("expected array of "+want+", found %d"), found))
	}
	n, i := jen.Id("n"), jen.Id("i")

	tooFew := n.Clone().Op("<").Lit(required)
	lengthOK := jen.Add(tooFew)
	if !s.Extensible {
		lengthOK = jen.Parens(jen.Add(tooFew).Op("||").Add(n).Op(">").Lit(nf))
	}
	end := evolvingEnd(s, required, wrongLength)

	past := []jen.Code{wrongLengthMore(required, nf)}
	if s.Extensible {
		skip := jen.Id("d").Dot("Skip").Call()
		if s.Unknown != "" {
			skip = jen.Id("d").Dot("KeepElem").Call(jen.Op("&").Add(unknownField(s))) // unknown.go
		}
		past = []jen.Code{
			jen.If(jen.Id("err").Op(":=").Add(skip), jen.Id("err").Op("!=").Nil()).
				Block(jen.Return(jen.Id("err"))),
			jen.Continue(),
		}
	}
	// Kept elements are those of this decode (genrt.Unknown).
	return append(unknownReset(s),
		jen.If(jen.Add(n).Op(">=").Lit(0).Op("&&").Add(lengthOK)).Block(wrongLength(n)),
		jen.For(jen.Add(i).Op(":=").Lit(first), jen.Empty(), jen.Add(i).Op("++")).Block(
			jen.List(jen.Id("more"), jen.Id("err")).Op(":=").Id("d").Dot("NextElem").Call(n, i),
			jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
			jen.If(jen.Op("!").Id("more")).Block(end...),
			jen.If(jen.Add(i).Op(">=").Lit(nf)).Block(past...),
			decodeFieldsCall(i, jen.Add(i).Op("+").Lit(1)),
		),
		jen.Id("d").Dot("Leave").Call(),
		jen.Return(jen.Nil()),
	)
}

// evolvingEnd is what the decoder of an evolving type does when the
// array ends after i elements: too few is an error; each added field the
// array ends before is set to zero.
func evolvingEnd(s *model.Struct, required int, wrongLength func(found jen.Code) jen.Code) []jen.Code {
	i := jen.Id("i")
	var end []jen.Code
	if required > 0 {
		end = append(end, jen.If(jen.Add(i).Op("<").Lit(required)).Block(wrongLength(i)))
	}
	for k := required; k < len(s.Fields); k++ {
		f := s.Fields[k]
		if f.IsReserved() {
			continue
		}
		// A field promoted through a nil embedded pointer is zero
		// already.
		cond := jen.Add(i).Op("<=").Lit(k)
		ptrs, _ := embeddedPtrs(f)
		for _, p := range ptrs {
			cond = cond.Op("&&").Add(p).Op("!=").Nil()
		}
		end = append(end, jen.If(cond).Block(
			fieldExpr(f).Op("=").Add(zeroValue(f.Zero, f.Type.GoType())),
		))
	}
	return append(end, jen.Break())

}

// evolvingDoc is the doc comment of the array decoder of an evolving
// type: which fields older arrays end before, and whether newer elements
// are skipped.
func evolvingDoc(s *model.Struct) *jen.Statement {
	nf := len(s.Fields)
	required := nf - s.Optional
	doc := jen.Commentf("%s reads the current format: an array of the %d fields.", model.MethodDecodeArray, nf).Line()
	if s.Optional > 0 {
		var added []string
		for _, f := range s.Fields[required:] {
			if !f.IsReserved() {
				added = append(added, f.Name)
			}
		}
		what := "the last slots were added end early."
		switch len(added) {
		case 0:
		case 1:
			what = added[0] + " was added end early; it is set to zero."
		default:
			what = strings.Join(added[:len(added)-1], ", ") + " and " + added[len(added)-1] +
				" were added end early; they are set to zero."
		}
		doc.Comment("Arrays written before " + what).Line()
	}
	if s.Extensible && s.Unknown != "" {
		doc.Comment("Elements after the last field, written by a newer version of the type, are").Line().
			Commentf("kept in v.%s (//cborgen:extensible).", s.Unknown).Line()
	} else if s.Extensible {
		doc.Comment("Elements after the last field, written by a newer version of the type, are").Line().
			Comment("skipped (//cborgen:extensible).").Line()
	}
	return doc
}

// wrongLengthMore refuses an element past the last field.
func wrongLengthMore(required, nf int) jen.Code {
	want := fmt.Sprintf("%d to %d elements", required, nf)
	if required == nf {
		want = countOf(nf, "element")
	}
	return jen.Return(jen.Id("d").Dot("Errorf").Call(rt("ErrLength"),
		jen.Lit("expected array of "+want+", found more")))
}
