package generator

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/runtime"
)

// marshalMethod emits MarshalCBOR, the fxamacker/cbor Marshaler: a fresh
// buffer sized for a typical value, filled by AppendCBOR.
//
//	func (v Order) MarshalCBOR() ([]byte, error) {
//		return v.AppendCBOR(make([]byte, 0, 64))
//	}
func (e *emitter) marshalMethod(s *Struct) jen.Code {
	return jen.Commentf("MarshalCBOR returns the CBOR encoding of v (cbor.Marshaler).").Line().
		Func().Params(jen.Id("v").Add(recvType(s))).Id("MarshalCBOR").Params().Params(jen.Index().Byte(), jen.Error()).
		Block(jen.Return(jen.Id("v").Dot("AppendCBOR").Call(
			jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Lit(sizeHint(s))),
		)))
}

// sizeHint estimates the encoded size of a typical value of s: exact for
// fixed-size fields, a guess for strings and containers. It only sizes the
// first allocation; AppendCBOR grows the buffer as needed.
func sizeHint(s *Struct) int {
	n := runtime.SizeHead(uint64(len(s.Fields)))
	for _, f := range s.Fields {
		n += typeHint(f.Type, 0)
	}
	const minHint, maxHint = 16, 1024
	return min(max(n, minHint), maxHint)
}

func typeHint(t Type, depth int) int {
	if depth > 2 {
		return 16
	}
	switch t := t.(type) {
	case Bool:
		return 1
	case Int:
		if t.Bits == 0 || t.Bits == 64 {
			return 9
		}
		return 1 + t.Bits/8
	case Float:
		return 1 + t.Bits/8
	case String, Bytes:
		return 16
	case ByteArray:
		return runtime.SizeHead(uint64(t.N)) + int(min(t.N, 1024))
	case Array:
		return runtime.SizeHead(uint64(t.N)) + int(min(t.N, 64))*typeHint(t.Elem, depth+1)
	case Slice:
		return 1 + 4*typeHint(t.Elem, depth+1)
	case Map:
		return 1 + 4*(typeHint(t.Key, depth+1)+typeHint(t.Elem, depth+1))
	case Pointer:
		return typeHint(t.Elem, depth)
	case StructRef:
		return 32
	}
	return 8
}
