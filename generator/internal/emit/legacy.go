package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// decodeMapMethod emits the decoder of the legacy format: a CBOR map per
// struct, as fxamacker/cbor writes a struct without toarray. It switches
// on the key bytes (no allocation, no reflection); a text key that names
// no field exactly gets fxamacker's case-insensitive fallback (foldSwitch).
// It skips unknown keys (genrt.UnknownKey: an error under the options
// ExtraDecErrorUnknownField, or DupMapKeyEnforcedAPF for one that comes
// twice), and the value of a key that names a field seen before (exactly
// or by case folding; the bits of seen say which came), as fxamacker's
// default keeps the first (genrt.RepeatedField; an error under
// DupMapKeyEnforcedAPF and in strict mode). The value is decoded in place, as fxamacker
// decodes it: a field absent from the map keeps what it held (its zero
// value in a new value). In outline (testdata/golden/nested has whole
// ones):
//
//	func (v *Order) cborDecodeMap(d *runtime.Decoder) error {
//		n, ok := d.TryMapHead()
//		if !ok { ... d.ReadStructMapHead(): a null (genrt.NullKept) or the head ... }
//		var unknown genrt.UnknownKeys
//		var seen uint64
//		for i := 0; i != n; i++ {
//			if n < 0 { ... d.NextPair(n, i): the break of an indefinite map ... }
//			kind, key, num, err := d.ReadKeyParts()
//			field := -1
//			switch kind {
//			case genrt.KeyText:
//				switch string(key) {
//				case "id":
//					field = 0
//				...
//			}
//			if field < 0 && kind == genrt.KeyText { ... d.FoldedField ... }
//			... skip unknown keys and the values of fields seen before, then
//			v.cborDecodeFields(d, field, field+1)
//		}
//		d.Leave()
//		return nil
//	}
func (e *emitter) decodeMapMethod(s *model.Struct) jen.Code {
	// The head in line when it is one byte, all buffered.
	body := []jen.Code{
		jen.List(jen.Id("n"), jen.Id("ok")).Op(":=").Id("d").Dot("TryMapHead").Call(),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Var().Id("err").Error(),
			// A null keeps the value (genrt.NullKept), as a
			// map-format struct's null does.
			jen.If(jen.List(jen.Id("n"), jen.Id("err")).Op("=").Id("d").Dot("ReadStructMapHead").Call(), jen.Id("err").Op("!=").Nil().Op("||").Id("n").Op("==").Add(rt("NullKept"))).
				Block(jen.Return(jen.Id("err"))),
		),
	}
	var loop []jen.Code
	// The key's parts, and what the options make of a key that names no
	// field (skipped, or an error: genrt.UnknownKey) or one that names
	// a field read before (genrt.RepeatedField).
	parts := []jen.Code{jen.Id("kind"), jen.Id("key"), jen.Id("num"), jen.Id("i")}
	readKey := jen.List(jen.Id("kind"), jen.Id("key"), jen.Id("num"), jen.Id("err")).Op(":=").Id("d").Dot("ReadKeyParts").Call()
	unknown := unknownKeyCall(s, parts) // unknown.go
	body = append(body, unknownReset(s)...)
	body = append(body, jen.Var().Id("unknown").Add(rt("UnknownKeys")))
	if len(s.Fields) == 0 {
		loop = append(loop, readKey, ifErr(noPath), unknown)
	} else {
		words := (len(s.Fields) + 63) / 64
		isSeen, markSeen := seenOps(words)
		if words == 1 {
			body = append(body, jen.Var().Id("seen").Uint64())
		} else {
			body = append(body, jen.Var().Id("seen").Index(jen.Lit(words)).Uint64())
		}
		loop = append(loop,
			readKey,
			ifErr(noPath),
			jen.Id("field").Op(":=").Lit(-1),
			keySwitch(s),
		)
		if fold := e.foldSwitch(s); fold != nil {
			loop = append(loop, fold)
		}
		loop = append(loop,
			jen.If(jen.Id("field").Op("<").Lit(0)).Block(unknown, jen.Continue()),
			jen.If(isSeen).Block(
				// Skipped, the first value kept (an error under
				// DupMapKeyEnforcedAPF or in strict mode).
				checkErr(jen.Id("d").Dot("RepeatedField").Call(parts...), noPath),
				jen.Continue(),
			),
			markSeen,
			decodeFieldsCall(jen.Id("field"), jen.Id("field").Op("+").Lit(1)),
		)
	}
	body = append(body,
		elemLoop(0, "NextPair", noPath, nil, loop),
		jen.Id("d").Dot("Leave").Call(),
	)
	body = append(body, jen.Return(jen.Nil()))
	return jen.Commentf("%s reads the legacy format: a map keyed by field name (or integer for", model.MethodDecodeMap).Line().
		Comment("keyasint). Unknown keys are skipped; fields absent from the map keep what they hold.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(model.MethodDecodeMap).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(body...)
}

// keySwitch maps a legacy key to a field index: text keys by their bytes,
// keyasint fields by their integer.
func keySwitch(s *model.Struct) jen.Code {
	var text, ints []jen.Code
	for i, f := range s.Fields {
		if f.IsReserved() {
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
		kinds = append(kinds, jen.Case(rt("KeyText")).Block(jen.Switch(jen.String().Call(jen.Id("key"))).Block(text...)))
	}
	if len(ints) > 0 {
		kinds = append(kinds, jen.Case(rt("KeyInt")).Block(jen.Switch(jen.Id("num")).Block(ints...)))
	}
	return jen.Switch(jen.Id("kind")).Block(kinds...)
}

// foldSwitch is fxamacker/cbor's fallback for a text key that names no
// field exactly: the first field (in field order) whose text key equals it
// under case folding, at the same length in bytes (Decoder.FoldedField,
// over the keys of the fields in field order; "" for keyasint and reserved
// fields, which take no part), unless the options say
// FieldNameMatchingCaseSensitive. It is nil for a struct without text keys.
//
//	if field < 0 && kind == genrt.KeyText {
//		field = d.FoldedField(key, cborKeysOrder[:])
//	}
func (e *emitter) foldSwitch(s *model.Struct) jen.Code {
	t := e.tables[s.Name]
	if t.keys == "" {
		return nil
	}
	return jen.If(jen.Id("field").Op("<").Lit(0).Op("&&").Id("kind").Op("==").Add(rt("KeyText"))).
		Block(jen.Id("field").Op("=").Id("d").Dot("FoldedField").Call(jen.Id("key"), jen.Id(t.keys).Index(jen.Op(":"))))
}

// legacyKeys are the keys of the fields of s in field order, as the
// legacy decoder's case folding compares them: "" for keyasint and
// reserved fields; nil when no field has a text key.
func legacyKeys(s *model.Struct) []string {
	keys := make([]string, len(s.Fields))
	hasText := false
	for i, f := range s.Fields {
		if !f.IsReserved() && !f.KeyAsInt {
			keys[i] = f.Key
			hasText = true
		}
	}
	if !hasText {
		return nil
	}
	return keys
}

// keyTables are the names of the package-level tables of one type's
// legacy decoder: keys, its fields' keys for case folding ("" when no
// field has a text key).
type keyTables struct {
	keys string
	// fields: the table of a compact type under -small
	// (fieldsTableDecl), cborFieldsT, which replaces keys.
	fields string
}

// legacyTables names the tables of every type of f that has a legacy
// decoder with fields, cborKeysT for a type T, made unique against the
// package's names and the other tables. Declared once
// per type, they are not built on the stack at each use.
func legacyTables(f *model.File) map[string]keyTables {
	tables := map[string]keyTables{}
	used := map[string]bool{}
	unique := func(name string) string {
		for f.Taken[name] || used[name] {
			name += "_"
		}
		used[name] = true
		return name
	}
	for _, s := range f.Structs {
		if f.Small && compactType(s) {
			tables[s.Name] = keyTables{fields: unique("cborFields" + s.Name)}
			continue
		}
		if s.Value != nil || s.NoLegacy || len(s.Fields) == 0 {
			continue
		}
		var t keyTables
		keys := legacyKeys(s)
		if keys != nil {
			t.keys = unique("cborKeys" + s.Name)
		}
		tables[s.Name] = t
	}
	return tables
}

// keyTableDecls declares the tables of s's legacy decoder (legacyTables).
func (e *emitter) keyTableDecls(s *model.Struct) jen.Code {
	t, ok := e.tables[s.Name]
	if !ok {
		return jen.Null()
	}
	table := func(name string, elems []string) jen.Code {
		lits := make([]jen.Code, len(elems))
		for i, el := range elems {
			lits[i] = jen.Lit(el)
		}
		return jen.Var().Id(name).Op("=").Index(jen.Op("...")).String().Values(lits...).Line()
	}
	// Each table on its line, right before the decoder's doc comment.
	var decls []jen.Code
	if t.keys != "" {
		decls = append(decls, table(t.keys, legacyKeys(s)))
	}
	return jen.Add(decls...)
}

// seenOps are the test and the update of the bitset of fields seen so
// far: one uint64, or an array of them for structs of more than 64 fields.
func seenOps(words int) (isSeen, markSeen jen.Code) {
	if words == 1 {
		// field&63 is field (0 to 63 here); the mask spares the
		// shift the compiler's checks for a negative or wide count.
		bit := jen.Parens(jen.Lit(1).Op("<<").Parens(jen.Id("field").Op("&").Lit(63)))
		return jen.Id("seen").Op("&").Add(bit).Op("!=").Lit(0),
			jen.Id("seen").Op("|=").Lit(1).Op("<<").Parens(jen.Id("field").Op("&").Lit(63))
	}
	word := jen.Id("seen").Index(jen.Id("field").Op("/").Lit(64))
	bit := jen.Parens(jen.Lit(1).Op("<<").Parens(jen.Id("field").Op("%").Lit(64)))
	return jen.Add(word).Op("&").Add(bit).Op("!=").Lit(0),
		jen.Id("seen").Index(jen.Id("field").Op("/").Lit(64)).Op("|=").Lit(1).Op("<<").Parens(jen.Id("field").Op("%").Lit(64))
}
