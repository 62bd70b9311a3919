package emit

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// decodeMapMethod emits the decoder of the legacy format: a CBOR map per
// struct, as fxamacker/cbor writes a struct without toarray. The loop over
// the pairs is the runtime's (Decoder.LegacyField, the same for every
// type): it reads the keys (no allocation, no reflection), finds the field
// each names in the type's table of keys (keyTableDecls), with
// fxamacker's case-insensitive fallback for a text key that names no
// field exactly, and skips unknown keys and the value of a key that names
// a field seen before, as fxamacker's default keeps the first (an error
// in strict mode). The value is decoded in place by the per-field
// decoder, as fxamacker decodes it: a field absent from the map keeps what
// it held (its zero value in a new value). From testdata/golden/nested:
//
//	func (v *Order) cborDecodeMap(d *runtime.Decoder) error {
//		var m runtime.LegacyMap
//		for m.More() {
//			field, err := d.LegacyField(&m, &cborKeysOrder)
//			if field < 0 {
//				return err
//			}
//			if err := v.cborDecodeFields(d, field, field+1); err != nil {
//				return err
//			}
//		}
//		d.Leave()
//		return nil
//	}
func (e *emitter) decodeMapMethod(s *model.Struct) jen.Code {
	var body []jen.Code
	if words := (len(s.Fields) + 63) / 64; words > 1 {
		// More than 64 fields: the bits of the fields seen in words of
		// this frame.
		body = append(body,
			jen.Var().Id("seen").Index(jen.Lit(words)).Uint64(),
			jen.Id("m").Op(":=").Add(rt("LegacyMap")).Values(jen.Dict{jen.Id("Wide"): jen.Id("seen").Index(jen.Op(":"))}))
	} else {
		body = append(body, jen.Var().Id("m").Add(rt("LegacyMap")))
	}
	if len(s.Fields) == 0 {
		// No field: every pair is skipped.
		body = append(body,
			jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Id("d").Dot("LegacyField").Call(jen.Op("&").Id("m"), jen.Nil()),
			jen.Return(jen.Id("err")))
	} else {
		// After the last pair of a definite map the loop ends here and
		// the map is left in line: one call of LegacyField fewer.
		body = append(body, jen.For(jen.Id("m").Dot("More").Call()).Block(
			jen.List(jen.Id("field"), jen.Id("err")).Op(":=").Id("d").Dot("LegacyField").Call(jen.Op("&").Id("m"), jen.Op("&").Id(e.tables[s.Name])),
			jen.If(jen.Id("field").Op("<").Lit(0)).Block(jen.Return(jen.Id("err"))),
			decodeFieldsCall(jen.Id("field"), jen.Id("field").Op("+").Lit(1)),
		),
			jen.Id("d").Dot("Leave").Call(),
			jen.Return(jen.Nil()))
	}
	return jen.Commentf("%s reads the legacy format: a map keyed by field name (or integer for", model.MethodDecodeMap).Line().
		Comment("keyasint). Unknown keys are skipped; fields absent from the map keep what they hold.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(model.MethodDecodeMap).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(body...)
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

// legacyTables names the key table of every type of f that has a legacy
// decoder with fields, cborKeysT for a type T, made unique against the
// package's names and the other tables. Declared once per type, it is
// static data: nothing is built at each use.
func legacyTables(f *model.File) map[string]string {
	tables := map[string]string{}
	used := map[string]bool{}
	for _, s := range f.Structs {
		if s.Value != nil || s.NoLegacy || len(s.Fields) == 0 {
			continue
		}
		name := "cborKeys" + s.Name
		for f.Taken[name] || used[name] {
			name += "_"
		}
		used[name] = true
		tables[s.Name] = name
	}
	return tables
}

// fieldGoNames are the Go names of the fields of s, in field order.
func fieldGoNames(s *model.Struct) []string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return names
}

// keyTableSpec is the declaration of the table of s's legacy decoder
// (legacyTables), nil for a type without one:
// a runtime.LegacyKeys of the fields' text keys in field order, the
// integer keys of the keyasint fields, and the Go names when they are not
// the text keys (for the error of a duplicate key in strict mode).
//
//	cborKeysOrder = runtime.LegacyKeys{Text: []string{"id", "items", ""}, Ints: []runtime.IntKey{{Key: 1, Field: 2}}, Names: []string{"ID", "Items", "Note"}}
func (e *emitter) keyTableSpec(s *model.Struct) jen.Code {
	name, ok := e.tables[s.Name]
	if !ok {
		return nil
	}
	strs := func(elems []string) jen.Code {
		lits := make([]jen.Code, len(elems))
		for i, el := range elems {
			lits[i] = jen.Lit(el)
		}
		return jen.Index().String().Values(lits...)
	}
	// Keyed elements on one line, in this order (a jen.Dict would sort
	// them and give each its line).
	var fields []jen.Code
	keys := legacyKeys(s)
	if keys != nil {
		fields = append(fields, jen.Id("Text").Op(":").Add(strs(keys)))
	}
	var ints []jen.Code
	for i, f := range s.Fields {
		if !f.IsReserved() && f.KeyAsInt {
			ints = append(ints, jen.Values(jen.Id("Key").Op(":").Lit(int(f.KeyInt)), jen.Id("Field").Op(":").Lit(i)))
		}
	}
	if len(ints) > 0 {
		fields = append(fields, jen.Id("Ints").Op(":").Index().Add(rt("IntKey")).Values(ints...))
	}
	if names := fieldGoNames(s); keys == nil || !slices.Equal(keys, names) {
		fields = append(fields, jen.Id("Names").Op(":").Add(strs(names)))
	}
	return jen.Id(name).Op("=").Add(rt("LegacyKeys")).Values(fields...)
}

// keyTables declares the legacy decoders' tables of all the types of f in
// one block at the end of the file: a line per type.
func (e *emitter) keyTables(f *model.File) jen.Code {
	var specs []jen.Code
	for _, s := range f.Structs {
		if spec := e.keyTableSpec(s); spec != nil {
			specs = append(specs, spec)
		}
	}
	if len(specs) == 0 {
		return jen.Null()
	}
	return jen.Comment("The keys of the legacy decoders' maps, per type (runtime.LegacyField).").Line().
		Var().Defs(specs...).Line()
}
