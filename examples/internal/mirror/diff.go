package mirror

import (
	"fmt"
	"math"
	"reflect"
)

// Diff returns "" when a and b are equal and otherwise where they first
// differ, as a Go path (".Fields[2].Value.Int: 3 != nil").
//
// Equality is reflect.DeepEqual's, with two changes for CBOR: floats are
// compared by bits (so -0 differs from +0) except that all NaNs are equal.
// nil and empty slices and maps differ, as they encode differently (f6 and
// 80 or a0). Fields that are not [OnWire] are ignored.
func Diff(a, b any) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() {
		if va.IsValid() == vb.IsValid() {
			return ""
		}
		return fmt.Sprintf(": %v != %v", a, b)
	}
	if va.Type() != vb.Type() {
		return fmt.Sprintf(": type %s != %s", va.Type(), vb.Type())
	}
	return diff(va, vb)
}

// diff returns "" or the path of the first difference and what differs;
// the path is built on the way out, only when there is a difference.
func diff(a, b reflect.Value) string {
	switch a.Kind() {
	case reflect.Struct:
		for _, i := range wireFields(a.Type()) {
			if d := diff(a.Field(i), b.Field(i)); d != "" {
				return "." + a.Type().Field(i).Name + d
			}
		}
		return ""
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() && b.IsNil() {
				return ""
			}
			return fmt.Sprintf(": %s != %s", show(a), show(b))
		}
		return diff(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf(": %s != %s", show(a), show(b))
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf(": length %d != %d", a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := diff(a.Index(i), b.Index(i)); d != "" {
				return fmt.Sprintf("[%d]", i) + d
			}
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf(": %s != %s", show(a), show(b))
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf(": %d pairs != %d pairs", a.Len(), b.Len())
		}
		it := a.MapRange()
		var unmatched [][2]reflect.Value
		for it.Next() {
			w := b.MapIndex(it.Key())
			if !w.IsValid() {
				unmatched = append(unmatched, [2]reflect.Value{it.Key(), it.Value()})
				continue
			}
			if d := diff(it.Value(), w); d != "" {
				return fmt.Sprintf("[%#v]", it.Key().Interface()) + d
			}
		}
		return diffUnmatched(a, b, unmatched)
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if math.IsNaN(x) && math.IsNaN(y) {
			return ""
		}
		if a.Kind() == reflect.Float32 {
			if math.Float32bits(float32(x)) == math.Float32bits(float32(y)) {
				return ""
			}
		} else if math.Float64bits(x) == math.Float64bits(y) {
			return ""
		}
		return fmt.Sprintf(": %v != %v", x, y)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() && b.IsNil() {
				return ""
			}
			return fmt.Sprintf(": %s != %s", show(a), show(b))
		}
		if a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf(": type %s != %s", a.Elem().Type(), b.Elem().Type())
		}
		return diff(a.Elem(), b.Elem())
	default:
		if a.Equal(b) {
			return ""
		}
		return fmt.Sprintf(": %s != %s", show(a), show(b))
	}
}

func show(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
	}
	if v.Kind() == reflect.Slice && v.Len() == 0 {
		return "empty"
	}
	if v.Kind() == reflect.Map && v.Len() == 0 {
		return "empty"
	}
	s := fmt.Sprintf("%#v", v.Interface())
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// diffUnmatched pairs the pairs of map a whose keys b does not hold as
// Go keys (NaN, pointers: equal when decoded twice, never the same key)
// with b's pairs of such keys that are equal to them by diff, each used
// once.
func diffUnmatched(a, b reflect.Value, pairs [][2]reflect.Value) string {
	if len(pairs) == 0 {
		return ""
	}
	var free [][2]reflect.Value
	for it := b.MapRange(); it.Next(); {
		if !a.MapIndex(it.Key()).IsValid() {
			free = append(free, [2]reflect.Value{it.Key(), it.Value()})
		}
	}
	for _, p := range pairs {
		found := false
		for i, q := range free {
			if diff(p[0], q[0]) == "" && diff(p[1], q[1]) == "" {
				free = append(free[:i], free[i+1:]...)
				found = true
				break
			}
		}
		if !found {
			return fmt.Sprintf("[%#v]: missing on the right", p[0].Interface())
		}
	}
	return ""
}
