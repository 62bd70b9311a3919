package model

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// The model is the small, closed description of what to generate. It is
// built from go/types by the builder (build/modeler.go), checked there, and nothing
// after it looks at go/types again except to print a Go type expression.
//
// A worked example. For
//
//	type Kind uint8
//
//	type Order struct {
//		ID    uint64            `cbor:"id"`
//		Kind  Kind              `cbor:"kind,omitempty"`
//		Items []Item            `json:"items"`
//		Notes map[string]string `cbor:"3,keyasint"`
//		Next  *Order
//		note  string            // unexported: not part of the wire format
//	}
//
// the model is
//
//	&Struct{Name: "Order", Fields: []*Field{
//		{Name: "ID", Key: "id", Type: Int{Bits: 64}},
//		{Name: "Kind", Key: "kind", OmitEmpty: true, Type: Int{Bits: 8, Go: Kind}},
//		{Name: "Items", Key: "items", Type: Slice{Elem: StructRef{Name: "Item"}}},
//		{Name: "Notes", Key: "3", KeyAsInt: true, KeyInt: 3, Type: Map{Key: String{}, Elem: String{}}},
//		{Name: "Next", Key: "Next", Type: Pointer{Elem: StructRef{Name: "Order"}}},
//	}}
//
// and the array format writes an Order as a CBOR array of five elements in
// that order. Key is only used by the legacy map decoder. Every Type
// carries the Go type it stands for (Go), so that the emitters can convert
// between a named type such as Kind and the uint8 the runtime reads.

// Struct is one type to generate methods for: a struct, or with Value a
// named type of another kind (type UInt64Value uint64), whose methods
// encode Value, the model of its underlying type, and which has no
// fields and no legacy form.
type Struct struct {
	Name       string
	Pos        token.Position // of the type's name in its declaration, for messages
	TypeParams []string       // the type parameters of a generic struct, in order
	Fields     []*Field       // the fields on the wire, in declaration order
	Value      Type           // the underlying type of a value type; nil for a struct

	// How the type evolves (the schema check and //cborgen:extensible;
	// the zero value is a type whose arrays have exactly len(Fields)
	// elements).
	Optional int // the last Optional fields were added later: older arrays end before them
	// HasRequired: //cborgen:required Required: arrays of the type may
	// end after Required elements; the schema record's required count
	// is then at most Required.
	HasRequired bool
	Required    int
	Extensible  bool // //cborgen:extensible: skip elements past the last field (newer writers)
	// HasOptionalFrom: //cborgen:optional OptionalFrom: the encoder ends
	// the array before the trailing run of fields from slot OptionalFrom
	// on whose values are zero (each field's Omit holds its test,
	// fxamacker's omitzero: build/optional.go); it implies
	// //cborgen:required OptionalFrom (HasRequired, Required).
	HasOptionalFrom bool
	OptionalFrom    int
	// Raw: //cborgen:raw Raw, the Go name of a []byte field that is not
	// encoded and that DecodeCBOR sets to the bytes the value was read
	// from, its tag included (runtime.Decoder.RawStart, RawBytes).
	Raw string
	// Unknown: the Go name of the struct's own field of type
	// runtime.Unknown (UnknownName), which is not encoded as a field: a
	// map-format struct keeps in it the pairs whose keys name no field,
	// an //cborgen:extensible one the elements past its last field, and
	// the encoder writes them back (build/unknown.go, emit/unknown.go).
	Unknown string

	HoldsLock bool // the struct holds a lock by value, so MarshalCBOR takes a pointer (containsLock)
	// Embeddable: //cborgen:embeddable, no MarshalCBOR or UnmarshalCBOR,
	// so that a struct embedding it does not take them over (build/embed.go).
	Embeddable bool
	// Body: //cborgen:body, a type with hand-written MarshalCBOR and
	// UnmarshalCBOR (the hooks) that call the generated codec, declared
	// as AppendCBORBody, DecodeCBORBody and SizeCBORBody (BodyName);
	// generated holders call the hooks (build/body.go, emit/body.go).
	Body bool
	// NoLegacy: //cborgen:nolegacy, the array format only: the legacy map
	// form is refused, for signed or security-relevant formats.
	NoLegacy bool
	// LegacyChosen: //cborgen:legacy, the legacy decoder kept against
	// the toarray option's default or -nolegacy.
	LegacyChosen bool
	// NoLegacyBy says what set NoLegacy, for the comment of DecodeCBOR:
	// "" (//cborgen:nolegacy), "toarray" or "run" (-nolegacy).
	NoLegacyBy string
	// HasTag: //cborgen:tag Tag, every value is written as tag Tag and its
	// encoding; decoding requires the tag unless TagOptional.
	HasTag      bool
	Tag         uint64
	TagOptional bool
	// CatchAll: //cborgen:catchall on a named []byte type, a union's
	// variant for items no other variant claims, kept as their bytes.
	CatchAll bool
	// Case: //cborgen:case V, the constant that names the type among the
	// variants of a union chosen by content (//cborgen:union first, or
	// key K); nil without the directive. Case.Field is the field that
	// holds it: the encoder writes V there whatever the field holds, and
	// the decoder refuses another value (build/unions.go).
	Case *Case
	// MapFormat: //cborgen:map, the struct is written as a CBOR map keyed
	// by Field.Key, as fxamacker/cbor writes a struct without toarray,
	// and read back from that map only (build/mapformat.go, emit/map.go).
	MapFormat bool
	// ArrayChosen: //cborgen:array, a struct with keyasint fields (a map
	// under fxamacker/cbor) written as an array, as asked; without it or
	// //cborgen:map such a struct is refused (build/directives.go).
	ArrayChosen bool
	// Anon is the anonymous struct type of a field (struct{...},
	// []struct{...}, map[string]struct{}) that this struct is the hidden
	// named copy of: the output declares the type (type cborAnon_T_F
	// struct{...}) with its methods, a map as fxamacker writes an
	// anonymous struct (MapFormat), or an array if it has the toarray
	// option; nil for the program's own types.
	Anon types.Type
}

// Field is one exported, not skipped field of a Struct.
type Field struct {
	Name      string         // Go field name
	Pos       token.Position // of the field's declaration (the struct's when unknown), for messages
	Type      Type
	Key       string // legacy map key: the text key, or the digits of an integer key
	KeyAsInt  bool   // the legacy key is the integer KeyInt (tag option keyasint)
	KeyInt    int64
	OmitEmpty bool // tag option omitempty; it does not drop a field from an array
	OmitZero  bool // tag option omitzero; likewise only the legacy format drops the field
	// Via is the chain of embedded struct fields the field is promoted
	// through, outermost first: empty for a field of the struct itself.
	Via  []Embed
	Zero ZeroForm // how the field's zero value is written
	// Omit lists the tests, any of which leaves the field out of a
	// map-format struct's map (omitempty, omitzero; build/mapformat.go),
	// or for a field from slot OptionalFrom on of an array struct, the
	// one test that lets the array end before it (build/optional.go).
	Omit []OmitTest
}

// OmitKind is one test that leaves a field out of a map.
type OmitKind int

const (
	OmitFalse       OmitKind = iota // a bool that is false
	OmitNumZero                     // a number equal to 0, -0.0 too
	OmitLen                         // len(x) == 0: text, byte string, slice, map, RawMessage
	OmitNil                         // x == nil: pointer, slice, map, interface, union
	OmitEqual                       // x == T{}: a comparable struct or array
	OmitIsZero                      // x.IsZero(), the type's own method (omitzero)
	OmitNilOrIsZero                 // x == nil || x.IsZero(), a pointer whose type has IsZero
	OmitBinary                      // MarshalBinary returns no bytes (omitempty)
	OmitBigZero                     // a big.Int with no words
	OmitAlways                      // omitempty on a [0]T: never written
	OmitFields                      // omitempty on a struct fxamacker encodes: every part of Fields empty
	OmitZeroParts                   // omitzero on a type == cannot test: Zero, reflect's IsZero part by part
)

// OmitTest is one test of Field.Omit.
type OmitTest struct {
	Kind OmitKind
	// Fields, for OmitFields, is fxamacker/cbor's omitempty test of a
	// struct it encodes by reflection (one of another package that the
	// program does not generate): the struct is empty when each of its
	// omitempty fields is, and the builder chose it only when every
	// field on the wire is tagged omitempty.
	Fields *OmitParts
	// Zero, for OmitZeroParts, is reflect.Value.IsZero of a struct or
	// array that is not comparable (it holds a slice, a map, a func), as
	// fxamacker's omitzero calls it on a type without an IsZero method.
	Zero *ZeroPart
}

// ZeroPart is reflect.Value.IsZero of one part of a value, by its type.
type ZeroPart struct {
	Kind ZeroKind
	// Go is the part's type: for PartEqual, the T of x == (T{}).
	Go types.Type
	// Fields, for PartFields, are every field of the struct but "_",
	// unexported ones included (reflect tests them too), by name.
	Fields []ZeroField
	// Elem, for PartElems, is the test of every element of the array.
	Elem *ZeroPart
}

// ZeroField is one field of a PartFields test.
type ZeroField struct {
	Name string
	Part *ZeroPart
}

// ZeroKind is how a ZeroPart is tested.
type ZeroKind int

const (
	PartFalse  ZeroKind = iota // !x: a bool
	PartNum                    // x == 0: an integer, float (-0.0 too) or complex number
	PartText                   // x == "": a string
	PartNil                    // x == nil: pointer, slice, map, chan, func, interface
	PartEqual                  // x == (T{}): a comparable struct or array
	PartFields                 // every field zero: a struct that is not comparable
	PartElems                  // every element zero: an array that is not comparable
)

// OmitParts is the field-by-field omitempty test of a struct.
type OmitParts struct {
	Parts []OmitPart
}

// OmitPart is one omitempty field of a struct that OmitFields tests: the
// selectors from the struct to the field, and the field's own test.
type OmitPart struct {
	// Path is the chain of selectors, the field's name last. An
	// unexported embedded struct is not named: Go promotes the fields
	// past it. A step that is an embedded pointer is tested against nil
	// first; through a nil one the field counts as empty, as fxamacker
	// skips it.
	Path []OmitStep
	Test OmitTest
}

// OmitStep is one selector of OmitPart.Path.
type OmitStep struct {
	Name string
	Ptr  bool // an embedded pointer, tested against nil before the next step
}

// ZeroForm is how the zero value of a type is written in Go, decided by
// the builder from the type's underlying kind.
type ZeroForm int

const (
	ZeroComposite ZeroForm = iota // T{}: a struct or array
	ZeroFalse                     // false
	ZeroNumber                    // 0
	ZeroText                      // ""
	ZeroNil                       // nil: pointer, slice, map, interface, chan, func
	ZeroNew                       // *new(T): a type parameter
)

// Embed is one embedded struct field on the way to a promoted field.
type Embed struct {
	Name string         // the embedded field's name (its type's name)
	Ptr  *types.Pointer // the field's type when it is a pointer (*Base), else nil
}

// Type is one wire shape. The set of implementations is closed: Bool, Int,
// Float, String, Bytes, ByteArray, Array, Slice, Map, Pointer, StructRef,
// Time, BigInt, Marshaler, BinaryMarshaler, Split, Dynamic, TypeParam,
// Union, and Reserved (a slot kept for a retired field).
type Type interface {
	GoType() types.Type
}

// Bool is a bool: CBOR true or false.
type Bool struct{ Go types.Type }

// Int is a signed or unsigned integer of Bits bits (0 for int and uint):
// CBOR major type 0 or 1.
type Int struct {
	Go     types.Type
	Bits   int
	Signed bool
}

// Float is a float32 or float64, written in the shortest form that keeps
// the value.
type Float struct {
	Go   types.Type
	Bits int
}

// String is a string: a CBOR text string.
type String struct{ Go types.Type }

// Bytes is a []byte, or a slice of a named byte type (type Kind uint8): a
// byte string, or null when nil.
type Bytes struct {
	Go        types.Type
	NamedElem bool // the elements are of a named byte type: the runtime's ...Of functions convert
	// ElemUnmarshals: that named byte type has an UnmarshalCBOR of its
	// own, through which fxamacker/cbor reads the elements of an array.
	ElemUnmarshals bool
}

// ByteArray is a [N]byte, or an array of a named byte type: a byte string
// of exactly N bytes.
type ByteArray struct {
	Go        types.Type
	N         int64
	NamedElem bool // as for Bytes
}

// Array is a [N]T: a CBOR array of exactly N elements.
type Array struct {
	Go   types.Type
	N    int64
	Elem Type
}

// Slice is a []T: a CBOR array, or null when nil.
type Slice struct {
	Go       types.Type
	Elem     Type
	ElemZero ZeroForm // how the zero element is written
	Named    bool     // a named slice type (type Tags []string)
}

// Map is a map[K]V: a CBOR map with keys in the run's key order, or null
// when nil. Key is any comparable type the generator encodes (see
// MapKeyOK); each key is written as a value of its type is written.
type Map struct {
	Go        types.Type
	Key, Elem Type
	ElemZero  ZeroForm // how the zero value is written
	KeyZero   ZeroForm // how the zero key is written
}

// Pointer is a *T: null when nil, else T.
type Pointer struct {
	Go   types.Type
	Elem Type
}

// StructRef is a type with the generated method set (AppendCBOR and
// DecodeCBOR): one generated in this run, or in an earlier run for another
// package. The generated code calls its methods.
type StructRef struct {
	Go   types.Type
	Name string // for messages
	// HasSize: the type has (or will have) SizeCBOR: every type generated
	// in this run or pending in another package (pendingGeneration), and
	// those of other packages generated with it.
	HasSize bool
	// Local is the name of the type when it is generated in this run (the
	// origin's name for an instantiation of a generic type), else "".
	Local string
	// Anon: Go is an anonymous struct type of the program, and Local
	// names the hidden copy the output declares (Struct.Anon): the code
	// reaches the copy's methods by converting the address, (*Local)(&v.F).
	Anon bool
}

// Time is a time.Time: null when zero, else as the run's time mode says
// (integer Unix seconds by default; -time and -timetag choose).
type Time struct{ Go types.Type }

// BigInt is a big.Int: a CBOR integer when it fits one, else a bignum
// (tag 2 or 3).
type BigInt struct{ Go types.Type }

// Marshaler is a type with its own MarshalCBOR and UnmarshalCBOR
// (fxamacker's cbor.Marshaler and cbor.Unmarshaler, cbor.RawMessage among
// them) that cbor-gen did not generate: the methods are called, and their
// output checked to be one well-formed item.
type Marshaler struct {
	Go types.Type
	// Raw: fxamacker's cbor.RawMessage, whose encoding is its own bytes
	// (null when empty), so SizeCBOR counts it exactly.
	Raw bool
}

// BinaryMarshaler is a type with MarshalBinary and UnmarshalBinary
// (encoding.BinaryMarshaler and BinaryUnmarshaler): a byte string holding
// what MarshalBinary returns, as fxamacker writes it by default.
type BinaryMarshaler struct{ Go types.Type }

// Dynamic is a type only known at run time, an interface, or one that
// only fxamacker/cbor knows how to handle (a type with MarshalCBOR but no
// UnmarshalCBOR, say): the value goes through fxamacker/cbor, with
// reflection. This is the slow path, and the generator prints a note for
// each field that takes it.
type Dynamic struct {
	Go        types.Type
	Interface bool // an interface type, passed to fxamacker as it is
}

// TypeParam is a type parameter of a generic struct: the runtime's
// dynamic.AppendValue and DecodeValue pick the way for the type argument
// when the code runs (generated methods, a basic type, else fxamacker).
type TypeParam struct{ Go types.Type }

func (t Bool) GoType() types.Type { return t.Go }

func (t Int) GoType() types.Type { return t.Go }

func (t Float) GoType() types.Type { return t.Go }

func (t String) GoType() types.Type { return t.Go }

func (t Bytes) GoType() types.Type { return t.Go }

func (t ByteArray) GoType() types.Type { return t.Go }

func (t Array) GoType() types.Type { return t.Go }

func (t Slice) GoType() types.Type { return t.Go }

func (t Map) GoType() types.Type { return t.Go }

func (t Pointer) GoType() types.Type { return t.Go }

func (t StructRef) GoType() types.Type { return t.Go }

func (t Time) GoType() types.Type { return t.Go }

func (t BigInt) GoType() types.Type { return t.Go }

func (t Marshaler) GoType() types.Type { return t.Go }

func (t BinaryMarshaler) GoType() types.Type {
	return t.Go
}

func (t Dynamic) GoType() types.Type { return t.Go }

func (t TypeParam) GoType() types.Type { return t.Go }

// HasDynamic reports whether t or a type within it takes the slow path.
func HasDynamic(t Type) bool {
	return ContainsType(t, func(t Type) bool { _, ok := t.(Dynamic); return ok })
}

// ContainsType reports whether match holds for t or for the element type of
// an array, slice, map or pointer within it, or for the key type of a map.
func ContainsType(t Type, match func(Type) bool) bool {
	for {
		if match(t) {
			return true
		}
		switch c := t.(type) {
		case Array:
			t = c.Elem
		case Slice:
			t = c.Elem
		case Map:
			if ContainsType(c.Key, match) {
				return true
			}
			t = c.Elem
		case Pointer:
			t = c.Elem
		default:
			return false
		}
	}
}

// File is everything one output file holds.
type File struct {
	Package  string // package name
	Path     string // import path
	Order    KeyOrder
	Time     TimeOptions // how time.Time values are written
	Structs  []*Struct
	Notes    []string        // file:line:col: note: ... for each field on the slow path
	Build    string          // the //go:build line of the chosen types' files (outputConstraint)
	Taken    map[string]bool // names the package declares: generated names must avoid them
	NilEmpty bool            // nil containers are written empty, not null (-nilempty)
	// FloatNone: every float is written at its Go width (-float none).
	FloatNone bool
	// Small: the smaller, slower form of the code (-small): runtime calls
	// instead of in-line fast paths, table-driven struct decoders.
	Small  bool
	Unions []*UnionType // the //cborgen:union interfaces of the package
	// Pending is set when the model depends on other packages'
	// //go:generate lines (pendingGeneration), which the regeneration
	// cache does not cover.
	Pending bool
	// Foreign are the shapes of the types the generated code hands to
	// fxamacker/cbor, and of the types within them, for the schema
	// record (foreign.go); sorted by Name.
	Foreign []*Foreign
}

// Split is a type with one method of a pair (MarshalCBOR without
// UnmarshalCBOR, UnmarshalBinary without MarshalBinary...): fxamacker/cbor
// calls the method one way and goes by the type's kind the other way, and
// so does the generated code. Enc is how a value is written, Dec how it
// is read: one a Marshaler or BinaryMarshaler, the other Kind, the model
// of the type's underlying type. A type with only UnmarshalBinary is read
// by it from a byte string only, and by Kind from anything else, as
// fxamacker reads it.
type Split struct {
	Go       types.Type
	Enc, Dec Type
	Kind     Type
}

func (t Split) GoType() types.Type { return t.Go }

// UnknownName is the name of runtime.Unknown, the type of the field that
// keeps what a struct's decoder does not know (Struct.Unknown).
const UnknownName = "Unknown"

// ReservedName is the name of runtime.Reserved, the type of a field that
// keeps the slot of a retired one.
const ReservedName = "Reserved"

// Reserved is the model of a runtime.Reserved field: a slot kept for a
// retired field, written as null and skipped on decode. It is not on the
// legacy map: its old key is skipped like any unknown key.
type Reserved struct{ Go types.Type }

func (t Reserved) GoType() types.Type { return t.Go }

// IsReserved reports whether the field keeps a retired field's slot.
func (f *Field) IsReserved() bool {
	_, ok := f.Type.(Reserved)
	return ok
}

// Union is a field of an interface type declared with //cborgen:union:
// each value is one of the variants, written by the variant's own
// generated code and read back by the union's dispatcher, which looks at
// the item's tag number or, for untagged variants, its type.
type Union struct {
	Go    types.Type
	Model *UnionType
}

func (t Union) GoType() types.Type { return t.Go }

// UnionType is one //cborgen:union interface of the package and its
// variants: the generated types of the run that implement it.
type UnionType struct {
	Name     string
	Pos      token.Position
	Variants []*Variant
	// By says what picks the variant: the item's tag or major type
	// (UnionByKind, //cborgen:union), the first element of an array
	// (UnionByFirst, //cborgen:union first) or the value of map key Key
	// (UnionByKey, //cborgen:union key K); for the last two each
	// variant's Struct.Case is the value that names it.
	By  UnionBy
	Key Constant // the key K of UnionByKey
}

// UnionBy is what tells a union's variants apart.
type UnionBy int

const (
	UnionByKind  UnionBy = iota // the tag number, else the major type
	UnionByFirst                // the first element of an array: a constant
	UnionByKey                  // the value of one key of a map: a constant
)

// Constant is an integer or a text constant of a directive: a case, or
// the key of a union chosen by a map key.
type Constant struct {
	Text bool // Str holds it; else Int
	Int  int64
	Str  string
}

// Token is c as directives and the schema record write it: digits, or a
// Go string literal.
func (c Constant) Token() string {
	if c.Text {
		return strconv.Quote(c.Str)
	}
	return strconv.FormatInt(c.Int, 10)
}

// ParseConstant reads a Token: an integer within int64, or a quoted text.
func ParseConstant(tok string) (Constant, bool) {
	if strings.HasPrefix(tok, `"`) {
		s, err := strconv.Unquote(tok)
		return Constant{Text: true, Str: s}, err == nil
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	return Constant{Int: n}, err == nil
}

// Case is the constant of //cborgen:case and the field that holds it.
type Case struct {
	Constant
	Field int // index in Struct.Fields; -1 until the builder finds it
}

// Variant is one type a union may hold.
type Variant struct {
	Struct *Struct // the generated type
	Ptr    bool    // the interface holds *T (T's methods have pointer receivers)
}

// FieldID names a field in the record and in messages: its Go name, after
// the embedded structs it is promoted through (Audit.Version), since two
// promoted fields may share a Go name.
func FieldID(f *Field) string {
	if len(f.Via) == 0 {
		return f.Name
	}
	var b strings.Builder
	for _, e := range f.Via {
		b.WriteString(e.Name)
		b.WriteByte('.')
	}
	b.WriteString(f.Name)
	return b.String()
}

// ClassesOf lists the untagged items the variant s is written as, or
// nil when its encoding cannot be told apart by its type alone.
func ClassesOf(s *Struct) []string {
	if s.Value == nil {
		if s.MapFormat {
			return []string{"map"}
		}
		if s.NoLegacy {
			return []string{"array"}
		}
		return []string{"array", "map"}
	}
	switch t := s.Value.(type) {
	case Int:
		if t.Signed {
			return []string{"unsigned integer", "negative integer"}
		}
		return []string{"unsigned integer"}
	case Float:
		return []string{"float"}
	case Bool:
		return []string{"bool"}
	case String:
		return []string{"text string"}
	case Bytes, ByteArray:
		return []string{"byte string"}
	case Slice, Array:
		return []string{"array"}
	case Map:
		return []string{"map"}
	}
	return nil
}
