package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// The smaller form of the code (-small), for programs with many types,
// where the weight of the default code (its compile time, the compiler's
// memory, the binary) matters more than the time of a call per value.
// The bytes written, the inputs accepted, the errors and the API are the
// default code's; what changes is where the work is done:
//
//   - the runtime's reads and writes are called, not put in line at each
//     field: no Try… fast path before a Read (the Read takes every
//     encoding itself), and the writers whose fast paths are inlined by
//     default (AppendUint, AppendInt, the string, byte string and
//     container heads) through copies of theirs that stay out of line
//     (runtime/genrt/encode_call.go);
//   - a struct is read in one loop around a switch on its fields
//     (decodeCompactMethod): the runtime's NextStructField reads the head
//     of either format, steps through the array's elements or the legacy
//     map's keys (from a table of the type's keys, static data) and names
//     the field to read next, in place of the per-type format test, array
//     head, legacy key switch and per-field decoder with its fallthroughs;
//   - UnmarshalCBOR is DecodeCBOR and Decoder.Finish.

// outOfLine is the runtime function the code calls for name: name, or
// under -small its copy that is not inlined, for the writers that have one.
func (e *emitter) outOfLine(name string) string {
	if call, ok := outOfLineCopies[name]; ok && e.small {
		return call
	}
	return name
}

// outOfLineCopies are the writers that -small code calls through a copy
// kept out of line (runtime/genrt/encode_call.go), by name.
var outOfLineCopies = map[string]string{
	"AppendUint":      "AppendUintCall",
	"AppendInt":       "AppendIntCall",
	"AppendBytes":     "AppendBytesCall",
	"AppendFloat32":   "AppendFloat32Call",
	"AppendArrayHead": "AppendArrayHeadCall",
	"AppendMapHead":   "AppendMapHeadCall",
}

// compact reports whether s is read by the loop of decodeCompactMethod:
// under -small, a struct whose DecodeCBOR reads its array or its legacy
// map and nothing else (no tag of its own, not a map-format, value,
// catch-all, //cborgen:raw or content-union type, no optional or extra
// elements) of up to genrt.MaxStructFields fields. Any other type gets
// the default code's structure, with the calls of -small.
func (e *emitter) compact(s *model.Struct) bool {
	return e.structLoop && compactType(s)
}

// compactType reports whether s would be compact under -small.
func compactType(s *model.Struct) bool {
	return !s.HasTag && !s.CatchAll && s.Value == nil && !s.MapFormat && s.Raw == "" &&
		!evolving(s) && s.Case == nil && len(s.Fields) <= genrt.MaxStructFields
}

// fieldsTableDecl declares the table of s that NextStructField reads: the
// number of fields and, with a legacy form, their keys.
//
//	var cborFieldsItem = genrt.StructKeys{Fields: 3, Legacy: true, Text: []string{"sku", "n", "p"}}
func (e *emitter) fieldsTableDecl(s *model.Struct) jen.Code {
	fields := []jen.Code{jen.Id("Fields").Op(":").Lit(len(s.Fields))}
	if !s.NoLegacy {
		fields = append(fields, jen.Id("Legacy").Op(":").True())
		if keys := legacyKeys(s); keys != nil {
			lits := make([]jen.Code, len(keys))
			for i, k := range keys {
				lits[i] = jen.Lit(k)
			}
			fields = append(fields, jen.Id("Text").Op(":").Index().String().Values(lits...))
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
	}
	return jen.Var().Id(e.tables[s.Name].fields).Op("=").Add(rt("StructKeys")).Values(fields...).Line()
}

// decodeCompactMethod emits DecodeCBOR of a compact type (see compact):
// both formats in one loop, the field to read named by the runtime.
// Abridged from testdata/golden/small:
//
//	func (v *Item) DecodeCBOR(d *runtime.Decoder) error {
//		var s genrt.StructFields
//		var err error
//		for {
//			field := d.NextStructField(&s, &cborFieldsItem)
//			if field < 0 {
//				return s.End("Item")
//			}
//			switch field {
//			case 0:
//				if v.SKU, err = d.ReadStringOr(v.SKU); err != nil {
//					return genrt.AtRoot(genrt.AtField(err, "SKU"), "Item", genrt.OneItem)
//				}
//			...
//			}
//		}
//	}
//
// A field's code is what the default per-field decoder has in its case,
// returning the error with the type's name as the root of its path.
func (e *emitter) decodeCompactMethod(s *model.Struct) jen.Code {
	name := decodeName(s)
	e.errInScope, e.errMethod, e.errUsed = true, true, false
	defer func() { e.errInScope, e.errMethod = false, false }()
	var cases []jen.Code
	for i := range s.Fields {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(e.fieldDecodeRooted(s, i)...))
	}
	loop := []jen.Code{
		jen.Id("field").Op(":=").Id("d").Dot("NextStructField").Call(jen.Op("&").Id("s"), jen.Op("&").Id(e.tables[s.Name].fields)),
		jen.If(jen.Id("field").Op("<").Lit(0)).Block(jen.Return(jen.Id("s").Dot("End").Call(jen.Lit(s.Name)))),
	}
	if len(cases) > 0 {
		loop = append(loop, jen.Switch(jen.Id("field")).Block(cases...))
	}
	top := []jen.Code{jen.Var().Id("s").Add(rt("StructFields"))}
	if e.errUsed {
		top = append(top, jen.Var().Id("err").Error())
	}
	doc := jen.Comment(name + " reads one value from d: an array of the fields (the current").Line().
		Comment("format), or a map of them as fxamacker/cbor writes a struct (the legacy format).").Line()
	if s.NoLegacy {
		doc = jen.Comment(name + " reads one value from d: an array of the fields. The map form").Line().
			Comment("is refused.").Line()
	}
	return doc.
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(append(top, jen.For().Block(loop...))...)
}

// fieldDecodeRooted is fieldDecode with each error's path rooted at the
// type, as DecodeCBOR returns it.
func (e *emitter) fieldDecodeRooted(s *model.Struct, i int) []jen.Code {
	f := s.Fields[i]
	wrap := func(err jen.Code) jen.Code {
		return atRoot(rt("AtField").Call(err, jen.Lit(f.Name)), s.Name, "OneItem")
	}
	hoisted, dec := e.scoped(func() []jen.Code { return e.decodeValue(f.Type, fieldExpr(f), wrap, 0) })
	return append(hoisted, embeddedAlloc(f, dec)...)
}
