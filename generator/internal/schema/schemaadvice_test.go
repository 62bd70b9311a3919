package schema

import "testing"

func TestAdviceAndArticle(t *testing.T) {
	for in, want := range map[string]string{
		"field T.A changed from uint32 to int32: stored data holds uint32 values in slot 1, which an int32 field cannot decode to the same value. Keep a compatible type (github.com/cborgen/cborgen/docs/schema.md lists them) or add a new field at the end": "field T.A changed from uint32 to int32: stored data holds uint32 values in slot 1, which an int32 field cannot decode to the same value",
		"type T is no longer //cborgen:map: stored values are maps. Keep //cborgen:map":                                                   "type T is no longer //cborgen:map: stored values are maps",
		`field T.A (slot 0) was removed: stored data still holds its values. Keep the slot: put a field "_ runtime.Reserved" where A was`: "field T.A (slot 0) was removed: stored data still holds its values",
		"no advice": "no advice",
	} {
		if got := cutAdvice(in); got != want {
			t.Errorf("cutAdvice(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"int32": "an int32", "uint8": "a uint8", "Item": "an Item", "[]byte": "a []byte", "map[string]int": "a map[string]int", "*Order": "a *Order", "time.Time": "a time.Time", "": "a "} {
		if got := withArticle(in); got != want {
			t.Errorf("withArticle(%q) = %q, want %q", in, got, want)
		}
	}
}
