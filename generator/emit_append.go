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
	if s.Value != nil {
		return e.appendValueMethod(s)
	}
	if s.MapFormat {
		return e.appendMapFormatMethod(s) // emit_map.go
	}
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
	if s.HasTag {
		body = append(body, appendHead(runtime.MajorTag, s.Tag))
	}
	body = append(body, appendHead(runtime.MajorArray, uint64(len(s.Fields))))
	for i, f := range s.Fields {
		body = append(body, jen.Commentf("%d: %s", i, fieldID(f)))
		enc := inBlock(e.scoped(func() []jen.Code { return e.appendValue(f.Type, fieldExpr(f), 0) }))
		// A field promoted through a nil embedded pointer is null, as
		// fxamacker/cbor writes it.
		enc = ifEmbeddedNil(f, func() jen.Code { return jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(jen.Id("dst")) }, enc)
		body = append(body, enc...)
	}
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))

	return jen.Comment("AppendCBOR appends the CBOR encoding of v to dst: an array of its fields.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("AppendCBOR").
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
		return []jen.Code{jen.Id("dst").Op("=").Add(rt(s.append)).Call(dst, convert(t.goType(), s.wide, val))}

	case Bytes:
		fn := "AppendBytes"
		if t.NamedElem {
			fn = "AppendBytesOf"
		}
		return e.orNullContainer(val, jen.Id("dst").Op("=").Add(rt(fn)).Call(dst, val))

	case ByteArray:
		fn := "AppendBytes"
		if t.NamedElem {
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
		return e.orNullContainer(val,
			jen.Id("dst").Op("=").Add(rt("AppendArrayHead")).Call(dst, jen.Len(val)),
			jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(
				e.appendValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)...,
			),
		)

	case Map:
		return e.orNullContainer(val, e.appendMap(t, val, depth)...)

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
		if t.Interface {
			x = jen.Add(val)
		}
		return []jen.Code{appendCall(jen.Qual(dynamicPath, "Append").Call(dst, x, e.dynamicOptions()))}

	case Union:
		return []jen.Code{appendCall(jen.Id(unionFunc(t.Model, "Append")).Call(dst, val))}

	case Split:
		return e.appendValue(t.Enc, val, depth)

	case TypeParam:
		return []jen.Code{appendCall(jen.Qual(dynamicPath, "AppendValue").Call(dst, jen.Op("&").Add(val), e.dynamicOptions()))}

	case Reserved:
		return []jen.Code{jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.Op("0xf6"))} // null
	}
	panic("cbor-gen: appendValue: unknown model type")
}

// appendMap appends a non-nil map, its keys in the run's order. Text and
// integer keys are collected as Go values into a pooled slice of the
// runtime (StringKeys, IntKeys, UintKeys), sorted there by the order of
// their encodings, and the pairs are then written in that order; bool keys
// go through the MapSorter, which reorders the encoded pairs in place.
//
//	dst = runtime.AppendMapHead(dst, len(v.Counts))
//	ks := runtime.GetStringKeys()
//	for k := range v.Counts {
//		ks.Keys = append(ks.Keys, k)
//	}
//	ks.Sort()
//	for _, k := range ks.Keys {
//		dst = runtime.AppendString(dst, k)
//		dst = runtime.AppendInt(dst, v.Counts[k])
//	}
//	ks.Release()
//
// A value that is not a scalar is copied into a local declared before the
// loop (e.hoist), not in it: the address of a loop variable that a
// recursive AppendCBOR takes would move it to the heap, once per pair. On
// an error return the pooled slice is not released, only dropped.
func (e *emitter) appendMap(t Map, val jen.Code, depth int) []jen.Code {
	k, ks := jen.Id(local("k", depth)), jen.Id(local("ks", depth))
	head := jen.Id("dst").Op("=").Add(rt("AppendMapHead")).Call(jen.Id("dst"), jen.Len(val))

	// elem returns the statements that append the value x of a pair;
	// local tells that x is a variable of the loop, not an index
	// expression that should be evaluated once.
	elem := func(x jen.Code, isLocal bool) []jen.Code {
		v := jen.Id(local("e", depth))
		switch {
		case isScalar(t.Elem), isLocal && !addressed(t.Elem):
			return e.appendValue(t.Elem, x, depth+1)
		case !addressed(t.Elem):
			return append([]jen.Code{jen.Add(v).Op(":=").Add(x)}, e.appendValue(t.Elem, v, depth+1)...)
		}
		e.hoist = append(e.hoist, jen.Var().Add(v).Add(typeCode(t.Elem.goType())))
		return append([]jen.Code{jen.Add(v).Op("=").Add(x)}, e.appendValue(t.Elem, v, depth+1)...)
	}

	if e.order == orderNone {
		x := jen.Id(local("x", depth))
		pair := append(e.appendValue(t.Key, k, depth+1), elem(x, true)...)
		return []jen.Code{head, jen.For(jen.List(k, x).Op(":=").Range().Add(val)).Block(pair...)}
	}

	// Keys are held in the runtime's slice as string, int64 or uint64.
	var get string
	var kind types.BasicKind
	var sortArgs []jen.Code
	switch kt := t.Key.(type) {
	case String:
		get, kind = "GetStringKeys", types.String
	case Int:
		if kt.Signed {
			get, kind = "GetIntKeys", types.Int64
			sortArgs = []jen.Code{rt(e.order.runtimeName())}
		} else {
			get, kind = "GetUintKeys", types.Uint64
		}
	default:
		return e.appendMapSorter(t, val, depth, head, elem)
	}
	keyT := t.Key.goType()
	var keyCode []jen.Code
	switch kind {
	case types.String:
		keyCode = []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendString")).Call(jen.Id("dst"), k)}
	case types.Int64:
		keyCode = []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendInt")).Call(jen.Id("dst"), k)}
	default:
		keyCode = []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendUint")).Call(jen.Id("dst"), k)}
	}
	pair := append(keyCode, elem(jen.Add(val).Index(convertTo(keyT, kind, k)), false)...)
	return []jen.Code{
		head,
		jen.Add(ks).Op(":=").Add(rt(get)).Call(),
		jen.For(k.Clone().Op(":=").Range().Add(val)).Block(
			jen.Add(ks).Dot("Keys").Op("=").Append(jen.Add(ks).Dot("Keys"), convert(keyT, kind, k)),
		),
		jen.Add(ks).Dot("Sort").Call(sortArgs...),
		jen.For(jen.List(jen.Id("_"), k).Op(":=").Range().Add(ks).Dot("Keys")).Block(pair...),
		jen.Add(ks).Dot("Release").Call(),
	}
}

// appendMapSorter appends a map with bool keys: the pairs in Go's order,
// then reordered by the runtime's MapSorter.
func (e *emitter) appendMapSorter(t Map, val jen.Code, depth int, head jen.Code, elem func(jen.Code, bool) []jen.Code) []jen.Code {
	k, x, s := jen.Id(local("k", depth)), jen.Id(local("x", depth)), jen.Id(local("s", depth))
	loop := []jen.Code{jen.Add(s).Dot("Key").Call(jen.Id("dst"))}
	loop = append(loop, e.appendValue(t.Key, k, depth+1)...)
	loop = append(loop, jen.Add(s).Dot("Value").Call(jen.Id("dst")))
	loop = append(loop, elem(x, true)...)
	return []jen.Code{
		head,
		jen.Add(s).Op(":=").Add(rt("GetMapSorter")).Call(),
		jen.For(jen.List(k, x).Op(":=").Range().Add(val)).Block(loop...),
		jen.Id("dst").Op("=").Add(s).Dot("Finish").Call(jen.Id("dst"), rt(e.order.runtimeName())),
	}
}

// addressed reports whether the code that encodes or decodes a value of
// type t may take its address (a method call with a pointer receiver, a
// slice of an array, a runtime function given a pointer). Bytes, slices,
// maps and pointers are used as they are.
func addressed(t Type) bool {
	switch t.(type) {
	case Bool, Int, Float, String, Bytes, Slice, Map, Pointer:
		return false
	}
	return true
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

// canFail reports whether the code that encodes t assigns the method's
// err variable: it calls a nested AppendCBOR or fxamacker/cbor, or writes
// RFC 3339 text. A marshaler can fail too, but its call declares an err of
// its own (if b, err := v.F.MarshalCBOR(); ...), so a struct whose only
// fields are marshalers must not declare one that nothing uses.
func canFail(t Type) bool {
	return containsType(t, func(t Type) bool {
		switch t := t.(type) {
		case StructRef, Time, Dynamic, TypeParam, Union:
			return true
		case Split:
			return canFail(t.Enc)
		}
		return false
	})
}

// orNullContainer writes a nil slice, map or byte slice val as null, then
// enc for any other; with -nilempty, enc for every value, since enc writes
// a nil container as an empty one (80, a0, 40), as fxamacker's
// NilContainerAsEmpty does.
func (e *emitter) orNullContainer(val jen.Code, enc ...jen.Code) []jen.Code {
	if e.nilEmpty {
		if len(enc) == 1 {
			return enc
		}
		return []jen.Code{jen.Block(enc...)} // its locals stay its own, as in the else branch
	}
	return []jen.Code{jen.If(jen.Add(val).Op("==").Nil()).Block(
		jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(jen.Id("dst")),
	).Else().Block(enc...)}
}

// appendValueMethod emits AppendCBOR of a value type: its tag, if any,
// then its underlying value as a field of that type is written.
func (e *emitter) appendValueMethod(s *Struct) jen.Code {
	if s.CatchAll {
		return jen.Comment("AppendCBOR appends the item v holds, as it was read (null when empty).").Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("AppendCBOR").
			Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
			Block(
				jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(rt("AppendNull").Call(jen.Id("dst")), jen.Nil())),
				jen.Return(rt("AppendRaw").Call(jen.Id("dst"), deref(jen.Id("v")))),
			)
	}
	body := []jen.Code{
		jen.If(jen.Id("v").Op("==").Nil()).Block(
			jen.Return(rt("AppendNull").Call(jen.Id("dst")), jen.Nil()),
		),
	}
	if canFail(s.Value) {
		body = append(body, jen.Var().Id("err").Error())
	}
	if s.HasTag && nilable(s.Value) && !e.nilEmpty {
		// A nil slice or map is null without the tag, as fxamacker
		// writes it.
		body = append(body, jen.If(jen.Add(deref(jen.Id("v"))).Op("==").Nil()).Block(
			jen.Return(rt("AppendNull").Call(jen.Id("dst")), jen.Nil()),
		))
	}
	if s.HasTag {
		body = append(body, appendHead(runtime.MajorTag, s.Tag))
	}
	hoisted, enc := e.scoped(func() []jen.Code { return e.appendValue(s.Value, deref(jen.Id("v")), 0) })
	body = append(append(body, hoisted...), enc...)
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))
	return jen.Comment("AppendCBOR appends the CBOR encoding of v to dst.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("AppendCBOR").
		Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}

// nilable reports whether a value of type t can be nil and is then
// written as null: a slice, a map or a byte slice.
func nilable(t Type) bool {
	switch t.(type) {
	case Slice, Map, Bytes:
		return true
	}
	return false
}
