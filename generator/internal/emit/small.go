package emit

import (
	"fmt"
	"go/types"
	"strings"

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
//     a field's error goes to one exit (returnErr, failPath), which names
//     the field and the type by one call (genrt.AtStructField);
//   - UnmarshalCBOR is DecodeCBOR on a Decoder in its frame, readied and
//     ended by a call each (Decoder.InitBytes, Decoder.FinishCall);
//   - what a program that calls only MarshalCBOR and UnmarshalCBOR links
//     is kept small: MarshalCBOR writes into a 64-byte array in its frame
//     and copies the bytes out (genrt.Owned), without SizeCBOR; up to
//     maxInLineMarshal scalar fields it writes itself (marshalInLine),
//     without AppendCBOR; slices of a smallElem and maps of them with
//     string keys are read and written by the runtime's loops for their
//     element type (genrt.ReadSliceOf, AppendSliceOf, AppendStringMapOf),
//     and a string field is stored by the runtime (Decoder.ReadStringTo).

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
//		var field int
//		var err, ferr error
//		for {
//			field = d.NextStructField(&s, &cborFieldsItem)
//			if field < 0 {
//				return s.End("Item")
//			}
//			switch field {
//			case 0:
//				if err = d.ReadStringTo(&v.SKU); err != nil {
//					ferr = err
//					goto fail
//				}
//			...
//			}
//		}
//	fail:
//		return genrt.AtStructField(ferr, field, "SKU Qty Price", "Item")
//	}
//
// A field's code is what the default per-field decoder has in its case,
// its errors sent to the one exit (failPath), which roots each at the
// field and the type as the default code does at every place.
func (e *emitter) decodeCompactMethod(s *model.Struct) jen.Code {
	name := decodeName(s)
	e.errInScope, e.errMethod, e.errUsed = true, true, false
	defer func() { e.errInScope, e.errMethod = false, false }()
	fails := false
	var cases []jen.Code
	for i := range s.Fields {
		cases = append(cases, jen.Case(jen.Lit(i)).Block(e.fieldDecodeRooted(s, i, &fails)...))
	}
	next := jen.Id("d").Dot("NextStructField").Call(jen.Op("&").Id("s"), jen.Op("&").Id(e.tables[s.Name].fields))
	loop := []jen.Code{jen.Id("field").Op(":=").Add(next)}
	if fails {
		loop[0] = jen.Id("field").Op("=").Add(next)
	}
	loop = append(loop, jen.If(jen.Id("field").Op("<").Lit(0)).Block(jen.Return(jen.Id("s").Dot("End").Call(jen.Lit(s.Name)))))
	if len(cases) > 0 {
		loop = append(loop, jen.Switch(jen.Id("field")).Block(cases...))
	}
	top := []jen.Code{jen.Var().Id("s").Add(rt("StructFields"))}
	if fails {
		top = append(top, jen.Var().Id("field").Int())
	}
	switch {
	case fails && e.errUsed:
		top = append(top, jen.Var().List(jen.Id("err"), jen.Id("ferr")).Error())
	case fails:
		top = append(top, jen.Var().Id("ferr").Error())
	case e.errUsed:
		top = append(top, jen.Var().Id("err").Error())
	}
	body := append(top, jen.For().Block(loop...))
	if fails {
		names := make([]string, len(s.Fields))
		for i, f := range s.Fields {
			names[i] = f.Name
		}
		body = append(body, jen.Id("fail").Op(":"),
			jen.Return(rt("AtStructField").Call(jen.Id("ferr"), jen.Id("field"), jen.Lit(strings.Join(names, " ")), jen.Lit(s.Name))))
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
		Block(body...)
}

// fieldDecodeRooted is fieldDecode with each error sent to the one exit
// of decodeCompactMethod (*fails is set when one is).
func (e *emitter) fieldDecodeRooted(s *model.Struct, i int, fails *bool) []jen.Code {
	f := s.Fields[i]
	wrap := func(err jen.Code) jen.Code {
		rooted := atRoot(rt("AtField").Call(err, jen.Lit(f.Name)), s.Name, "OneItem")
		return failPath{Statement: rooted, err: err, used: func() { *fails = true }}
	}
	hoisted, dec := e.scoped(func() []jen.Code { return e.decodeValue(f.Type, fieldExpr(f), wrap, 0) })
	return append(hoisted, embeddedAlloc(f, dec)...)
}

// failPath is the path of an error inside a field of a -small
// DecodeCBOR: err, with the field's own inner path (an index, a key),
// which returnErr sends to the method's one exit. Where it is returned as
// it is, it is the error rooted at the field and the type, as the
// default code writes it.
type failPath struct {
	*jen.Statement
	err  jen.Code
	used func()
}

// smallElem reports whether t is one of genrt.SmallElem's types: a
// string, bool or integer (not uint8, whose slices are byte strings) of
// Go's own type, not a named one, which -small code reads and writes by
// one call.
func smallElem(t model.Type) bool {
	switch t.(type) {
	case model.String, model.Bool, model.Int:
	default:
		return false
	}
	b, ok := types.Unalias(t.GoType()).(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.String, types.Bool, types.Int, types.Int8, types.Int16, types.Int32, types.Int64,
		types.Uint, types.Uint16, types.Uint32, types.Uint64:
		return true
	}
	return false
}

// smallSlice reports whether -small code reads and writes a field of
// type t by one call to the runtime's loop for its element
// (genrt.ReadSliceOf, AppendSliceOf): a []E of an unnamed slice type
// whose E is a smallElem.
func (e *emitter) smallSlice(t model.Slice) bool {
	return e.small && !t.Named && smallElem(t.Elem)
}

// smallMap reports whether -small code writes a map of type t by one call
// (genrt.AppendStringMapOf): a map[string]V whose V is a smallElem,
// written in sorted order, null when nil.
func (e *emitter) smallMap(t model.Map) bool {
	if !e.small || e.nilEmpty || e.order == model.OrderNone {
		return false
	}
	k, ok := t.Key.(model.String)
	if !ok {
		return false
	}
	b, ok := types.Unalias(k.GoType()).(*types.Basic)
	return ok && b.Kind() == types.String && smallElem(t.Elem) && types.Identical(t.Go, types.NewMap(b, types.Unalias(t.Elem.GoType())))
}

// marshalInLine reports whether -small's MarshalCBOR of s writes the
// fields itself instead of calling AppendCBOR: a compact type of up to
// maxInLineMarshal fields, each a scalar written by one call that cannot
// fail, none promoted from an embedded struct. A program that calls only
// the byte methods then links no AppendCBOR for it (a function, its
// tables and its pointer wrapper's share), for a few calls repeated in
// MarshalCBOR.
func (e *emitter) marshalInLine(s *model.Struct) bool {
	if !e.compact(s) || s.HasTag || s.Unknown != "" || s.HoldsLock || len(s.Fields) > maxInLineMarshal {
		return false
	}
	for _, f := range s.Fields {
		if _, ok := model.ScalarOf(f.Type); !ok || len(f.Via) > 0 || f.IsReserved() {
			return false
		}
	}
	return true
}

// maxInLineMarshal is the most fields marshalInLine repeats.
const maxInLineMarshal = 4

// marshalInLineBody is MarshalCBOR of a marshalInLine type: AppendCBOR's
// fields into the buffer in the frame, which starts with the array's head
// (one byte: at most maxInLineMarshal fields).
//
//	var b [64]byte
//	b[0] = 0x83 // array of 3
//	dst := b[:1]
//	dst = genrt.AppendStringCall(dst, v.SKU)
//	dst = genrt.AppendUintCall(dst, uint64(v.Qty))
//	dst = genrt.AppendFloat64(dst, v.Price)
//	return genrt.Owned(dst, nil)
func (e *emitter) marshalInLineBody(s *model.Struct) []jen.Code {
	head := byte(genrt.MajorArray<<5) | byte(len(s.Fields))
	body := []jen.Code{
		jen.Var().Id("b").Index(jen.Lit(64)).Byte(),
		jen.Id("b").Index(jen.Lit(0)).Op("=").Id(fmt.Sprintf("%#02x", head)).Comment(fmt.Sprintf("array of %d", len(s.Fields))),
		jen.Id("dst").Op(":=").Id("b").Index(jen.Empty(), jen.Lit(1)),
	}
	for _, f := range s.Fields {
		body = append(body, e.appendValue(f.Type, fieldExpr(f), 0)...)
	}
	return append(body, jen.Return(rt("Owned").Call(jen.Id("dst"), jen.Nil())))
}
