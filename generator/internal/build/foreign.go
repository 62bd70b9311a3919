package build

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The shapes of the types that the generated code hands to
// fxamacker/cbor (model.Foreign): a struct of another package that
// cbor-gen does not generate, and every type within it, walked as
// fxamacker walks it when it encodes one (visibleFields: tag names,
// keyasint, omitempty, promotion from embedded structs; the toarray
// option), down to the types that encode themselves (their own
// MarshalCBOR or MarshalBinary, time.Time, big.Int, fxamacker's own
// types, the types cbor-gen generates), which are recorded by that fact
// or by name alone. The schema record keeps the shapes, so that a new
// version of such a type that stored data would not survive is refused.

// foreignShapes is the shape of every type that a field of the structs
// of f hands to fxamacker, and of the types within them, sorted by name.
func (m *modeler) foreignShapes(structs []*model.Struct) []*model.Foreign {
	w := &foreignWalk{m: m, byName: map[string]*model.Foreign{}}
	var visit func(t model.Type)
	visit = func(t model.Type) {
		model.ContainsType(t, func(t model.Type) bool {
			switch t := t.(type) {
			case model.Dynamic:
				if !t.Interface {
					w.shape(t.Go, "")
				}
			case model.Split:
				visit(t.Kind)
			}
			return false
		})
	}
	for _, s := range structs {
		if s.Value != nil {
			visit(s.Value)
		}
		for _, fd := range s.Fields {
			visit(fd.Type)
		}
	}
	sort.Slice(w.list, func(i, j int) bool { return w.list[i].Name < w.list[j].Name })
	return w.list
}

// foreignWalk collects the shapes, each once.
type foreignWalk struct {
	m      *modeler
	byName map[string]*model.Foreign
	list   []*model.Foreign
	anon   map[*types.Struct]string // the names given to anonymous structs
}

// name is how the record names the type t: as schema.KindOf writes a
// named type's kind.
func (w *foreignWalk) name(t types.Type) string {
	if st, ok := t.(*types.Struct); ok && w.anon[st] != "" {
		return w.anon[st]
	}
	q := func(p *types.Package) string {
		if p == w.m.pkg {
			return ""
		}
		return p.Path()
	}
	return strings.ReplaceAll(types.TypeString(t, q), " ", "")
}

// shape records the shape of t, a named type or (with at, the record's
// name for it) an anonymous struct, and of the types within it, unless it
// is recorded already.
func (w *foreignWalk) shape(t types.Type, at string) {
	t = types.Unalias(t)
	if st, ok := t.(*types.Struct); ok && at != "" {
		if w.anon == nil {
			w.anon = map[*types.Struct]string{}
		}
		if w.anon[st] == "" {
			w.anon[st] = at
		}
	}
	name := w.name(t)
	if w.byName[name] != nil {
		return
	}
	fo := &model.Foreign{Go: t, Name: name}
	st, isStruct := t.Underlying().(*types.Struct)
	switch {
	case ownCBOR(t):
		fo.Form = model.ForeignCBOR
	case ownBinary(t):
		fo.Form = model.ForeignBinary
	case !isStruct:
		return // not reached: fxamacker is handed no other named type
	}
	w.byName[name] = fo
	w.list = append(w.list, fo)
	if fo.Form != model.ForeignMap {
		return
	}
	if toArray, _ := structToArray(st, name); toArray {
		fo.Form = model.ForeignArray
	}
	fields, _ := visibleFields(token.NewFileSet(), name, t) // what fxamacker refuses, it refuses when it runs
	for _, c := range fields {
		if c.reserved != nil {
			// runtime.Reserved in a struct fxamacker encodes: a field like
			// any other (written by its MarshalCBOR), when exported.
			if !token.IsExported(c.reserved.Name) {
				continue
			}
			fo.Fields = append(fo.Fields, &model.Field{Name: c.reserved.Name, Key: c.reserved.Name, Type: model.Reserved{Go: c.reserved.Type.GoType()}})
			continue
		}
		fd := &model.Field{Name: c.v.Name(), Key: c.name, KeyAsInt: c.tag.keyAsInt, KeyInt: c.keyInt,
			OmitEmpty: c.tag.omitEmpty && fo.Form == model.ForeignMap, OmitZero: c.tag.omitZero && fo.Form == model.ForeignMap, Via: c.via}
		fd.Type = w.typeOf(c.v.Type(), name+"."+model.FieldID(fd))
		fo.Fields = append(fo.Fields, fd)
	}
}

// typeOf is the model of t, a type within a type that fxamacker encodes,
// as the schema record writes its kind; at names an anonymous struct
// there. A struct (and a type with methods of its own) is a Dynamic leaf
// with a shape of its own.
func (w *foreignWalk) typeOf(t types.Type, at string) model.Type {
	t = types.Unalias(t)
	switch t := t.(type) {
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() != nil {
			switch obj.Pkg().Path() {
			case "time", "math/big", fxamackerPath:
				// Encoded as fxamacker knows them: recorded by name.
				return model.Dynamic{Go: t}
			}
		}
		if _, ok := t.Underlying().(*types.Interface); ok {
			return model.Dynamic{Go: t, Interface: true}
		}
		m := w.m
		if m.selected[t.Origin().Obj()] || hasGeneratedMethods(t) || (m.pending != nil && m.pending.generates(t.Origin().Obj())) {
			// A generated type: its slots are in its own package's record.
			local := ""
			if m.selected[t.Origin().Obj()] && obj.Pkg() == m.pkg {
				local = obj.Name()
			}
			return model.StructRef{Go: t, Name: m.typeString(t), Local: local}
		}
		if _, isStruct := t.Underlying().(*types.Struct); isStruct || ownCBOR(t) || ownBinary(t) {
			w.shape(t, "")
			return model.Dynamic{Go: t}
		}
		if w.m.visiting[t] {
			return model.Dynamic{Go: t} // type L []L: its name stands for itself
		}
		w.m.visiting[t] = true
		defer delete(w.m.visiting, t)
		return w.underlying(t.Underlying(), t, at)
	case *types.Struct:
		w.shape(t, at)
		return model.Dynamic{Go: t}
	}
	return w.underlying(t, t, at)
}

// underlying is typeOf of the type structure u of goT.
func (w *foreignWalk) underlying(u, goT types.Type, at string) model.Type {
	switch u := u.(type) {
	case *types.Basic:
		if t, err := basicModel(u, goT); err == nil {
			return t
		}
	case *types.Slice:
		if isPlainByte(u.Elem()) || isNamedByte(u.Elem()) {
			return model.Bytes{Go: goT}
		}
		return model.Slice{Go: goT, Elem: w.typeOf(u.Elem(), at)}
	case *types.Array:
		if isPlainByte(u.Elem()) || isNamedByte(u.Elem()) {
			return model.ByteArray{Go: goT, N: u.Len()}
		}
		return model.Array{Go: goT, N: u.Len(), Elem: w.typeOf(u.Elem(), at)}
	case *types.Map:
		return model.Map{Go: goT, Key: w.typeOf(u.Key(), at), Elem: w.typeOf(u.Elem(), at)}
	case *types.Pointer:
		return model.Pointer{Go: goT, Elem: w.typeOf(u.Elem(), at)}
	case *types.Struct:
		w.shape(u, at)
		return model.Dynamic{Go: u}
	case *types.Interface:
		return model.Dynamic{Go: goT, Interface: true}
	}
	return model.Dynamic{Go: goT} // what fxamacker refuses (channels, functions, complex numbers): by name
}

// ownCBOR reports whether fxamacker/cbor encodes or decodes t by a method
// of its own: MarshalCBOR or UnmarshalCBOR.
func ownCBOR(t types.Type) bool {
	return hasSignature(t, "MarshalCBOR", false) || hasSignature(t, "UnmarshalCBOR", true)
}

// ownBinary reports whether fxamacker/cbor encodes or decodes t as a byte
// string by a method of its own: MarshalBinary or UnmarshalBinary.
func ownBinary(t types.Type) bool {
	return hasSignature(t, "MarshalBinary", false) || hasSignature(t, "UnmarshalBinary", true)
}
