package genrt

import (
	"reflect"
	"strings"
	"testing"
)

type named struct{}

type generic[T any] struct{}

type dict map[string]int

// reflectTypeName is how typeName read the name with reflect: the type v
// points to, through unnamed pointers, without type arguments.
func reflectTypeName(v any) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	name, _, _ := strings.Cut(t.Name(), "[")
	return name
}

func TestTypeName(t *testing.T) {
	type local struct{}
	p := &named{}
	for _, v := range []any{
		&named{}, &p, &local{}, &generic[int]{}, &generic[map[string][2]named]{},
		&generic[struct{ A [2]int }]{}, dict{}, &dict{},
		&struct{ *named }{}, struct{ A [3]named }{}, map[string]named{}, []named{}, func() named { return named{} },
	} {
		if got, want := typeName(v), reflectTypeName(v); got != want {
			t.Errorf("typeName(%T) = %q, want %q", v, got, want)
		}
	}
}
