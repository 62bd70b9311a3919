package generator

import (
	"github.com/dave/jennifer/jen"
)

// marshalMethod emits MarshalCBOR, the fxamacker/cbor Marshaler: one
// buffer of the size SizeCBOR bounds, filled by AppendCBOR.
//
//	func (v Order) MarshalCBOR() ([]byte, error) {
//		return v.AppendCBOR(make([]byte, 0, v.SizeCBOR()))
//	}
func (e *emitter) marshalMethod(s *Struct) jen.Code {
	return jen.Commentf("MarshalCBOR returns the CBOR encoding of v (cbor.Marshaler).").Line().
		Func().Params(jen.Id("v").Add(recvType(s))).Id("MarshalCBOR").Params().Params(jen.Index().Byte(), jen.Error()).
		Block(jen.Return(jen.Id("v").Dot("AppendCBOR").Call(
			jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Id("v").Dot(methodSize).Call()),
		)))
}
