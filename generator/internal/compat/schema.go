package compat

import (
	"go/types"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// SchemaModel is the model of f's types for the schema check and the
// record (package schema): each field by its wire kind, the types with
// their own methods, CIDs and Deferred as marshalers, the optional
// suffix as the required count.
func (f *File) SchemaModel() *model.File {
	m := &model.File{Package: f.Package, Path: f.Path, Taken: f.taken}
	for _, t := range f.Types {
		s := &model.Struct{Name: t.Name, Pos: t.Pos, MapFormat: t.Map, NoLegacy: true, NoLegacyBy: "run"}
		if t.Transparent {
			s.Value = modelType(t.Fields[0].v, f)
		} else {
			for _, fd := range t.Fields {
				s.Fields = append(s.Fields, &model.Field{Name: fd.Name, Pos: fd.Pos, Key: fd.Key, Type: modelType(fd.v, f), OmitEmpty: fd.OmitEmpty})
			}
			if t.Mandatory < len(t.Fields) && !t.Map {
				s.HasRequired, s.Required = true, t.Mandatory
			}
		}
		m.Structs = append(m.Structs, s)
	}
	return m
}

func modelType(v *value, f *File) model.Type {
	var t model.Type
	switch v.kind {
	case kString:
		t = model.String{Go: v.typ}
	case kUint64:
		t = model.Int{Go: v.typ, Bits: 64}
	case kUint8:
		t = model.Int{Go: v.typ, Bits: 8}
	case kInt64:
		t = model.Int{Go: v.typ, Bits: 64, Signed: true}
	case kBool:
		t = model.Bool{Go: v.typ}
	case kBigInt:
		t = model.BigInt{Go: v.typ}
	case kStruct:
		if n, ok := v.typ.(*types.Named); ok && f.inRun[n.Obj()] {
			t = model.StructRef{Go: v.typ, Name: n.Obj().Name()}
		} else {
			t = model.Marshaler{Go: v.typ}
		}
	case kCid, kDeferred, kFilInt, kAddress:
		t = model.Marshaler{Go: v.typ}
	case kSlice:
		if v.elem.kind == kUint8 && !v.elem.pointer {
			t = model.Bytes{Go: v.typ}
		} else {
			t = model.Slice{Go: v.typ, Elem: modelType(v.elem, f)}
		}
	case kArray:
		if v.elem.kind == kUint8 && !v.elem.pointer {
			t = model.ByteArray{Go: v.typ, N: v.length}
		} else {
			t = model.Array{Go: v.typ, N: v.length, Elem: modelType(v.elem, f)}
		}
	case kMap:
		mt := v.typ.Underlying().(*types.Map)
		t = model.Map{Go: v.typ, Key: model.String{Go: mt.Key()}, Elem: modelType(v.elem, f)}
	}
	if v.pointer {
		t = model.Pointer{Go: types.NewPointer(v.typ), Elem: t}
	}
	return t
}
