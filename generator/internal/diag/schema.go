// Package diag turns CBOR data into RFC 8949 §8 diagnostic notation,
// annotated from a package's schema record with the names of its slots,
// and writes the record's types as RFC 8610 CDDL. It is pure: a Schema and
// bytes in, text out. The generator's command reads the record and fills
// the Schema (generator/decode.go).
//
//	schema.go    Schema, Type, Slot, Union: what the record says
//	parse.go     the items of the input, well-formed within the runtime's
//	             limits, as a tree of nodes
//	plain.go     plain diagnostic notation (-plain)
//	annotate.go  Decode, the annotated notation's lines and positions
//	typed.go     a value of a recorded type: its tag, array, legacy map or
//	             map, and a union's variants
//	values.go    a value of a wire kind: scalars, lists, maps, tags and
//	             what the decoders refuse in them
//	cddl.go      the record's types as RFC 8610 CDDL (-cddl)
//	unknown.go   the items a runtime.Unknown field keeps, checked as
//	             runtime.Valid checks them
//	hex.go       hex text input
package diag

import (
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/schema"
)

// Schema is what a schema record says about the types of one package.
type Schema struct {
	Types  map[string]*Type
	Unions map[string]*Union
}

// Type is one recorded type: an array type (slots in slot order), a
// //cborgen:map type (its keys in field order, retired keys marked
// Reserved), or, with no slots, a type whose encoding the record does not
// describe (a named type of another kind, such as type Dict
// map[string]Value, or a struct without fields).
type Type struct {
	Name        string
	Map         bool // //cborgen:map: written as a map of its keys
	Required    int  // arrays have at least this many elements
	HasTag      bool
	Tag         uint64
	TagOptional bool // decoding also takes the untagged item
	// Body: //cborgen:body, the slots are the codec that the type's own
	// MarshalCBOR and UnmarshalCBOR call; what they do around it (checks
	// of their own, bytes they add) is not recorded.
	Body bool
	// Unknown: the runtime.Unknown field that keeps the keys of a map
	// type that name no field, or the elements of an extensible array
	// type past its last slot, each checked as runtime.Valid checks an
	// item ("" if none).
	Unknown string
	Slots   []Slot
	// HasOptional: //cborgen:optional Optional, writers leave the zero
	// fields from slot Optional on out of the end of the array.
	HasOptional bool
	Optional    int

	// Value: the wire kind of a named type of another kind,
	// "map[string]Value" for type Dict map[string]Value: in the record
	// since its version 3, else from the package's source when it is at
	// hand.
	Value string

	// What the record does not hold, known only from the package's source
	// when it is at hand (the command reads it without compiling it):
	Struct     bool     // a struct type, also when it has no fields
	NoLegacy   bool     // //cborgen:nolegacy, or fxamacker's toarray marker: no legacy map
	Extensible bool     // //cborgen:extensible: elements past the last slot are skipped
	CatchAll   bool     // //cborgen:catchall: the union's variant for items no other variant claims
	Params     []string // the type parameters of a generic type, in order: [T] for Page[T any]

	Case    Key // the //cborgen:case of a variant of a union chosen by content
	HasCase bool
}

// Slot is one slot of an array type, or one key of a map type.
type Slot struct {
	Reserved bool   // a retired slot (or key); Name, Key and Kind say what it held, if anything
	Name     string // the Go field
	Key      Key    // the legacy map key (the key, for a map type)
	HasKey   bool
	Kind     string // the wire kind, as the record writes it: "[]Item", "*int64"
}

// Key is a legacy map key: text, or an integer (keyasint).
type Key struct {
	IsInt bool
	Int   int64
	Text  string
}

// ParseKey reads a key as the record writes it: a Go-quoted string or an
// integer.
func ParseKey(tok string) (Key, bool) {
	if strings.HasPrefix(tok, `"`) {
		s, err := strconv.Unquote(tok)
		return Key{Text: s}, err == nil
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	return Key{IsInt: true, Int: n}, err == nil
}

func (k Key) String() string {
	if k.IsInt {
		return strconv.FormatInt(k.Int, 10)
	}
	return strconv.Quote(k.Text)
}

// Union is a //cborgen:union and the types of its variants.
type Union struct {
	Name     string
	Variants []string
	// For a union chosen by content: By is "first" (the first element
	// of an array names the variant) or "key" (the value of map key Key
	// does); "" for a union told apart by tag or type.
	By  string
	Key Key
}

// opaque reports whether nothing is known of how t is written: no slots,
// no keys, and no source that says what it is.
func (t *Type) opaque() bool {
	return !t.Map && len(t.Slots) == 0 && t.Required == 0 && t.Value == "" && !t.Struct && !t.CatchAll
}

// classes are the untagged items a union variant of type t is written
// as (nil when unknown), as the generated union decoder tells them apart.
func (t *Type) classes() []string {
	switch {
	case t.Map:
		return []string{"map"}
	case t.Value == "" && (t.Struct || !t.opaque()):
		if t.NoLegacy {
			return []string{"array"}
		}
		return []string{"array", "map"}
	case t.Value == "":
		return nil
	}
	k := parseKind(t.Value)
	switch {
	case k.form == listKind && k.elem.text == "byte":
		return []string{"byte string"}
	case k.form == listKind:
		return []string{"array"}
	case k.form == mapKind:
		return []string{"map"}
	case k.form != leafKind:
		return nil
	}
	if r, ok := intKinds[k.text]; ok {
		if r.signed {
			return []string{"unsigned integer", "negative integer"}
		}
		return []string{"unsigned integer"}
	}
	switch k.text {
	case "bool":
		return []string{"bool"}
	case "string":
		return []string{"text string"}
	case "float32", "float64":
		return []string{"float"}
	}
	return nil
}

// class is the class of untagged item n, as classes names them.
func (n *node) class() string {
	switch {
	case n.major == majSimple && (n.ai == 20 || n.ai == 21):
		return "bool"
	case n.major == majSimple && n.ai >= 25 && n.ai <= 27:
		return "float"
	}
	return majorName(n.major << 5)
}

// kind is a parsed wire kind.
type kind struct {
	text string
	form kindForm
	n    int64 // a list's length, -1 for a slice
	key  *kind
	elem *kind
}

type kindForm uint8

const (
	leafKind kindForm = iota
	pointerKind
	listKind
	mapKind
)

// parseKind reads the text of a wire kind as the schema check reads it
// (schema.SplitList, schema.SplitMap). Any text is a kind: what is not a
// pointer, a list or a map is a leaf. depth bounds the recursion on
// hostile records.
func parseKind(text string) *kind {
	return parseKindDepth(text, 0)
}

func parseKindDepth(text string, depth int) *kind {
	if depth > 64 {
		return &kind{text: text}
	}
	if rest, ok := strings.CutPrefix(text, "*"); ok {
		return &kind{text: text, form: pointerKind, elem: parseKindDepth(rest, depth+1)}
	}
	if elem, n, ok := schema.SplitList(text); ok {
		return &kind{text: text, form: listKind, n: n, elem: parseKindDepth(elem, depth+1)}
	}
	if key, elem, ok := schema.SplitMap(text); ok {
		return &kind{text: text, form: mapKind, key: parseKindDepth(key, depth+1), elem: parseKindDepth(elem, depth+1)}
	}
	return &kind{text: text}
}

// intRange is the range of an integer kind: its sign and width in bits.
type intRange struct {
	signed bool
	bits   uint
}

var intKinds = map[string]intRange{
	"int8": {true, 8}, "int16": {true, 16}, "int32": {true, 32}, "int64": {true, 64}, "int": {true, 64},
	"uint8": {false, 8}, "uint16": {false, 16}, "uint32": {false, 32}, "uint64": {false, 64}, "uint": {false, 64},
	"byte": {false, 8},
}

// isTime and isBigInt recognise the kinds of time.Time and math/big.Int.
func isTime(text string) bool   { return text == "time.Time" }
func isBigInt(text string) bool { return text == "math/big.Int" || text == "big.Int" }
