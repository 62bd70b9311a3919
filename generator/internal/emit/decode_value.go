package emit

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// The decoding of one value, by its model type: the code every decoder
// method is made of (decode.go), where bytes become a Go value.

// elemLoop is the loop over the elements (next "NextElem") or pairs
// ("NextPair") of a container whose head was just read into n: for a
// definite length i counts up to n, with no call per element; an
// indefinite length (n < 0, which i never reaches) asks the Decoder for a
// break before each element, and end returns what to do with its answer
// (nil: break at the end).
//
//	for i := 0; i != n; i++ {
//		if n < 0 {
//			more, err := d.NextElem(n, i)
//			...
//			if !more {
//				break
//			}
//		}
//		body
//	}
func elemLoop(depth int, next string, wrap pathFunc, end func(more jen.Code) []jen.Code, body []jen.Code) jen.Code {
	n, i, more := jen.Id(local("n", depth)), jen.Id(local("i", depth)), jen.Id(local("more", depth))
	var check []jen.Code
	if end == nil {
		// if more, err := d.NextElem(n, i); err != nil { ... } else if !more { break }
		check = []jen.Code{jen.If(jen.List(more, jen.Id("err")).Op(":=").Id("d").Dot(next).Call(n, i), jen.Id("err").Op("!=").Nil()).
			Block(returnErr(wrap, jen.Id("err"))).
			Else().If(jen.Op("!").Add(more)).Block(jen.Break())}
	} else {
		check = []jen.Code{
			jen.List(more, jen.Id("err")).Op(":=").Id("d").Dot(next).Call(n, i),
			ifErr(wrap),
		}
		check = append(check, end(more)...)
	}
	loop := append([]jen.Code{jen.If(jen.Add(n).Op("<").Lit(0)).Block(check...)}, body...)
	return jen.For(jen.Add(i).Op(":=").Lit(0), jen.Add(i).Op("!=").Add(n), jen.Add(i).Op("++")).Block(loop...)
}

// elemLoopFrom is elemLoop over the elements of an array, with the index
// declared before the loop (i := 0), so that the code after it sees how
// many elements there were.
func elemLoopFrom(depth int, wrap pathFunc, body []jen.Code) jen.Code {
	n, i, more := jen.Id(local("n", depth)), jen.Id(local("i", depth)), jen.Id(local("more", depth))
	check := jen.If(jen.List(more, jen.Id("err")).Op(":=").Id("d").Dot("NextElem").Call(n, i), jen.Id("err").Op("!=").Nil()).
		Block(returnErr(wrap, jen.Id("err"))).
		Else().If(jen.Op("!").Add(more)).Block(jen.Break())
	loop := append([]jen.Code{jen.If(jen.Add(n).Op("<").Lit(0)).Block(check)}, body...)
	return jen.For(jen.Empty(), jen.Add(i).Op("!=").Add(n), jen.Add(i).Op("++")).Block(loop...)
}

// pathFunc wraps an error expression with where it happened: the field,
// index or key, innermost first, as the error travels out.
type pathFunc func(err jen.Code) jen.Code

func noPath(err jen.Code) jen.Code { return err }

// then returns the path of an element inside the value wrap describes.
func (wrap pathFunc) then(inner func(err jen.Code) jen.Code) pathFunc {
	return func(err jen.Code) jen.Code { return wrap(inner(err)) }
}

// returnErr is "return <path>(err)", the statement that leaves a decoder with
// an error. In a -small DecodeCBOR (small.go) the path is failPath's: the
// error goes to the method's one exit, "ferr = <inner path>(err); goto
// fail", which names the field and the type once for every place a
// field can fail.
func returnErr(wrap pathFunc, err jen.Code) jen.Code {
	path := wrap(err)
	if f, ok := path.(failPath); ok {
		f.used()
		return jen.Id("ferr").Op("=").Add(f.err).Line().Goto().Id("fail")
	}
	return jen.Return(path)
}

// ifErr is "if err != nil { return <path>(err) }".
func ifErr(wrap pathFunc) jen.Code {
	return jen.If(jen.Id("err").Op("!=").Nil()).Block(returnErr(wrap, jen.Id("err")))
}

// readScalar is the else branch of the in-line fast path of a Bool,
// Int, Float or String (if x, ok := d.TryUint(...); ok { ... }): the
// runtime's Read method, which takes every other encoding and reports
// errors. It is one else-if: with err in scope and no conversion, the
// value is assigned at once (else if v.F, err = d.ReadUint64(); err !=
// nil), else through a local (else if x, err := ...; ... else { v.F = T(x) }).
//
// Unless the value is a map's, the Read is its Or form, which is given
// the value the field holds: a null or undefined that the default options
// accept leaves it as it is, as fxamacker/cbor leaves a value that cannot
// be nil, and the test for it costs nothing until the Read's general path:
//
//	} else if v.F, err = d.ReadUint64Or(v.F); err != nil {
//
// A map's value is the Read's own zero value for a null, as in fxamacker.
func (e *emitter) readScalar(out *jen.Statement, t model.Type, to jen.Code, wrap pathFunc, depth int) *jen.Statement {
	return out.Else().Add(e.scalarRead(t, to, wrap, depth))
}

// scalarRead is the if statement of readScalar's else branch: the Read
// alone, as -small code reads every scalar.
func (e *emitter) scalarRead(t model.Type, to jen.Code, wrap pathFunc, depth int) *jen.Statement {
	s, _ := model.ScalarOf(t)
	x := jen.Id(local("x", depth))
	conv := convertTo(t.GoType(), s.Kind, x)
	if conv == x {
		conv = nil // no conversion
	}
	read := jen.Id("d").Dot(s.Read).Call()
	if !e.mapValue {
		old := to
		if conv != nil {
			old = jen.Id(types.Typ[s.Kind].Name()).Call(to)
		}
		read = jen.Id("d").Dot(s.Read + "Or").Call(old)
		if e.small && conv == nil && s.Kind == types.String && e.errInScope {
			// -small: the string stored by the runtime, whose write
			// barrier then is not in every type's code.
			e.useErr()
			return jen.If(jen.Id("err").Op("=").Id("d").Dot("ReadStringTo").Call(jen.Op("&").Add(to)), jen.Id("err").Op("!=").Nil()).
				Block(returnErr(wrap, jen.Id("err")))
		}
	}
	return e.readInto(to, read, conv, wrap, depth)
}

// keepNull adds "else if d.KeepNull() {}" to the if statement out, for a
// value that is not a map's (where the Read's zero value is stored).
func (e *emitter) keepNull(out *jen.Statement) *jen.Statement {
	if e.mapValue {
		return out
	}
	return out.Else().If(jen.Id("d").Dot("KeepNull").Call()).Block()
}

// readInto is the if statement that assigns call's value to to and
// returns its error through wrap: at once when an err is in scope and
// the value needs no conversion (if v.F, err = call; err != nil), else
// through the local x, which conv converts when not nil (if x, err :=
// call; err != nil { ... } else { v.F = T(x) }).
func (e *emitter) readInto(to, call, conv jen.Code, wrap pathFunc, depth int) *jen.Statement {
	x := jen.Id(local("x", depth))
	if e.errInScope && conv == nil {
		e.useErr()
		return jen.If(jen.List(to, jen.Id("err")).Op("=").Add(call), jen.Id("err").Op("!=").Nil()).
			Block(returnErr(wrap, jen.Id("err")))
	}
	if conv == nil {
		conv = x
	}
	return jen.If(jen.List(x, jen.Id("err")).Op(":=").Add(call), jen.Id("err").Op("!=").Nil()).
		Block(returnErr(wrap, jen.Id("err"))).
		Else().Block(jen.Add(to).Op("=").Add(conv))
}

// decodeValue returns the statements that decode one value of type t into
// the addressable expression to. Errors are returned through wrap; depth
// names the locals of nested containers.
func (e *emitter) decodeValue(t model.Type, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	set := func(x jen.Code) jen.Code { return jen.Add(to).Op("=").Add(x) }
	switch t := t.(type) {
	case model.Bool, model.Int, model.Float, model.String:
		return e.decodeScalar(t, to, wrap, depth)

	case model.Bytes:
		return e.decodeBytes(t, to, wrap, depth)

	case model.ByteArray:
		read := jen.Id("d").Dot("ReadByteArray").Call(jen.Add(to).Index(jen.Empty(), jen.Empty()))
		if t.NamedElem {
			read = rt("ReadByteArrayOf").Call(jen.Id("d"), jen.Add(to).Index(jen.Empty(), jen.Empty()))
		}
		check := jen.If(
			jen.Id("err").Op(":=").Add(read),
			jen.Id("err").Op("!=").Nil(),
		).Block(returnErr(wrap, jen.Id("err")))
		if t.NamedElem || t.N >= 24 || e.small {
			return []jen.Code{check}
		}
		// A one-byte head: in line, without a call, when all buffered.
		return []jen.Code{jen.If(jen.Op("!").Id("d").Dot("TryByteArray").Call(jen.Add(to).Index(jen.Empty(), jen.Empty()))).Block(check)}

	case model.Array:
		return e.decodeArray(t, to, wrap, depth)

	case model.Slice:
		if _, ok := t.Elem.(model.TypeParam); ok {
			x := jen.Op("&").Add(to)
			if t.Named {
				x = jen.Parens(jen.Op("*").Index().Add(typeCode(t.Elem.GoType()))).Call(x)
			}
			return []jen.Code{checkErr(jen.Qual(model.DynamicPath, "DecodeSlice").Call(jen.Id("d"), x), wrap)}
		}
		if e.smallSlice(t) {
			// -small: the runtime's loop for the element (small.go).
			return []jen.Code{e.readInto(to, rt("ReadSliceOf").Call(jen.Id("d"), to), nil, wrap, depth)}
		}
		return e.orNullDecode(to, wrap, depth, e.decodeSlice(t, to, wrap, depth), nil, "ReadNil")

	case model.Map:
		return e.orNullDecode(to, wrap, depth, e.decodeMap(t, to, wrap, depth), nil, "ReadNil")

	case model.Pointer:
		alloc := jen.If(jen.Add(to).Op("==").Nil()).Block(set(newPointee(t.Elem)))
		if r, ok := t.Elem.(model.StructRef); ok {
			return e.orNullDecode(to, wrap, depth, []jen.Code{alloc, decodeRef(e.refOf(r, to, true), wrap)}, nil, "ReadNull")
		}
		general := e.orNullDecode(to, wrap, depth, append([]jen.Code{alloc}, e.decodeValue(t.Elem, deref(to), wrap, depth+1)...), nil, "ReadNull")
		if sc, ok := model.ScalarOf(t.Elem); ok && !e.small {
			// A scalar's commonest encodings, never null, first and in
			// line; the null test and everything else after them:
			//
			//	if x, ok := d.TryString(); ok {
			//		if v.F == nil { v.F = genrt.NewString[string](d) }
			//		(*v.F) = x
			//	} else { general }
			x, ok := jen.Id(local("x", depth)), jen.Id(local("ok", depth))
			try, kind := jen.Id("d").Dot(sc.Try).Call(), sc.Kind
			if _, isInt := t.Elem.(model.Int); isInt {
				try, kind = jen.Id("d").Dot("TryUint").Call(jen.Qual("math", sc.Max)), types.Uint64
			}
			return []jen.Code{jen.If(jen.List(x, ok).Op(":=").Add(try), ok).
				Block(alloc, jen.Add(deref(to)).Op("=").Add(convertTo(t.Elem.GoType(), kind, x))).
				Else().Block(general...)}
		}
		return general

	case model.StructRef:
		if s := e.inlineStruct(t); s != nil && !s.HasTag && !e.small {
			return e.decodeInline(t, s, to, wrap, depth)
		}
		return []jen.Code{decodeRef(e.refOf(t, to, false), wrap)}

	case model.Time:
		// A null keeps the time (KeepNull), as in fxamacker/cbor.
		if e.errInScope {
			read := e.readInto(to, jen.Id("d").Dot("ReadTime").Call(), nil, wrap, depth)
			if e.time.Mode != genrt.TimeUnix || e.time.Tag || e.small {
				if e.mapValue {
					return []jen.Code{read}
				}
				return []jen.Code{jen.If(jen.Id("d").Dot("KeepNull").Call()).Block().Else().Add(read)}
			}
			// Seconds without a tag, as this run writes them: in line,
			// as ReadTime reads them first.
			x, ok := jen.Id(local("x", depth)), jen.Id(local("ok", depth))
			return []jen.Code{e.keepNull(jen.If(
				jen.List(x, ok).Op(":=").Id("d").Dot("TryUint").Call(jen.Qual("math", "MaxInt64")), ok,
			).Block(set(jen.Qual("time", "Unix").Call(jen.Int64().Call(x), jen.Lit(0))))).Else().Add(read)}
		}
		x := jen.Id(local("x", depth))
		read := []jen.Code{
			jen.List(x, jen.Id("err")).Op(":=").Id("d").Dot("ReadTime").Call(),
			ifErr(wrap),
			set(x),
		}
		if e.mapValue {
			return read
		}
		return []jen.Code{jen.If(jen.Op("!").Id("d").Dot("KeepNull").Call()).Block(read...)}

	case model.BigInt:
		return []jen.Code{checkErr(jen.Id("d").Dot("ReadBigInt").Call(jen.Op("&").Add(to)), wrap)}

	case model.Marshaler:
		return e.decodeMarshaler(t, to, wrap, depth)

	case model.BinaryMarshaler:
		return e.decodeBinaryMarshaler(t, to, wrap, depth)

	case model.Union:
		x := jen.Id(local("u", depth))
		decode := jen.Id(model.UnionFunc(t.Model, "Decode")).Call(jen.Id("d"))
		if v := textVariant(t.Model); v != nil && t.Model.By == model.UnionByKind {
			// Short ASCII text, the dispatcher's first case, read here
			// without the call: the commonest value of text-heavy
			// documents. Anything else goes to the rest of the
			// dispatcher, which does not try short text again.
			decode = jen.Id(model.UnionKindFunc(t.Model)).Call(jen.Id("d"))
			s := jen.Id(local("s", depth))
			return []jen.Code{
				jen.List(x, jen.Id("err")).Op(":=").List(jen.Add(e.unionIface(t.Model)).Call(jen.Nil()), jen.Error().Call(jen.Nil())),
				jen.If(jen.List(s, jen.Id("ok")).Op(":=").Id("d").Dot("TryText").Call(), jen.Id("ok")).Block(
					jen.Add(x).Op("=").Add(rt("BoxString").Call(jen.Id("d"), jen.Add(e.unionIface(t.Model)).Call(e.typeRef(v.Struct).Call(jen.Lit(""))), s)),
				).Else().Block(
					jen.List(x, jen.Id("err")).Op("=").Add(decode),
				),
				ifErr(wrap),
				set(x),
			}
		}
		return []jen.Code{
			jen.List(x, jen.Id("err")).Op(":=").Add(decode),
			ifErr(wrap),
			set(x),
		}

	case model.Split:
		return e.decodeSplit(t, to, wrap, depth)

	case model.Dynamic:
		return []jen.Code{checkErr(jen.Qual(model.DynamicPath, "Decode").Call(jen.Id("d"), jen.Op("&").Add(to)), wrap)}

	case model.TypeParam:
		return []jen.Code{checkErr(jen.Qual(model.DynamicPath, "DecodeValue").Call(jen.Id("d"), jen.Op("&").Add(to)), wrap)}

	case model.Reserved:
		return []jen.Code{jen.If(jen.Id("err").Op(":=").Id("d").Dot("Skip").Call(), jen.Id("err").Op("!=").Nil()).
			Block(returnErr(wrap, jen.Id("err")))}
	}
	panic("cbor-gen: decodeValue: unknown model type")
}

// decodeArray decodes an array into a Go array [N]T, as fxamacker/cbor
// does by default: the first N elements, the rest skipped, the elements
// past the last zeroed; a null keeps the array (KeepNull). In strict mode
// an array of another length is an ErrLength (ArrayExtra, ArrayShort).
//
//	if !d.KeepNull() {
//		n, err := d.ReadArrayHead()
//		...
//		i := 0
//		for ; i != n; i++ {
//			if n < 0 { ... NextElem: the break of an indefinite array ... }
//			if i >= 4 {
//				if err := d.ArrayExtra(4); err != nil { ... }
//				continue
//			}
//			(element i)
//		}
//		if i < 4 {
//			if err := d.ArrayShort(4, i); err != nil { ... }
//			clear(v.A[i:])
//		}
//		d.Leave()
//	}
func (e *emitter) decodeArray(t model.Array, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	if _, ok := t.Elem.(model.TypeParam); ok {
		return []jen.Code{checkErr(jen.Qual(model.DynamicPath, "DecodeArray").Call(jen.Id("d"), jen.Add(to).Index(jen.Empty(), jen.Empty())), wrap)}
	}
	n, i := local("n", depth), local("i", depth)
	w := jen.Lit(int(t.N))
	elemWrap := wrap.then(func(err jen.Code) jen.Code { return rt("AtIndex").Call(err, jen.Id(i)) })
	elem := e.withLocalErr(func() []jen.Code { return e.decodeValue(t.Elem, jen.Add(to).Index(jen.Id(i)), elemWrap, depth+1) })
	body := append([]jen.Code{
		jen.If(jen.Id(i).Op(">=").Add(w)).Block(
			checkErr(jen.Id("d").Dot("ArrayExtra").Call(w), wrap),
			jen.Continue(),
		),
	}, elem...)
	code := []jen.Code{
		jen.List(jen.Id(n), jen.Id("err")).Op(":=").Id("d").Dot("ReadArrayHead").Call(),
		ifErr(wrap),
		jen.Id(i).Op(":=").Lit(0),
		elemLoopFrom(depth, wrap, body),
		jen.If(jen.Id(i).Op("<").Add(w)).Block(
			checkErr(jen.Id("d").Dot("ArrayShort").Call(w, jen.Id(i)), wrap),
			jen.Clear(jen.Add(to).Index(jen.Id(i), jen.Empty())),
		),
		jen.Id("d").Dot("Leave").Call(),
	}
	return []jen.Code{jen.If(jen.Op("!").Id("d").Dot("KeepNull").Call()).Block(code...)}
}

// decodeInline reads a small struct that the encoders write in line
// (inlineStruct), as msgp reads such types: an array head with its field
// count, then its fields, in the holder's own code, with no call; any
// other item (a legacy map, another length, a tag, strict mode, a stream
// not yet buffered) goes to the struct's DecodeCBOR.
//
//	if d.TryArrayHead(2) {
//		(X and Y, as fields of the holder are read)
//		d.Leave()
//	} else if err := v.Start.DecodeCBOR(d); err != nil {
//		return genrt.AtField(err, "Start")
//	}
func (e *emitter) decodeInline(t model.StructRef, s *model.Struct, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	var fields []jen.Code
	for _, f := range s.Fields {
		fieldWrap := wrap.then(func(err jen.Code) jen.Code { return rt("AtField").Call(err, jen.Lit(f.Name)) })
		fields = append(fields, e.decodeValue(f.Type, jen.Add(to).Dot(f.Name), fieldWrap, depth+1)...)
	}
	fields = append(fields, jen.Id("d").Dot("Leave").Call())
	return []jen.Code{jen.If(jen.Id("d").Dot("TryArrayHead").Call(jen.Lit(len(s.Fields)))).Block(fields...).
		Else().Add(decodeRef(e.refOf(t, to, false), wrap))}
}

// decodeScalar decodes the in-line fast path of a Bool, Int, Float or String, then its Read method (readScalar).
func (e *emitter) decodeScalar(t model.Type, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	if e.small {
		return []jen.Code{e.scalarRead(t, to, wrap, depth)}
	}
	set := func(x jen.Code) jen.Code { return jen.Add(to).Op("=").Add(x) }
	sc, _ := model.ScalarOf(t)
	x := jen.Id(local("x", depth))
	// The commonest encodings are read in line (runtime/genrt/decode_try.go);
	// the Read method takes everything else and reports errors.
	ok := jen.Id(local("ok", depth))
	if it, isInt := t.(model.Int); isInt {
		// Integers of any head width, bounded by the Go type so that
		// the conversion needs no check: TryUint, then for a signed
		// type TryNeg (the value -1-x), then the Read method.
		max := jen.Qual("math", sc.Max)
		out := jen.If(
			jen.List(x, ok).Op(":=").Id("d").Dot("TryUint").Call(max), ok,
		).Block(set(convertTo(t.GoType(), types.Uint64, x)))
		if it.Signed {
			out = out.Else().If(
				jen.List(x, ok).Op(":=").Id("d").Dot("TryNeg").Call(max), ok,
			).Block(set(jen.Lit(-1).Op("-").Add(convertTo(t.GoType(), types.Uint64, x))))
		}
		return []jen.Code{e.readScalar(out, t, to, wrap, depth)}
	}
	return []jen.Code{e.readScalar(jen.If(
		jen.List(x, ok).Op(":=").Id("d").Dot(sc.Try).Call(), ok,
	).Block(set(convertTo(t.GoType(), sc.Kind, x))), t, to, wrap, depth)}
}

// decodeBytes decodes a []byte: null is nil; a byte string reuses the array of to when the
// decoder made it (genrt.ReadBytes takes to whole to tell).
func (e *emitter) decodeBytes(t model.Bytes, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	set := func(x jen.Code) jen.Code { return jen.Add(to).Op("=").Add(x) }
	if !t.NamedElem {
		read := jen.Id("d").Dot("ReadBytes").Call(to)
		if e.errInScope {
			e.useErr()
			return e.orNullDecode(to, wrap, depth, nil, jen.List(to, jen.Id("err")).Op("=").Add(read), "ReadNull")
		}
		b := jen.Id(local("b", depth))
		return e.orNullDecode(to, wrap, depth, []jen.Code{
			jen.List(b, jen.Id("err")).Op(":=").Add(read),
			ifErr(wrap),
			set(b),
		}, nil, "ReadNull")
	}
	b := jen.Id(local("b", depth))
	read := "ReadBytesOf"
	if t.ElemUnmarshals {
		read = "ReadBytesUnmarshal" // an array: element by element, through the method
	}
	return e.orNullDecode(to, wrap, depth, []jen.Code{
		jen.List(b, jen.Id("err")).Op(":=").Add(rt(read).Call(jen.Id("d"), to)),
		ifErr(wrap),
		set(b),
	}, nil, "ReadNull")
}

// decodeMarshaler decodes a type with its own UnmarshalCBOR, handed the item's bytes.
func (e *emitter) decodeMarshaler(t model.Marshaler, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	// The item is checked to be well-formed, then handed to the
	// type's own UnmarshalCBOR, which must copy what it keeps.
	// Its error keeps its identity and text (Decoder.MethodError),
	// at the offset where the item starts.
	raw, off := jen.Id(local("raw", depth)), jen.Id(local("off", depth))
	return []jen.Code{
		jen.Add(off).Op(":=").Id("d").Dot("Offset").Call(),
		jen.List(raw, jen.Id("err")).Op(":=").Id("d").Dot("ReadRawChecked").Call(),
		ifErr(wrap),
		checkErr(jen.Add(to).Dot("UnmarshalCBOR").Call(raw), func(err jen.Code) jen.Code {
			return wrap(jen.Id("d").Dot("MethodError").Call(off, err))
		}),
	}
}

// orNullDecode sets to nil on a CBOR null (or undefined) and runs decode
// otherwise, or with read, an assignment whose error it checks, that
// assignment in an else-if. TryNull answers in line whenever a byte is
// buffered and no tag comes first; slow, ReadNull or ReadNil, refills a
// stream or reads tags: ReadNull for a pointer (a tag other than 55799
// around null makes the null its pointee's), ReadNil for a slice or map
// (which a tag around null sets to nil, as in fxamacker/cbor). A byte
// slice takes ReadNull: ReadBytes reads a tag around null as nil itself. With an err in scope (errInScope), the code uses it and needs no
// block of its own at a field:
//
//	null, ok := d.TryNull()
//	if !ok {
//		if null, err = d.ReadNull(); err != nil {
//			return genrt.AtField(err, "Tags")
//		}
//	}
//	if null {
//		v.Tags = nil
//	} else {
//		decode
//	}
func (e *emitter) orNullDecode(to jen.Code, wrap pathFunc, depth int, decode []jen.Code, read jen.Code, slowRead string) []jen.Code {
	null, ok := jen.Id(local("null", depth)), jen.Id(local("ok", depth))
	slow := []jen.Code{jen.If(
		jen.List(null, jen.Id("err")).Op("=").Id("d").Dot(slowRead).Call(),
		jen.Id("err").Op("!=").Nil(),
	).Block(returnErr(wrap, jen.Id("err")))}
	inScope := e.errInScope
	if inScope {
		e.useErr()
	} else {
		slow = append([]jen.Code{jen.Var().Id("err").Error()}, slow...)
	}
	choice := jen.If(null).Block(jen.Add(to).Op("=").Nil())
	if read != nil {
		choice.Else().If(read, jen.Id("err").Op("!=").Nil()).Block(returnErr(wrap, jen.Id("err")))
	} else {
		choice.Else().Block(decode...)
	}
	code := []jen.Code{
		jen.List(null, ok).Op(":=").Id("d").Dot("TryNull").Call(),
		jen.If(jen.Op("!").Add(ok)).Block(slow...),
		choice,
	}
	if e.small {
		// The slow read alone, which takes every encoding: into the
		// err in scope (used, then), else a new one.
		if inScope {
			code = []jen.Code{jen.Var().Add(null).Bool(), slow[0], choice}
		} else {
			code = []jen.Code{jen.List(null, jen.Id("err")).Op(":=").Id("d").Dot(slowRead).Call(), ifErr(wrap), choice}
		}
	}
	if inScope && depth == 0 && e.errMethod {
		return code // a case of the per-field method: a scope of its own
	}
	return []jen.Code{jen.Block(code...)}
}

// decodeSlice decodes a non-null array into a slice, in place as
// fxamacker/cbor does: into the slice's own array when its capacity holds
// the elements (genrt.ReuseSlice), each element decoded into what it held
// (genrt.Grow, or its code in line for elements that are not structs or
// arrays), else into a new one. The first allocation is bounded by
// d.Hint, so a forged length on a stream cannot allocate more than has
// arrived.
func (e *emitter) decodeSlice(t model.Slice, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	n, i := jen.Id(local("n", depth)), local("i", depth)
	elemWrap := wrap.then(func(err jen.Code) jen.Code { return rt("AtIndex").Call(err, jen.Id(i)) })
	loop := []jen.Code{jen.Add(to).Op("=").Add(rt("Grow")).Call(to)}
	if t.ElemZero != model.ZeroComposite {
		// In line: to = to[:len(to)+1] and to = append(to, zero) update
		// only the length where to lives (a field, an element), where
		// to = genrt.Grow(to) writes the whole slice, through the write
		// barrier (2% of a decode of slices of numbers).
		loop = []jen.Code{jen.If(jen.Len(to).Op("<").Cap(to)).Block(
			jen.Add(to).Op("=").Add(to).Index(jen.Empty(), jen.Len(to).Op("+").Lit(1)),
		).Else().Block(
			jen.Add(to).Op("=").Append(to, zeroValue(t.ElemZero, t.Elem.GoType())),
		)}
	}
	loop = append(loop, e.withLocalErr(func() []jen.Code { return e.decodeValue(t.Elem, jen.Add(to).Index(jen.Id(i)), elemWrap, depth+1) })...)
	return []jen.Code{
		jen.List(n, jen.Id("err")).Op(":=").Id("d").Dot("ReadArrayHead").Call(),
		ifErr(wrap),
		jen.Add(to).Op("=").Add(rt("ReuseSlice")).Call(jen.Id("d"), to, n),
		elemLoop(depth, "NextElem", wrap, nil, loop),
		jen.Id("d").Dot("Leave").Call(),
	}
}

// decodeMap decodes a non-null map into the Go map to holds, or into a new
// one when it is nil, as fxamacker/cbor does: the map keeps its entries and
// gains the decoded ones, each value decoded into a zero value. A key that
// comes twice keeps its last value, or is an error under the option
// DupMapKeyEnforcedAPF (genrt.NewMapDups and RepeatedKey).
func (e *emitter) decodeMap(t model.Map, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	n := jen.Id(local("n", depth))
	m, v := jen.Id(local("m", depth)), jen.Id(local("e", depth))
	loop, key, keyForPath := e.decodeKey(t, wrap, depth)
	// A key the map holds already: an error under DupMapKeyEnforcedAPF
	// (genrt.RepeatedKey), checked before the value is read.
	dups := jen.Id(local("dups", depth))
	loop = append(loop, jen.If(jen.Add(dups).Dot("On")).Block(
		checkErr(rt("RepeatedKey").Call(jen.Id("d"), jen.Op("&").Add(dups), m, key, jen.Id(local("i", depth))), wrap),
	))
	valWrap := wrap.then(func(err jen.Code) jen.Code { return rt("AtKey").Call(err, keyForPath) })
	slot := jen.Add(m).Index(key)
	if _, ok := model.ScalarOf(t.Elem); ok {
		// A scalar is read and stored in one assignment.
		e.mapValue = true
		loop = append(loop, e.withLocalErr(func() []jen.Code { return e.decodeValue(t.Elem, slot, valWrap, depth+1) })...)
		e.mapValue = false
	} else {
		if addressed(t.Elem) {
			// Declared outside every loop and reset per pair: a
			// variable of the loop whose address a recursive
			// DecodeCBOR takes would be moved to the heap per pair.
			e.hoist = append(e.hoist, jen.Var().Add(v).Add(typeCode(t.Elem.GoType())))
			loop = append(loop, jen.Add(v).Op("=").Add(zeroValue(t.ElemZero, t.Elem.GoType())))
		} else {
			loop = append(loop, jen.Var().Add(v).Add(typeCode(t.Elem.GoType())))
		}
		loop = append(loop, e.withLocalErr(func() []jen.Code { return e.decodeValue(t.Elem, v, valWrap, depth+1) })...)
		loop = append(loop, jen.Add(slot).Op("=").Add(v))
	}
	return []jen.Code{
		jen.List(n, jen.Id("err")).Op(":=").Id("d").Dot("ReadMapHead").Call(),
		ifErr(wrap),
		jen.Add(m).Op(":=").Add(to),
		jen.If(jen.Add(m).Op("==").Nil()).Block(
			jen.Add(m).Op("=").Make(typeCode(t.Go), jen.Id("d").Dot("Hint").Call(jen.Max(n, jen.Lit(0)))),
			jen.Add(to).Op("=").Add(m),
		),
		jen.Add(dups).Op(":=").Add(rt("NewMapDups")).Call(jen.Id("d"), m),
		elemLoop(depth, "NextPair", wrap, nil, loop),
		jen.Id("d").Dot("Leave").Call(),
	}
}

// checkErr is "if err := call; err != nil { return <path>(err) }".
func checkErr(call jen.Code, wrap pathFunc) jen.Code {
	return jen.If(jen.Id("err").Op(":=").Add(call), jen.Id("err").Op("!=").Nil()).
		Block(returnErr(wrap, jen.Id("err")))
}

// decodeRef calls the generated decoder of a nested type; p is an
// addressable value or a pointer.
func decodeRef(p jen.Code, wrap pathFunc) jen.Code {
	return jen.If(
		jen.Id("err").Op(":=").Add(p).Dot("DecodeCBOR").Call(jen.Id("d")),
		jen.Id("err").Op("!=").Nil(),
	).Block(returnErr(wrap, jen.Id("err")))
}

// newPointee is the allocation of a pointer field's pointee: a cell of
// the decoder's blocks for a bool, number or string (runtime/cells.go:
// one heap object for several pointees), else new(T).
func newPointee(elem model.Type) jen.Code {
	switch elem.(type) {
	case model.Bool, model.Int, model.Float:
		return rt("NewScalar").Types(typeCode(elem.GoType())).Call(jen.Id("d"))
	case model.String:
		return rt("NewString").Types(typeCode(elem.GoType())).Call(jen.Id("d"))
	}
	return jen.New(typeCode(elem.GoType()))
}
