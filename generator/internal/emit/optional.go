package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// optionalElems: a struct with //cborgen:optional N ends its array before the trailing
// run of fields from slot N on that are zero (build/optional.go decides
// each field's test). AppendCBOR and SizeCBOR both count the elements
// first, from the last field down, into the local elems; then each
// optional field is written (or counted) when it is among them. Abridged
// from testdata/golden/optional:
//
//	func (v *Key) AppendCBOR(dst []byte) ([]byte, error) {
//		...
//		elems := 2
//		if v.Key != nil {
//			elems = 4
//		} else if v.Alg != 0 {
//			elems = 3
//		}
//		dst = genrt.AppendArrayHead(dst, elems)
//		// 0: Kty
//		...
//		if elems > 2 {
//			// 2: Alg
//			dst = genrt.AppendInt(dst, v.Alg)
//		}
//		...
//	}
//
// optionalElems returns the statements that set elems, the number of
// elements s's array has for the value v.
func optionalElems(s *model.Struct) []jen.Code {
	var chain *jen.Statement
	for i := len(s.Fields) - 1; i >= s.OptionalFrom; i-- {
		f := s.Fields[i]
		if len(f.Omit) != 1 || f.Omit[0].Kind == model.OmitAlways {
			continue // a reserved slot: always zero
		}
		set := jen.Id("elems").Op("=").Lit(i + 1)
		if chain == nil {
			chain = jen.If(notZero(f)).Block(set)
		} else {
			chain = chain.Else().If(notZero(f)).Block(set)
		}
	}
	if s.Unknown != "" {
		// Kept elements follow the last field: the array is whole.
		all := jen.If(unknownLen(s).Op("!=").Lit(0)).Block(jen.Id("elems").Op("=").Lit(len(s.Fields)))
		if chain != nil {
			chain = all.Else().Add(chain)
		} else {
			chain = all
		}
	}
	code := []jen.Code{jen.Id("elems").Op(":=").Lit(s.OptionalFrom)}
	if chain != nil {
		code = append(code, chain)
	}
	return code
}

// notZero is the condition under which the optional field f is not
// zero: the negation of its one test (fxamacker's omitzero).
func notZero(f *model.Field) jen.Code { return keepIf(fieldExpr(f), f, f.Omit[0]) }

// optionalArrayHead is the head of s's array: fixed, or with
// //cborgen:optional, counted first (optionalElems).
func optionalArrayHead(s *model.Struct) []jen.Code {
	if !s.HasOptionalFrom && s.Unknown != "" {
		// The kept elements after the fields (unknown.go).
		return []jen.Code{jen.Id("dst").Op("=").Add(rt("AppendArrayHead")).Call(jen.Id("dst"), jen.Lit(len(s.Fields)).Op("+").Add(unknownLen(s)))}
	}
	if !s.HasOptionalFrom {
		return []jen.Code{appendHead(genrt.MajorArray, uint64(len(s.Fields)))}
	}
	elems := jen.Id("elems")
	if s.Unknown != "" {
		elems = jen.Id("elems").Op("+").Add(unknownLen(s))
	}
	return append(optionalElems(s), jen.Id("dst").Op("=").Add(rt("AppendArrayHead")).Call(jen.Id("dst"), elems))
}

// ifElement wraps code, which writes or counts the field in slot i of s,
// in "if elems > i" when the field is optional.
func ifElement(s *model.Struct, i int, code []jen.Code) []jen.Code {
	if !s.HasOptionalFrom || i < s.OptionalFrom || len(code) == 0 {
		return code
	}
	return []jen.Code{jen.If(jen.Id("elems").Op(">").Lit(i)).Block(code...)}
}
