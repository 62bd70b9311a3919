package emit

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// decodeBinaryMarshaler decodes a type with UnmarshalBinary, handed the
// content of a byte string. Null is the zero value for a type that can be
// nil (a slice or map kind); any other type keeps its value for null, and
// one whose fields are all unexported for a map too, as fxamacker/cbor
// reads them (KeepBinary).
func (e *emitter) decodeBinaryMarshaler(t model.BinaryMarshaler, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	set := func(x jen.Code) jen.Code { return jen.Add(to).Op("=").Add(x) }
	b, off := jen.Id(local("b", depth)), jen.Id(local("off", depth))
	read := []jen.Code{
		jen.List(b, jen.Id("err")).Op(":=").Id("d").Dot("ReadBytesView").Call(),
		ifErr(wrap),
		checkErr(jen.Add(to).Dot("UnmarshalBinary").Call(b), func(err jen.Code) jen.Code {
			return wrap(jen.Id("d").Dot("MethodError").Call(off, err))
		}),
	}
	if keeps, fieldless := binaryKeeps(t.Go); keeps {
		keep := jen.Id(local("keep", depth))
		return []jen.Code{jen.Add(off).Op(":=").Id("d").Dot("Offset").Call(), jen.If(
			jen.List(keep, jen.Id("err")).Op(":=").Id("d").Dot("KeepBinary").Call(jen.Lit(fieldless)),
			jen.Id("err").Op("!=").Nil(),
		).Block(returnErr(wrap, jen.Id("err"))).Else().If(jen.Op("!").Add(keep)).Block(read...)}
	}
	return []jen.Code{jen.Add(off).Op(":=").Id("d").Dot("Offset").Call(), jen.If(
		jen.List(jen.Id(local("null", depth)), jen.Id("err")).Op(":=").Id("d").Dot("ReadNull").Call(),
		jen.Id("err").Op("!=").Nil(),
	).Block(returnErr(wrap, jen.Id("err"))).Else().If(jen.Id(local("null", depth))).Block(
		jen.Var().Id(local("zero", depth)).Add(typeCode(t.Go)),
		set(jen.Id(local("zero", depth))),
	).Else().Block(read...)}
}

// binaryKeeps reports whether fxamacker/cbor leaves a value of t as it is
// for a null (t is no slice, map, pointer or interface), and fieldless,
// whether t is a struct with no exported or embedded field, which it reads
// a map into by skipping the map.
func binaryKeeps(t types.Type) (keeps, fieldless bool) {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
		return false, false
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Exported() || f.Embedded() {
				return true, false
			}
		}
		return true, true
	}
	return true, false
}

// decodeSplit decodes a type with only one half of a method pair: its decoding half.
func (e *emitter) decodeSplit(t model.Split, to jen.Code, wrap pathFunc, depth int) []jen.Code {
	if _, ok := t.Dec.(model.BinaryMarshaler); ok {
		// UnmarshalBinary takes a byte string; fxamacker reads any
		// other item by the type's kind.
		// Its error has a name of its own, so that the reads in
		// its branches see the err around them (readScalar).
		major, merr := jen.Id(local("major", depth)), jen.Id(local("merr", depth))
		return []jen.Code{jen.If(
			jen.List(major, merr).Op(":=").Id("d").Dot("PeekMajor").Call(),
			jen.Add(merr).Op("!=").Nil(),
		).Block(returnErr(wrap, merr)).Else().If(jen.Add(major).Op("==").Add(rt("MajorBytes"))).
			Block(e.decodeValue(t.Dec, to, wrap, depth)...).
			Else().Block(e.decodeValue(t.Kind, to, wrap, depth)...)}
	}
	return e.decodeValue(t.Dec, to, wrap, depth)
}
