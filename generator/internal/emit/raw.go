package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// decodeRawMethod emits DecodeCBOR of a //cborgen:raw type: the decoder
// of either format as usual, renamed cborDecodeItem, called between
// runtime.Decoder.RawStart and RawBytes, which sets the raw field to the
// bytes the value was read from (its tag, if any, included). Every path
// into the type goes through DecodeCBOR: its UnmarshalCBOR calls it
// (without the shortcut to the array decoder), the types that hold it
// and the unions it is a variant of call it. From testdata/golden/raw:
//
//	func (v *Body) DecodeCBOR(d *runtime.Decoder) error {
//		start := d.RawStart()
//		if err := v.cborDecodeItem(d); err != nil {
//			return err
//		}
//		v.Raw = d.RawBytes(start, v.Raw)
//		return nil
//	}
func (e *emitter) decodeRawMethod(s *model.Struct) jen.Code {
	name := methodName(s, "DecodeCBOR")
	raw := jen.Id("v").Dot(s.Raw)
	return jen.Commentf("%s reads one value from d (%s) and keeps the bytes it was read", name, model.MethodDecodeItem).Line().
		Commentf("from in v.%s (//cborgen:raw): a copy, or under Options.ZeroCopy a view of the input.", s.Raw).Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(
			jen.Id("start").Op(":=").Id("d").Dot("RawStart").Call(),
			jen.If(jen.Id("err").Op(":=").Id("v").Dot(model.MethodDecodeItem).Call(jen.Id("d")), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Id("err")),
			),
			jen.Add(raw).Op("=").Id("d").Dot("RawBytes").Call(jen.Id("start"), raw.Clone()),
			jen.Return(jen.Nil()),
		).Line().Line().Add(e.decodeItemMethod(s))
}

// decodeName is the name of the method that reads a value of s in either
// format (after nothing, or before its tag): DecodeCBOR, or for a
// //cborgen:raw type the method its DecodeCBOR wraps.
func decodeName(s *model.Struct) string {
	if s.Raw != "" {
		return model.MethodDecodeItem
	}
	return methodName(s, "DecodeCBOR")
}
