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
//		d := runtime.NewBytesDecoder(data)
//		var err error
//		if len(data) != 0 && data[0]>>5 == runtime.MajorArray {
//			err = v.cborDecodeFields(d, -1, 3)
//		} else {
//			err = v.DecodeCBOR(d)
//		}
//		if err != nil {
//			return runtime.AtRoot(runtime.AtRoot(err, "Item", runtime.OneItem), "Item", runtime.WholeInput)
//		}
//		if d.Offset() != int64(len(data)) {
//			return runtime.AtRoot(d.Errorf(runtime.ErrTrailing, "unexpected data after the value"), "Item", runtime.WholeInput)
//		}
//		return nil
//	}
//
// A struct whose DecodeCBOR starts by looking for an array (no tag of its
// own, not a map-format, value or catch-all type) is read without that
// call when the input starts with one: its array decoder is called here,
// and the error named as DecodeCBOR would have named it, as in Item's
// above. Another type calls DecodeCBOR and names the whole input alone.
func (e *emitter) unmarshalMethod(s *model.Struct) jen.Code {
	whole := func(err jen.Code) jen.Code { return atRoot(err, s.Name, "WholeInput") }
	decode := jen.If(
		jen.Id("err").Op(":=").Id("v").Dot("DecodeCBOR").Call(jen.Id("d")),
		jen.Id("err").Op("!=").Nil(),
	).Block(jen.Return(whole(jen.Id("err"))))
	if !s.HasTag && !s.CatchAll && s.Value == nil && !s.MapFormat {
		decode = jen.Var().Id("err").Error().Line().
			If(jen.Len(jen.Id("data")).Op("!=").Lit(0).Op("&&").Id("data").Index(jen.Lit(0)).Op(">>").Lit(5).Op("==").Add(rt("MajorArray"))).Block(
			jen.Id("err").Op("=").Add(arrayCall(s)),
		).Else().Block(
			jen.Id("err").Op("=").Id("v").Dot("DecodeCBOR").Call(jen.Id("d")),
		).Line().
			If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(whole(atRoot(jen.Id("err"), s.Name, "OneItem"))))
	}
	return jen.Comment("UnmarshalCBOR decodes data, which must hold exactly one value in either").Line().
		Comment("format (cbor.Unmarshaler). See DecodeCBOR.").Line().
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
