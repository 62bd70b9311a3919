package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// unmarshalMethod emits UnmarshalCBOR, the fxamacker/cbor Unmarshaler:
// exactly one item, in either format, and nothing after it. From
// testdata/golden/nested, for a struct read straight from an array:
//
//	func (v *Item) UnmarshalCBOR(data []byte) error {
//		d := genrt.NewBytesDecoder(data)
//		var err error
//		if len(data) != 0 && data[0]>>5 == genrt.MajorArray {
//			err = v.cborDecodeFields(d, -1, 3)
//		} else {
//			err = v.DecodeCBOR(d)
//		}
//		return d.Finish(err, "Item")
//	}
//
// A struct whose DecodeCBOR starts by looking for an array (no tag of its
// own, not a map-format, value, catch-all or //cborgen:raw type) is read without that
// call when the input starts with one: its array decoder is called here.
// runtime.Decoder.Finish tests in line that err is nil and the input is
// used up, and names the error as DecodeCBOR would have named it in a
// call that all types share (the per-type error paths were a fixed cost
// of code and compile time in each type). Another type calls DecodeCBOR
// and names the whole input alone.
func (e *emitter) unmarshalMethod(s *model.Struct) jen.Code {
	whole := func(err jen.Code) jen.Code { return atRoot(err, s.Name, "WholeInput") }
	decode := jen.If(
		jen.Id("err").Op(":=").Id("v").Dot("DecodeCBOR").Call(jen.Id("d")),
		jen.Id("err").Op("!=").Nil(),
	).Block(jen.Return(whole(jen.Id("err"))))
	if e.compact(s) {
		// -small: the Decoder in the frame, made ready by one call
		// (Decoder.InitBytes) instead of NewBytesDecoder's stores in
		// line, ended by one (FinishCall) instead of Finish's test in
		// line; DecodeCBOR names the root itself (small.go).
		return unmarshalComment().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("UnmarshalCBOR").
			Params(jen.Id("data").Index().Byte()).Error().
			Block(
				jen.Var().Id("d").Add(rt("Decoder")),
				jen.Id("d").Dot("InitBytes").Call(jen.Id("data")),
				jen.Return(jen.Id("d").Dot("FinishCall").Call(jen.Id("v").Dot(decodeName(s)).Call(jen.Op("&").Id("d")), jen.Lit(s.Name))),
			)
	}
	if !s.HasTag && !s.CatchAll && s.Value == nil && !s.MapFormat && s.Raw == "" {
		return unmarshalComment().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("UnmarshalCBOR").
			Params(jen.Id("data").Index().Byte()).Error().
			Block(
				jen.Id("d").Op(":=").Add(rt("NewBytesDecoder")).Call(jen.Id("data")),
				jen.Var().Id("err").Error(),
				jen.If(jen.Len(jen.Id("data")).Op("!=").Lit(0).Op("&&").Id("data").Index(jen.Lit(0)).Op(">>").Lit(5).Op("==").Add(rt("MajorArray"))).Block(
					jen.Id("err").Op("=").Add(arrayCall(s)),
				).Else().Block(
					jen.Id("err").Op("=").Id("v").Dot("DecodeCBOR").Call(jen.Id("d")),
				),
				jen.Return(jen.Id("d").Dot("Finish").Call(jen.Id("err"), jen.Lit(s.Name))),
			)
	}
	return unmarshalComment().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("UnmarshalCBOR").
		Params(jen.Id("data").Index().Byte()).Error().
		Block(
			jen.Id("d").Op(":=").Add(rt("NewBytesDecoder")).Call(jen.Id("data")),
			decode,
			jen.If(jen.Id("d").Dot("Offset").Call().Op("!=").Int64().Call(jen.Len(jen.Id("data")))).Block(
				jen.Return(whole(jen.Id("d").Dot("Errorf").Call(rt("ErrTrailing"), jen.Lit("unexpected data after the value")))),
			),
			jen.Return(jen.Nil()),
		)
}

func unmarshalComment() *jen.Statement {
	return jen.Comment("UnmarshalCBOR decodes data, which must hold exactly one value in either").Line().
		Comment("format (cbor.Unmarshaler). See DecodeCBOR.").Line()
}
