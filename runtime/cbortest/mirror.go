package cbortest

import (
	"reflect"
	"slices"
	"strings"
)

// MirrorOptions say what Mirror cannot see by reflection.
type MirrorOptions struct {
	// Map are the //cborgen:map types, written as maps (their mirrors
	// have no toarray option).
	Map []reflect.Type
	// Refuse are the generated types whose encoding a mirror cannot
	// reproduce (a tag, hooks, a catch-all, optional trailing elements):
	// a type that holds one has no mirror, nor has one that holds a
	// generated type with an IsZero method (fxamacker's omitzero calls
	// it).
	Refuse []reflect.Type
}

// Mirror returns the mirror of the generated type t: the same exported
// fields and tags without the generated methods, each generated type
// within replaced by its mirror, and a struct that is not a map type
// carrying fxamacker's toarray option, so that fxamacker/cbor writes it
// as the generated code does. It reports false when t has none: it holds
// an embedded field or one of opts.Refuse, or is recursive.
func Mirror(t reflect.Type, opts MirrorOptions) (reflect.Type, bool) {
	m := &mirrorer{opts: opts, done: map[reflect.Type]reflect.Type{}, busy: map[reflect.Type]bool{}}
	mt := m.mirror(t)
	return mt, mt != nil
}

type mirrorer struct {
	opts MirrorOptions
	done map[reflect.Type]reflect.Type
	busy map[reflect.Type]bool
}

// mirror returns the mirror of t, t itself when nothing in it is
// generated, nil when it has none.
func (m *mirrorer) mirror(t reflect.Type) reflect.Type {
	if mt, ok := m.done[t]; ok {
		return mt
	}
	if m.busy[t] || slices.Contains(m.opts.Refuse, t) || hasIsZero(t) {
		return nil
	}
	m.busy[t] = true
	defer delete(m.busy, t)
	var mt reflect.Type
	gen := t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && generated(t)
	switch t.Kind() {
	case reflect.Pointer:
		if e := m.mirror(t.Elem()); e != nil {
			mt = t
			if e != t.Elem() {
				mt = reflect.PointerTo(e)
			}
		}
	case reflect.Slice:
		if e := m.mirror(t.Elem()); e != nil {
			mt = t
			if e != t.Elem() || gen {
				mt = reflect.SliceOf(e)
			}
		}
	case reflect.Array:
		if e := m.mirror(t.Elem()); e != nil {
			mt = t
			if e != t.Elem() || gen {
				mt = reflect.ArrayOf(t.Len(), e)
			}
		}
	case reflect.Map:
		k, e := m.mirror(t.Key()), m.mirror(t.Elem())
		if k != nil && e != nil {
			mt = t
			if k != t.Key() || e != t.Elem() || gen {
				mt = reflect.MapOf(k, e)
			}
		}
	case reflect.Struct:
		if !gen {
			mt = t // fxamacker/cbor writes it, with or without cbor-gen
			break
		}
		var fields []reflect.StructField
		if !slices.Contains(m.opts.Map, t) {
			fields = append(fields, reflect.StructField{Name: "_", PkgPath: t.PkgPath(), Type: reflect.TypeFor[struct{}](), Tag: `cbor:",toarray"`})
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				return nil
			}
			if !f.IsExported() {
				continue
			}
			ft := m.mirror(f.Type)
			if ft == nil || ft.Kind() == reflect.Struct && ft != f.Type && slices.Contains(m.opts.Map, t) && omitEmpty(f) {
				// fxamacker's omitempty and omitzero judge a toarray
				// struct otherwise than the generated type it mirrors.
				return nil
			}
			fields = append(fields, reflect.StructField{Name: f.Name, Type: ft, Tag: f.Tag})
		}
		mt = reflect.StructOf(fields)
	default:
		mt = t
		if gen {
			mt = basicOf(t)
		}
	}
	if mt != nil {
		m.done[t] = mt
	}
	return mt
}

// basicOf returns the unnamed basic type of t's kind.
func basicOf(t reflect.Type) reflect.Type {
	for _, b := range []reflect.Type{
		reflect.TypeFor[bool](), reflect.TypeFor[string](),
		reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](),
		reflect.TypeFor[uint](), reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](),
		reflect.TypeFor[float32](), reflect.TypeFor[float64](),
	} {
		if b.Kind() == t.Kind() {
			return b
		}
	}
	return t
}

// ToMirror copies the value ptr points to (of the type mt mirrors) into
// a new value of mt and returns it.
func ToMirror(ptr any, mt reflect.Type) any {
	out := reflect.New(mt).Elem()
	copyInto(out, reflect.ValueOf(ptr).Elem())
	return out.Interface()
}

func copyInto(dst, src reflect.Value) {
	if src.Type() == dst.Type() {
		dst.Set(src)
		return
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(dst.Type().Elem())
		copyInto(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyInto(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := range src.Len() {
			copyInto(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(dst.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			k := reflect.New(dst.Type().Key()).Elem()
			copyInto(k, it.Key())
			e := reflect.New(dst.Type().Elem()).Elem()
			copyInto(e, it.Value())
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	case reflect.Struct:
		for i := range dst.NumField() {
			f := dst.Type().Field(i)
			if f.Name == "_" {
				continue
			}
			copyInto(dst.Field(i), src.FieldByName(f.Name))
		}
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}

// hasIsZero reports whether t is a generated type with an IsZero method,
// which fxamacker's omitzero calls and a mirror would not have.
func hasIsZero(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface || !generated(t) {
		return false
	}
	_, ok := reflect.PointerTo(t).MethodByName("IsZero")
	return ok
}

// omitEmpty reports whether the field has the omitempty or omitzero
// option.
func omitEmpty(f reflect.StructField) bool {
	tag, ok := f.Tag.Lookup("cbor")
	if !ok {
		tag = f.Tag.Get("json")
	}
	_, opts, _ := strings.Cut(tag, ",")
	o := strings.Split(opts, ",")
	return slices.Contains(o, "omitempty") || slices.Contains(o, "omitzero")
}
