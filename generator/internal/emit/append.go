package emit

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// appendMethod emits AppendCBOR, the encoder: an array head, then each
// field in declaration order. From testdata/golden/nested:
//
//	func (v *Item) AppendCBOR(dst []byte) ([]byte, error) {
//		if v == nil {
//			return genrt.AppendNull(dst), nil
//		}
//		dst = append(dst, 0x83) // array of 3
//		// 0: SKU
//		dst = append(genrt.AppendTextHead(dst, len(v.SKU)), v.SKU...)
//		// 1: Qty
//		dst = genrt.AppendUint(dst, uint64(v.Qty))
//		// 2: Price
//		dst = genrt.AppendFloat64(dst, v.Price)
//		return dst, nil
//	}
func (e *emitter) appendMethod(s *model.Struct) jen.Code {
	if s.Value != nil {
		return e.appendValueMethod(s)
	}
	needErr := false
	for _, f := range s.Fields {
		needErr = needErr || e.canFail(f.Type)
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
		body = append(body, appendHead(genrt.MajorTag, s.Tag))
	}
	body = append(body, optionalArrayHead(s)...) // optional.go
	for i, f := range s.Fields {
		if isCaseField(s, i) { // content.go
			body = append(body, ifElement(s, i, []jen.Code{jen.Commentf("%d: %s", i, model.FieldID(f)), appendCase(s)})...)
			continue
		}
		enc := inBlock(e.scoped(func() []jen.Code { return e.appendValue(f.Type, fieldExpr(f), 0) }))
		// A field promoted through a nil embedded pointer is null, as
		// fxamacker/cbor writes it.
		enc = ifEmbeddedNil(f, func() jen.Code { return jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(jen.Id("dst")) }, enc)
		body = append(body, ifElement(s, i, append([]jen.Code{jen.Commentf("%d: %s", i, model.FieldID(f))}, enc...))...)
	}
	if s.Unknown != "" {
		body = append(body, e.unknownAppendEnd(s)) // unknown.go
	}
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))

	return jen.Comment(methodName(s, "AppendCBOR")+" appends the CBOR encoding of v to dst: an array of its fields.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodName(s, "AppendCBOR")).
		Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}

// appendValue returns the statements that append val, of type t, to dst.
// val must be addressable; depth names the locals of nested containers.
func (e *emitter) appendValue(t model.Type, val jen.Code, depth int) []jen.Code {
	dst := jen.Id("dst")
	orNull := func(enc ...jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.Add(val).Op("==").Nil()).Block(
			jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(dst),
		).Else().Block(enc...)}
	}
	switch t := t.(type) {
	case model.String:
		// The head in line when it is one byte: append(head, s...).
		x := convert(t.GoType(), types.String, val)
		if e.small {
			return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendStringCall")).Call(dst, x)}
		}
		return []jen.Code{jen.Id("dst").Op("=").Append(rt("AppendTextHead").Call(dst, jen.Len(x)), jen.Add(x).Op("..."))}

	case model.Bool, model.Int, model.Float:
		s, _ := model.ScalarOf(t)
		if _, ok := t.(model.Float); ok && e.floatNone {
			s.Append += "Full" // AppendFloat64Full: at its Go width
		}
		return []jen.Code{jen.Id("dst").Op("=").Add(rt(e.outOfLine(s.Append))).Call(dst, convert(t.GoType(), s.Wide, val))}

	case model.Bytes:
		if t.NamedElem {
			return e.orNullContainer(val, jen.Id("dst").Op("=").Add(rt("AppendBytesOf")).Call(dst, val))
		}
		if e.nilEmpty {
			return []jen.Code{jen.Id("dst").Op("=").Add(rt(e.outOfLine("AppendBytes"))).Call(dst, val)}
		}
		return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendBytesOrNull")).Call(dst, val)}

	case model.ByteArray:
		fn := e.outOfLine("AppendBytes")
		if t.NamedElem {
			fn = "AppendBytesOf"
		}
		return []jen.Code{jen.Id("dst").Op("=").Add(rt(fn)).Call(dst, jen.Add(val).Index(jen.Empty(), jen.Empty()))}

	case model.Array:
		if _, ok := t.Elem.(model.TypeParam); ok {
			// A byte string when the type argument's kind is uint8.
			return []jen.Code{appendCall(jen.Qual(model.DynamicPath, "AppendArray").Call(dst, jen.Add(val).Index(jen.Empty(), jen.Empty()), e.dynamicOptions()))}
		}
		i := local("i", depth)
		return []jen.Code{
			appendHead(genrt.MajorArray, uint64(t.N)),
			jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(
				e.appendValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)...,
			),
		}

	case model.Slice:
		if _, ok := t.Elem.(model.TypeParam); ok {
			return []jen.Code{appendCall(jen.Qual(model.DynamicPath, "AppendSlice").Call(dst, val, e.dynamicOptions()))}
		}
		if e.smallSlice(t) && !e.nilEmpty {
			// -small: the runtime's loop for the element (small.go).
			return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendSliceOf")).Call(dst, val)}
		}
		i := local("i", depth)
		return e.orNullContainer(val,
			jen.Id("dst").Op("=").Add(rt(e.outOfLine("AppendArrayHead"))).Call(dst, jen.Len(val)),
			jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(
				e.appendValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)...,
			),
		)

	case model.Map:
		if e.smallMap(t) {
			// -small: the runtime's sorted loop for the value (small.go).
			return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendStringMapOf")).Call(dst, val)}
		}
		return e.orNullContainer(val, e.appendMap(t, val, depth)...)

	case model.Pointer:
		if r, ok := t.Elem.(model.StructRef); ok {
			if s := e.inlineStruct(r); s != nil {
				return orNull(e.appendInline(s, val, depth)...)
			}
			// else if dst, err = v.F.AppendCBOR(dst); err != nil
			return []jen.Code{jen.If(jen.Add(val).Op("==").Nil()).Block(
				jen.Id("dst").Op("=").Add(rt("AppendNull")).Call(dst),
			).Else().Add(appendRef(e.refOf(r, val, true)))}
		}
		return orNull(e.appendValue(t.Elem, deref(val), depth+1)...)

	case model.StructRef:
		if s := e.inlineStruct(t); s != nil {
			return e.appendInline(s, val, depth)
		}
		return []jen.Code{appendRef(e.refOf(t, val, false))}

	case model.Time:
		return []jen.Code{appendCall(rt("AppendTime").Call(dst, val, modeCode(e.time), jen.Lit(e.time.Tag)))}

	case model.BigInt:
		return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendBigInt")).Call(dst, jen.Op("&").Add(val))}

	case model.Marshaler:
		// The output of a hand-written MarshalCBOR is checked as
		// fxamacker/cbor checks it, and refused with its words, which
		// name the type (a nil pointer to it costs nothing); the
		// method's own error is returned as it is, as there.
		b := jen.Id(local("b", depth))
		return []jen.Code{jen.If(
			jen.List(b, jen.Id("err")).Op(":=").Add(val).Dot("MarshalCBOR").Call(),
			jen.Id("err").Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Id("err"))).Else().Block(
			appendCall(rt("AppendMarshaledBy").Call(dst, b, jen.Parens(jen.Op("*").Add(typeCode(t.Go))).Call(jen.Nil()))),
		)}

	case model.BinaryMarshaler:
		b := jen.Id(local("b", depth))
		return []jen.Code{jen.If(
			jen.List(b, jen.Id("err")).Op(":=").Add(val).Dot("MarshalBinary").Call(),
			jen.Id("err").Op("!=").Nil(),
		).Block(jen.Return(jen.Nil(), jen.Id("err"))).Else().Block(
			jen.Id("dst").Op("=").Add(rt("AppendBytes")).Call(dst, b),
		)}

	case model.Dynamic:
		x := jen.Op("&").Add(val) // fxamacker then finds methods on *T too
		if t.Interface {
			x = jen.Add(val)
		}
		return []jen.Code{appendCall(jen.Qual(model.DynamicPath, "Append").Call(dst, x, e.dynamicOptions()))}

	case model.Union:
		return []jen.Code{appendCall(jen.Id(model.UnionFunc(t.Model, "Append")).Call(dst, val))}

	case model.Split:
		return e.appendValue(t.Enc, val, depth)

	case model.TypeParam:
		return []jen.Code{appendCall(jen.Qual(model.DynamicPath, "AppendValue").Call(dst, jen.Op("&").Add(val), e.dynamicOptions()))}

	case model.Reserved:
		return []jen.Code{jen.Id("dst").Op("=").Append(jen.Id("dst"), jen.Op("0xf6"))} // null
	}
	panic("cbor-gen: appendValue: unknown model type")
}

// appendMap appends a non-nil map, its keys in the run's order. Text
// keys are sorted before the pairs are appended (appendMapSorted). With
// integer keys every pair is appended in Go's iteration order while a
// pooled recorder of the runtime (an IntegerPairs from GetIntPairs or
// GetUintPairs) notes its key and where it starts; Finish then sorts the
// records by the order of the keys' encodings and moves the encoded pairs
// into that order. The map is visited once and no value is looked up by
// its key. Keys of other types go through the MapSorter, which compares
// the encoded keys.
//
//	dst = genrt.AppendMapHead(dst, len(v.IDs))
//	ps := genrt.GetIntPairs()
//	for k, x := range v.IDs {
//		ps.Add(dst, int64(k))
//		dst = genrt.AppendInt(dst, int64(k))
//		dst = genrt.AppendInt(dst, x)
//	}
//	dst = ps.Finish(dst, genrt.SortBytewise)
//
// A value that is not a scalar is copied into a local declared before the
// loop (e.hoist), not in it: the address of a loop variable that a
// recursive AppendCBOR takes would move it to the heap, once per pair. On
// an error return the pooled recorder is not released, only dropped.
func (e *emitter) appendMap(t model.Map, val jen.Code, depth int) []jen.Code {
	k, x := jen.Id(local("k", depth)), jen.Id(local("x", depth))
	head := jen.Id("dst").Op("=").Add(rt(e.outOfLine("AppendMapHead"))).Call(jen.Id("dst"), jen.Len(val))

	// elem returns the statements that append the value x of a pair;
	// local tells that x is a variable of the loop, not an index
	// expression that should be evaluated once.
	elem := func(x jen.Code, isLocal bool) []jen.Code {
		v := jen.Id(local("e", depth))
		switch {
		case model.IsScalar(t.Elem), isLocal && !addressed(t.Elem):
			return e.appendValue(t.Elem, x, depth+1)
		case !addressed(t.Elem):
			return append([]jen.Code{jen.Add(v).Op(":=").Add(x)}, e.appendValue(t.Elem, v, depth+1)...)
		}
		e.hoist = append(e.hoist, jen.Var().Add(v).Add(typeCode(t.Elem.GoType())))
		return append([]jen.Code{jen.Add(v).Op("=").Add(x)}, e.appendValue(t.Elem, v, depth+1)...)
	}

	if e.order == model.OrderNone {
		pair := append(e.appendKey(t, k, depth), elem(x, true)...)
		return []jen.Code{head, jen.For(jen.List(k, x).Op(":=").Range().Add(val)).Block(pair...)}
	}

	if _, ok := t.Key.(model.String); ok {
		return e.appendMapSorted(t, val, depth, head, elem)
	}

	// Keys are recorded as int64 or uint64.
	var get string
	var kind types.BasicKind
	finishArgs := []jen.Code{jen.Id("dst")}
	switch kt := t.Key.(type) {
	case model.String:
		get, kind = "GetStringPairs", types.String
	case model.Int:
		if kt.Signed {
			get, kind = "GetIntPairs", types.Int64
		} else {
			get, kind = "GetUintPairs", types.Uint64
		}
		finishArgs = append(finishArgs, rt(e.order.RuntimeName()))
	default:
		return e.appendMapSorter(t, val, depth, head, elem)
	}
	ps := jen.Id(local("ps", depth))
	pair := []jen.Code{jen.Add(ps).Dot("Add").Call(jen.Id("dst"), convert(t.Key.GoType(), kind, k))}
	pair = append(pair, e.appendValue(t.Key, k, depth+1)...)
	pair = append(pair, elem(x, true)...)
	return []jen.Code{
		head,
		jen.Add(ps).Op(":=").Add(rt(get)).Call(),
		jen.For(jen.List(k, x).Op(":=").Range().Add(val)).Block(pair...),
		jen.Id("dst").Op("=").Add(ps).Dot("Finish").Call(finishArgs...),
	}
}

// appendMapSorted appends a map with text keys: the keys recorded by a
// pooled StringPairs and the values in a slice of its (PairValues) in
// Go's iteration order, the keys sorted, then the pairs appended in that
// order, so that no encoded byte is moved (as Finish moves them, and
// those of every map nested in a value again at each level).
//
//	dst = genrt.AppendMapHead(dst, len(v.Counts))
//	ps := genrt.GetStringPairs()
//	vs := genrt.PairValues[int64](ps)
//	for k, x := range v.Counts {
//		ps.AddKey(k)
//		vs = append(vs, x)
//	}
//	for _, j := range ps.Order() {
//		k := ps.KeyAt(j)
//		dst = genrt.AppendString(dst, k)
//		dst = genrt.AppendInt(dst, vs[j])
//	}
//	genrt.ReleasePairs(ps, vs)
func (e *emitter) appendMapSorted(t model.Map, val jen.Code, depth int, head jen.Code, elem func(jen.Code, bool) []jen.Code) []jen.Code {
	k, x, ps, vs, j := jen.Id(local("k", depth)), jen.Id(local("x", depth)), jen.Id(local("ps", depth)), jen.Id(local("vs", depth)), jen.Id(local("j", depth))
	pair := []jen.Code{jen.Add(k).Op(":=").Add(convertTo(t.Key.GoType(), types.String, jen.Add(ps).Dot("KeyAt").Call(j)))}
	pair = append(pair, e.appendValue(t.Key, k, depth+1)...)
	pair = append(pair, elem(jen.Add(vs).Index(j), false)...)
	return []jen.Code{
		head,
		jen.Add(ps).Op(":=").Add(rt("GetStringPairs")).Call(),
		jen.Add(vs).Op(":=").Add(rt("PairValues")).Index(typeCode(t.Elem.GoType())).Call(ps),
		jen.For(jen.List(k, x).Op(":=").Range().Add(val)).Block(
			jen.Add(ps).Dot("AddKey").Call(convert(t.Key.GoType(), types.String, k)),
			jen.Add(vs).Op("=").Append(vs, x),
		),
		jen.For(jen.List(jen.Id("_"), j).Op(":=").Range().Add(ps).Dot("Order").Call()).Block(pair...),
		jen.Add(rt("ReleasePairs")).Call(ps, vs),
	}
}

// appendMapSorter appends a map with keys of any other type (bools, byte
// arrays, floats, arrays, structs, pointers): the pairs in Go's order,
// then reordered by the runtime's MapSorter, which compares the encoded
// keys as fxamacker/cbor does. A key whose encoder takes its address is
// copied into a local declared before the loop, as a value is.
func (e *emitter) appendMapSorter(t model.Map, val jen.Code, depth int, head jen.Code, elem func(jen.Code, bool) []jen.Code) []jen.Code {
	k, x, s := jen.Id(local("k", depth)), jen.Id(local("x", depth)), jen.Id(local("s", depth))
	loop := []jen.Code{jen.Add(s).Dot("Key").Call(jen.Id("dst"))}
	loop = append(loop, e.appendKey(t, k, depth)...)
	loop = append(loop, jen.Add(s).Dot("Value").Call(jen.Id("dst")))
	loop = append(loop, elem(x, true)...)
	return []jen.Code{
		head,
		jen.Add(s).Op(":=").Add(rt("GetMapSorter")).Call(),
		jen.For(jen.List(k, x).Op(":=").Range().Add(val)).Block(loop...),
		jen.Id("dst").Op("=").Add(s).Dot("Finish").Call(jen.Id("dst"), rt(e.order.RuntimeName())),
	}
}

// appendRef calls the generated encoder of a nested type; p is an
// addressable value or a pointer.
// refOf is the expression whose methods are those of the generated type
// t for val, a value of t (a pointer to one when ptr): val itself, or
// for an anonymous struct its address converted to the hidden copy,
// (*cborAnon_T_F)(&v.F).
func (e *emitter) refOf(t model.StructRef, val jen.Code, ptr bool) jen.Code {
	if !t.Anon {
		return val
	}
	if !ptr {
		val = jen.Op("&").Add(val)
	}
	return jen.Parens(jen.Op("*").Qual(e.path, t.Local)).Call(val)
}

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

// inlineFields bounds the fields of a struct written in line.
const inlineFields = 8

func (e *emitter) inlinable(t model.StructRef, level int) *model.Struct {
	s := e.structs[t.Local]
	if s == nil || s.Value != nil || s.CatchAll || s.Case != nil || s.MapFormat || s.HasOptionalFrom || s.Raw != "" || s.Unknown != "" || len(s.Fields) == 0 || len(s.Fields) > inlineFields || level > 1 {
		return nil
	}
	for _, f := range s.Fields {
		if len(f.Via) > 0 {
			return nil
		}
		switch ft := f.Type.(type) {
		case model.Bool, model.Int, model.Float, model.String:
		case model.StructRef:
			if e.inlinable(ft, level+1) == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return s
}

// appendInline writes the struct s at val (a struct or a pointer to
// one) in line: its tag, if any, its array head and its fields.
func (e *emitter) appendInline(s *model.Struct, val jen.Code, depth int) []jen.Code {
	var code []jen.Code
	if s.HasTag {
		code = append(code, appendHead(genrt.MajorTag, s.Tag))
	}
	code = append(code, appendHead(genrt.MajorArray, uint64(len(s.Fields))))
	for _, f := range s.Fields {
		code = append(code, e.appendValue(f.Type, jen.Add(val).Dot(f.Name), depth+1)...)
	}
	return code
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
func (e *emitter) appendValueMethod(s *model.Struct) jen.Code {
	if s.CatchAll {
		return jen.Comment(methodName(s, "AppendCBOR")+" appends the item v holds, as it was read (null when empty).").Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodName(s, "AppendCBOR")).
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
	if e.canFail(s.Value) {
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
		body = append(body, appendHead(genrt.MajorTag, s.Tag))
	}
	hoisted, enc := e.scoped(func() []jen.Code { return e.appendValue(s.Value, deref(jen.Id("v")), 0) })
	body = append(append(body, hoisted...), enc...)
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))
	return jen.Comment(methodName(s, "AppendCBOR")+" appends the CBOR encoding of v to dst.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodName(s, "AppendCBOR")).
		Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}
