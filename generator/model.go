package generator

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
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
	Name   string
	Fields []*Field // the fields on the wire, in declaration order
}

// Field is one exported, not skipped field of a Struct.
type Field struct {
	Name      string // Go field name
	Type      Type
	Key       string // legacy map key: the text key, or the digits of an integer key
	KeyAsInt  bool   // the legacy key is the integer KeyInt (tag option keyasint)
	KeyInt    int64
	OmitEmpty bool // tag option omitempty; it does not drop a field from an array
}

// Type is one wire shape. The set of implementations is closed: Bool, Int,
// Float, String, Bytes, ByteArray, Array, Slice, Map, Pointer, StructRef.
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

// Bytes is a []byte: a byte string, or null when nil.
type Bytes struct{ Go types.Type }

// ByteArray is a [N]byte: a byte string of exactly N bytes.
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
}

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

// modeler translates go/types into the model. It collects every problem
// it finds, each with its position, so that one run reports them all.
type modeler struct {
	fset     *token.FileSet
	pkg      *types.Package
	selected map[*types.TypeName]bool
	errs     []error
	visiting map[*types.Named]bool // named non-struct types being translated, against cycles
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
	st := tn.Type().Underlying().(*types.Struct)
	s := &Struct{Name: tn.Name()}
	textKeys := map[string]string{}
	intKeys := map[int64]string{}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() {
			m.errorf(f.Pos(), "field %s.%s: embedded fields are not supported yet", s.Name, f.Name())
			continue
		}
		if !f.Exported() {
			continue // unexported fields, and the "_" field that may carry toarray
		}
		tag, ok := parseTag(st.Tag(i))
		if !ok {
			continue
		}
		fd := &Field{Name: f.Name(), Key: tag.name, OmitEmpty: tag.omitEmpty}
		if fd.Key == "" {
			fd.Key = f.Name()
		}
		if tag.keyAsInt {
			n, err := strconv.ParseInt(fd.Key, 10, 64)
			if err != nil {
				m.errorf(f.Pos(), "field %s.%s: keyasint needs an integer key, found %q", s.Name, f.Name(), fd.Key)
				continue
			}
			fd.KeyAsInt, fd.KeyInt = true, n
			if other, dup := intKeys[n]; dup {
				m.errorf(f.Pos(), "field %s.%s: integer key %d is also used by field %s", s.Name, f.Name(), n, other)
			}
			intKeys[n] = f.Name()
		} else {
			if other, dup := textKeys[fd.Key]; dup {
				m.errorf(f.Pos(), "field %s.%s: key %q is also used by field %s", s.Name, f.Name(), fd.Key, other)
			}
			textKeys[fd.Key] = f.Name()
		}
		t, err := m.typeModel(f.Type())
		if err != nil {
			m.errorf(f.Pos(), "field %s.%s has unsupported type %s: %v", s.Name, f.Name(), m.typeString(f.Type()), err)
			continue
		}
		fd.Type = t
		s.Fields = append(s.Fields, fd)
	}
	return s
}

// fieldTag is a struct tag as fxamacker/cbor reads it.
type fieldTag struct {
	name                string
	omitEmpty, keyAsInt bool
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
	var t fieldTag
	for i, tok := range strings.Split(s, ",") {
		if i == 0 {
			t.name = tok
			continue
		}
		switch tok {
		case "omitempty":
			t.omitEmpty = true
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
	if named.TypeArgs().Len() > 0 || named.TypeParams().Len() > 0 {
		return nil, fmt.Errorf("generic types are not supported yet")
	}
	if m.selected[obj] || hasGeneratedMethods(named) {
		return StructRef{Go: named, Name: m.typeString(named)}, nil
	}
	if obj.Pkg() == nil {
		return nil, fmt.Errorf("interfaces cannot be decoded without knowing the concrete type")
	}
	if hasMethod(named, "MarshalCBOR") || hasMethod(named, "UnmarshalCBOR") {
		return nil, fmt.Errorf("%s has hand-written MarshalCBOR/UnmarshalCBOR methods; fields of such types are not supported yet", obj.Name())
	}
	if hasMethod(named, "MarshalBinary") || hasMethod(named, "UnmarshalBinary") {
		return nil, fmt.Errorf("%s implements encoding.BinaryMarshaler, which fxamacker/cbor uses; fields of such types are not supported yet", obj.Name())
	}
	if _, ok := named.Underlying().(*types.Struct); ok {
		if obj.Pkg() == m.pkg {
			return nil, fmt.Errorf("%s is not generated and has no AppendCBOR/DecodeCBOR methods (add it to -type)", obj.Name())
		}
		return nil, fmt.Errorf("%s has no generated AppendCBOR/DecodeCBOR methods (run cbor-gen in package %s)", m.typeString(named), obj.Pkg().Path())
	}
	if m.visiting[named] {
		return nil, fmt.Errorf("%s refers to itself without a struct in between", obj.Name())
	}
	m.visiting[named] = true
	defer delete(m.visiting, named)
	return m.underlyingModel(named.Underlying(), named)
}

// underlyingModel translates the type structure u of the Go type goT
// (which is u itself, or a named type whose underlying type is u).
func (m *modeler) underlyingModel(u, goT types.Type) (Type, error) {
	switch u := u.(type) {
	case *types.Basic:
		return basicModel(u, goT)
	case *types.Slice:
		if isPlainByte(u.Elem()) {
			return Bytes{Go: goT}, nil
		}
		if isNamedByte(u.Elem()) {
			return nil, fmt.Errorf("slices of a named byte type are not supported yet; use []byte")
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return Slice{Go: goT, Elem: elem}, nil
	case *types.Array:
		if isPlainByte(u.Elem()) {
			return ByteArray{Go: goT, N: u.Len()}, nil
		}
		if isNamedByte(u.Elem()) {
			return nil, fmt.Errorf("arrays of a named byte type are not supported yet; use [N]byte")
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
		return nil, fmt.Errorf("interfaces cannot be decoded without knowing the concrete type")
	case *types.Chan:
		return nil, fmt.Errorf("channels have no CBOR encoding")
	case *types.Signature:
		return nil, fmt.Errorf("functions have no CBOR encoding")
	case *types.TypeParam:
		return nil, fmt.Errorf("generic types are not supported yet")
	}
	return nil, fmt.Errorf("no CBOR encoding for this kind of type")
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

// hasMethod reports whether T or *T has a method called name.
func hasMethod(t types.Type, name string) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	return ms.Lookup(nil, name) != nil
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
	Package string // package name
	Path    string // import path
	Order   keyOrder
	Structs []*Struct
}

// generatedNames are the methods every generated type gets; a type that
// already has one of them cannot be generated.
var generatedNames = []string{
	"MarshalCBOR", "UnmarshalCBOR", "AppendCBOR", "DecodeCBOR",
	methodDecodeArray, methodDecodeMap, methodDecodeField,
}

// buildModel selects the struct types of the loaded package and translates
// them. With cfg.Types empty it takes every exported struct type that has
// no hand-written CBOR methods of its own.
func buildModel(l *loaded, cfg Config, order keyOrder) (*File, error) {
	pkg := l.pkg.Types
	scope := pkg.Scope()
	var chosen []*types.TypeName
	var errs []error
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
			if !ok || !tn.Exported() || tn.IsAlias() || !isStructType(tn) ||
				tn.Type().(*types.Named).TypeParams().Len() > 0 {
				continue
			}
			if len(existingMethods(tn)) > 0 {
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
	}
	for _, tn := range chosen {
		m.selected[tn] = true
	}
	f := &File{Package: pkg.Name(), Path: pkg.Path(), Order: order}
	for _, tn := range chosen {
		f.Structs = append(f.Structs, m.structModel(tn))
	}
	if len(m.errs) > 0 {
		return nil, joinPosErrors(m.errs)
	}
	return f, nil
}

// explicitType checks a type named with -type.
func explicitType(fset *token.FileSet, scope *types.Scope, name, pkgPath string) (*types.TypeName, error) {
	obj := scope.Lookup(name)
	if obj == nil {
		return nil, fmt.Errorf("-type %s: no such type in package %s", name, pkgPath)
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
	case tn.Type().(*types.Named).TypeParams().Len() > 0:
		return nil, at("-type %s: generic types are not supported yet", name)
	}
	if have := existingMethods(tn); len(have) > 0 {
		return nil, at("-type %s: %s already has a method %s; remove it or leave the type out", name, name, have[0])
	}
	return tn, nil
}

// isStructType reports whether tn is a defined, non-generic struct type.
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
	var have []string
	for _, name := range generatedNames {
		if hasMethod(tn.Type(), name) {
			have = append(have, name)
		}
	}
	return have
}
