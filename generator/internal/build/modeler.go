package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// modeler translates go/types into the model. It collects every problem
// it finds, each with its position, so that one run reports them all.
type modeler struct {
	fset     *token.FileSet
	pkg      *types.Package
	syntax   []*ast.File // the package's files, for doc comments
	selected map[*types.TypeName]bool
	errs     []error
	// directiveErrs are the mistakes in //cborgen: lines, reported when
	// the types have no other error.
	directiveErrs []error
	// refused are the //cborgen: lines checkDirectives refused: their
	// errors are in directiveErrs already.
	refused   map[*ast.Comment]bool
	visiting  map[*types.Named]bool                // named non-struct types being translated, against cycles
	notes     []error                              // fields on the slow path (Dynamic), reported but not fatal
	pending   *pendingGeneration                   // struct types other packages will generate
	unions    map[*types.TypeName]*model.UnionType // //cborgen:union interfaces of the package
	noLegacy  bool                                 // -nolegacy: no type gets the legacy decoder unless //cborgen:legacy
	anonAt    anonAt                               // the field being translated, to name anonymous structs' copies (anon.go)
	anonNames map[string]bool                      // the names of those copies
	anons     []*model.Struct                      // the copies, added to the run after its own types
}

func (m *modeler) errorf(pos token.Pos, format string, args ...any) {
	m.errs = append(m.errs, &model.PosError{Pos: m.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

// structModel translates the struct type named tn.
func (m *modeler) structModel(tn *types.TypeName) *model.Struct {
	named := tn.Type().(*types.Named)
	s := &model.Struct{Name: tn.Name(), Pos: m.fset.Position(tn.Pos()), HoldsLock: containsLock(named.Underlying(), map[types.Type]bool{})}
	for i := 0; i < named.TypeParams().Len(); i++ {
		s.TypeParams = append(s.TypeParams, named.TypeParams().At(i).Obj().Name())
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		// A value type: its methods encode its underlying type.
		prev := m.at(s.Name, "", tn.Pos())
		t, err := m.underlyingModel(named.Underlying(), named)
		m.anonAt = prev
		if err != nil {
			m.errorf(tn.Pos(), "type %s has unsupported underlying type %s: %v", s.Name, m.typeString(named.Underlying()), err)
			return s
		}
		s.Value = t
		return s
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); slices.Contains(model.GeneratedNames, f.Name()) {
			m.errorf(f.Pos(), "field %s.%s has the name of a method cbor-gen generates for %s; rename the field", s.Name, f.Name(), s.Name)
		}
	}
	m.unknownField(s, st) // unknown.go
	fields, errs := visibleFields(m.fset, s.Name, named)
	m.errs = append(m.errs, errs...)
	for _, c := range fields {
		if c.reserved != nil {
			s.Fields = append(s.Fields, c.reserved)
			continue
		}
		if isUnknownType(c.v.Type()) {
			if len(c.via) > 0 {
				m.errorf(c.v.Pos(), "field %s.%s: runtime.Unknown promoted from embedded %s keeps what %s does not know, not what %s does not: give %s a runtime.Unknown field of its own, or tag this one `cbor:\"-\"`",
					s.Name, c.v.Name(), c.via[len(c.via)-1].Name, c.via[len(c.via)-1].Name, s.Name, s.Name)
			}
			continue // not a field on the wire (unknown.go)
		}
		f, tag := c.v, c.tag
		fd := &model.Field{Name: f.Name(), Pos: s.Pos, Key: c.name, KeyAsInt: tag.keyAsInt, KeyInt: c.keyInt,
			OmitEmpty: tag.omitEmpty, OmitZero: tag.omitZero, Via: c.via, Zero: zeroFormOf(f.Type())}
		if f.Pos().IsValid() {
			fd.Pos = m.fset.Position(f.Pos())
		}
		prev := m.at(s.Name, f.Name(), f.Pos())
		t, err := m.typeModel(f.Type())
		m.anonAt = prev
		if err != nil {
			m.errorf(f.Pos(), "field %s.%s has unsupported type %s: %v (leave the field out of the encoding with the tag `cbor:\"-\"`)", s.Name, f.Name(), m.typeString(f.Type()), err)
			continue
		}
		if model.HasDynamic(t) {
			m.notes = append(m.notes, &model.PosError{Pos: m.fset.Position(f.Pos()), Msg: fmt.Sprintf(
				"note: field %s.%s (%s) is encoded and decoded by fxamacker/cbor with reflection (the slow path)",
				s.Name, f.Name(), m.typeString(f.Type()))})
		}
		fd.Type = t
		s.Fields = append(s.Fields, fd)
	}
	return s
}

// typeModel translates a field type, or says why it cannot.
func (m *modeler) typeModel(t types.Type) (model.Type, error) {
	t = types.Unalias(t)
	if named, ok := t.(*types.Named); ok {
		return m.namedModel(named)
	}
	return m.underlyingModel(t, t)
}

func (m *modeler) namedModel(named *types.Named) (model.Type, error) {
	obj := named.Obj()
	if isUnknownType(named) {
		return nil, fmt.Errorf("runtime.Unknown is not a value to encode: a field of that type (not a pointer, slice or map of it) of a //cborgen:map or //cborgen:extensible struct itself keeps what the struct's decoder does not know")
	}
	if m.selected[named.Origin().Obj()] && obj.Pkg() == m.pkg && hasBodyDoc(m.syntax, named.Origin().Obj()) {
		return m.bodyRef(named), nil // body.go: through the type's own methods
	}
	if m.selected[named.Origin().Obj()] || hasGeneratedMethods(named) {
		// The type arguments of a generic type must be encodable too: its
		// methods hand them to the runtime's dynamic package.
		for i := 0; i < named.TypeArgs().Len(); i++ {
			if _, err := m.typeModel(named.TypeArgs().At(i)); err != nil {
				return nil, fmt.Errorf("type argument %s: %v", m.typeString(named.TypeArgs().At(i)), err)
			}
		}
		local := ""
		if m.selected[named.Origin().Obj()] && obj.Pkg() == m.pkg {
			local = obj.Name()
		}
		return model.StructRef{Go: named, Name: m.typeString(named), Local: local, HasSize: m.selected[named.Origin().Obj()] ||
			types.NewMethodSet(types.NewPointer(named)).Lookup(nil, model.MethodSize) != nil}, nil
	}
	if obj.Pkg() != nil {
		switch obj.Pkg().Path() + "." + obj.Name() {
		case "time.Time":
			return model.Time{Go: named}, nil
		case "math/big.Int":
			return model.BigInt{Go: named}, nil
		}
	}
	if _, ok := named.Underlying().(*types.Interface); ok {
		if u := m.unions[obj]; u != nil {
			return model.Union{Go: named, Model: u}, nil
		}
		return model.Dynamic{Go: named, Interface: true}, nil
	}
	// The methods fxamacker/cbor calls, in the order it looks for them.
	marshal, unmarshal := hasSignature(named, "MarshalCBOR", false), hasSignature(named, "UnmarshalCBOR", true)
	binary, unbinary := hasSignature(named, "MarshalBinary", false), hasSignature(named, "UnmarshalBinary", true)
	switch {
	case marshal && unmarshal:
		return model.Marshaler{Go: named, Raw: obj.Pkg() != nil && obj.Pkg().Path()+"."+obj.Name() == "github.com/fxamacker/cbor/v2.RawMessage"}, nil
	case (marshal || unmarshal) && !binary && !unbinary:
		return m.splitModel(named, model.Marshaler{Go: named}, marshal)
	case marshal || unmarshal:
		return model.Dynamic{Go: named}, nil // fxamacker mixes the pairs: leave it to fxamacker
	case binary && unbinary:
		return model.BinaryMarshaler{Go: named}, nil
	case binary || unbinary:
		return m.splitModel(named, model.BinaryMarshaler{Go: named}, binary)
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
			return model.StructRef{Go: named, Name: m.typeString(named), HasSize: true}, nil
		}
		// A struct of another package that cbor-gen does not generate
		// (image.Point, a library's type): fxamacker/cbor writes it, as a
		// map keyed by field name, exactly as it would without cbor-gen.
		return model.Dynamic{Go: named}, nil
	}
	if obj.Pkg() == m.pkg && hasTagDoc(m.syntax, obj) {
		// Written as its kind, it would lose the tag its directive asks for.
		return nil, fmt.Errorf("%s has a //cborgen:tag directive but is not generated, so it would be written without its tag (add it to -type)", obj.Name())
	}
	if m.visiting[named] {
		return nil, fmt.Errorf("%s refers to itself without a struct in between", obj.Name())
	}
	m.visiting[named] = true
	defer delete(m.visiting, named)
	return m.underlyingModel(named.Underlying(), named)
}

// splitModel is the model of a type with one method of a pair: method
// one way (encodes: when writing), the type's kind the other way, as
// fxamacker/cbor handles it. A struct, or a kind that would itself need
// fxamacker, stays on the slow path (Dynamic).
func (m *modeler) splitModel(named *types.Named, method model.Type, encodes bool) (model.Type, error) {
	if _, isStruct := named.Underlying().(*types.Struct); isStruct || m.visiting[named] {
		return model.Dynamic{Go: named}, nil
	}
	m.visiting[named] = true
	defer delete(m.visiting, named)
	kind, err := m.underlyingModel(named.Underlying(), named)
	if err != nil || model.HasDynamic(kind) {
		return model.Dynamic{Go: named}, nil
	}
	if encodes {
		return model.Split{Go: named, Enc: method, Dec: kind, Kind: kind}, nil
	}
	return model.Split{Go: named, Enc: kind, Dec: method, Kind: kind}, nil
}

// underlyingModel translates the type structure u of the Go type goT
// (which is u itself, or a named type whose underlying type is u).
func (m *modeler) underlyingModel(u, goT types.Type) (model.Type, error) {
	switch u := u.(type) {
	case *types.Basic:
		return basicModel(u, goT)
	case *types.Slice:
		if isPlainByte(u.Elem()) || isNamedByte(u.Elem()) {
			named := isNamedByte(u.Elem())
			return model.Bytes{Go: goT, NamedElem: named, ElemUnmarshals: named && hasSignature(u.Elem(), "UnmarshalCBOR", true)}, nil
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		_, named := goT.(*types.Named)
		return model.Slice{Go: goT, Elem: elem, ElemZero: zeroFormOf(u.Elem()), Named: named}, nil
	case *types.Array:
		if isPlainByte(u.Elem()) || isNamedByte(u.Elem()) {
			return model.ByteArray{Go: goT, N: u.Len(), NamedElem: isNamedByte(u.Elem())}, nil
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return model.Array{Go: goT, N: u.Len(), Elem: elem}, nil
	case *types.Map:
		key, err := m.typeModel(u.Key())
		if err != nil {
			return nil, err
		}
		if err := mapKeyOK(u.Key()); err != nil {
			return nil, err
		}
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return model.Map{Go: goT, Key: key, Elem: elem, ElemZero: zeroFormOf(u.Elem()), KeyZero: zeroFormOf(u.Key())}, nil
	case *types.Pointer:
		elem, err := m.typeModel(u.Elem())
		if err != nil {
			return nil, err
		}
		return model.Pointer{Go: goT, Elem: elem}, nil
	case *types.Struct:
		return m.anonModel(u) // anon.go
	case *types.Interface:
		if goT == u {
			// Generated code names the type (new(*interface{ M() }),
			// make([]interface{ M() }, n)), so it must be writable here.
			if err := m.writable(u); err != nil {
				return nil, err
			}
		}
		return model.Dynamic{Go: goT, Interface: true}, nil
	case *types.Chan:
		return nil, fmt.Errorf("channels have no CBOR encoding")
	case *types.Signature:
		return nil, fmt.Errorf("functions have no CBOR encoding")
	case *types.TypeParam:
		return model.TypeParam{Go: goT}, nil
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

func basicModel(b *types.Basic, goT types.Type) (model.Type, error) {
	switch b.Kind() {
	case types.Bool:
		return model.Bool{Go: goT}, nil
	case types.Int:
		return model.Int{Go: goT, Signed: true}, nil
	case types.Int8:
		return model.Int{Go: goT, Bits: 8, Signed: true}, nil
	case types.Int16:
		return model.Int{Go: goT, Bits: 16, Signed: true}, nil
	case types.Int32:
		return model.Int{Go: goT, Bits: 32, Signed: true}, nil
	case types.Int64:
		return model.Int{Go: goT, Bits: 64, Signed: true}, nil
	case types.Uint:
		return model.Int{Go: goT}, nil
	case types.Uint8:
		return model.Int{Go: goT, Bits: 8}, nil
	case types.Uint16:
		return model.Int{Go: goT, Bits: 16}, nil
	case types.Uint32:
		return model.Int{Go: goT, Bits: 32}, nil
	case types.Uint64:
		return model.Int{Go: goT, Bits: 64}, nil
	case types.Float32:
		return model.Float{Go: goT, Bits: 32}, nil
	case types.Float64:
		return model.Float{Go: goT, Bits: 64}, nil
	case types.String:
		return model.String{Go: goT}, nil
	case types.Uintptr:
		return nil, fmt.Errorf("uintptr values are addresses, not data")
	case types.Complex64, types.Complex128:
		return nil, fmt.Errorf("complex numbers are not supported")
	case types.UnsafePointer:
		return nil, fmt.Errorf("unsafe.Pointer values are addresses, not data")
	}
	return nil, fmt.Errorf("no CBOR encoding for this kind of type")
}

func (m *modeler) typeString(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(m.pkg))
}

// mapKeyOK reports why the map key type key cannot be a generated map's
// key. Go's type checker has already made sure the
// type is comparable; a key is written as a value of its type is written
// (a struct as its own encoding), as fxamacker/cbor writes it. Refused:
// a key that holds an interface value other than through a pointer
// (fxamacker decodes into it whatever Go type the item reads as, a
// []byte too, which no map can hold as a key).
func mapKeyOK(key types.Type) error {
	if _, param := types.Unalias(key).(*types.TypeParam); param {
		// The instantiation decides: the runtime's dynamic.DecodeKey
		// checks a key whose type argument holds an interface.
		return nil
	}
	if t := interfaceIn(key, map[types.Type]bool{}); t != nil {
		if _, param := t.(*types.TypeParam); param {
			return fmt.Errorf("map keys that hold a value of type parameter %s are not supported (a key of the type parameter itself is)", t)
		}
		return fmt.Errorf("map keys that hold an interface value (%s) are not supported", t)
	}
	return nil
}

// interfaceIn returns an interface type that a value of t holds in
// place: t itself, or one of the elements or fields (exported or not) of
// the arrays and structs within it; nil when there is none. A pointer's
// target is not in place: a pointer key compares by address.
func interfaceIn(t types.Type, seen map[types.Type]bool) types.Type {
	if seen[t] {
		return nil
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return t
	case *types.Array:
		return interfaceIn(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if it := interfaceIn(u.Field(i).Type(), seen); it != nil {
				return it
			}
		}
	}
	return nil
}
