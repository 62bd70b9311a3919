package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// marshalMethod emits MarshalCBOR, the fxamacker/cbor Marshaler: one
// buffer of the size SizeCBOR bounds, filled by AppendCBOR. From
// testdata/golden/nested:
//
//	func (v Order) MarshalCBOR() ([]byte, error) {
//		return v.AppendCBOR(make([]byte, 0, v.SizeCBOR()))
//	}
//
// A type that holds a lock (a sync.Mutex field) gets a pointer receiver,
// since a value receiver would copy the lock (go vet's copylocks):
// fxamacker/cbor then uses the method for *T, and for T only where the
// value is addressable, so such a value is marshaled through a pointer.
func (e *emitter) marshalMethod(s *model.Struct) jen.Code {
	recv := jen.Id("v").Add(e.typeRef(s))
	if s.HoldsLock {
		recv = jen.Id("v").Op("*").Add(e.typeRef(s))
	}
	return jen.Commentf("MarshalCBOR returns the CBOR encoding of v (cbor.Marshaler).").Line().
		Func().Params(recv).Id("MarshalCBOR").Params().Params(jen.Index().Byte(), jen.Error()).
		Block(jen.Return(jen.Id("v").Dot("AppendCBOR").Call(
			jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Id("v").Dot(model.MethodSize).Call()),
		)))
}
