package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// marshalMethod emits MarshalCBOR, the fxamacker/cbor Marshaler: one
// buffer of the size SizeCBOR bounds, filled by AppendCBOR, as in
// v.AppendCBOR(make([]byte, 0, v.SizeCBOR())). A type whose size is a few
// lines without a loop or a call (sizeInLine) counts it in MarshalCBOR
// itself, in SizeCBOR's statements. From testdata/golden/nested:
//
//	func (v Item) MarshalCBOR() ([]byte, error) {
//		n := 10
//		n += genrt.SizeHead(uint64(len(v.SKU))) + len(v.SKU)
//		n += genrt.SizeHead(uint64(v.Qty))
//		return v.AppendCBOR(make([]byte, 0, n))
//	}
//
// A type whose values hold a union's (sizeWalksUnion) is encoded into a
// pooled buffer instead and copied out at its length, as the union's own
// Marshal function does: SizeCBOR would walk the whole tree of values
// first, a walk as long as the encoding (a quarter of the time on a
// store's record of nested composites and dictionaries).
//
// Under -small a type is encoded into a buffer of 64 bytes in the frame
// and copied out (genrt.Owned): MarshalCBOR then reaches AppendCBOR alone,
// and a program that calls only the byte methods links no SizeCBOR.
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
	body := []jen.Code{jen.Return(jen.Id("v").Dot("AppendCBOR").Call(
		jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Id("v").Dot(model.MethodSize).Call()),
	))}
	switch {
	case e.marshalInLine(s):
		body = e.marshalInLineBody(s)
	case e.small:
		body = []jen.Code{
			jen.Var().Id("b").Index(jen.Lit(64)).Byte(),
			jen.Return(rt("Owned").Call(jen.Id("v").Dot("AppendCBOR").Call(jen.Id("b").Index(jen.Empty(), jen.Lit(0))))),
		}
	case e.sizeWalksUnion(s, nil):
		body = []jen.Code{
			jen.Id("b").Op(":=").Add(rt("GetBuffer")).Call(),
			jen.Return(jen.Id("b").Dot("Finish").Call(jen.Id("v").Dot("AppendCBOR").Call(jen.Id("b").Dot("B")))),
		}
	case e.sizeInLine(s): // size.go
		fixed, size := e.sizeParts(s)
		body = append(append([]jen.Code{jen.Id("n").Op(":=").Lit(fixed)}, size...),
			jen.Return(jen.Id("v").Dot("AppendCBOR").Call(jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Id("n")))))
	}
	return jen.Commentf("MarshalCBOR returns the CBOR encoding of v (cbor.Marshaler).").Line().
		Func().Params(recv).Id("MarshalCBOR").Params().Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}

// sizeWalksUnion reports whether s holds, in a field or within one (its
// elements, map entries, pointees, the fields of the generated structs
// it holds), a union's value, whose size only a walk of the value finds.
// visiting guards against a struct that refers to itself.
func (e *emitter) sizeWalksUnion(s *model.Struct, visiting map[*model.Struct]bool) bool {
	if visiting[s] {
		return false
	}
	if visiting == nil {
		visiting = map[*model.Struct]bool{}
	}
	visiting[s] = true
	if s.Value != nil {
		return e.typeWalksUnion(s.Value, visiting)
	}
	for _, f := range s.Fields {
		if e.typeWalksUnion(f.Type, visiting) {
			return true
		}
	}
	return false
}

// typeWalksUnion is sizeWalksUnion for a value of type t.
func (e *emitter) typeWalksUnion(t model.Type, visiting map[*model.Struct]bool) bool {
	switch t := t.(type) {
	case model.Union:
		return true
	case model.Slice:
		return e.typeWalksUnion(t.Elem, visiting)
	case model.Array:
		return e.typeWalksUnion(t.Elem, visiting)
	case model.Pointer:
		return e.typeWalksUnion(t.Elem, visiting)
	case model.Map:
		return e.typeWalksUnion(t.Key, visiting) || e.typeWalksUnion(t.Elem, visiting)
	case model.Split:
		return e.typeWalksUnion(t.Enc, visiting)
	case model.StructRef:
		if s := e.structs[t.Local]; s != nil && t.Local != "" {
			return e.sizeWalksUnion(s, visiting)
		}
	}
	return false
}
