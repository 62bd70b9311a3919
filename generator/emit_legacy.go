package generator

import "github.com/dave/jennifer/jen"

// decodeMapMethod emits the decoder of the legacy format: a CBOR map per
// struct, as fxamacker/cbor writes a struct without toarray. It switches
// on the key bytes (no allocation, no reflection); a text key that names
// no field exactly gets fxamacker's case-insensitive fallback (foldSwitch).
// It skips unknown keys, rejects a key that names a field seen before
// (exactly or by case folding), and leaves fields absent from the map at
// their zero value: it resets *v before reading.
//
//	func (v *Order) cborDecodeMap(d *runtime.Decoder) error {
//		n, err := d.ReadMapHead()
//		...
//		*v = Order{}
//		var seen uint64
//		for i := 0; ; i++ {
//			... k, err := d.ReadKey()
//			field := -1
//			switch k.Kind {
//			case runtime.KeyText:
//				switch string(k.Text) {
//				case "id":
//					field = 0
//				...
//			}
//			if field < 0 && k.Kind == runtime.KeyText { ... runtime.FoldKey ... }
//			... skip unknown keys, reject duplicates, then
//			v.cborDecodeFields(d, field, field+1)
//		}
//	}
func (e *emitter) decodeMapMethod(s *Struct) jen.Code {
	body := []jen.Code{
		jen.List(jen.Id("n"), jen.Id("err")).Op(":=").Id("d").Dot("ReadMapHead").Call(),
		ifErr(noPath),
		jen.Op("*").Id("v").Op("=").Add(e.typeRef(s)).Values(),
	}
	var loop []jen.Code
	loop = append(loop,
		jen.If(jen.List(jen.Id("more"), jen.Id("err")).Op(":=").Id("d").Dot("NextPair").Call(jen.Id("n"), jen.Id("i")), jen.Id("err").Op("!=").Nil()).
			Block(jen.Return(jen.Id("err"))).
			Else().If(jen.Op("!").Id("more")).Block(jen.Break()),
	)
	skip := jen.If(jen.Id("err").Op(":=").Id("d").Dot("Skip").Call(), jen.Id("err").Op("!=").Nil()).
		Block(jen.Return(jen.Id("err")))
	if len(s.Fields) == 0 {
		loop = append(loop,
			jen.If(jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Id("d").Dot("ReadKey").Call(), jen.Id("err").Op("!=").Nil()).
				Block(jen.Return(jen.Id("err"))),
			skip,
		)
	} else {
		words := (len(s.Fields) + 63) / 64
		isSeen, markSeen := seenOps(words)
		if words == 1 {
			body = append(body, jen.Var().Id("seen").Uint64())
		} else {
			body = append(body, jen.Var().Id("seen").Index(jen.Lit(words)).Uint64())
		}
		loop = append(loop,
			jen.List(jen.Id("k"), jen.Id("err")).Op(":=").Id("d").Dot("ReadKey").Call(),
			ifErr(noPath),
			jen.Id("field").Op(":=").Lit(-1),
			keySwitch(s),
		)
		if fold := foldSwitch(s); fold != nil {
			loop = append(loop, fold)
		}
		loop = append(loop,
			jen.If(jen.Id("field").Op("<").Lit(0)).Block(skip, jen.Continue()),
			jen.If(isSeen).Block(
				jen.Return(rt("DuplicateField").Call(jen.Id("d"), jen.Add(fieldNames(s)).Index(jen.Id("field")))),
			),
			markSeen,
			decodeFieldsCall(jen.Id("field"), jen.Id("field").Op("+").Lit(1)),
		)
	}
	body = append(body,
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(loop...),
		jen.Id("d").Dot("Leave").Call(),
		jen.Return(jen.Nil()),
	)
	return jen.Commentf("%s reads the legacy format: a map keyed by field name (or integer for", methodDecodeMap).Line().
		Comment("keyasint). Unknown keys are skipped; fields absent from the map are left zero.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodDecodeMap).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(body...)
}

// keySwitch maps a legacy key to a field index: text keys by their bytes,
// keyasint fields by their integer.
func keySwitch(s *Struct) jen.Code {
	var text, ints []jen.Code
	for i, f := range s.Fields {
		if f.isReserved() {
			continue // its old key is skipped like any unknown key
		}
		set := jen.Id("field").Op("=").Lit(i)
		if f.KeyAsInt {
			ints = append(ints, jen.Case(jen.Lit(int(f.KeyInt))).Block(set))
		} else {
			text = append(text, jen.Case(jen.Lit(f.Key)).Block(set))
		}
	}
	var kinds []jen.Code
	if len(text) > 0 {
		kinds = append(kinds, jen.Case(rt("KeyText")).Block(jen.Switch(jen.String().Call(jen.Id("k").Dot("Text"))).Block(text...)))
	}
	if len(ints) > 0 {
		kinds = append(kinds, jen.Case(rt("KeyInt")).Block(jen.Switch(jen.Id("k").Dot("Int")).Block(ints...)))
	}
	return jen.Switch(jen.Id("k").Dot("Kind")).Block(kinds...)
}

// foldSwitch is fxamacker/cbor's fallback for a text key that names no
// field exactly: the first field (in field order) whose text key equals it
// under case folding, at the same length in bytes (runtime.FoldKey, over
// the keys of the fields in field order; "" for keyasint and reserved
// fields, which take no part). It is nil for a struct without text keys.
// The list is built only when a key missed every field exactly.
//
//	if field < 0 && k.Kind == runtime.KeyText {
//		field = runtime.FoldKey(k.Text, []string{"id", "kind", ""})
//	}
func foldSwitch(s *Struct) jen.Code {
	var keys []jen.Code
	hasText := false
	for _, f := range s.Fields {
		if f.isReserved() || f.KeyAsInt {
			keys = append(keys, jen.Lit(""))
			continue
		}
		keys = append(keys, jen.Lit(f.Key))
		hasText = true
	}
	if !hasText {
		return nil
	}
	return jen.If(jen.Id("field").Op("<").Lit(0).Op("&&").Id("k").Dot("Kind").Op("==").Add(rt("KeyText"))).
		Block(jen.Id("field").Op("=").Add(rt("FoldKey")).Call(jen.Id("k").Dot("Text"), jen.Index().String().Values(keys...)))
}

// seenOps are the test and the update of the bitset of fields seen so
// far: one uint64, or an array of them for structs of more than 64 fields.
func seenOps(words int) (isSeen, markSeen jen.Code) {
	if words == 1 {
		bit := jen.Parens(jen.Lit(1).Op("<<").Id("field"))
		return jen.Id("seen").Op("&").Add(bit).Op("!=").Lit(0),
			jen.Id("seen").Op("|=").Lit(1).Op("<<").Id("field")
	}
	word := jen.Id("seen").Index(jen.Id("field").Op("/").Lit(64))
	bit := jen.Parens(jen.Lit(1).Op("<<").Parens(jen.Id("field").Op("%").Lit(64)))
	return jen.Add(word).Op("&").Add(bit).Op("!=").Lit(0),
		jen.Id("seen").Index(jen.Id("field").Op("/").Lit(64)).Op("|=").Lit(1).Op("<<").Parens(jen.Id("field").Op("%").Lit(64))
}
