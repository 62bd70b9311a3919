package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The struct's field of type genrt.Unknown (model.Struct.Unknown),
// which keeps what its decoder does not know and which its encoder
// writes back. A map-format struct keeps the pairs whose keys name no
// field: its map decoder calls runtime.Decoder.KeepUnknownKey where
// others call UnknownKey, and its encoder, after writing its fields,
// merges the kept pairs into the map in the run's key order
// (genrt.AppendUnknownPairs, which rewrites the head). Abridged from
// testdata/golden/unknown:
//
//	func (v *Post) AppendCBOR(dst []byte) ([]byte, error) {
//		...
//		if v.Extra.Len() != 0 {
//			return genrt.AppendUnknownPairs(dst, start, &v.Extra, genrt.SortBytewise)
//		}
//		return dst, nil
//	}
//
// An //cborgen:extensible array struct keeps the elements after its last
// field (runtime.Decoder.KeepElem in cborDecodeArray) and writes them
// after its fields, its head counting them. The legacy map form of an
// array struct has no place for unknown keys: they are skipped there, as
// without the field. Each decoder empties the field first, after the
// head (a null keeps the value, the field too), so that it holds what the
// item read last carried.

// unknownField is v.F, the struct's genrt.Unknown field.
func unknownField(s *model.Struct) *jen.Statement { return jen.Id("v").Dot(s.Unknown) }

// unknownLen is v.F.Len(), the number of kept pairs or elements.
func unknownLen(s *model.Struct) *jen.Statement { return unknownField(s).Dot("Len").Call() }

// unknownReset empties the field, after a decoder has read the head of a
// map or array (not a null, which keeps the value): nothing when s has
// no such field.
func unknownReset(s *model.Struct) []jen.Code {
	if s.Unknown == "" {
		return nil
	}
	return []jen.Code{unknownField(s).Dot("Reset").Call()}
}

// unknownKeyCall is what a map decoder does with a key that names no
// field: keep it with its value in a map-format struct that has the
// field, else skip it (both as the options say).
func unknownKeyCall(s *model.Struct, parts []jen.Code) jen.Code {
	if s.Unknown != "" && s.MapFormat {
		args := append([]jen.Code{jen.Op("&").Id("unknown"), jen.Op("&").Add(unknownField(s))}, parts...)
		return checkErr(jen.Id("d").Dot("KeepUnknownKey").Call(args...), noPath)
	}
	return checkErr(jen.Id("d").Dot("UnknownKey").Call(append([]jen.Code{jen.Op("&").Id("unknown")}, parts...)...), noPath)
}

// unknownAppendEnd ends AppendCBOR of a struct with the field: the kept
// pairs merged into the map written from start, or the kept elements
// after the fields.
func (e *emitter) unknownAppendEnd(s *model.Struct) jen.Code {
	call := rt("AppendUnknownElems").Call(jen.Id("dst"), jen.Op("&").Add(unknownField(s)))
	if s.MapFormat {
		call = rt("AppendUnknownPairs").Call(jen.Id("dst"), jen.Id("start"), jen.Op("&").Add(unknownField(s)), rt(e.order.RuntimeName()))
	}
	return jen.If(unknownLen(s).Op("!=").Lit(0)).Block(jen.Return(call))
}
