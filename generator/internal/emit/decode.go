package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// decodeMethod emits DecodeCBOR, which tells the two formats apart by the
// major type of the next item: a map is the legacy format, anything else
// goes to the array decoder (here the per-field decoder, for a type that
// has not evolved), whose error says what it found instead. From
// testdata/golden/nested:
//
//	func (v *Item) DecodeCBOR(d *runtime.Decoder) error {
//		var err error
//		if d.PeekIsArray() {
//			err = v.cborDecodeFields(d, -1, 3)
//		} else if d.PeekIsMap() {
//			err = v.cborDecodeMap(d)
//		} else if major, perr := d.PeekMajor(); perr != nil {
//			err = perr
//		} else if major == genrt.MajorMap {
//			err = v.cborDecodeMap(d)
//		} else {
//			err = v.cborDecodeFields(d, -1, 3)
//		}
//		if err != nil {
//			return genrt.AtRoot(err, "Item", genrt.OneItem)
//		}
//		return nil
//	}
func (e *emitter) decodeMethod(s *model.Struct) jen.Code {
	if s.Raw != "" {
		return e.decodeRawMethod(s) // raw.go
	}
	return e.decodeItemMethod(s)
}

// decodeItemMethod emits what decodeMethod describes, under the name
// decodeName gives.
func (e *emitter) decodeItemMethod(s *model.Struct) jen.Code {
	method := e.decodeFormsMethod(s)
	if !s.HasTag {
		return method
	}
	// A type with a tag of its own (//cborgen:tag): DecodeCBOR reads the
	// tag, then the value in either format, in cborDecodeTagged.
	return jen.Commentf("%s reads one value from d: tag %d, then the value (%s).", decodeName(s), s.Tag, model.MethodDecodeTagged).Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(decodeName(s)).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(
			nullBeforeTag(s),
			jen.If(jen.Id("err").Op(":=").Id("d").Dot("ReadTypeTag").Call(jen.Op(strconv.FormatUint(s.Tag, 10)), jen.Lit(s.TagOptional)), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
			),
			jen.Return(jen.Id("v").Dot(model.MethodDecodeTagged).Call(jen.Id("d"))),
		).Line().Line().Add(method)
}

// decodeFormsMethod emits the decoder of a value in either format:
// DecodeCBOR itself, or for a tagged type the method DecodeCBOR calls
// after the tag.
func (e *emitter) decodeFormsMethod(s *model.Struct) jen.Code {
	name := decodeName(s)
	if s.HasTag {
		name = model.MethodDecodeTagged
	}
	if s.CatchAll {
		return jen.Commentf("%s reads one item from d, whatever it is, and keeps its bytes.", name).Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
			Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
			Block(
				jen.List(jen.Id("raw"), jen.Id("err")).Op(":=").Id("d").Dot("ReadRawBytes").Call(deref(jen.Id("v"))),
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
		return e.decodeMapFormatMethod(s, name) // map.go
	}
	if s.NoLegacy {
		// //cborgen:nolegacy: the array format only; a map is an ErrType
		// from the array decoder's head read, like any other item.
		why := map[string]string{
			"":        "is refused (//cborgen:nolegacy).",
			"toarray": "is refused: the type has fxamacker's toarray option (//cborgen:legacy reads maps).",
			"run":     "is refused (cbor-gen -nolegacy).",
		}[s.NoLegacyBy]
		return jen.Comment(name+" reads one value from d: an array of the fields. The map form").Line().
			Comment(why).Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
			Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
			Block(
				jen.If(jen.Id("err").Op(":=").Add(arrayCall(s)), jen.Id("err").Op("!=").Nil()).Block(
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
			// In line and without a call: the common cases, an array
			// or a map whose initial byte is buffered. Strict mode's
			// check of the whole item is made by the head reads.
			jen.If(jen.Id("d").Dot("PeekIsArray").Call()).Block(
				jen.Id("err").Op("=").Add(arrayCall(s)),
			).Else().If(jen.Id("d").Dot("PeekIsMap").Call()).Block(
				jen.Id("err").Op("=").Id("v").Dot(model.MethodDecodeMap).Call(jen.Id("d")),
			).Else().If(
				jen.List(jen.Id("major"), jen.Id("perr")).Op(":=").Id("d").Dot("PeekMajor").Call(),
				jen.Id("perr").Op("!=").Nil(),
			).Block(
				jen.Id("err").Op("=").Id("perr"),
			).Else().If(jen.Id("major").Op("==").Add(rt("MajorMap"))).Block(
				jen.Id("err").Op("=").Id("v").Dot(model.MethodDecodeMap).Call(jen.Id("d")),
			).Else().Block(
				jen.Id("err").Op("=").Add(arrayCall(s)),
			),
			// Each enclosing DecodeCBOR renames the root as the error
			// travels out, so the outermost type names the path; io.EOF
			// between items is not a *genrt.Error and stays io.EOF.
			jen.If(jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
			),
			jen.Return(jen.Nil()),
		)
}

// decodeArrayMethod emits the array decoder of a type that has evolved
// (evolve.go). Any other type reads the current format in its
// per-field method (decodeFieldsMethod), called by arrayCall.
func (e *emitter) decodeArrayMethod(s *model.Struct) jen.Code {
	if evolving(s) {
		return e.decodeEvolvingArrayMethod(s) // evolve.go
	}
	return nil
}

// evolving reports whether arrays of s may have another length than its
// field count (older ones end early, newer ones have more): its array
// decoder is then cborDecodeArray (evolve.go).
func evolving(s *model.Struct) bool { return s.Optional > 0 || s.Extensible }

// arrayCall is the call that reads the current format, an array of the
// fields: v.cborDecodeFields(d, -1, len(s.Fields)), or for a type that
// has evolved v.cborDecodeArray(d).
func arrayCall(s *model.Struct) jen.Code {
	if evolving(s) {
		return jen.Id("v").Dot(model.MethodDecodeArray).Call(jen.Id("d"))
	}
	return jen.Id("v").Dot(model.MethodDecodeFields).Call(jen.Id("d"), jen.Lit(-1), jen.Lit(len(s.Fields)))
}

// arrayHead is the first case of the per-field method (from = -1): the
// head of an array of exactly as many elements as the struct has fields,
// definite or not. The common case, a definite head with the field
// count, falls through to the fields; any other definite length is an
// error, and the elements of an indefinite-length array are read one by
// one (runtime.Decoder.NextField).
//
//	case -1:
//		if !d.TryArrayHead(3) {
//			n, err := d.ReadStructHead()
//			if err != nil || n == genrt.NullKept {
//				return err
//			}
//			if n != 3 {
//				for i := 0; ; i++ {
//					if more, err := d.NextField(n, i, 3); !more {
//						return err
//					}
//					if err := v.cborDecodeFields(d, i, i+1); err != nil {
//						return err
//					}
//				}
//			}
//		}
//		fallthrough
func arrayHead(s *model.Struct) []jen.Code {
	nf := len(s.Fields)
	head := []jen.Code{
		// A null keeps the value, as fxamacker/cbor keeps a struct
		// (NullKept). One call for the null and the head: the slow
		// path's code is not repeated in line in every type.
		jen.List(jen.Id("n"), jen.Id("err")).Op(":=").Id("d").Dot("ReadStructHead").Call(),
		jen.If(jen.Id("err").Op("!=").Nil().Op("||").Id("n").Op("==").Add(rt("NullKept"))).Block(jen.Return(jen.Id("err"))),
		jen.If(jen.Id("n").Op("!=").Lit(nf)).Block(
			jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(
				jen.If(
					jen.List(jen.Id("more"), jen.Id("err")).Op(":=").Id("d").Dot("NextField").Call(jen.Id("n"), jen.Id("i"), jen.Lit(nf)),
					jen.Op("!").Id("more"),
				).Block(jen.Return(jen.Id("err"))),
				decodeFieldsCall(jen.Id("i"), jen.Id("i").Op("+").Lit(1)),
			),
		),
	}
	code := []jen.Code{jen.Commentf("the array of the %s", countOf(nf, "field"))}
	if nf < 24 {
		// The head of an array of nf elements is one byte, which
		// TryArrayHead reads in line; ReadArrayHead reads the rest.
		code = append(code, jen.If(jen.Op("!").Id("d").Dot("TryArrayHead").Call(jen.Lit(nf))).Block(head...))
	} else {
		code = append(code, jen.Block(head...))
	}
	if nf > 0 {
		code = append(code, jen.Fallthrough())
	}
	return code
}

// decodeFieldsMethod emits the decoder of the fields numbered from up to
// to (in declaration order), one after the other, which both formats
// call: the array decoder with all of them, or one element of an
// indefinite-length array, the legacy map decoder with the one field its
// key names. A switch jumps to the first field; each field falls through
// to the next unless it was the last one asked for, so that each field's
// code is emitted once and reading a whole array costs one jump and a
// comparison per field. (A loop around the switch would cost more, and
// would move a local whose address a recursive DecodeCBOR takes to the
// heap.) Abridged from testdata/golden/nested:
//
//	func (v *Order) cborDecodeFields(d *runtime.Decoder, from, to int) error {
//		var err error
//		switch from {
//		case 0:
//			// ID
//			if x, ok := d.TryUint(math.MaxUint64); ok {
//				v.ID = x
//			} else if v.ID, err = d.ReadUint64Or(v.ID); err != nil {
//				return genrt.AtField(err, "ID")
//			}
//			if to == 1 {
//				return nil
//			}
//			fallthrough
//		case 1:
//			...
//		}
//		return nil
//	}
func (e *emitter) decodeFieldsMethod(s *model.Struct) jen.Code {
	array := !evolving(s)
	var cases []jen.Code
	if array {
		cases = append(cases, jen.Case(jen.Lit(-1)).Block(arrayHead(s)...))
	}
	e.errInScope, e.errMethod, e.errUsed = true, true, false
	defer func() { e.errInScope, e.errMethod = false, false }()
	for i, f := range s.Fields {
		body := append([]jen.Code{jen.Comment(model.FieldID(f))}, e.fieldDecode(s, i)...)
		if i < len(s.Fields)-1 {
			body = append(body,
				jen.If(jen.Id("to").Op("==").Lit(i+1)).Block(jen.Return(jen.Nil())),
				jen.Fallthrough(),
			)
		}
		cases = append(cases, jen.Case(jen.Lit(i)).Block(body...))
	}
	var code []jen.Code
	if e.errUsed {
		code = append(code, jen.Var().Id("err").Error())
	}
	code = append(code, jen.Switch(jen.Id("from")).Block(cases...))
	doc := jen.Commentf("%s reads the fields numbered from up to to (in declaration order), for", model.MethodDecodeFields).Line().
		Comment("both formats.")
	if array {
		doc.Line().Commentf("With from = -1 it reads the current format: an array of the %s.", countOf(len(s.Fields), "field"))
		code = append(code, jen.If(jen.Id("from").Op("<").Lit(0)).Block(jen.Id("d").Dot("Leave").Call()))
	}
	return doc.Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(model.MethodDecodeFields).
		Params(jen.Id("d").Op("*").Add(rt("Decoder")), jen.List(jen.Id("from"), jen.Id("to")).Int()).Error().
		Block(append(code, jen.Return(jen.Nil()))...)
}

// fieldDecode is the code that reads field i of s, in a case of a
// switch on the field: its value, its path in errors, the case of a
// content union's variant checked and the embedded pointers on its way
// allocated.
func (e *emitter) fieldDecode(s *model.Struct, i int) []jen.Code {
	f := s.Fields[i]
	wrap := func(err jen.Code) jen.Code { return rt("AtField").Call(err, jen.Lit(f.Name)) }
	hoisted, dec := e.scoped(func() []jen.Code { return e.decodeValue(f.Type, fieldExpr(f), wrap, 0) })
	var body []jen.Code
	body = append(body, hoisted...)
	if isCaseField(s, i) { // content.go: the case, checked
		body = append(body, jen.Id("caseAt").Op(":=").Id("d").Dot("Offset").Call())
		dec = append(dec, caseCheck(s))
	}
	return append(body, embeddedAlloc(f, dec)...)
}

// embeddedAlloc runs dec, the decoder of a field promoted through
// embedded pointers, after allocating each nil one, as fxamacker/cbor
// does (for a null too, which then leaves the field as it is); a non-nil
// one is decoded into in place.
//
//	if v.Base == nil {
//		v.Base = new(Base)
//	}
//	dec
func embeddedAlloc(f *model.Field, dec []jen.Code) []jen.Code {
	ptrs, embeds := embeddedPtrs(f)
	var out []jen.Code
	for k, p := range ptrs {
		out = append(out, jen.If(jen.Add(p).Op("==").Nil()).Block(jen.Add(p).Op("=").New(typeCode(embeds[k].Ptr.Elem()))))
	}
	return append(out, dec...)
}

// nullBeforeTag reads the untagged null that a nil slice or map of a
// tagged value type is written as: ReadUntaggedNull, which strict mode
// refuses, unless the tag is optional.
func nullBeforeTag(s *model.Struct) jen.Code {
	if s.Value == nil || !nilable(s.Value) {
		return jen.Null()
	}
	read := "ReadUntaggedNull"
	if s.TagOptional {
		read = "ReadNull"
	}
	return jen.If(jen.List(jen.Id("null"), jen.Id("err")).Op(":=").Id("d").Dot(read).Call(), jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
	).Else().If(jen.Id("null")).Block(
		jen.Op("*").Id("v").Op("=").Nil(),
		jen.Return(jen.Nil()),
	)
}
