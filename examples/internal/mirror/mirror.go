// Package mirror helps to check generated code against fxamacker/cbor.
//
// fxamacker/cbor calls a type's own MarshalCBOR and UnmarshalCBOR, so to
// see what it does with a generated type T without the generated methods,
// the tests declare mirror types: structs with the same fields and tags as
// T, with nested structs replaced by their mirrors, and no methods. A mirror
// for the array format also carries
//
//	_ struct{} `cbor:",toarray"`
//
// which makes fxamacker/cbor write the struct as cbor-gen does; a mirror
// without it writes the legacy map format.
//
// [Convert] copies a value to and from its mirror, [Filler] makes random
// values, and [Diff] compares values more strictly than reflect.DeepEqual:
// it tells -0 from +0 (they are different CBOR floats) and holds every NaN
// equal to every other (CBOR's deterministic encoding has one NaN).
package mirror

import (
	"fmt"
	"reflect"
	"sync"
)

// Convert copies src deeply into the value dst points to. Structs are copied
// field by field by name; the blank field "_" is ignored. Both types must
// have the same exported fields, each of a convertible kind; Convert panics
// when they do not, since that is a mistake in a mirror type. nil slices,
// maps and pointers stay nil and empty ones stay empty; a slice keeps its
// capacity, and what its array holds past its length.
func Convert(dst, src any) {
	d := reflect.ValueOf(dst)
	if d.Kind() != reflect.Pointer || d.IsNil() {
		panic("mirror.Convert: dst must be a non-nil pointer")
	}
	convert(d.Elem(), reflect.ValueOf(src), &path{name: d.Elem().Type().String()})
}

// path is where convert is, for its panics; it is turned into a string
// only then.
type path struct {
	up   *path
	name string // a field name, "[]", or the root type
}

func (p *path) String() string {
	switch {
	case p.up == nil:
		return p.name
	case p.name[0] == '[':
		return p.up.String() + p.name
	default:
		return p.up.String() + "." + p.name
	}
}

func convert(dst, src reflect.Value, at *path) {
	if src.Kind() == reflect.Interface {
		src = src.Elem()
	}
	dt := dst.Type()
	switch dt.Kind() {
	case reflect.Struct:
		if src.Kind() != reflect.Struct {
			panic(fmt.Sprintf("mirror: %v: cannot copy %s into struct %s", at, src.Type(), dt))
		}
		for _, f := range fieldMap(dt, src.Type(), at) {
			convert(dst.Field(f.dst), src.Field(f.src), &path{at, f.name})
		}
	case reflect.Pointer:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		p := reflect.New(dt.Elem())
		convert(p.Elem(), src.Elem(), at)
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		// The capacity and the elements past the length too: a decoder
		// that decodes into the slice's own array (fxamacker when its
		// capacity holds the elements, and so the generated code) sees
		// the same in the copy.
		s := reflect.MakeSlice(dt, src.Cap(), src.Cap())
		full := src.Slice(0, src.Cap())
		if src.Type() == dt && isScalar(dt.Elem().Kind()) {
			reflect.Copy(s, full)
		} else {
			for i := range full.Len() {
				convert(s.Index(i), full.Index(i), &path{at, "[]"})
			}
		}
		dst.Set(s.Slice(0, src.Len()))
	case reflect.Array:
		if src.Len() != dst.Len() {
			panic(fmt.Sprintf("mirror: %v: cannot copy %s into %s", at, src.Type(), dt))
		}
		for i := range src.Len() {
			convert(dst.Index(i), src.Index(i), &path{at, "[]"})
		}
	case reflect.Map:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		m := reflect.MakeMapWithSize(dt, src.Len())
		it := src.MapRange()
		for it.Next() {
			k := reflect.New(dt.Key()).Elem()
			convert(k, it.Key(), &path{at, "[key]"})
			v := reflect.New(dt.Elem()).Elem()
			convert(v, it.Value(), &path{at, "[]"})
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	default:
		if src.Type() == dt {
			dst.Set(src)
			return
		}
		if !src.Type().ConvertibleTo(dt) || src.Kind() != dt.Kind() {
			panic(fmt.Sprintf("mirror: %v: cannot copy %s into %s", at, src.Type(), dt))
		}
		dst.Set(src.Convert(dt))
	}
}

func isScalar(k reflect.Kind) bool {
	switch k {
	case reflect.Struct, reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map, reflect.Interface:
		return false
	}
	return true
}

// fieldPair is a field copied from index src of one struct type to index
// dst of another.
type fieldPair struct {
	dst, src int
	name     string
}

var fieldMaps sync.Map // [2]reflect.Type{dst, src} -> []fieldPair

// fieldMap returns the fields to copy from st to dt, matched by name. It
// panics when the two types do not have the same exported fields.
func fieldMap(dt, st reflect.Type, at *path) []fieldPair {
	key := [2]reflect.Type{dt, st}
	if m, ok := fieldMaps.Load(key); ok {
		return m.([]fieldPair)
	}
	var m []fieldPair
	for i := range dt.NumField() {
		f := dt.Field(i)
		if f.Name == "_" || !f.IsExported() {
			continue
		}
		sf, ok := st.FieldByName(f.Name)
		if !ok || len(sf.Index) != 1 {
			panic(fmt.Sprintf("mirror: %v: %s has no field %s", at, st, f.Name))
		}
		m = append(m, fieldPair{i, sf.Index[0], f.Name})
	}
	for i := range st.NumField() {
		f := st.Field(i)
		if f.Name == "_" || !f.IsExported() {
			continue
		}
		if _, ok := dt.FieldByName(f.Name); !ok {
			panic(fmt.Sprintf("mirror: %v: %s has no field %s", at, dt, f.Name))
		}
	}
	fieldMaps.Store(key, m)
	return m
}

// SameTags reports the first struct field, anywhere in a and b (two types
// or values of them, walked in parallel), whose struct tags differ. A legacy
// mirror must have exactly the tags of the type it mirrors, since the tags
// are the keys of the map format.
func SameTags(a, b any) error {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if t, ok := a.(reflect.Type); ok {
		ta = t
	}
	if t, ok := b.(reflect.Type); ok {
		tb = t
	}
	return sameTags(ta, tb, map[[2]reflect.Type]bool{})
}

func sameTags(a, b reflect.Type, seen map[[2]reflect.Type]bool) error {
	if seen[[2]reflect.Type{a, b}] {
		return nil
	}
	seen[[2]reflect.Type{a, b}] = true
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		if b.Kind() != a.Kind() {
			return fmt.Errorf("%s and %s differ in kind", a, b)
		}
		return sameTags(a.Elem(), b.Elem(), seen)
	case reflect.Map:
		if b.Kind() != reflect.Map {
			return fmt.Errorf("%s and %s differ in kind", a, b)
		}
		if err := sameTags(a.Key(), b.Key(), seen); err != nil {
			return err
		}
		return sameTags(a.Elem(), b.Elem(), seen)
	case reflect.Struct:
		if b.Kind() != reflect.Struct {
			return fmt.Errorf("%s and %s differ in kind", a, b)
		}
		var fa, fb []reflect.StructField
		for i := range a.NumField() {
			if f := a.Field(i); f.Name != "_" {
				fa = append(fa, f)
			}
		}
		for i := range b.NumField() {
			if f := b.Field(i); f.Name != "_" {
				fb = append(fb, f)
			}
		}
		if len(fa) != len(fb) {
			return fmt.Errorf("%s has %d fields, %s has %d", a, len(fa), b, len(fb))
		}
		for i := range fa {
			if fa[i].Name != fb[i].Name || fa[i].Tag != fb[i].Tag {
				return fmt.Errorf("field %d: %s.%s `%s` and %s.%s `%s` differ",
					i, a, fa[i].Name, fa[i].Tag, b, fb[i].Name, fb[i].Tag)
			}
			if err := sameTags(fa[i].Type, fb[i].Type, seen); err != nil {
				return fmt.Errorf("%s.%s: %w", a, fa[i].Name, err)
			}
		}
	}
	return nil
}
