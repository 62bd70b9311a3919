package generator

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The model is the small, closed description of what to generate. It is
// built from go/types by the modeler below, checked there, and nothing
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

// Struct is one struct type to generate methods for.
type Struct struct {
	Name       string
	TypeParams []string // the type parameters of a generic struct, in order
	Fields     []*Field // the fields on the wire, in declaration order

	// How the type evolves (schema.go; the zero value is a type whose
	// arrays have exactly len(Fields) elements).
	Optional   int  // the last Optional fields were added later: older arrays end before them
	Extensible bool // //cborgen:extensible: skip elements past the last field (newer writers)

	HoldsLock bool // the struct holds a lock by value, so MarshalCBOR takes a pointer (containsLock)
	// Embeddable: //cborgen:embeddable, no MarshalCBOR or UnmarshalCBOR,
	// so that a struct embedding it does not take them over (embed.go).
	Embeddable bool
	// NoLegacy: //cborgen:nolegacy, the array format only: the legacy map
	// form is refused, for signed or security-relevant formats.
	NoLegacy bool
}

// Field is one exported, not skipped field of a Struct.
type Field struct {
	Name      string // Go field name
	Type      Type
	Key       string // legacy map key: the text key, or the digits of an integer key
	KeyAsInt  bool   // the legacy key is the integer KeyInt (tag option keyasint)
	KeyInt    int64
	OmitEmpty bool // tag option omitempty; it does not drop a field from an array
	OmitZero  bool // tag option omitzero; likewise only the legacy format drops the field
	// Via is the chain of embedded struct fields the field is promoted
	// through, outermost first: empty for a field of the struct itself.
	Via []Embed
}

// Embed is one embedded struct field on the way to a promoted field.
type Embed struct {
	Name string         // the embedded field's name (its type's name)
	Ptr  *types.Pointer // the field's type when it is a pointer (*Base), else nil
}

// Type is one wire shape. The set of implementations is closed: Bool, Int,
// Float, String, Bytes, ByteArray, Array, Slice, Map, Pointer, StructRef,
// Time, BigInt, Marshaler, BinaryMarshaler, Dynamic, TypeParam, and
// Reserved (schema.go).
type Type interface {
	goType() types.Type
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
type Bytes struct{ Go types.Type }

// ByteArray is a [N]byte, or an array of a named byte type: a byte string
// of exactly N bytes.
type ByteArray struct {
	Go types.Type
	N  int64
}

// Array is a [N]T: a CBOR array of exactly N elements.
type Array struct {
	Go   types.Type
	N    int64
	Elem Type
}

// Slice is a []T: a CBOR array, or null when nil.
type Slice struct {
	Go   types.Type
	Elem Type
	// LockElem: the elements hold a lock (containsLock), so the decoder
	// grows the slice without copying a zero element into it.
	LockElem bool
}

// Map is a map[K]V: a CBOR map with keys in the run's key order, or null
// when nil. Key is a Bool, Int or String.
type Map struct {
	Go        types.Type
	Key, Elem Type
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
type Dynamic struct{ Go types.Type }

// TypeParam is a type parameter of a generic struct: the runtime's
// dynamic.AppendValue and DecodeValue pick the way for the type argument
// when the code runs (generated methods, a basic type, else fxamacker).
type TypeParam struct{ Go types.Type }

func (t Bool) goType() types.Type      { return t.Go }
func (t Int) goType() types.Type       { return t.Go }
func (t Float) goType() types.Type     { return t.Go }
func (t String) goType() types.Type    { return t.Go }
func (t Bytes) goType() types.Type     { return t.Go }
func (t ByteArray) goType() types.Type { return t.Go }
func (t Array) goType() types.Type     { return t.Go }
func (t Slice) goType() types.Type     { return t.Go }
func (t Map) goType() types.Type       { return t.Go }
func (t Pointer) goType() types.Type   { return t.Go }
func (t StructRef) goType() types.Type { return t.Go }
func (t Time) goType() types.Type      { return t.Go }
func (t BigInt) goType() types.Type    { return t.Go }
func (t Marshaler) goType() types.Type { return t.Go }
func (t BinaryMarshaler) goType() types.Type {
	return t.Go
}
func (t Dynamic) goType() types.Type   { return t.Go }
func (t TypeParam) goType() types.Type { return t.Go }

// modeler translates go/types into the model. It collects every problem
// it finds, each with its position, so that one run reports them all.
type modeler struct {
	fset     *token.FileSet
	pkg      *types.Package
	selected map[*types.TypeName]bool
	errs     []error
	visiting map[*types.Named]bool // named non-struct types being translated, against cycles
	notes    []error               // fields on the slow path (Dynamic), reported but not fatal
	pending  *pendingGeneration    // struct types other packages will generate
}

// posError is an error the user's code caused, at a position.
type posError struct {
	pos token.Position
	msg string
}

func (e *posError) Error() string { return fmt.Sprintf("%s: %s", e.pos, e.msg) }

func (m *modeler) errorf(pos token.Pos, format string, args ...any) {
	m.errs = append(m.errs, &posError{pos: m.fset.Position(pos), msg: fmt.Sprintf(format, args...)})
}

// structModel translates the struct type named tn.
func (m *modeler) structModel(tn *types.TypeName) *Struct {
	named := tn.Type().(*types.Named)
	s := &Struct{Name: tn.Name(), HoldsLock: containsLock(named.Underlying(), map[types.Type]bool{})}
	for i := 0; i < named.TypeParams().Len(); i++ {
		s.TypeParams = append(s.TypeParams, named.TypeParams().At(i).Obj().Name())
	}
	st := named.Underlying().(*types.Struct)
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); slices.Contains(generatedNames, f.Name()) {
			m.errorf(f.Pos(), "field %s.%s has the name of a method cbor-gen generates for %s; rename the field", s.Name, f.Name(), s.Name)
		}
	}
	for _, c := range m.visibleFields(s.Name, named) {
		if c.reserved != nil {
			s.Fields = append(s.Fields, c.reserved)
			continue
		}
		f, tag := c.v, c.tag
		fd := &Field{Name: f.Name(), Key: c.name, KeyAsInt: tag.keyAsInt, KeyInt: c.keyInt,
			OmitEmpty: tag.omitEmpty, OmitZero: tag.omitZero, Via: c.via}
		t, err := m.typeModel(f.Type())
		if err != nil {
			m.errorf(f.Pos(), "field %s.%s has unsupported type %s: %v (leave the field out of the encoding with the tag `cbor:\"-\"`)", s.Name, f.Name(), m.typeString(f.Type()), err)
			continue
		}
		if hasDynamic(t) {
			m.notes = append(m.notes, &posError{pos: m.fset.Position(f.Pos()), msg: fmt.Sprintf(
				"note: field %s.%s (%s) is encoded and decoded by fxamacker/cbor with reflection (the slow path)",
				s.Name, f.Name(), m.typeString(f.Type()))})
		}
		fd.Type = t
		s.Fields = append(s.Fields, fd)
	}
	return s
}

// candidate is a field that may be on the wire: one of the struct's own,
// or one promoted from an embedded struct.
type candidate struct {
	v      *types.Var
	tag    fieldTag
	name   string // the key: the tag name, else the Go name; digits for keyasint
	keyInt int64
	index  []int // field indexes from the outer struct, as reflect numbers them
	via    []Embed
	// reserved is the model of a runtime.Reserved field of the struct
	// itself (schema.go): it keeps its slot and has no key.
	reserved *Field
}

// visibleFields lists the fields of a struct as fxamacker/cbor sees them,
// in its order: the struct's own exported fields, and the exported fields
// of embedded structs (value or pointer, exported or not) promoted as
// encoding/json promotes them. Level by level from the outside in, an
// embedded struct without a tag name is opened; one embedded twice at the
// same level, or already opened at a shallower level, is not. Of the
// fields with the same key, the least nested wins, then the one with a
// tag; a tie drops them all. The order is that of the field indexes
// (declaration order, an embedded struct's fields where it is embedded).
//
// Two fields of the struct itself with the same key are an error: that is
// a mistake, not a rule to apply silently.
func (m *modeler) visibleFields(structName string, named *types.Named) []candidate {
	type embedded struct {
		st    *types.Struct
		typ   types.Type
		index []int
		via   []Embed
	}
	var all, reserved []candidate
	visited := []types.Type{named}
	level := []embedded{{st: named.Underlying().(*types.Struct), typ: named}}
	for len(level) > 0 {
		var next []embedded
		for _, e := range level {
			for i := 0; i < e.st.NumFields(); i++ {
				f := e.st.Field(i)
				if len(e.index) == 0 {
					if fd, ok := reservedField(e.st, i); ok {
						if fd != nil {
							reserved = append(reserved, candidate{index: []int{i}, reserved: fd})
						}
						continue
					}
				}
				ft := types.Unalias(f.Type())
				ptr, isPtr := ft.(*types.Pointer)
				if isPtr {
					ft = types.Unalias(ptr.Elem())
				}
				embStruct, isStruct := ft.Underlying().(*types.Struct)
				if !f.Exported() && !(f.Embedded() && isStruct) {
					continue // unexported fields, and the "_" field that may carry toarray
				}
				tag, ok := parseTag(e.st.Tag(i))
				if !ok {
					continue
				}
				index := append(append([]int{}, e.index...), i)
				if f.Embedded() && isStruct && tag.name == "" {
					step := Embed{Name: f.Name()}
					if isPtr {
						step.Ptr = ptr
					}
					next = append(next, embedded{embStruct, ft, index, append(append([]Embed{}, e.via...), step)})
					continue
				}
				c := candidate{v: f, tag: tag, name: tag.name, index: index, via: e.via}
				if c.name == "" {
					c.name = f.Name()
				}
				if tag.keyAsInt {
					n, err := strconv.ParseInt(c.name, 10, 64)
					if err != nil {
						m.errorf(f.Pos(), "field %s.%s: keyasint needs an integer key, found %q", structName, f.Name(), c.name)
						continue
					}
					c.keyInt, c.name = n, strconv.FormatInt(n, 10)
				}
				if len(e.via) > 0 && !f.Exported() {
					continue
				}
				all = append(all, c)
			}
		}
		// Open the embedded structs of the next level: each type once, and
		// not when it is embedded twice at that level.
		level = level[:0:0]
		for i, e := range next {
			dup := false
			for j, o := range next {
				dup = dup || (i != j && types.Identical(e.typ, o.typ))
			}
			seen := false
			for _, t := range visited {
				seen = seen || types.Identical(t, e.typ)
			}
			if !dup && !seen {
				level = append(level, e)
			}
		}
		for _, e := range level {
			visited = append(visited, e.typ)
		}
	}

	// Pick the dominant field of each key.
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if a.tag.keyAsInt != b.tag.keyAsInt {
			return a.tag.keyAsInt
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		if tagged(a) != tagged(b) {
			return tagged(a)
		}
		return lessIndex(a.index, b.index)
	})
	var out []candidate
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name && all[j].tag.keyAsInt == all[i].tag.keyAsInt {
			j++
		}
		a := all[i]
		if j > i+1 && len(all[i+1].index) == 1 && len(a.index) == 1 {
			kind := "key"
			if a.tag.keyAsInt {
				kind = "integer key"
			}
			m.errorf(all[i+1].v.Pos(), "field %s.%s: %s %q is also used by field %s", structName, all[i+1].v.Name(), kind, a.name, a.v.Name())
		} else if j == i+1 || len(a.index) < len(all[i+1].index) || tagged(a) && !tagged(all[i+1]) {
			out = append(out, a)
		}
		i = j
	}
	out = append(out, reserved...)
	sort.Slice(out, func(i, j int) bool { return lessIndex(out[i].index, out[j].index) })
	return out
}

func tagged(c candidate) bool { return c.tag.present }

// lessIndex orders field index paths as fxamacker/cbor does: by index at
// each level, the shorter first on a tie.
func lessIndex(a, b []int) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return len(a) < len(b)
}

// hasDynamic reports whether t or a type within it takes the slow path.
func hasDynamic(t Type) bool {
	return containsType(t, func(t Type) bool { _, ok := t.(Dynamic); return ok })
}

// containsType reports whether match holds for t or for the element type of
// an array, slice, map or pointer within it.
func containsType(t Type, match func(Type) bool) bool {
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
			t = c.Elem
		case Pointer:
			t = c.Elem
		default:
			return false
		}
	}
}

// fieldTag is a struct tag as fxamacker/cbor reads it.
type fieldTag struct {
	name                          string
	present                       bool // a cbor or json tag is there (it makes a field dominate)
	omitEmpty, omitZero, keyAsInt bool
}

// parseTag reads the cbor tag, else the json tag, as fxamacker/cbor does.
// It reports false for a field that is skipped ("-").
func parseTag(tag string) (fieldTag, bool) {
	st := reflect.StructTag(tag)
	s := st.Get("cbor")
	if s == "" {
		s = st.Get("json")
	}
	if s == "-" {
		return fieldTag{}, false
	}
	t := fieldTag{present: s != ""}
	for i, tok := range strings.Split(s, ",") {
		if i == 0 {
			t.name = tok
			continue
		}
		switch tok {
		case "omitempty":
			t.omitEmpty = true
		case "omitzero":
			t.omitZero = true
		case "keyasint":
			t.keyAsInt = true
		}
	}
	return t, true
}

// typeModel translates a field type, or says why it cannot.
func (m *modeler) typeModel(t types.Type) (Type, error) {
	t = types.Unalias(t)
	if named, ok := t.(*types.Named); ok {
		return m.namedModel(named)
	}
	return m.underlyingModel(t, t)
}

func (m *modeler) namedModel(named *types.Named) (Type, error) {
	obj := named.Obj()
	if m.selected[named.Origin().Obj()] || hasGeneratedMethods(named) {
		// The type arguments of a generic type must be encodable too: its
		// methods hand them to the runtime's dynamic package.
		for i := 0; i < named.TypeArgs().Len(); i++ {
			if _, err := m.typeModel(named.TypeArgs().At(i)); err != nil {
				return nil, fmt.Errorf("type argument %s: %v", m.typeString(named.TypeArgs().At(i)), err)
			}
		}
		return StructRef{Go: named, Name: m.typeString(named), HasSize: m.selected[named.Origin().Obj()] ||
			types.NewMethodSet(types.NewPointer(named)).Lookup(nil, methodSize) != nil}, nil
	}
	if obj.Pkg() != nil {
		switch obj.Pkg().Path() + "." + obj.Name() {
		case "time.Time":
			return Time{Go: named}, nil
		case "math/big.Int":
			return BigInt{Go: named}, nil
		}
	}
	if _, ok := named.Underlying().(*types.Interface); ok {
		return Dynamic{Go: named}, nil
	}
	// The methods fxamacker/cbor calls, in the order it looks for them.
	marshal, unmarshal := hasSignature(named, "MarshalCBOR", false), hasSignature(named, "UnmarshalCBOR", true)
	binary, unbinary := hasSignature(named, "MarshalBinary", false), hasSignature(named, "UnmarshalBinary", true)
	switch {
	case marshal && unmarshal:
		return Marshaler{Go: named, Raw: obj.Pkg() != nil && obj.Pkg().Path()+"."+obj.Name() == "github.com/fxamacker/cbor/v2.RawMessage"}, nil
	case marshal || unmarshal:
		return Dynamic{Go: named}, nil // fxamacker uses one method and reflection for the other way
	case binary && unbinary:
		return BinaryMarshaler{Go: named}, nil
	case binary || unbinary:
		return Dynamic{Go: named}, nil
	}
	if _, ok := named.Underlying().(*types.Struct); ok {
		if obj.Pkg() == m.pkg {
			if named.TypeArgs().Len() > 0 {
				return nil, fmt.Errorf("%s has no generated AppendCBOR/DecodeCBOR methods (generate %s too)", m.typeString(named), obj.Name())
			}
			return nil, fmt.Errorf("%s is not generated and has no AppendCBOR/DecodeCBOR methods (add it to -type)", obj.Name())
		}
		if m.pending != nil && m.pending.generates(obj) {
			// Generated by the //go:generate line of its own package,
			// later in the same go generate ./... run.
			return StructRef{Go: named, Name: m.typeString(named), HasSize: true}, nil
		}
		// A struct of another package that cbor-gen does not generate
		// (image.Point, a library's type): fxamacker/cbor writes it, as a
		// map keyed by field name, exactly as it would without cbor-gen.
		return Dynamic{Go: named}, nil
	}
	if m.visiting[named] {
		return nil, fmt.Errorf("%s refers to itself without a struct in between", obj.Name())
	}
	m.visiting[named] = true
	defer delete(m.visiting, named)
	return m.underlyingModel(named.Underlying(), named)
}

// hasSignature reports whether T or *T has the method name of
// fxamacker's (and encoding's) marshaler interfaces: with in, one []byte
// parameter and an error result (UnmarshalCBOR, UnmarshalBinary); without,
// no parameter and ([]byte, error) (MarshalCBOR, MarshalBinary).
func hasSignature(t types.Type, name string, in bool) bool {
	sel := types.NewMethodSet(types.NewPointer(t)).Lookup(nil, name)
	if sel == nil {
		return false
	}
	sig := sel.Type().(*types.Signature)
	byteSlice := types.NewSlice(types.Typ[types.Byte])
	errType := types.Universe.Lookup("error").Type()
	if in {
		return sig.Params().Len() == 1 && types.Identical(sig.Params().At(0).Type(), byteSlice) &&
			sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), errType)
	}
	return sig.Params().Len() == 0 && sig.Results().Len() == 2 &&
		types.Identical(sig.Results().At(0).Type(), byteSlice) && types.Identical(sig.Results().At(1).Type(), errType)
}

// underlyingModel translates the type structure u of the Go type goT
// (which is u itself, or a named type whose underlying type is u).
func (m *modeler) underlyingModel(u, goT types.Type) (Type, error) {
	switch u := u.(type) {
	case *types.Basic:
		return basicModel(u, goT)
	case *types.Slice:
		if isPlainByte(u.Elem()) || isNamedByte(u.Elem()) {
			return Bytes{Go: goT}, nil
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return Slice{Go: goT, Elem: elem, LockElem: containsLock(u.Elem(), map[types.Type]bool{})}, nil
	case *types.Array:
		if isPlainByte(u.Elem()) || isNamedByte(u.Elem()) {
			return ByteArray{Go: goT, N: u.Len()}, nil
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return Array{Go: goT, N: u.Len(), Elem: elem}, nil
	case *types.Map:
		key, err := m.typeModel(u.Key())
		if err != nil {
			return nil, err
		}
		switch key.(type) {
		case Bool, Int, String:
		default:
			return nil, fmt.Errorf("map keys must be strings, integers or bools")
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return Map{Go: goT, Key: key, Elem: elem}, nil
	case *types.Pointer:
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return Pointer{Go: goT, Elem: elem}, nil
	case *types.Struct:
		return nil, fmt.Errorf("anonymous struct types are not supported; declare a named struct type and add it to -type")
	case *types.Interface:
		if goT == u {
			// Generated code names the type (new(*interface{ M() }),
			// make([]interface{ M() }, n)), so it must be writable here.
			if err := m.writable(u); err != nil {
				return nil, err
			}
		}
		return Dynamic{Go: goT}, nil
	case *types.Chan:
		return nil, fmt.Errorf("channels have no CBOR encoding")
	case *types.Signature:
		return nil, fmt.Errorf("functions have no CBOR encoding")
	case *types.TypeParam:
		return TypeParam{Go: goT}, nil
	}
	return nil, fmt.Errorf("no CBOR encoding for this kind of type")
}

// writable reports why the unnamed type t cannot be written in the
// generated file: a method, field or named type within it that is
// unexported in another package.
func (m *modeler) writable(t types.Type) error {
	foreign := func(name string, pkg *types.Package) bool {
		return !token.IsExported(name) && pkg != nil && pkg != m.pkg
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if foreign(t.Obj().Name(), t.Obj().Pkg()) {
			return fmt.Errorf("it uses %s, unexported in package %s", t.Obj().Name(), t.Obj().Pkg().Path())
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if err := m.writable(t.TypeArgs().At(i)); err != nil {
				return err
			}
		}
	case *types.Interface:
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if err := m.writable(t.EmbeddedType(i)); err != nil {
				return err
			}
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			fn := t.ExplicitMethod(i)
			if foreign(fn.Name(), fn.Pkg()) {
				return fmt.Errorf("its method %s is unexported in package %s", fn.Name(), fn.Pkg().Path())
			}
			if err := m.writable(fn.Type()); err != nil {
				return err
			}
		}
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tuple.Len(); i++ {
				if err := m.writable(tuple.At(i).Type()); err != nil {
					return err
				}
			}
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if foreign(f.Name(), f.Pkg()) {
				return fmt.Errorf("its field %s is unexported in package %s", f.Name(), f.Pkg().Path())
			}
			if err := m.writable(f.Type()); err != nil {
				return err
			}
		}
	case interface{ Elem() types.Type }: // pointer, slice, array, map, chan
		if mp, ok := t.(*types.Map); ok {
			if err := m.writable(mp.Key()); err != nil {
				return err
			}
		}
		return m.writable(t.Elem())
	}
	return nil
}

func basicModel(b *types.Basic, goT types.Type) (Type, error) {
	switch b.Kind() {
	case types.Bool:
		return Bool{Go: goT}, nil
	case types.Int:
		return Int{Go: goT, Signed: true}, nil
	case types.Int8:
		return Int{Go: goT, Bits: 8, Signed: true}, nil
	case types.Int16:
		return Int{Go: goT, Bits: 16, Signed: true}, nil
	case types.Int32:
		return Int{Go: goT, Bits: 32, Signed: true}, nil
	case types.Int64:
		return Int{Go: goT, Bits: 64, Signed: true}, nil
	case types.Uint:
		return Int{Go: goT}, nil
	case types.Uint8:
		return Int{Go: goT, Bits: 8}, nil
	case types.Uint16:
		return Int{Go: goT, Bits: 16}, nil
	case types.Uint32:
		return Int{Go: goT, Bits: 32}, nil
	case types.Uint64:
		return Int{Go: goT, Bits: 64}, nil
	case types.Float32:
		return Float{Go: goT, Bits: 32}, nil
	case types.Float64:
		return Float{Go: goT, Bits: 64}, nil
	case types.String:
		return String{Go: goT}, nil
	case types.Uintptr:
		return nil, fmt.Errorf("uintptr values are addresses, not data")
	case types.Complex64, types.Complex128:
		return nil, fmt.Errorf("complex numbers are not supported")
	case types.UnsafePointer:
		return nil, fmt.Errorf("unsafe.Pointer values are addresses, not data")
	}
	return nil, fmt.Errorf("no CBOR encoding for this kind of type")
}

// isPlainByte reports whether t is byte (uint8) itself, not a named type.
func isPlainByte(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

// namedByteElem reports whether the slice or array type t has elements of
// a named byte type ([]Kind for type Kind uint8).
func namedByteElem(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return isNamedByte(u.Elem())
	case *types.Array:
		return isNamedByte(u.Elem())
	}
	return false
}

// isNamedByte reports whether t is a named type whose underlying type is
// byte: fxamacker/cbor writes slices of it as byte strings too.
func isNamedByte(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	b, ok := n.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

func (m *modeler) typeString(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(m.pkg))
}

// hasGeneratedMethods reports whether *T has the methods enclosing
// generated types call: AppendCBOR(dst []byte) ([]byte, error) and
// DecodeCBOR(*runtime.Decoder) error.
func hasGeneratedMethods(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	byteSlice := types.NewSlice(types.Typ[types.Byte])
	errType := types.Universe.Lookup("error").Type()

	app := ms.Lookup(nil, "AppendCBOR")
	if app == nil {
		return false
	}
	sig := app.Type().(*types.Signature)
	if sig.Params().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), byteSlice) ||
		sig.Results().Len() != 2 || !types.Identical(sig.Results().At(0).Type(), byteSlice) ||
		!types.Identical(sig.Results().At(1).Type(), errType) {
		return false
	}

	dec := ms.Lookup(nil, "DecodeCBOR")
	if dec == nil {
		return false
	}
	sig = dec.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), errType) {
		return false
	}
	ptr, ok := sig.Params().At(0).Type().(*types.Pointer)
	if !ok {
		return false
	}
	dn, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && dn.Obj().Name() == "Decoder" && dn.Obj().Pkg() != nil && dn.Obj().Pkg().Path() == runtimePath
}

// File is everything one output file holds.
type File struct {
	Package  string // package name
	Path     string // import path
	Order    keyOrder
	Time     timeOptions // how time.Time values are written
	Structs  []*Struct
	Notes    []string        // file:line:col: note: ... for each field on the slow path
	Build    string          // the //go:build line of the chosen types' files (outputConstraint)
	Taken    map[string]bool // names the package declares: generated names must avoid them
	NilEmpty bool            // nil containers are written empty, not null (-nilempty)
}

// generatedNames are the methods every generated type gets; a type that
// already has one of them cannot be generated.
var generatedNames = []string{
	"MarshalCBOR", "UnmarshalCBOR", "AppendCBOR", "DecodeCBOR", methodSize,
	methodDecodeArray, methodDecodeMap, methodDecodeField,
}

// buildModel selects the struct types of the loaded package and translates
// them. With cfg.Types empty it takes every exported struct type that has
// no hand-written CBOR methods of its own.
func buildModel(l *loaded, cfg Config, order keyOrder) (*File, error) {
	pkg := l.pkg.Types
	scope := pkg.Scope()
	var chosen []*types.TypeName
	var errs, notes []error
	if len(cfg.Types) > 0 {
		seen := map[string]bool{}
		for _, name := range cfg.Types {
			if seen[name] {
				continue
			}
			seen[name] = true
			tn, err := explicitType(l.pkg.Fset, scope, name, pkg.Path())
			if err != nil {
				errs = append(errs, err)
				continue
			}
			chosen = append(chosen, tn)
		}
	} else {
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() || !isStructType(tn) {
				continue
			}
			if skip, why := notGenerated(tn); skip {
				if why != "" {
					notes = append(notes, &posError{pos: l.pkg.Fset.Position(tn.Pos()), msg: "note: " + why})
				}
				continue
			}
			chosen = append(chosen, tn)
		}
		if len(chosen) == 0 {
			return nil, fmt.Errorf("package %s has no exported struct types to generate (name them with -type)", pkg.Path())
		}
	}
	if len(errs) > 0 {
		return nil, joinPosErrors(errs)
	}
	fset := l.pkg.Fset
	sort.SliceStable(chosen, func(i, j int) bool {
		a, b := fset.Position(chosen[i].Pos()), fset.Position(chosen[j].Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})

	m := &modeler{
		fset:     fset,
		pkg:      pkg,
		selected: map[*types.TypeName]bool{},
		visiting: map[*types.Named]bool{},
		pending:  &pendingGeneration{dir: l.dir, flags: tagFlags(cfg.Tags)},
	}
	for _, tn := range chosen {
		m.selected[tn] = true
	}
	build, err := outputConstraint(l, chosen)
	if err != nil {
		return nil, joinPosErrors([]error{err})
	}
	f := &File{Package: pkg.Name(), Path: pkg.Path(), Order: order, Build: build, Taken: map[string]bool{}}
	for _, name := range scope.Names() {
		f.Taken[name] = true
	}
	for _, tn := range chosen {
		f.Structs = append(f.Structs, m.structModel(tn))
	}
	if len(m.errs) > 0 {
		return nil, joinPosErrors(m.errs)
	}
	if notes = append(notes, m.notes...); len(notes) > 0 {
		f.Notes = strings.Split(joinPosErrors(notes).Error(), "\n")
	}
	return f, nil
}

// explicitType checks a type named with -type.
func explicitType(fset *token.FileSet, scope *types.Scope, name, pkgPath string) (*types.TypeName, error) {
	obj := scope.Lookup(name)
	if obj == nil {
		return nil, fmt.Errorf("-type %s: no such type in package %s%s", name, pkgPath, closeNames(scope, name))
	}
	at := func(format string, args ...any) error {
		return &posError{pos: fset.Position(obj.Pos()), msg: fmt.Sprintf(format, args...)}
	}
	tn, ok := obj.(*types.TypeName)
	switch {
	case !ok:
		return nil, at("-type %s: %s is not a type", name, name)
	case tn.IsAlias():
		return nil, at("-type %s: %s is an alias; name the type it stands for", name, name)
	case !isStructType(tn):
		return nil, at("-type %s: %s is not a struct type", name, name)
	}
	if have := existingMethods(tn); len(have) > 0 {
		return nil, at("-type %s: %s already has a method %s; remove it or leave the type out", name, name, have[0])
	}
	if why := binaryEncoded(tn); why != "" {
		return nil, at("-type %s: %s; generating it would change its encoding and make data written by fxamacker/cbor undecodable. Leave it out of -type, or drop the method (for an embedded time.Time: make it a named field)", name, why)
	}
	return tn, nil
}

// notGenerated reports whether the default selection leaves the exported
// struct type tn out, and why. A type with both MarshalCBOR and
// UnmarshalCBOR of its own is left out silently: it is a hand-written
// marshaler, and leaving those alone is what the default is for.
func notGenerated(tn *types.TypeName) (skip bool, why string) {
	if have := existingMethods(tn); len(have) > 0 {
		named := tn.Type().(*types.Named)
		if hasSignature(named, "MarshalCBOR", false) && hasSignature(named, "UnmarshalCBOR", true) {
			return true, ""
		}
		return true, fmt.Sprintf("%s is not generated: it has a method %s of its own, which the generated code would declare again", tn.Name(), have[0])
	}
	if why := binaryEncoded(tn); why != "" {
		return true, fmt.Sprintf("%s is not generated: %s", tn.Name(), why)
	}
	return false, ""
}

// binaryEncoded says why fxamacker/cbor encodes tn through
// encoding.BinaryMarshaler (or decodes it through BinaryUnmarshaler)
// rather than as a struct, or "" when it does not.
func binaryEncoded(tn *types.TypeName) string {
	named := tn.Type().(*types.Named)
	for _, m := range []struct {
		name string
		in   bool
	}{{"MarshalBinary", false}, {"UnmarshalBinary", true}} {
		if !hasSignature(named, m.name, m.in) {
			continue
		}
		sel := types.NewMethodSet(types.NewPointer(named)).Lookup(nil, m.name)
		how := "fxamacker/cbor writes it as a byte string of MarshalBinary's output"
		if m.in {
			how = "fxamacker/cbor reads it from a byte string with UnmarshalBinary"
		}
		if len(sel.Index()) > 1 {
			return fmt.Sprintf("it has a method %s promoted from an embedded field, so %s", m.name, how)
		}
		return fmt.Sprintf("it has a method %s, so %s", m.name, how)
	}
	return ""
}

// isStructType reports whether tn is a defined struct type.
func isStructType(tn *types.TypeName) bool {
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return false
	}
	_, ok = named.Underlying().(*types.Struct)
	return ok
}

// existingMethods lists the methods of tn (outside the output file, which
// the loader leaves out) that generation would declare again.
func existingMethods(tn *types.TypeName) []string {
	// Only the type's own methods count: those promoted from an embedded
	// type are shadowed by the generated ones, as fxamacker/cbor's
	// promotion rules ignore the embedded type's methods too.
	named := tn.Type().(*types.Named)
	var have []string
	for _, name := range generatedNames {
		for i := 0; i < named.NumMethods(); i++ {
			if named.Method(i).Name() == name {
				have = append(have, name)
			}
		}
	}
	return have
}

// containsLock reports whether a value of type t holds a lock that copying
// it would copy, as go vet's copylocks sees it: a type whose pointer has
// Lock and Unlock methods (sync.Mutex, sync.RWMutex, and the noCopy guard
// of sync.WaitGroup, sync.Once and the sync/atomic types), held directly
// or in a struct field or array element, not behind a pointer.
func containsLock(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if _, ok := types.Unalias(t).(*types.Named); ok {
		ms := types.NewMethodSet(types.NewPointer(t))
		lock, unlock := ms.Lookup(nil, "Lock"), ms.Lookup(nil, "Unlock")
		if lock != nil && unlock != nil && isNullary(lock) && isNullary(unlock) {
			if _, isIface := t.Underlying().(*types.Interface); !isIface {
				return true
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if containsLock(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return containsLock(u.Elem(), seen)
	}
	return false
}

func isNullary(sel *types.Selection) bool {
	sig, ok := sel.Type().(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 0
}
