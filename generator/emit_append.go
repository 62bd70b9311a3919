package generator

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/runtime"
)

// appendMethod emits AppendCBOR, the encoder: an array head, then each
// field in declaration order.
//
//	func (v *Order) AppendCBOR(dst []byte) ([]byte, error) {
//		if v == nil {
//			return runtime.AppendNull(dst), nil
//		}
//		dst = append(dst, 0x82)
//		dst = runtime.AppendUint(dst, v.ID)
//		...
//		return dst, nil
//	}
func (e *emitter) appendMethod(s *Struct) jen.Code {
	needErr := false
	for _, f := range s.Fields {
		needErr = needErr || canFail(f.Type)
	}
	body := []jen.Code{
		jen.If(jen.Id("v").Op("==").Nil()).Block(
			jen.Return(rt("AppendNull").Call(jen.Id("dst")), jen.Nil()),
		),
	}
	if needErr {
		body = append(body, jen.Var().Id("err").Error())
	}
	body = append(body, appendHead(runtime.MajorArray, uint64(len(s.Fields))))
	for _, f := range s.Fields {
		enc := e.appendValue(f.Type, fieldExpr(f), 0)
		// A field promoted through a nil embedded pointer is null, as
		// fxamacker/cbor writes it.
		ptrs, _ := embeddedPtrs(f)
		for i := len(ptrs) - 1; i >= 0; i-- {
			enc = []jen.Code{jen.If(jen.Add(ptrs[i]).Op("==").Nil()).Block(
				jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(jen.Id("dst")),
			).Else().Block(enc...)}
		}
		body = append(body, enc...)
	}
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))

	return jen.Comment("AppendCBOR appends the CBOR encoding of v to dst: an array of its fields.").Line().
		Func().Params(jen.Id("v").Op("*").Add(recvType(s))).Id("AppendCBOR").
		Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}

// appendValue returns the statements that append val, of type t, to dst.
// val must be addressable; depth names the locals of nested containers.
func (e *emitter) appendValue(t Type, val jen.Code, depth int) []jen.Code {
	dst := jen.Id("dst")
	orNull := func(enc ...jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.Add(val).Op("==").Nil()).Block(
			jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(dst),
		).Else().Block(enc...)}
	}
	switch t := t.(type) {
	case Bool, Int, Float, String:
		s, _ := scalarOf(t)
		return []jen.Code{jen.Id("dst").Op("=").Add(rt(s.append)).Call(dst, convert(t.goType(), appendKind(t, s), val))}

	case Bytes:
		if namedByteElem(t.Go) {
			return orNull(jen.Id("dst").Op("=").Add(rt("AppendBytesOf")).Call(dst, val))
		}
		return orNull(jen.Id("dst").Op("=").Add(rt("AppendBytes")).Call(dst, val))

	case ByteArray:
		fn := "AppendBytes"
		if namedByteElem(t.Go) {
			fn = "AppendBytesOf"
		}
		return []jen.Code{jen.Id("dst").Op("=").Add(rt(fn)).Call(dst, jen.Add(val).Index(jen.Empty(), jen.Empty()))}

	case Array:
		if _, ok := t.Elem.(TypeParam); ok {
			// A byte string when the type argument's kind is uint8.
			return []jen.Code{appendCall(jen.Qual(dynamicPath, "AppendArray").Call(dst, jen.Add(val).Index(jen.Empty(), jen.Empty()), e.dynamicOptions()))}
		}
		i := local("i", depth)
		return []jen.Code{
			appendHead(runtime.MajorArray, uint64(t.N)),
			jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(
				e.appendValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)...,
			),
		}

	case Slice:
		if _, ok := t.Elem.(TypeParam); ok {
			return []jen.Code{appendCall(jen.Qual(dynamicPath, "AppendSlice").Call(dst, val, e.dynamicOptions()))}
		}
		i := local("i", depth)
		return orNull(
			jen.Id("dst").Op("=").Add(rt("AppendArrayHead")).Call(dst, jen.Len(val)),
			jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(
				e.appendValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)...,
			),
		)

	case Map:
		return orNull(e.appendMap(t, val, depth)...)

	case Pointer:
		if _, ok := t.Elem.(StructRef); ok {
			return orNull(appendRef(val))
		}
		return orNull(e.appendValue(t.Elem, deref(val), depth+1)...)

	case StructRef:
		return []jen.Code{appendRef(val)}

	case Time:
		return []jen.Code{appendCall(rt("AppendTime").Call(dst, val, e.time.modeCode(), jen.Lit(e.time.tag)))}

	case BigInt:
		return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendBigInt")).Call(dst, jen.Op("&").Add(val))}

	case Marshaler:
		// The output of a hand-written MarshalCBOR is checked as
		// fxamacker/cbor checks it.
		b := jen.Id(local("b", depth))
		return []jen.Code{jen.If(
			jen.List(b, jen.Id("err")).Op(":=").Add(val).Dot("MarshalCBOR").Call(),
			jen.Id("err").Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Id("err"))).Else().Block(
			appendCall(rt("AppendMarshaled").Call(dst, b)),
		)}

	case BinaryMarshaler:
		b := jen.Id(local("b", depth))
		return []jen.Code{jen.If(
			jen.List(b, jen.Id("err")).Op(":=").Add(val).Dot("MarshalBinary").Call(),
			jen.Id("err").Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Id("err"))).Else().Block(
			jen.Id("dst").Op("=").Add(rt("AppendBytes")).Call(dst, b),
		)}

	case Dynamic:
		x := jen.Op("&").Add(val) // fxamacker then finds methods on *T too
		if _, ok := t.Go.Underlying().(*types.Interface); ok {
			x = jen.Add(val)
		}
		return []jen.Code{appendCall(jen.Qual(dynamicPath, "Append").Call(dst, x, e.dynamicOptions()))}

	case TypeParam:
		return []jen.Code{appendCall(jen.Qual(dynamicPath, "AppendValue").Call(dst, jen.Op("&").Add(val), e.dynamicOptions()))}

	case Reserved:
		return []jen.Code{jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.Op("0xf6"))} // null
	}
	panic("cbor-gen: appendValue: unknown model type")
}

// appendMap appends a non-nil map, its keys in the run's order. The
// runtime's MapSorter records where each key and value starts and
// reorders the pairs in place at the end.
func (e *emitter) appendMap(t Map, val jen.Code, depth int) []jen.Code {
	k, v, s := local("k", depth), local("e", depth), local("s", depth)
	keyCodes := e.appendValue(t.Key, jen.Id(k), depth+1)
	elemCodes := e.appendValue(t.Elem, jen.Id(v), depth+1)
	head := jen.Id("dst").Op("=").Add(rt("AppendMapHead")).Call(jen.Id("dst"), jen.Len(val))
	if e.order == orderNone {
		pair := append(keyCodes, elemCodes...)
		return []jen.Code{head, jen.For(jen.List(jen.Id(k), jen.Id(v)).Op(":=").Range().Add(val)).Block(pair...)}
	}
	loop := []jen.Code{jen.Id(s).Dot("Key").Call(jen.Id("dst"))}
	loop = append(loop, keyCodes...)
	loop = append(loop, jen.Id(s).Dot("Value").Call(jen.Id("dst")))
	loop = append(loop, elemCodes...)
	return []jen.Code{
		head,
		jen.Id(s).Op(":=").Add(rt("GetMapSorter")).Call(),
		jen.For(jen.List(jen.Id(k), jen.Id(v)).Op(":=").Range().Add(val)).Block(loop...),
		jen.Id("dst").Op("=").Id(s).Dot("Finish").Call(jen.Id("dst"), rt(e.order.runtimeName())),
	}
}

// appendRef calls the generated encoder of a nested type; p is an
// addressable value or a pointer.
func appendRef(p jen.Code) jen.Code {
	return jen.If(
		jen.List(jen.Id("dst"), jen.Id("err")).Op("=").Add(p).Dot("AppendCBOR").Call(jen.Id("dst")),
		jen.Id("err").Op("!=").Nil(),
	).Block(jen.Return(jen.Nil(), jen.Id("err")))
}

// appendCall is "if dst, err = call; err != nil { return nil, err }" for
// an append function that can fail.
func appendCall(call jen.Code) jen.Code {
	return jen.If(
		jen.List(jen.Id("dst"), jen.Id("err")).Op("=").Add(call),
		jen.Id("err").Op("!=").Nil(),
	).Block(jen.Return(jen.Nil(), jen.Id("err")))
}

// canFail reports whether encoding t can fail: it calls a nested
// AppendCBOR, a marshaler, or fxamacker/cbor, or writes RFC 3339 text.
func canFail(t Type) bool {
	switch t := t.(type) {
	case StructRef, Time, Marshaler, BinaryMarshaler, Dynamic, TypeParam:
		return true
	case Array:
		return canFail(t.Elem)
	case Slice:
		return canFail(t.Elem)
	case Map:
		return canFail(t.Elem)
	case Pointer:
		return canFail(t.Elem)
	}
	return false
}
