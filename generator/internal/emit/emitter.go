package emit

import (
	"fmt"
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// atRoot is the runtime call that names the type name as the root of
// err's path: genrt.AtRoot(err, "Order", genrt.OneItem). extent is
// "OneItem" in a DecodeCBOR method and "WholeInput" where the input must
// hold exactly one item (UnmarshalCBOR, a union's Unmarshal).
func atRoot(err jen.Code, name, extent string) *jen.Statement {
	return rt("AtRoot").Call(err, jen.Lit(name), rt(extent))
}

// modeCode is the runtime constant of the time mode.
func modeCode(t model.TimeOptions) jen.Code {
	for _, m := range model.TimeModes {
		if m.Mode == t.Mode {
			return rt(m.Name)
		}
	}
	panic("cbor-gen: unknown time mode")
}

// emitter writes the methods of one file.
type emitter struct {
	order    model.KeyOrder
	time     model.TimeOptions
	nilEmpty bool // -nilempty: nil slices, maps and byte slices are written empty
	// floatNone: -float none, every float at its Go width.
	floatNone bool
	// small: -small, the runtime's calls in place of the fast paths in
	// line (small.go); structLoop: -small too, each struct read by one
	// loop over the runtime's table of its keys (compact). Two fields
	// for the two halves of -small, which are measured one at a time in
	// docs/performance.md.
	small, structLoop bool
	// hoist collects declarations of locals that must be outside every
	// loop of the method being emitted (see appendMap); the caller
	// places them before the code of the field that needs them.
	hoist []jen.Code
	// errInScope: the code being emitted sees a variable err error, so
	// that a read can assign it (v.F, err = d.ReadUint64()) in an
	// else-if instead of declaring a local of its own; errMethod: that
	// err is the one the method declares at its top, and errUsed then
	// reports that some code used it (useErr).
	errInScope, errMethod, errUsed bool
	// mapValue: the value being emitted is a map's, stored by an
	// assignment (m[k] = ...): a null there is the zero value, not a value
	// kept (KeepNull), as fxamacker decodes each value into a new one.
	mapValue bool

	path    string                   // the import path of the package
	structs map[string]*model.Struct // the types generated in this run, by name
	tables  map[string]keyTables     // the legacy decoders' key tables, by type name
}

// dynamicOptions is the dynamic.Options literal that makes fxamacker/cbor
// write what this run writes: zero fields left out.
func (e *emitter) dynamicOptions() jen.Code {
	var fields []jen.Code
	if e.order != model.OrderBytewise {
		fields = append(fields, jen.Id("Sort").Op(":").Add(rt(e.order.RuntimeName())))
	}
	if e.time.Mode != genrt.TimeUnix {
		fields = append(fields, jen.Id("Time").Op(":").Add(modeCode(e.time)))
	}
	if e.time.Tag {
		fields = append(fields, jen.Id("TimeTag").Op(":").True())
	}
	if e.nilEmpty {
		fields = append(fields, jen.Id("NilEmpty").Op(":").True())
	}
	if e.floatNone {
		fields = append(fields, jen.Id("FloatNone").Op(":").True())
	}
	return jen.Qual(model.DynamicPath, "Options").Values(fields...)
}

// scoped runs emit, the code of one field or value, and returns the
// declarations it hoisted out of every loop (e.hoist) and its code. Every
// method emitter goes through it, so that no hoisted local leaks into the
// next field's code.
func (e *emitter) scoped(emit func() []jen.Code) (hoisted, code []jen.Code) {
	e.hoist = nil
	code = emit()
	hoisted, e.hoist = e.hoist, nil
	return hoisted, code
}

// useErr notes that code uses the err in scope.
func (e *emitter) useErr() {
	if e.errMethod {
		e.errUsed = true
	}
}

// withLocalErr runs emit, the code inside a container whose head read
// declared an err of its own (n, err := d.ReadArrayHead()).
func (e *emitter) withLocalErr(emit func() []jen.Code) []jen.Code {
	inScope, method := e.errInScope, e.errMethod
	e.errInScope, e.errMethod = true, false
	defer func() { e.errInScope, e.errMethod = inScope, method }()
	return emit()
}

// inBlock is code after its hoisted declarations, in a block of its own
// when there are any, so that the names stay the field's own.
func inBlock(hoisted, code []jen.Code) []jen.Code {
	if len(hoisted) == 0 {
		return code
	}
	return []jen.Code{jen.Block(append(hoisted, code...)...)}
}

// ifEmbeddedNil runs ifNil instead of code when f is promoted through an
// embedded pointer that is nil (the innermost pointer tested last).
func ifEmbeddedNil(f *model.Field, ifNil func() jen.Code, code []jen.Code) []jen.Code {
	ptrs, _ := embeddedPtrs(f)
	for i := len(ptrs) - 1; i >= 0; i-- {
		code = []jen.Code{jen.If(jen.Add(ptrs[i]).Op("==").Nil()).Block(ifNil()).Else().Block(code...)}
	}
	return code
}

// fieldExpr is the Go expression for field f of *v: v.F, or through the
// embedded structs it is promoted from, v.Base.F.
func fieldExpr(f *model.Field) *jen.Statement {
	x := jen.Id("v")
	for _, e := range f.Via {
		x = x.Dot(e.Name)
	}
	return x.Dot(f.Name)
}

// embeddedPtrs lists the embedded pointers on the way to f, outermost
// first, as expressions (v.Base, v.Base.Inner) with their types.
func embeddedPtrs(f *model.Field) (exprs []*jen.Statement, types []model.Embed) {
	x := jen.Id("v")
	for _, e := range f.Via {
		x = x.Clone().Dot(e.Name)
		if e.Ptr != nil {
			exprs = append(exprs, x)
			types = append(types, e)
		}
	}
	return exprs, types
}

// importedPackages lists the packages whose types the generated code
// names, so that their imports carry the package's own name.
func importedPackages(f *model.File) []*types.Package {
	seen := map[*types.Package]bool{}
	var out []*types.Package
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && p.Path() != f.Path && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			for i := 0; i < t.TypeArgs().Len(); i++ {
				walk(t.TypeArgs().At(i))
			}
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Pointer:
			walk(t.Elem())
		}
	}
	var walkModel func(t model.Type)
	walkModel = func(t model.Type) {
		walk(t.GoType())
		switch t := t.(type) {
		case model.Array:
			walkModel(t.Elem)
		case model.Slice:
			walkModel(t.Elem)
		case model.Map:
			walkModel(t.Key)
			walkModel(t.Elem)
		case model.Pointer:
			walkModel(t.Elem)
		case model.Split:
			walkModel(t.Enc)
			walkModel(t.Dec)
		}
	}
	for _, s := range f.Structs {
		for _, fd := range s.Fields {
			walkModel(fd.Type)
		}
		if s.Value != nil {
			walkModel(s.Value)
		}
	}
	return out
}

// typeCode is the Go expression for t, qualified as jennifer needs.
func typeCode(t types.Type) jen.Code {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return jen.Id(obj.Name())
		}
		if t.TypeArgs().Len() > 0 {
			var args []jen.Code
			for i := 0; i < t.TypeArgs().Len(); i++ {
				args = append(args, typeCode(t.TypeArgs().At(i)))
			}
			return jen.Qual(obj.Pkg().Path(), obj.Name()).Types(args...)
		}
		return jen.Qual(obj.Pkg().Path(), obj.Name())
	case *types.TypeParam:
		return jen.Id(t.Obj().Name())
	case *types.Interface:
		if t.Empty() {
			return jen.Any()
		}
		// An unnamed interface with methods (a field of type
		// *interface{ M() } or []interface{ M() }): written out in full,
		// since the pointer or slice of it is made by name.
		var elems []jen.Code
		for i := 0; i < t.NumEmbeddeds(); i++ {
			elems = append(elems, typeCode(t.EmbeddedType(i)))
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			fn := t.ExplicitMethod(i)
			params, results := signatureCode(fn.Type().(*types.Signature))
			elems = append(elems, jen.Id(fn.Name()).Params(params...).Params(results...))
		}
		return jen.Interface(elems...)
	case *types.Signature:
		params, results := signatureCode(t)
		return jen.Func().Params(params...).Params(results...)
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			return jen.Chan().Op("<-").Add(typeCode(t.Elem()))
		case types.RecvOnly:
			return jen.Op("<-").Chan().Add(typeCode(t.Elem()))
		}
		return jen.Chan().Add(typeCode(t.Elem()))
	case *types.Struct:
		var fields []jen.Code
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			var field *jen.Statement
			if f.Embedded() {
				field = jen.Add(typeCode(f.Type()))
			} else {
				field = jen.Id(f.Name()).Add(typeCode(f.Type()))
			}
			if tag := t.Tag(i); tag != "" {
				field = field.Lit(tag) // the tag is part of the type's identity
			}
			fields = append(fields, field)
		}
		return jen.Struct(fields...)
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Slice:
		return jen.Index().Add(typeCode(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(typeCode(t.Elem()))
	case *types.Map:
		return jen.Map(typeCode(t.Key())).Add(typeCode(t.Elem()))
	case *types.Pointer:
		return jen.Op("*").Add(typeCode(t.Elem()))
	}
	panic(fmt.Sprintf("cbor-gen: no Go expression for %v", t)) // the modeler admits no other types
}

// countOf is n and unit, plural unless n is 1, for error messages.
func countOf(n int, unit string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", unit)
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// signatureCode is the parameter and result types of a method or func
// type (names do not matter to its identity).
func signatureCode(sig *types.Signature) (params, results []jen.Code) {
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			params = append(params, jen.Op("...").Add(typeCode(pt.(*types.Slice).Elem())))
			continue
		}
		params = append(params, typeCode(pt))
	}
	for i := 0; i < sig.Results().Len(); i++ {
		results = append(results, typeCode(sig.Results().At(i).Type()))
	}
	return params, results
}

// convert is x converted to the basic type kind, or x itself when it
// already has that type.
func convert(goT types.Type, kind types.BasicKind, x jen.Code) jen.Code {
	if types.Identical(types.Unalias(goT), types.Typ[kind]) {
		return x
	}
	return jen.Id(types.Typ[kind].Name()).Call(x)
}

// convertTo is x (of a basic type) converted to goT, or x itself when it
// already has that type.
func convertTo(goT types.Type, kind types.BasicKind, x jen.Code) jen.Code {
	if types.Identical(types.Unalias(goT), types.Typ[kind]) {
		return x
	}
	return jen.Add(typeCode(goT)).Call(x)
}

// headBytes is a constant CBOR head, computed now with the runtime's own
// encoder and emitted as byte literals.
func headBytes(major byte, n uint64) []jen.Code {
	var codes []jen.Code
	for _, b := range genrt.AppendHead(nil, major, n) {
		codes = append(codes, jen.Op(fmt.Sprintf("0x%02x", b)))
	}
	return codes
}

// appendHead is the statement that appends a constant head to dst.
func appendHead(major byte, n uint64) jen.Code {
	what := map[byte]string{genrt.MajorArray: "array of %d", genrt.MajorMap: "map of %d", genrt.MajorTag: "tag %d"}[major]
	return jen.Id("dst").Op("=").Append(append([]jen.Code{jen.Id("dst")}, headBytes(major, n)...)...).Commentf(what, n)
}

// local is the name of a generated local variable at a nesting depth, so
// that nested containers get their own: n, n1, n2...
func local(base string, depth int) string {
	if depth == 0 {
		return base
	}
	return base + strconv.Itoa(depth)
}

// deref is (*p).
func deref(p jen.Code) jen.Code { return jen.Parens(jen.Op("*").Add(p)) }

// typeRef names the struct type s, as a receiver or in a method body: T,
// or T[P1, P2]. It goes through the package's path, so that a local of the
// generated code can never shadow it (resolveNames).
func (e *emitter) typeRef(s *model.Struct) *jen.Statement {
	if len(s.TypeParams) == 0 {
		return jen.Qual(e.path, s.Name)
	}
	var ps []jen.Code
	for _, p := range s.TypeParams {
		ps = append(ps, jen.Id(p))
	}
	return jen.Qual(e.path, s.Name).Types(ps...)
}

// rt refers to name in the runtime package.
func rt(name string) *jen.Statement {
	if name == "Decoder" {
		// The parameter of DecodeCBOR and the like, which programs call:
		// named as programs name it (runtime's alias of genrt's).
		return jen.Qual(model.RuntimePath, name)
	}
	return jen.Qual(model.GenrtPath, name)
}

// addressed reports whether the code that encodes or decodes a value of
// type t may take its address (a method call with a pointer receiver, a
// slice of an array, a runtime function given a pointer). Bytes, slices,
// maps and pointers are used as they are.
func addressed(t model.Type) bool {
	switch t.(type) {
	case model.Bool, model.Int, model.Float, model.String, model.Bytes, model.Slice, model.Map, model.Pointer:
		return false
	}
	return true
}

// canFail reports whether the code that encodes t assigns the method's
// err variable: it calls a nested AppendCBOR or fxamacker/cbor, or writes
// RFC 3339 text. A marshaler can fail too, but its call declares an err of
// its own (if b, err := v.F.MarshalCBOR(); ...), so a struct whose only
// fields are marshalers must not declare one that nothing uses.
func (e *emitter) canFail(t model.Type) bool {
	return model.ContainsType(t, func(t model.Type) bool {
		switch t := t.(type) {
		case model.StructRef:
			return e.inlineStruct(t) == nil
		case model.Time, model.Dynamic, model.TypeParam, model.Union:
			return true
		case model.Split:
			return e.canFail(t.Enc)
		}
		return false
	})
}

// inlineStruct returns the model of t when its encoding is written in
// line by the encoders of the types that hold it, as msgp writes small
// types: a struct generated in this run, not a value type, with at most
// inlineFields fields, each a bool, integer, float or string or such a
// struct in turn (two levels at most), none promoted from an embedded
// struct. Its encoding cannot fail, so the holder makes no call and checks
// no error for it (a Point{X, Y int64} of an Edge). nil for any other type.
func (e *emitter) inlineStruct(t model.StructRef) *model.Struct {
	return e.inlinable(t, 0)
}

// nilable reports whether a value of type t can be nil and is then
// written as null: a slice, a map or a byte slice.
func nilable(t model.Type) bool {
	switch t.(type) {
	case model.Slice, model.Map, model.Bytes:
		return true
	}
	return false
}

// decodeFieldsCall is "if err := v.cborDecodeFields(d, from, to); err != nil
// { return err }".
func decodeFieldsCall(from, to jen.Code) jen.Code {
	return jen.If(
		jen.Id("err").Op(":=").Id("v").Dot(model.MethodDecodeFields).Call(jen.Id("d"), from, to),
		jen.Id("err").Op("!=").Nil(),
	).Block(jen.Return(jen.Id("err")))
}

// zeroValue is the zero value of a value of type goT, written as form
// says.
func zeroValue(form model.ZeroForm, goT types.Type) jen.Code {
	switch form {
	case model.ZeroFalse:
		return jen.False()
	case model.ZeroNumber:
		return jen.Lit(0)
	case model.ZeroText:
		return jen.Lit("")
	case model.ZeroNil:
		return jen.Nil()
	case model.ZeroComposite:
		return jen.Add(typeCode(goT)).Values()
	}
	return jen.Op("*").New(typeCode(goT))
}
