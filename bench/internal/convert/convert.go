// Package convert copies a value of one Go type into another type of the
// same shape: structs field by field (by name), slices, arrays, maps and
// pointers element by element. The benchmarks build each workload value
// once and convert it into the copies of its types that every peer
// implementation keeps, so that all of them encode equal values.
// It uses reflection and runs only while benchmarks are set up.
package convert

import (
	"fmt"
	"reflect"
)

// To returns a new *T holding a copy of *src (src is a pointer to a struct
// of the same shape as T). It panics when the shapes differ: that is a bug
// in the benchmark's type copies.
func To[T any](src any) *T {
	dst := new(T)
	copyValue(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem(), reflect.TypeOf(dst).Elem().Name())
	return dst
}

func copyValue(dst, src reflect.Value, path string) {
	switch src.Kind() {
	case reflect.Struct:
		if dst.Kind() != reflect.Struct {
			panic(fmt.Sprintf("convert: %s: %s into %s", path, src.Type(), dst.Type()))
		}
		n := 0
		for i := 0; i < dst.NumField(); i++ {
			f := dst.Type().Field(i)
			if !f.IsExported() {
				continue // "_" fields that carry options, unexported state
			}
			n++
			sf := src.FieldByName(f.Name)
			if !sf.IsValid() {
				panic(fmt.Sprintf("convert: %s: no field %s in %s", path, f.Name, src.Type()))
			}
			copyValue(dst.Field(i), sf, path+"."+f.Name)
		}
		if n != exportedFields(src.Type()) {
			panic(fmt.Sprintf("convert: %s: %s and %s have different fields", path, src.Type(), dst.Type()))
		}
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(dst.Type().Elem())
		copyValue(p.Elem(), src.Elem(), path)
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyValue(s.Index(i), src.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			copyValue(dst.Index(i), src.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(dst.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			k := reflect.New(dst.Type().Key()).Elem()
			copyValue(k, it.Key(), path)
			v := reflect.New(dst.Type().Elem()).Elem()
			copyValue(v, it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()))
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	default:
		if !src.Type().ConvertibleTo(dst.Type()) || src.Kind() != dst.Kind() {
			panic(fmt.Sprintf("convert: %s: %s into %s", path, src.Type(), dst.Type()))
		}
		dst.Set(src.Convert(dst.Type()))
	}
}

func exportedFields(t reflect.Type) int {
	n := 0
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).IsExported() {
			n++
		}
	}
	return n
}

// Equal reports the first difference between a and b, two values of the
// same type, or nil. Nil and empty slices and maps count as equal (some
// peers write nil ones as empty), and so do nil and zero-length strings of
// bytes; everything else must be deeply equal.
func Equal(a, b any) error {
	return equal(reflect.ValueOf(a), reflect.ValueOf(b), "")
}

func equal(a, b reflect.Value, path string) error {
	if a.Type() != b.Type() {
		return fmt.Errorf("%s: %s and %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if err := equal(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); err != nil {
				return err
			}
		}
		return nil
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Errorf("%s: one pointer is nil", path)
			}
			return nil
		}
		return equal(a.Elem(), b.Elem(), path)
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: length %d and %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if err := equal(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: %d and %d pairs", path, a.Len(), b.Len())
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() {
				return fmt.Errorf("%s: key %v missing", path, it.Key())
			}
			if err := equal(it.Value(), bv, fmt.Sprintf("%s[%v]", path, it.Key())); err != nil {
				return err
			}
		}
		return nil
	case reflect.Float32, reflect.Float64:
		if x, y := a.Float(), b.Float(); x != y && !(x != x && y != y) {
			return fmt.Errorf("%s: %v and %v", path, x, y)
		}
		return nil
	}
	if a.Interface() != b.Interface() {
		return fmt.Errorf("%s: %v and %v", path, a.Interface(), b.Interface())
	}
	return nil
}

// HeapObjects counts the heap objects a decoder must allocate to build v
// (a pointer to the value) from bytes: one per non-empty string, non-empty
// slice, non-nil map and non-nil pointer below the top level. Maps count
// once, though Go allocates more for large ones: a lower bound.
func HeapObjects(v any) int {
	return heapObjects(reflect.ValueOf(v).Elem())
}

func heapObjects(v reflect.Value) int {
	n := 0
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			n++
		}
	case reflect.Pointer:
		if !v.IsNil() {
			n += 1 + heapObjects(v.Elem())
		}
	case reflect.Slice:
		if v.Len() > 0 {
			n++
		}
		for i := 0; i < v.Len(); i++ {
			n += heapObjects(v.Index(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			n += heapObjects(v.Index(i))
		}
	case reflect.Map:
		if !v.IsNil() {
			n++
		}
		it := v.MapRange()
		for it.Next() {
			n += heapObjects(it.Key()) + heapObjects(it.Value())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += heapObjects(v.Field(i))
			}
		}
	}
	return n
}
