package generator

import (
	"strconv"

	"github.com/dave/jennifer/jen"
)

// decodeMethod emits DecodeCBOR, which tells the two formats apart by the
// major type of the next item: a map is the legacy format, anything else
// goes to the array decoder, whose error says what it found instead.
//
//	func (v *Order) DecodeCBOR(d *runtime.Decoder) error {
//		if d.NextIsArray() {
//			return v.cborDecodeArray(d)
//		}
//		major, err := d.PeekMajor()
//		if err != nil {
//			return err
//		}
//		if major == runtime.MajorMap {
//			return v.cborDecodeMap(d)
//		}
//		return v.cborDecodeArray(d)
//	}
func (e *emitter) decodeMethod(s *Struct) jen.Code {
	method := e.decodeFormsMethod(s)
	if !s.HasTag {
		return method
	}
	// A type with a tag of its own (//cborgen:tag): DecodeCBOR reads the
	// tag, then the value in either format, in cborDecodeTagged.
	return jen.Commentf("DecodeCBOR reads one value from d: tag %d, then the value (%s).", s.Tag, methodDecodeTagged).Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id("DecodeCBOR").
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(
			nullBeforeTag(s),
			jen.If(jen.Id("err").Op(":=").Id("d").Dot("ReadTypeTag").Call(jen.Op(strconv.FormatUint(s.Tag, 10)), jen.Lit(s.TagOptional)), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
			),
			jen.Return(jen.Id("v").Dot(methodDecodeTagged).Call(jen.Id("d"))),
		).Line().Line().Add(method)
}

// decodeFormsMethod emits the decoder of a value in either format:
// DecodeCBOR itself, or for a tagged type the method DecodeCBOR calls
// after the tag.
func (e *emitter) decodeFormsMethod(s *Struct) jen.Code {
	name := "DecodeCBOR"
	if s.HasTag {
		name = methodDecodeTagged
	}
	if s.CatchAll {
		return jen.Commentf("%s reads one item from d, whatever it is, and keeps its bytes.", name).Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
			Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
			Block(
				jen.List(jen.Id("raw"), jen.Id("err")).Op(":=").Id("d").Dot("ReadRawItem").Call(jen.Add(deref(jen.Id("v"))).Index(jen.Empty(), jen.Lit(0))),
				jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem"))),
				jen.Op("*").Id("v").Op("=").Id("raw"),
				jen.Return(jen.Nil()),
			)
	}
	if s.Value != nil {
		// A value type: its underlying value, as a field of that type
		// is read; each error names the type as its root.
		root := func(err jen.Code) jen.Code { return atRoot(err, s.Name, "OneItem") }
		hoisted, dec := e.scoped(func() []jen.Code { return e.decodeValue(s.Value, deref(jen.Id("v")), root, 0) })
		body := append(hoisted, dec...)
		body = append(body, jen.Return(jen.Nil()))
		return jen.Commentf("%s reads one value from d.", name).Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
			Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
			Block(body...)
	}
	if s.MapFormat {
		return e.decodeMapFormatMethod(s, name) // emit_map.go
	}
	if s.NoLegacy {
		// //cborgen:nolegacy: the array format only; a map is an ErrType
		// from the array decoder's head read, like any other item.
		return jen.Comment(name+" reads one value from d: an array of the fields. The map form").Line().
			Comment("is refused (//cborgen:nolegacy).").Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
			Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
			Block(
				jen.If(jen.Id("err").Op(":=").Id("v").Dot(methodDecodeArray).Call(jen.Id("d")), jen.Id("err").Op("!=").Nil()).Block(
					jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
				),
				jen.Return(jen.Nil()),
			)
	}
	return jen.Comment(name+" reads one value from d: an array of the fields (the current").Line().
		Comment("format), or a map of them as fxamacker/cbor writes a struct (the legacy format).").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(
			jen.Var().Id("err").Error(),
			// In line and without a call: the common case, an array
			// whose initial byte is buffered. Strict mode's check of
			// the whole item is made by the array decoder's head read.
			jen.If(jen.Id("d").Dot("NextIsArray").Call()).Block(
				jen.Id("err").Op("=").Id("v").Dot(methodDecodeArray).Call(jen.Id("d")),
			).Else().If(
				jen.List(jen.Id("major"), jen.Id("perr")).Op(":=").Id("d").Dot("PeekMajor").Call(),
				jen.Id("perr").Op("!=").Nil(),
			).Block(
				jen.Id("err").Op("=").Id("perr"),
			).Else().If(jen.Id("major").Op("==").Add(rt("MajorMap"))).Block(
				jen.Id("err").Op("=").Id("v").Dot(methodDecodeMap).Call(jen.Id("d")),
			).Else().Block(
				jen.Id("err").Op("=").Id("v").Dot(methodDecodeArray).Call(jen.Id("d")),
			),
			// Each enclosing DecodeCBOR renames the root as the error
			// travels out, so the outermost type names the path; io.EOF
			// between items is not a *runtime.Error and stays io.EOF.
			jen.If(jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
			),
			jen.Return(jen.Nil()),
		)
}

// decodeArrayMethod emits the decoder of the current format: an array of
// exactly as many elements as the struct has fields, definite or not.
// The common case, a definite head with the field count, reads the fields
// one after the other in the method itself; an indefinite-length array
// goes through the loop that the legacy decoder's per-field method
// serves.
//
//	func (v *Order) cborDecodeArray(d *runtime.Decoder) error {
//		if !d.TryArrayHead(3) {
//			n, err := d.ReadArrayHead()
//			...
//			if n != 3 {
//				if n >= 0 {
//					return runtime.WrongLength(d, 3, n)
//				}
//				(a loop over the elements of the indefinite-length
//				array, each read by v.cborDecodeField(d, i))
//			}
//		}
//		if x, ok := d.TryUint(math.MaxUint64); ok {
//			v.ID = x
//		} else {
//			x, err := d.ReadUint64()
//			if err != nil {
//				return runtime.AtField(err, "ID")
//			}
//			v.ID = x
//		}
//		...
//		d.Leave()
//		return nil
//	}
func (e *emitter) decodeArrayMethod(s *Struct) jen.Code {
	if s.Optional > 0 || s.Extensible {
		return e.decodeEvolvingArrayMethod(s) // emit_evolve.go
	}
	nf := len(s.Fields)
	head := []jen.Code{
		jen.List(jen.Id("n"), jen.Id("err")).Op(":=").Id("d").Dot("ReadArrayHead").Call(),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Id("err"))),
	}
	// Any other definite length is an error; an indefinite one is read
	// field by field (runtime.Decoder.NextField).
	head = append(head, jen.If(jen.Id("n").Op("!=").Lit(nf)).Block(
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(
			jen.If(
				jen.List(jen.Id("more"), jen.Id("err")).Op(":=").Id("d").Dot("NextField").Call(jen.Id("n"), jen.Id("i"), jen.Lit(nf)),
				jen.Op("!").Id("more"),
			).Block(jen.Return(jen.Id("err"))),
			jen.If(
				jen.Id("err").Op(":=").Id("v").Dot(methodDecodeField).Call(jen.Id("d"), jen.Id("i")),
				jen.Id("err").Op("!=").Nil(),
			).Block(jen.Return(jen.Id("err"))),
		),
	))
	body := head
	if nf < 24 {
		// The head of an array of nf elements is one byte, which
		// TryArrayHead reads in line; ReadArrayHead reads the rest.
		body = []jen.Code{jen.If(jen.Op("!").Id("d").Dot("TryArrayHead").Call(jen.Lit(nf))).Block(head...)}
	}
	for i, f := range s.Fields {
		body = append(body, jen.Commentf("%d: %s", i, fieldID(f)))
		ptrs, _ := embeddedPtrs(f)
		if len(ptrs) > 0 || !inlineDecode(f.Type) {
			// Promoted through an embedded pointer: the per-field
			// method allocates it, or returns early on a null. A
			// container, a time or a marshaler is decoded there too:
			// its code is long and a call is little beside its work,
			// so it is emitted once, not once per path.
			body = append(body, jen.If(
				jen.Id("err").Op(":=").Id("v").Dot(methodDecodeField).Call(jen.Id("d"), jen.Lit(i)),
				jen.Id("err").Op("!=").Nil(),
			).Block(jen.Return(jen.Id("err"))))
			continue
		}
		wrap := func(err jen.Code) jen.Code { return rt("AtField").Call(err, jen.Lit(f.Name)) }
		hoisted, dec := e.scoped(func() []jen.Code { return e.decodeValue(f.Type, fieldExpr(f), wrap, 0) })
		dec = append(hoisted, dec...)
		if len(dec) == 1 {
			body = append(body, dec[0]) // an if statement: its variables are its own
		} else {
			body = append(body, jen.Block(dec...))
		}
	}
	body = append(body, jen.Id("d").Dot("Leave").Call(), jen.Return(jen.Nil()))
	return jen.Commentf("%s reads the current format: an array of the %d fields.", methodDecodeArray, nf).Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodDecodeArray).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(body...)
}

// decodeFieldMethod emits the decoder of one field by index, which both
// formats call: the array decoder with the element index, the legacy map
// decoder with the index its key names.
func (e *emitter) decodeFieldMethod(s *Struct) jen.Code {
	var cases []jen.Code
	for i, f := range s.Fields {
		wrap := func(err jen.Code) jen.Code { return rt("AtField").Call(err, jen.Lit(f.Name)) }
		var body []jen.Code
		// A field promoted through an embedded pointer allocates the
		// embedded struct, as fxamacker/cbor does, except for a null when
		// the pointer is nil: what a nil pointer was written as stays nil.
		ptrs, embeds := embeddedPtrs(f)
		for k, p := range ptrs {
			body = append(body, jen.If(jen.Add(p).Op("==").Nil()).Block(
				jen.If(jen.List(jen.Id("null"), jen.Id("err")).Op(":=").Id("d").Dot("ReadNull").Call(), jen.Id("err").Op("!=").Nil()).
					Block(jen.Return(wrap(jen.Id("err")))).
					Else().If(jen.Id("null")).Block(jen.Return(jen.Nil())),
				jen.Add(p).Op("=").New(typeCode(embeds[k].Ptr.Elem())),
			))
		}
		hoisted, dec := e.scoped(func() []jen.Code { return e.decodeValue(f.Type, fieldExpr(f), wrap, 0) })
		body = append(append(hoisted, body...), dec...)
		cases = append(cases, jen.Case(jen.Lit(i)).Block(append([]jen.Code{jen.Comment(fieldID(f))}, body...)...))
	}
	return jen.Commentf("%s reads field number field (in declaration order) for both formats.", methodDecodeField).Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodDecodeField).
		Params(jen.Id("d").Op("*").Add(rt("Decoder")), jen.Id("field").Int()).Error().
		Block(
			jen.Switch(jen.Id("field")).Block(cases...),
			jen.Return(jen.Nil()),
		)
}

// fieldNames is the array literal of the Go field names, indexed by field.
func fieldNames(s *Struct) jen.Code {
	var names []jen.Code
	for _, f := range s.Fields {
		names = append(names, jen.Lit(f.Name))
	}
	return jen.Index(jen.Op("...")).String().Values(names...)
}

// nullBeforeTag reads the untagged null that a nil slice or map of a
// tagged value type is written as.
func nullBeforeTag(s *Struct) jen.Code {
	if s.Value == nil || !nilable(s.Value) {
		return jen.Null()
	}
	return jen.If(jen.List(jen.Id("null"), jen.Id("err")).Op(":=").Id("d").Dot("ReadNull").Call(), jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
	).Else().If(jen.Id("null")).Block(
		jen.Op("*").Id("v").Op("=").Nil(),
		jen.Return(jen.Nil()),
	)
}
