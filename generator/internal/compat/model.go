// Package compat is the generator of -compat whyrusleeping: for the
// named types, the API (MarshalCBOR(io.Writer), UnmarshalCBOR(io.Reader))
// and the bytes of whyrusleeping/cbor-gen v0.3.x, its tuple format by
// default and its map format for types marked //cborgen:map, with its
// field options (cborgen:"name,omitempty,const=V,optional,maxlen=N,
// transparent,preservenil") and its decoding rules, over the runtime
// package runtime/cbgcompat.
//
// It takes the package as load found it, models the types from go/types
// as whyrusleeping/cbor-gen models them from reflect (by kind: a named
// int64 type is an int64), and renders the source, which finish formats
// and type-checks as it does every output.
package compat

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// Mode is the value of -compat this package generates.
const Mode = "whyrusleeping"

// The defaults of whyrusleeping/cbor-gen's Gen.
const (
	DefaultMaxArray  = 8192
	DefaultMaxBytes  = 2 << 20
	DefaultMaxString = 8192
)

// Options are the settings of a run in this mode.
type Options struct {
	Types []string // the types, in order; empty: every eligible struct
	// The limits of whyrusleeping/cbor-gen's Gen (MaxArrayLength,
	// MaxByteLength, MaxStringLength); 0 means its default.
	MaxArray, MaxBytes, MaxString int
}

func (o Options) limits() (arr, byt, str int) {
	arr, byt, str = o.MaxArray, o.MaxBytes, o.MaxString
	if arr <= 0 {
		arr = DefaultMaxArray
	}
	if byt <= 0 {
		byt = DefaultMaxBytes
	}
	if str <= 0 {
		str = DefaultMaxString
	}
	return
}

// kind is how whyrusleeping/cbor-gen writes a value: by reflect kind,
// with three struct types of its own.
type kind int

const (
	kString kind = iota
	kUint64
	kUint8
	kInt64
	kBool
	kStruct   // a type with MarshalCBOR(io.Writer)/UnmarshalCBOR(io.Reader)
	kCid      // github.com/ipfs/go-cid.Cid
	kBigInt   // math/big.Int
	kDeferred // whyrusleeping/cbor-gen's Deferred
	kFilInt   // github.com/filecoin-project/go-state-types/big.Int, written here as its methods write it
	kAddress  // github.com/filecoin-project/go-address.Address, likewise
	kSlice
	kArray
	kMap
)

// Paths of the types the format knows by name.
const (
	cidPath      = "github.com/ipfs/go-cid"
	filBigPath   = "github.com/filecoin-project/go-state-types/big"
	addressPath  = "github.com/filecoin-project/go-address"
	cbgPath      = "github.com/whyrusleeping/cbor-gen"
	CompatPath   = model.CompatPath
	compatMethod = "DecodeCBORCompat"
)

// value is a Go type as the format sees it.
type value struct {
	kind    kind
	pointer bool       // a pointer to the type
	typ     types.Type // the type without the pointer
	elem    *value     // slices, arrays, map values
	length  int64      // arrays
	// label: a kStruct that is go-state-types' DealLabel (isDealLabel),
	// read through its constructors where they take the item.
	label bool
	// lexBlob: a kStruct that is indigo's lex/util LexBlob (isLexBlob),
	// read and written in place (lexblob.go); lexLink: its LexLink, a CID
	// with methods of its own, likewise.
	lexBlob, lexLink bool
}

// field is one field of a type, or the type itself (transparent).
type field struct {
	Name        string // Go name; "" is the value itself
	Key         string // map key
	Pos         token.Position
	v           *value
	OmitEmpty   bool
	Optional    bool
	PreserveNil bool
	Const       *string
	MaxLen      int // -1: none
}

// typeInfo is one generated type.
type typeInfo struct {
	Name        string
	Pos         token.Position
	Map         bool
	Transparent bool
	Fields      []*field
	Mandatory   int
	named       *types.Named
	// ownWriter: no field, however deep, is written through an
	// io.Writer (a type's own MarshalCBOR, or another run's generated
	// code, which may call one): its AppendCBORCompat takes a nil
	// Writer, and MarshalCBOR appends into a bytes.Buffer's free space
	// (usesWriter).
	ownWriter bool
}

// File is what the run generates.
type File struct {
	Package  string
	Path     string
	Types    []*typeInfo
	Build    string
	maxArray int
	maxBytes int
	maxStr   int
	pkg      *types.Package
	inRun    map[*types.TypeName]bool
	imports  map[string]string // path -> name used
	taken    map[string]bool
	// helpers are the file's own functions, written after the types'
	// methods; addrHelper names the one that reads an address,
	// cidHelper the one that reads a CID.
	helpers    []byte
	addrHelper string
	cidHelper  string
	// lexBlob and lexLink name the functions that read and write each
	// LexBlob and LexLink type (of each lex/util-like package the
	// file's types use), lexLinkValues the StringValues of each LexLink.
	lexBlob, lexLink map[*types.TypeName]*lexBlobHelpers
	lexLinkValues    map[*types.TypeName]string
}

// Model reads the types of the run from the loaded package.
func Model(l *load.Package, o Options) (*File, error) {
	pkg := l.Pkg.Types
	f := &File{Package: pkg.Name(), Path: pkg.Path(), pkg: pkg, inRun: map[*types.TypeName]bool{},
		imports: map[string]string{}, taken: map[string]bool{}}
	f.maxArray, f.maxBytes, f.maxStr = o.limits()
	for _, n := range pkg.Scope().Names() {
		f.taken[n] = true
	}
	docs := typeDocs(l)
	names := o.Types
	if len(names) == 0 {
		names = defaultTypes(l, pkg)
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no exported struct type to generate; name the types with -type", model.RelPath(l.Dir))
		}
	}
	var tinfos []*typeInfo
	for _, name := range names {
		obj, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || obj.IsAlias() {
			return nil, fmt.Errorf("-type %s: no such type in package %s", name, pkg.Path())
		}
		named, ok := obj.Type().(*types.Named)
		if !ok {
			return nil, fmt.Errorf("-type %s: not a defined type", name)
		}
		if named.TypeParams().Len() > 0 {
			return nil, posErr(l, obj.Pos(), "type %s is generic: whyrusleeping/cbor-gen generates no generic types, and -compat whyrusleeping does not either", name)
		}
		f.inRun[obj] = true
		t := &typeInfo{Name: name, Pos: l.Pkg.Fset.Position(obj.Pos()), named: named}
		t.Map = hasDirective(docs[name], "map")
		if d := otherDirective(docs[name]); d != "" {
			return nil, posErr(l, obj.Pos(), "type %s: %s does not apply under -compat whyrusleeping, which writes whyrusleeping/cbor-gen's format; of the directives only //cborgen:map does (its map format)", name, d)
		}
		tinfos = append(tinfos, t)
	}
	for _, t := range tinfos {
		if err := f.parseType(l, t); err != nil {
			return nil, err
		}
	}
	f.Types = tinfos
	f.usesWriter()
	return f, nil
}

// usesWriter sets ownWriter on each type of the run whose encoding
// writes nothing through the Writer its AppendCBORCompat is handed:
// the least fixed point over the run's types, so that types that hold
// each other are decided together.
func (f *File) usesWriter() {
	byObj := map[*types.TypeName]*typeInfo{}
	for _, t := range f.Types {
		byObj[t.named.Obj()] = t
		t.ownWriter = true
	}
	var needs func(v *value) bool
	needs = func(v *value) bool {
		switch v.kind {
		case kStruct:
			if v.lexBlob || v.lexLink {
				return true // its fallback calls the type's own methods
			}
			if n, ok := types.Unalias(v.typ).(*types.Named); ok {
				if t := byObj[n.Obj()]; t != nil {
					return !t.ownWriter
				}
			}
			return true // its own MarshalCBOR, or generated by another run
		case kSlice, kArray, kMap:
			return needs(v.elem)
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, t := range f.Types {
			if !t.ownWriter {
				continue
			}
			for _, fd := range t.Fields {
				if needs(fd.v) {
					t.ownWriter, changed = false, true
					break
				}
			}
		}
	}
}

func posErr(l *load.Package, pos token.Pos, format string, args ...any) error {
	return relPos(l.Pkg.Fset.Position(pos), format, args...)
}

// relPos is the error message at p: file:line:col: message, the file
// relative to the working directory.
func relPos(p token.Position, format string, args ...any) error {
	return fmt.Errorf("%s:%d:%d: %s", model.RelPath(p.Filename), p.Line, p.Column, fmt.Sprintf(format, args...))
}

// defaultTypes are the exported, non-generic struct types of the package
// without a MarshalCBOR or UnmarshalCBOR of their own, in order of name.
func defaultTypes(l *load.Package, pkg *types.Package) []string {
	var out []string
	for _, n := range pkg.Scope().Names() {
		obj, ok := pkg.Scope().Lookup(n).(*types.TypeName)
		if !ok || !obj.Exported() || obj.IsAlias() {
			continue
		}
		named, ok := obj.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(named))
		if ms.Lookup(pkg, "MarshalCBOR") != nil || ms.Lookup(pkg, "UnmarshalCBOR") != nil {
			continue
		}
		out = append(out, n)
	}
	return out
}

// typeDocs are the doc comments of the package's type declarations.
func typeDocs(l *load.Package) map[string]string {
	docs := map[string]string{}
	for _, file := range l.Pkg.Syntax {
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				var text string
				if ts.Doc != nil {
					text = commentText(ts.Doc)
				} else if gd.Doc != nil && len(gd.Specs) == 1 {
					text = commentText(gd.Doc)
				}
				docs[ts.Name.Name] = text
			}
		}
	}
	return docs
}

func commentText(g *ast.CommentGroup) string {
	var b strings.Builder
	for _, c := range g.List {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

func hasDirective(doc, name string) bool {
	for _, line := range strings.Split(doc, "\n") {
		if strings.TrimSpace(line) == "//cborgen:"+name {
			return true
		}
	}
	return false
}

// otherDirective is the first //cborgen: directive of doc that is not
// //cborgen:map.
func otherDirective(doc string) string {
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "//cborgen:") && line != "//cborgen:map" {
			return line
		}
	}
	return ""
}

// parseType models t as whyrusleeping/cbor-gen's ParseTypeInfo does.
func (f *File) parseType(l *load.Package, t *typeInfo) error {
	pos := t.named.Obj().Pos()
	st, ok := t.named.Underlying().(*types.Struct)
	if !ok {
		if t.Map {
			return posErr(l, pos, "type %s: transparent fields are not supported in map mode (whyrusleeping/cbor-gen refuses them too); drop //cborgen:map", t.Name)
		}
		v, err := f.classify(t.named, true)
		if err != nil {
			return posErr(l, pos, "type %s: %v", t.Name, err)
		}
		t.Transparent = true
		t.Fields = []*field{{v: v, MaxLen: -1, Pos: l.Pkg.Fset.Position(pos)}}
		t.Mandatory = 1
		return f.checkField(l, t, t.Fields[0])
	}
	keys := map[string]bool{}
	for i := 0; i < st.NumFields(); i++ {
		if t.Transparent {
			return posErr(l, pos, "type %s: transparent structs must have exactly one field", t.Name)
		}
		sf := st.Field(i)
		if !sf.Exported() {
			continue
		}
		fpos := l.Pkg.Fset.Position(sf.Pos())
		fd := &field{Name: sf.Name(), Key: sf.Name(), MaxLen: -1, Pos: fpos}
		tags, err := tagParse(reflectTag(st.Tag(i), "cborgen"))
		if err != nil {
			return posErr(l, sf.Pos(), "field %s.%s: invalid tag format: %v", t.Name, sf.Name(), err)
		}
		if _, ok := tags["ignore"]; ok {
			continue
		}
		if n := tags["name"]; n != "" {
			fd.Key = n
		}
		if ms := tags["maxlen"]; ms != "" {
			v, err := strconv.Atoi(ms)
			if err != nil {
				return posErr(l, sf.Pos(), "field %s.%s: maxsize tag value was not valid: %v", t.Name, sf.Name(), err)
			}
			fd.MaxLen = v
		}
		v, err := f.classify(sf.Type(), false)
		if err != nil {
			return posErr(l, sf.Pos(), "field %s.%s: %v", t.Name, sf.Name(), err)
		}
		fd.v = v
		if cv, ok := tags["const"]; ok {
			if v.kind != kString {
				return posErr(l, sf.Pos(), "field %s.%s: const vals are only supported for string types", t.Name, sf.Name())
			}
			fd.Const = &cv
		}
		if _, ok := tags["transparent"]; ok {
			if len(t.Fields) > 0 {
				return posErr(l, sf.Pos(), "field %s.%s: only one transparent field is allowed", t.Name, sf.Name())
			}
			if t.Map {
				return posErr(l, pos, "type %s: transparent fields are not supported in map mode (whyrusleeping/cbor-gen refuses them too)", t.Name)
			}
			t.Transparent = true
		}
		_, fd.OmitEmpty = tags["omitempty"]
		_, fd.Optional = tags["optional"]
		_, fd.PreserveNil = tags["preservenil"]
		if fd.PreserveNil && v.kind != kSlice {
			return posErr(l, sf.Pos(), "field %s.%s: preservenil is only supported on slice types", t.Name, sf.Name())
		}
		if t.Map {
			if keys[fd.Key] {
				return posErr(l, sf.Pos(), "field %s.%s: map key %q is used by another field", t.Name, sf.Name(), fd.Key)
			}
			keys[fd.Key] = true
			if len(fd.Key) > f.maxStr {
				return posErr(l, sf.Pos(), "field %s.%s: map key %q is longer than the string limit %d", t.Name, sf.Name(), fd.Key, f.maxStr)
			}
			if fd.OmitEmpty && !v.pointer && v.kind != kString && v.kind != kSlice {
				return posErr(l, sf.Pos(), "field %s.%s: omit empty not supported for this kind (whyrusleeping/cbor-gen takes it on pointers, strings and slices)", t.Name, sf.Name())
			}
		}
		t.Fields = append(t.Fields, fd)
		if err := f.checkField(l, t, fd); err != nil {
			return err
		}
	}
	for i, fd := range t.Fields {
		if fd.Optional {
			continue
		}
		if t.Mandatory != i {
			return posErr(l, pos, "type %s: mandatory field %s cannot come after optional fields", t.Name, fd.Name)
		}
		t.Mandatory++
	}
	if t.Map {
		sort.SliceStable(t.Fields, func(i, j int) bool {
			a, b := t.Fields[i].Key, t.Fields[j].Key
			if len(a) != len(b) {
				return len(a) < len(b)
			}
			return a < b
		})
	}
	return nil
}

// checkField refuses what whyrusleeping/cbor-gen cannot generate for a
// field, or generates code for that does not compile.
func (f *File) checkField(l *load.Package, t *typeInfo, fd *field) error {
	v := fd.v
	bad := func(format string, args ...any) error {
		name := t.Name
		if fd.Name != "" {
			name += "." + fd.Name
		}
		return relPos(fd.Pos, "field %s: %s", name, fmt.Sprintf(format, args...))
	}
	switch v.kind {
	case kUint8:
		if v.pointer {
			return bad("pointers to integers not supported")
		}
	case kSlice, kArray:
		if v.pointer {
			return bad("pointers to slices and arrays are not supported")
		}
		if err := checkElem(v.elem, v.kind == kArray); err != nil {
			return bad("%v", err)
		}
	case kMap:
		if v.pointer {
			return bad("pointers to maps are not supported")
		}
		e := v.elem
		if e.kind != kString && !isStructish(e.kind) || (e.kind == kString && e.pointer) {
			return bad("maps of %s values are not supported (whyrusleeping/cbor-gen takes strings and structs)", types.TypeString(e.typ, nil))
		}
	case kBigInt:
		if !v.pointer {
			return bad("big.Int fields must be pointers (*big.Int)")
		}
	}
	return nil
}

func isStructish(k kind) bool {
	return k == kStruct || k == kCid || k == kBigInt || k == kDeferred || k == kFilInt || k == kAddress
}

// checkElem: the elements whyrusleeping/cbor-gen both writes and reads.
func checkElem(e *value, inArray bool) error {
	if e.kind == kUint8 {
		return nil // a byte string
	}
	switch {
	case isStructish(e.kind):
		if e.kind == kBigInt && !e.pointer {
			return fmt.Errorf("big.Int elements must be pointers")
		}
		return nil
	case e.kind == kString:
		return nil
	case e.kind == kUint64 || e.kind == kInt64:
		if e.pointer {
			return fmt.Errorf("slices of pointers to integers are not supported")
		}
		return nil
	case e.kind == kSlice:
		if e.pointer {
			return fmt.Errorf("pointers to slices not supported")
		}
		return checkElem(e.elem, false)
	}
	return fmt.Errorf("slices and arrays of %s are not supported by whyrusleeping/cbor-gen", types.TypeString(e.typ, nil))
}

// classify returns how t is written. self: t is the generated type
// itself (transparent), whose struct kind is not recursed into.
func (f *File) classify(t types.Type, self bool) (*value, error) {
	v := &value{}
	if p, ok := t.(*types.Pointer); ok && !self {
		v.pointer = true
		t = p.Elem()
	}
	v.typ = t
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case cidPath + ".Cid":
			v.kind = kCid
			return v, nil
		case "math/big.Int":
			v.kind = kBigInt
			return v, nil
		case cbgPath + ".Deferred":
			v.kind = kDeferred
			return v, nil
		case filBigPath + ".Int":
			// Inside the type's own package it is called by its
			// methods: the reads would import the package they are in.
			if n.Obj().Pkg() != f.pkg && isFilInt(n) {
				v.kind = kFilInt
				return v, nil
			}
		case addressPath + ".Address":
			if n.Obj().Pkg() != f.pkg && isAddress(n) {
				v.kind = kAddress
				return v, nil
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.String:
			v.kind = kString
		case types.Uint64:
			v.kind = kUint64
		case types.Uint8:
			v.kind = kUint8
		case types.Int64:
			v.kind = kInt64
		case types.Bool:
			v.kind = kBool
		default:
			return nil, fmt.Errorf("kind %s is not supported by whyrusleeping/cbor-gen (it takes uint64, int64, uint8, bool and string)", u.Name())
		}
	case *types.Struct:
		v.kind = kStruct
		if !f.hasMethods(t) {
			return nil, fmt.Errorf("type %s has no MarshalCBOR(io.Writer) and UnmarshalCBOR(io.Reader): generate it in this run (-type) or give it those methods", types.TypeString(t, types.RelativeTo(f.pkg)))
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && !v.pointer && !f.inRun[n.Obj()] && n.Obj().Pkg() == f.pkg {
			v.label = isDealLabel(n)
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			v.lexBlob, v.lexLink = f.isLexBlob(n), f.isLexLink(n)
		}
	case *types.Slice:
		v.kind = kSlice
		e, err := f.classify(u.Elem(), false)
		if err != nil {
			return nil, err
		}
		v.elem = e
	case *types.Array:
		v.kind = kArray
		v.length = u.Len()
		e, err := f.classify(u.Elem(), false)
		if err != nil {
			return nil, err
		}
		v.elem = e
	case *types.Map:
		v.kind = kMap
		if b, ok := u.Key().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			return nil, fmt.Errorf("non-string map keys are not yet supported")
		}
		e, err := f.classify(u.Elem(), false)
		if err != nil {
			return nil, err
		}
		v.elem = e
	case *types.Pointer:
		return nil, fmt.Errorf("pointers to pointers are not supported")
	default:
		return nil, fmt.Errorf("type %s is not supported by whyrusleeping/cbor-gen", types.TypeString(t, nil))
	}
	return v, nil
}

// isFilInt: n is go-state-types' big.Int as every version so far
// declares it, a struct embedding *math/big.Int whose MarshalCBOR and
// UnmarshalCBOR write and read a byte string of at most
// BigIntMaxSerializedLen (128) bytes: empty for zero, else a sign byte
// and the magnitude. The generated code writes and reads that itself
// (cbgcompat.AppendFilInt, FilInt), with the same bytes, limits and
// errors, instead of calling the methods through an io.Writer or
// io.Reader. Any other shape is called by its methods.
func isFilInt(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok || st.NumFields() != 1 || !st.Field(0).Embedded() || st.Field(0).Name() != "Int" {
		return false
	}
	p, ok := st.Field(0).Type().(*types.Pointer)
	if !ok || types.TypeString(p.Elem(), nil) != "math/big.Int" {
		return false
	}
	c, ok := n.Obj().Pkg().Scope().Lookup("BigIntMaxSerializedLen").(*types.Const)
	if !ok || c.Val().String() != strconv.Itoa(filIntMax) {
		return false
	}
	return hasCBORMethods(n)
}

// filIntMax is cbgcompat.FilIntMax.
const filIntMax = 128

// isAddress: n is go-address's Address with the API the generated code
// uses: Bytes, NewFromBytes and Undef (MarshalCBOR writes Bytes as a
// byte string and refuses Undef; UnmarshalCBOR reads a byte string of
// at most 64 bytes through NewFromBytes and refuses Undef).
func isAddress(n *types.Named) bool {
	pkg := n.Obj().Pkg()
	nfb, ok := pkg.Scope().Lookup("NewFromBytes").(*types.Func)
	if !ok {
		return false
	}
	sig := nfb.Type().(*types.Signature)
	if sig.Params().Len() != 1 || types.TypeString(sig.Params().At(0).Type(), nil) != "[]byte" ||
		sig.Results().Len() != 2 || !types.Identical(sig.Results().At(0).Type(), n) {
		return false
	}
	undef, ok := pkg.Scope().Lookup("Undef").(*types.Var)
	if !ok || !types.Identical(undef.Type(), n) {
		return false
	}
	bs, _, _ := types.LookupFieldOrMethod(n, false, pkg, "Bytes")
	fn, ok := bs.(*types.Func)
	if !ok {
		return false
	}
	bsig := fn.Type().(*types.Signature)
	if bsig.Params().Len() != 0 || bsig.Results().Len() != 1 || types.TypeString(bsig.Results().At(0).Type(), nil) != "[]byte" {
		return false
	}
	return types.Comparable(n) && hasCBORMethods(n)
}

// isDealLabel: n is go-state-types' market.DealLabel (builtin/v8 and
// later): a struct of bs []byte and notString bool, with the
// constructors NewLabelFromString and NewLabelFromBytes and the limit
// DealMaxLabelSize beside it, whose UnmarshalCBOR reads a text string
// (checked to be UTF-8) or a byte string of at most 2 MiB into new bytes
// and sets notString for bytes. In the label's own package (the
// package's generated file, as go-state-types has it) the generated
// code fills those fields itself for the strings it takes (decLabel).
func isDealLabel(n *types.Named) bool {
	pkg := n.Obj().Pkg()
	st, ok := n.Underlying().(*types.Struct)
	if n.Obj().Name() != "DealLabel" || n.TypeParams().Len() != 0 || !ok || st.NumFields() != 2 ||
		st.Field(0).Name() != "bs" || types.TypeString(st.Field(0).Type(), nil) != "[]byte" ||
		st.Field(1).Name() != "notString" || types.TypeString(st.Field(1).Type(), nil) != "bool" {
		return false
	}
	ctor := func(name, param string) bool {
		fn, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok {
			return false
		}
		sig := fn.Type().(*types.Signature)
		return sig.Params().Len() == 1 && types.TypeString(sig.Params().At(0).Type(), nil) == param &&
			sig.Results().Len() == 2 && types.Identical(sig.Results().At(0).Type(), n) &&
			types.TypeString(sig.Results().At(1).Type(), nil) == "error"
	}
	max, ok := pkg.Scope().Lookup("DealMaxLabelSize").(*types.Const)
	if !ok || max.Val().Kind() != constant.Int {
		return false
	}
	if v, exact := constant.Int64Val(max.Val()); !exact || v < 0 {
		return false
	}
	return ctor("NewLabelFromString", "string") && ctor("NewLabelFromBytes", "[]byte") && hasCBORMethods(n)
}

func hasCBORMethods(n *types.Named) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	return lookupAny(ms, "MarshalCBOR") && lookupAny(ms, "UnmarshalCBOR")
}

// hasMethods: a struct type of the run, or one whose pointer has both
// methods.
func (f *File) hasMethods(t types.Type) bool {
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() == f.pkg {
			// A type of this package: of the run, or given methods by
			// another file; the type check of the output says.
			return true
		}
	}
	return lookupAny(types.NewMethodSet(types.NewPointer(t)), "MarshalCBOR")
}

func lookupAny(ms *types.MethodSet, name string) bool {
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

// fastDecode: t has the generated DecodeCBORCompat (a type of the run, or
// generated in this mode in another package).
func (f *File) fastCalls(t types.Type) bool {
	if n, ok := t.(*types.Named); ok {
		if f.inRun[n.Obj()] {
			return true
		}
	}
	return lookupAny(types.NewMethodSet(types.NewPointer(t)), compatMethod)
}

// reflectTag is reflect.StructTag.Get.
func reflectTag(tag, key string) string {
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		if tag == "" {
			break
		}
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		name := tag[:i]
		tag = tag[i+1:]
		i = 1
		for i < len(tag) && tag[i] != '"' {
			if tag[i] == '\\' {
				i++
			}
			i++
		}
		if i >= len(tag) {
			break
		}
		qvalue := tag[:i+1]
		tag = tag[i+1:]
		if key == name {
			value, err := strconv.Unquote(qvalue)
			if err != nil {
				break
			}
			return value
		}
	}
	return ""
}

// tagParse reads a cborgen tag as whyrusleeping/cbor-gen's tagparse.
func tagParse(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, elem := range strings.Split(v, ",") {
		elem = strings.TrimSpace(elem)
		switch {
		case elem == "":
		case strings.Contains(elem, "="):
			parts := strings.Split(elem, "=")
			if len(parts) != 2 {
				return nil, fmt.Errorf("struct tags with params must be of form X=Y")
			}
			out[strings.TrimSpace(parts[0])] = strings.TrimSpace(parts[1])
		case elem == "omitempty", elem == "preservenil", elem == "transparent", elem == "optional":
			out[elem] = "true"
		case elem == "ignore", elem == "-":
			out["ignore"] = "true"
		default:
			out["name"] = elem
		}
	}
	return out, nil
}
