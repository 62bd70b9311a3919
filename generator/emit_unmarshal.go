package generator

import (
	"github.com/dave/jennifer/jen"
)

// unmarshalMethod emits UnmarshalCBOR, the fxamacker/cbor Unmarshaler:
// exactly one item, in either format, and nothing after it.
//
//	func (v *Order) UnmarshalCBOR(data []byte) error {
//		d := runtime.NewBytesDecoder(data)
//		if err := v.DecodeCBOR(d); err != nil {
//			return runtime.AtRoot(err, "Order", runtime.WholeInput)
//		}
//		if d.Offset() != int64(len(data)) {
//			return runtime.AtRoot(d.Errorf(runtime.ErrTrailing, "..."), "Order", runtime.WholeInput)
//		}
//		return nil
//	}
func (e *emitter) unmarshalMethod(s *Struct) jen.Code {
	whole := func(err jen.Code) jen.Code { return atRoot(err, s.Name, "WholeInput") }
	return jen.Comment("UnmarshalCBOR decodes data, which must hold exactly one value in either").Line().
		Comment("format (cbor.Unmarshaler). See DecodeCBOR.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("UnmarshalCBOR").
		Params(jen.Id("data").Index().Byte()).Error().
		Block(
			jen.Id("d").Op(":=").Add(rt("NewBytesDecoder")).Call(jen.Id("data")),
			jen.If(
				jen.Id("err").Op(":=").Id("v").Dot("DecodeCBOR").Call(jen.Id("d")),
				jen.Id("err").Op("!=").Nil(),
			).Block(jen.Return(whole(jen.Id("err")))),
			jen.If(jen.Id("d").Dot("Offset").Call().Op("!=").Int64().Call(jen.Len(jen.Id("data")))).Block(
				jen.Return(whole(jen.Id("d").Dot("Errorf").Call(rt("ErrTrailing"), jen.Lit("unexpected data after the value")))),
			),
			jen.Return(jen.Nil()),
		)
}
