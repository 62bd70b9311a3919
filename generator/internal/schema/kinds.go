package schema

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// kind is a wire kind: what a field is on the wire, in Go syntax over the
// wire scalars. Named types are replaced by what they are written as (a
// "type Kind uint8" field is uint8), and a nested generated type by its
// name. A kind is a small tree, built once from the model (kindOf) or
// from a record's text (parseKind), so that kindCompatible walks it
// without reading text again.
type kind struct {
	Text string // as the record writes it: "map[string][]int8"
	form kindForm
	n    int64 // a list's length: -1 for a slice
	key  *kind // a map's key
	elem *kind // the element of a pointer, list or map
}

// kindForm is the shape of a kind's tree node.
type kindForm uint8

const (
	leafKind kindForm = iota // a scalar, or a type that names its encoding (Item, time.Time)
	pointerKind
	listKind // []T or [N]T ([]byte and [N]byte too, with a byte leaf)
	mapKind
)

func leaf(text string) *kind { return &kind{Text: text} }

func pointerOf(elem *kind) *kind {
	return &kind{Text: "*" + elem.Text, form: pointerKind, elem: elem}
}

func listOf(n int64, elem *kind) *kind {
	text := "[]" + elem.Text
	if n >= 0 {
		text = "[" + strconv.FormatInt(n, 10) + "]" + elem.Text
	}
	return &kind{Text: text, form: listKind, n: n, elem: elem}
}

func mapOf(key, elem *kind) *kind {
	return &kind{Text: "map[" + key.Text + "]" + elem.Text, form: mapKind, key: key, elem: elem}
}

// KindOf is the wire kind of t. qual writes the package of a named
// type: nothing for the package being generated.
func KindOf(t model.Type, qual types.Qualifier) *kind {
	return kindOf(t, qual, nil)
}

// kindOf is KindOf with the names of the anonymous structs within
// foreign types (model.Foreign.Name), which are their kinds.
func kindOf(t model.Type, qual types.Qualifier, anon map[*types.Struct]string) *kind {
	switch t := t.(type) {
	case model.Bool, model.Int, model.Float, model.String:
		sc, _ := model.ScalarOf(t)
		return leaf(sc.Wire)
	case model.Bytes:
		return listOf(-1, leaf("byte"))
	case model.ByteArray:
		return listOf(t.N, leaf("byte"))
	case model.Array:
		return listOf(t.N, kindOf(t.Elem, qual, anon))
	case model.Slice:
		return listOf(-1, kindOf(t.Elem, qual, anon))
	case model.Map:
		return mapOf(kindOf(t.Key, qual, anon), kindOf(t.Elem, qual, anon))
	case model.Pointer:
		return pointerOf(kindOf(t.Elem, qual, anon))
	case model.Dynamic:
		if st, ok := t.Go.(*types.Struct); ok && anon[st] != "" {
			return leaf(anon[st])
		}
	case model.Reserved:
		return leaf("reserved")
	case model.StructRef:
		if t.Anon {
			return leaf(t.Local) // the hidden copy, recorded as a type of its own
		}
	}
	// A nested generated type, or any kind written as fxamacker writes
	// it (time.Time, big.Int, ...): the Go type names the encoding, and
	// only the same type is compatible.
	if gt := t.GoType(); gt != nil {
		return leaf(strings.ReplaceAll(types.TypeString(gt, qual), " ", ""))
	}
	return leaf(strings.ReplaceAll(fmt.Sprintf("%T", t), " ", ""))
}

// parseKind reads the text of a wire kind, as a record holds it. Any
// text is a kind: what is not a pointer, list or map is a leaf.
func parseKind(text string) *kind {
	if rest, ok := strings.CutPrefix(text, "*"); ok {
		return &kind{Text: text, form: pointerKind, elem: parseKind(rest)}
	}
	if elem, n, ok := SplitList(text); ok {
		return &kind{Text: text, form: listKind, n: n, elem: parseKind(elem)}
	}
	if key, elem, ok := SplitMap(text); ok {
		return &kind{Text: text, form: mapKind, key: parseKind(key), elem: parseKind(elem)}
	}
	return leaf(text)
}

// intKind is an integer wire kind: its sign and width. int and uint count
// as 64 bits.
type intKind struct {
	signed bool
	bits   int
}

var intKinds = map[string]intKind{
	"int8": {true, 8}, "int16": {true, 16}, "int32": {true, 32}, "int64": {true, 64}, "int": {true, 64},
	"uint8": {false, 8}, "uint16": {false, 16}, "uint32": {false, 32}, "uint64": {false, 64}, "uint": {false, 64},
}

// holds reports whether every value of o fits in k.
func (k intKind) holds(o intKind) bool {
	switch {
	case k.signed == o.signed:
		return k.bits >= o.bits
	case k.signed:
		return k.bits > o.bits
	}
	return false // unsigned cannot hold negative values
}

// kindCompatible reports whether a field of wire kind new decodes every
// value stored under wire kind old to the same value. It is the lattice in
// docs/schema.md: integers widen (an unsigned one into a wider signed
// one), integers of up to 16 bits become float32 and of up to 32 bits
// float64, float32 becomes float64, [N]T becomes []T, T becomes *T, and
// containers are compatible when their elements are.
func kindCompatible(old, new *kind) bool {
	if old.Text == new.Text {
		return true
	}
	if new.form == pointerKind {
		if old.form == pointerKind {
			old = old.elem
		}
		return kindCompatible(old, new.elem)
	}
	if old.form == pointerKind {
		return false // a null in stored data has nowhere to go
	}
	if o, ok := intKinds[old.Text]; ok {
		if n, ok := intKinds[new.Text]; ok {
			return n.holds(o)
		}
		switch new.Text {
		case "float32":
			return o.bits <= 16 // exact within float32's 24-bit significand
		case "float64":
			return o.bits <= 32 // exact within float64's 53-bit significand
		}
		return false
	}
	if old.Text == "float32" && new.Text == "float64" {
		return true
	}
	switch old.form {
	case listKind:
		if new.form != listKind || (new.n >= 0 && new.n != old.n) {
			return false // a slice may have any length; an array only its own
		}
		if old.elem.Text == "byte" || new.elem.Text == "byte" {
			return old.elem.Text == new.elem.Text // a byte string is not an array of integers
		}
		return kindCompatible(old.elem, new.elem)
	case mapKind:
		return new.form == mapKind && kindCompatible(old.key, new.key) && kindCompatible(old.elem, new.elem)
	}
	return false
}

// SplitList splits "[]T" into T and -1, and "[N]T" into T and N. It and
// SplitMap are the one reading of a kind's text: the schema check's and
// -decode's.
func SplitList(k string) (elem string, n int64, ok bool) {
	if rest, ok := strings.CutPrefix(k, "[]"); ok {
		return rest, -1, true
	}
	if !strings.HasPrefix(k, "[") {
		return "", 0, false
	}
	end := strings.IndexByte(k, ']')
	if end < 0 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(k[1:end], 10, 64)
	if err != nil || n < 0 {
		return "", 0, false
	}
	return k[end+1:], n, true
}

// SplitMap splits "map[K]V" into K and V.
func SplitMap(k string) (key, elem string, ok bool) {
	rest, ok := strings.CutPrefix(k, "map[")
	if !ok {
		return "", "", false
	}
	depth := 1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return rest[:i], rest[i+1:], true
			}
		}
	}
	return "", "", false
}
