package generator

import (
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
		needErr = needErr || refersToStruct(f.Type)
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
		body = append(body, e.appendValue(f.Type, jen.Id("v").Dot(f.Name), 0)...)
	}
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))

	return jen.Comment("AppendCBOR appends the CBOR encoding of v to dst: an array of its fields.").Line().
		Func().Params(jen.Id("v").Op("*").Id(s.Name)).Id("AppendCBOR").
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
		return orNull(jen.Id("dst").Op("=").Add(rt("AppendBytes")).Call(dst, val))

	case ByteArray:
		return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendBytes")).Call(dst, jen.Add(val).Index(jen.Empty(), jen.Empty()))}

	case Array:
		i := local("i", depth)
		return []jen.Code{
			appendHead(runtime.MajorArray, uint64(t.N)),
			jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(
				e.appendValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)...,
			),
		}

	case Slice:
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

// refersToStruct reports whether encoding t calls a nested AppendCBOR.
func refersToStruct(t Type) bool {
	switch t := t.(type) {
	case StructRef:
		return true
	case Array:
		return refersToStruct(t.Elem)
	case Slice:
		return refersToStruct(t.Elem)
	case Map:
		return refersToStruct(t.Elem)
	case Pointer:
		return refersToStruct(t.Elem)
	}
	return false
}
