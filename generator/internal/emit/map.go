package emit

import (
	"bytes"
	"cmp"
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// The encoder of a map-format struct (//cborgen:map): a CBOR map of its
// fields, as fxamacker/cbor writes a struct without toarray. The keys are
// known now, so they are encoded and put in the run's key order here, at
// generation time; the generated code appends each key's bytes as one
// constant. A field left out (omitempty, omitzero, or promoted through a
// nil embedded pointer) is counted, and the map's head, written first for
// every field, is then rewritten for the fields written. In outline, for
// a COSE-like header (testdata/golden/mapformat has whole ones):
//
//	func (v *Header) AppendCBOR(dst []byte) ([]byte, error) {
//		if v == nil {
//			return genrt.AppendNull(dst), nil
//		}
//		start, omitted := len(dst), 0
//		dst = append(dst, 0xa2)
//		dst = append(dst, 0x01) // key 1
//		dst = genrt.AppendInt(dst, v.Alg)
//		if len(v.KeyID) != 0 {
//			dst = append(dst, 0x04) // key 4
//			dst = genrt.AppendBytes(dst, v.KeyID)
//		} else {
//			omitted++
//		}
//		if omitted != 0 {
//			dst[start] -= byte(omitted)
//		}
//		return dst, nil
//	}

// mapKey is a field of a map-format struct with its encoded key.
type mapKey struct {
	field *model.Field
	key   []byte
}

// mapKeys lists the fields of a map-format struct in the order their keys
// are written: by their encoded keys in the run's order, or in field
// order when the run does not sort (fxamacker's SortNone).
func mapKeys(s *model.Struct, order model.KeyOrder) []mapKey {
	var keys []mapKey
	for _, f := range s.Fields {
		var k []byte
		if f.KeyAsInt {
			k = genrt.AppendInt(nil, f.KeyInt)
		} else {
			k = genrt.AppendString(nil, f.Key)
		}
		keys = append(keys, mapKey{f, k})
	}
	switch order {
	case model.OrderBytewise:
		slices.SortStableFunc(keys, func(a, b mapKey) int { return bytes.Compare(a.key, b.key) })
	case model.OrderLengthFirst:
		slices.SortStableFunc(keys, func(a, b mapKey) int {
			return cmp.Or(cmp.Compare(len(a.key), len(b.key)), bytes.Compare(a.key, b.key))
		})
	}
	return keys
}

// keyLiteral is the Go literal of an encoded key: a string literal of its
// bytes, the head as escapes and readable text as itself ("\x62id"), or
// byte literals for an integer key.
func keyLiteral(k mapKey) []jen.Code {
	if k.field.KeyAsInt {
		var codes []jen.Code
		for _, b := range k.key {
			codes = append(codes, jen.Op(fmt.Sprintf("0x%02x", b)))
		}
		return codes
	}
	head := len(k.key) - len(k.field.Key)
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range k.key[:head] {
		fmt.Fprintf(&b, `\x%02x`, c)
	}
	quoted := fmt.Sprintf("%+q", k.field.Key) // ASCII only, so no byte can join the escapes above
	b.WriteString(quoted[1 : len(quoted)-1])
	b.WriteByte('"')
	return []jen.Code{jen.Op(b.String()).Op("...")}
}

// appendMapFormatMethod emits AppendCBOR of a map-format struct.
func (e *emitter) appendMapFormatMethod(s *model.Struct) jen.Code {
	needErr := false
	omits := false
	for _, f := range s.Fields {
		needErr = needErr || e.canFail(f.Type)
		ptrs, _ := embeddedPtrs(f)
		omits = omits || len(f.Omit) > 0 || len(ptrs) > 0
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
	if omits {
		body = append(body, jen.List(jen.Id("start"), jen.Id("omitted")).Op(":=").List(jen.Len(jen.Id("dst")), jen.Lit(0)))
	} else if s.Unknown != "" {
		body = append(body, jen.Id("start").Op(":=").Len(jen.Id("dst")))
	}
	body = append(body, appendHead(genrt.MajorMap, uint64(len(s.Fields))))
	omitted := jen.Id("omitted").Op("++")
	for _, k := range mapKeys(s, e.order) {
		f := k.field
		if slices.ContainsFunc(f.Omit, func(t model.OmitTest) bool { return t.Kind == model.OmitAlways }) {
			why := "a [0]T is always empty"
			switch f.Type.(type) {
			case model.Array, model.ByteArray:
			default: // a struct with no field on the wire, by fxamacker's test
				why = "fxamacker finds every " + types.TypeString(f.Type.GoType(), (*types.Package).Name) + " empty"
			}
			body = append(body, jen.Comment(fmt.Sprintf("%s: omitempty, and %s", f.Name, why)), omitted.Clone())
			continue
		}
		enc := inBlock(e.scoped(func() []jen.Code {
			if s.Case != nil && s.Fields[s.Case.Field] == f { // content.go
				return []jen.Code{
					jen.Id("dst").Op("=").Append(append([]jen.Code{jen.Id("dst")}, keyLiteral(k)...)...).Comment(keyComment(f)),
					appendCase(s),
				}
			}
			return append([]jen.Code{
				jen.Id("dst").Op("=").Append(append([]jen.Code{jen.Id("dst")}, keyLiteral(k)...)...).Comment(keyComment(f)),
			}, e.appendValue(f.Type, fieldExpr(f), 0)...)
		}))
		if len(f.Omit) > 0 {
			enc = []jen.Code{e.omitIf(f, enc, omitted)}
		}
		// A field promoted through a nil embedded pointer is left out,
		// as fxamacker/cbor leaves it out of a map.
		enc = ifEmbeddedNil(f, func() jen.Code { return omitted.Clone() }, enc)
		body = append(body, enc...)
	}
	if omits {
		fix := jen.Id("dst").Index(jen.Id("start")).Op("-=").Byte().Call(jen.Id("omitted")) // a one-byte head: 0xa0 + count
		if len(s.Fields) >= 24 {
			fix = jen.Id("dst").Op("=").Add(rt("SetMapHead")).Call(jen.Id("dst"), jen.Id("start"), jen.Lit(len(s.Fields)).Op("-").Id("omitted"))
		}
		body = append(body, jen.If(jen.Id("omitted").Op("!=").Lit(0)).Block(fix))
	}
	if s.Unknown != "" {
		body = append(body, e.unknownAppendEnd(s)) // unknown.go
	}
	body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))

	return jen.Comment(methodName(s, "AppendCBOR")+" appends the CBOR encoding of v to dst: a map of its fields (//cborgen:map).").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodName(s, "AppendCBOR")).
		Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).
		Block(body...)
}

// keyComment names a field's key in the generated code.
func keyComment(f *model.Field) string {
	if f.KeyAsInt {
		return fmt.Sprintf("key %d: %s", f.KeyInt, f.Name)
	}
	if f.Key == f.Name {
		return fmt.Sprintf("key %q", f.Key)
	}
	return fmt.Sprintf("key %q: %s", f.Key, f.Name)
}

// omitIf wraps the code that writes f in the tests of f.Omit: the field
// is written when no test says to leave it out.
func (e *emitter) omitIf(f *model.Field, write []jen.Code, omitted *jen.Statement) jen.Code {
	x := fieldExpr(f)
	var init jen.Code
	var keep []jen.Code
	for _, t := range f.Omit {
		if t.Kind == model.OmitBinary {
			// fxamacker calls MarshalBinary to tell; the encoder calls it
			// again to write the bytes.
			init = jen.List(jen.Id("empty"), jen.Id("err")).Op(":=").Add(rt("EmptyBinary")).Call(jen.Op("&").Add(x))
			keep = append(keep, jen.Op("!").Id("empty"))
			continue
		}
		keep = append(keep, keepIf(x, f, t))
	}
	cond := keep[0]
	for _, k := range keep[1:] {
		cond = jen.Add(cond).Op("&&").Add(k)
	}
	if init != nil {
		return jen.If(init, jen.Id("err").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("err"))).
			Else().If(cond).Block(write...).Else().Block(omitted.Clone())
	}
	return jen.If(cond).Block(write...).Else().Block(omitted.Clone())
}

// keepIf is the condition under which the test t does not leave out x,
// the value of field f: the negation of t (OmitBinary, which calls a
// method first, is omitIf's).
func keepIf(x *jen.Statement, f *model.Field, t model.OmitTest) jen.Code {
	switch t.Kind {
	case model.OmitFalse:
		return jen.Add(x)
	case model.OmitNumZero:
		return jen.Add(x).Op("!=").Lit(0)
	case model.OmitLen:
		return jen.Len(x).Op("!=").Lit(0)
	case model.OmitNil:
		return jen.Add(x).Op("!=").Nil()
	case model.OmitEqual:
		return jen.Add(x).Op("!=").Parens(jen.Add(typeCode(f.Type.GoType())).Values())
	case model.OmitIsZero:
		return jen.Op("!").Add(x).Dot("IsZero").Call()
	case model.OmitNilOrIsZero:
		return jen.Parens(jen.Add(x).Op("!=").Nil().Op("&&").Op("!").Add(x).Dot("IsZero").Call())
	case model.OmitBigZero:
		return jen.Add(x).Dot("Bits").Call().Op("!=").Nil()
	case model.OmitFields:
		return nonEmptyParts(x, t.Fields)
	case model.OmitZeroParts:
		return jen.Op("!").Add(zeroParts(jen.Add(x), t.Zero, 0))
	}
	panic("emit: no test for omit kind")
}

// zeroParts is reflect.Value.IsZero of x part by part (model.OmitZeroParts):
// == where the type allows it, else every field, or every element in a
// loop of its own (a function literal called at once; depth numbers its
// index).
//
// In outline, for struct{ N int; S []string; A [2][]byte }:
//
//	(x.N == 0 && x.S == nil && func() bool {
//		for i0 := range x.A {
//			if !(x.A[i0] == nil) {
//				return false
//			}
//		}
//		return true
//	}())
func zeroParts(x *jen.Statement, p *model.ZeroPart, depth int) jen.Code {
	switch p.Kind {
	case model.PartFalse:
		return jen.Op("!").Add(x)
	case model.PartNum:
		return jen.Add(x).Op("==").Lit(0)
	case model.PartText:
		return jen.Add(x).Op("==").Lit("")
	case model.PartNil:
		return jen.Add(x).Op("==").Nil()
	case model.PartEqual:
		return jen.Add(x).Op("==").Parens(jen.Add(typeCode(p.Go)).Values())
	case model.PartFields:
		if len(p.Fields) == 0 {
			return jen.True()
		}
		var cond *jen.Statement
		for _, f := range p.Fields {
			c := zeroParts(jen.Add(x).Dot(f.Name), f.Part, depth)
			if cond == nil {
				cond = jen.Add(c)
			} else {
				cond = cond.Op("&&").Add(c)
			}
		}
		return jen.Parens(cond)
	case model.PartElems:
		i := jen.Id(fmt.Sprintf("i%d", depth))
		return jen.Func().Params().Bool().Block(
			jen.For(jen.Add(i).Op(":=").Range().Add(x)).Block(
				jen.If(jen.Op("!").Parens(zeroParts(jen.Add(x).Index(i), p.Elem, depth+1))).Block(jen.Return(jen.False())),
			),
			jen.Return(jen.True()),
		).Call()
	}
	panic(fmt.Sprintf("emit: zero part %d", p.Kind))
}

// nonEmptyParts is the condition under which x, a struct that fxamacker
// tests field by field for omitempty (model.OmitFields), is not empty:
// one of its omitempty fields is not, a field promoted through an
// embedded pointer only when the pointer is not nil.
func nonEmptyParts(x jen.Code, parts *model.OmitParts) jen.Code {
	var cond *jen.Statement
	for _, p := range parts.Parts {
		c := nonEmptyPath(jen.Add(x), p.Path, p.Test)
		if cond == nil {
			cond = jen.Add(c)
		} else {
			cond = cond.Op("||").Add(c)
		}
	}
	return jen.Parens(cond)
}

// nonEmptyPath follows path from x and tests the field it reaches.
func nonEmptyPath(x *jen.Statement, path []model.OmitStep, t model.OmitTest) jen.Code {
	for i, s := range path {
		x = jen.Add(x).Dot(s.Name)
		if s.Ptr && i < len(path)-1 {
			return jen.Parens(jen.Add(x).Op("!=").Nil().Op("&&").Add(nonEmptyPath(x, path[i+1:], t)))
		}
	}
	switch t.Kind {
	case model.OmitFalse, model.OmitNumZero, model.OmitLen, model.OmitNil, model.OmitFields:
		return keepIf(x, nil, t) // none of these needs the field
	}
	panic(fmt.Sprintf("emit: omit test %d inside a struct tested field by field", t.Kind))
}

// mapKeysSize is the length of all the encoded keys of a map-format
// struct, which SizeCBOR adds to that of the values.
func mapKeysSize(s *model.Struct) int {
	n := 0
	for _, k := range mapKeys(s, model.OrderNone) {
		n += len(k.key)
	}
	return n
}

// decodeMapFormatMethod emits DecodeCBOR (or for a tagged type the
// method it calls after the tag) of a map-format struct: the map only,
// by the legacy decoder, whose rules are fxamacker's for a struct
// without toarray.
func (e *emitter) decodeMapFormatMethod(s *model.Struct, name string) jen.Code {
	return jen.Comment(name+" reads one value from d: a map of the fields, as fxamacker/cbor").Line().
		Comment("writes a struct without toarray (//cborgen:map). Any other item is an error.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(name).
		Params(jen.Id("d").Op("*").Add(rt("Decoder"))).Error().
		Block(
			jen.If(jen.Id("err").Op(":=").Id("v").Dot(model.MethodDecodeMap).Call(jen.Id("d")), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(atRoot(jen.Id("err"), s.Name, "OneItem")),
			),
			jen.Return(jen.Nil()),
		)
}
