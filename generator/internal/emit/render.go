package emit

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// fewer types than this per chunk are not worth a goroutine

// renderOne renders the code of the types f.Structs[from:to] as one
// jennifer file: the version guard first when first, the unions last when
// last.
func renderOne(f *model.File, from, to int, first, last bool) ([]byte, error) {
	e := &emitter{order: f.Order, time: f.Time, nilEmpty: f.NilEmpty, floatNone: f.FloatNone, small: f.Small, structLoop: f.Small, path: f.Path, structs: map[string]*model.Struct{}, tables: legacyTables(f)}
	for _, s := range f.Structs {
		e.structs[s.Name] = s
	}
	jf, _ := newRenderFile(f)
	if first {
		jf.Add(VersionGuard(genrt.GenVersion)).Line()
	}
	for _, s := range f.Structs[from:to] {
		e.addStruct(jf, s)
	}
	if last {
		for _, u := range f.Unions {
			jf.Add(e.unionFuncs(u)).Line()
		}
	}
	var buf bytes.Buffer
	if err := jf.Render(&buf); err != nil {
		return nil, fmt.Errorf("rendering generated code: %v", err)
	}
	return buf.Bytes(), nil
}

// newRenderFile is the jennifer file the code of f is rendered in, with
// its header and the names of its imports, which it returns too, by
// path.
func newRenderFile(f *model.File) (*jen.File, map[string]string) {
	names := map[string]string{}
	jf := jen.NewFilePathName(renderPath, f.Package) // see resolveNames
	jf.ImportAlias(f.Path, selfAlias)
	jf.HeaderComment(model.GeneratedHeader)
	jf.HeaderComment(versionHeader())
	if f.Build != "" {
		jf.HeaderComment(f.Build) // starts with "//": written as it is
	}
	// Imports carry their package's name, or an alias when the package
	// declares that name itself (a type called runtime, a var called big).
	importAs := func(path, name string) {
		if !f.Taken[name] {
			jf.ImportName(path, name)
			names[path] = name
			return
		}
		alias := "cbor" + name
		for f.Taken[alias] {
			alias += "_"
		}
		jf.ImportAlias(path, alias)
		names[path] = alias
	}
	importAs(model.RuntimePath, "runtime")
	importAs(model.GenrtPath, "genrt")
	importAs(model.DynamicPath, "dynamic")
	importAs("math", "math") // the bounds of integer types
	jf.NoFormat = true       // formatted below, so that a failure shows numbered lines
	for _, pkg := range importedPackages(f) {
		importAs(pkg.Path(), pkg.Name())
	}
	return jf, names
}

// importNames are the names newRenderFile gives the imports of f, by
// path.
func importNames(f *model.File) map[string]string {
	_, names := newRenderFile(f)
	return names
}

// addStruct adds the methods of s to jf.
func (e *emitter) addStruct(jf *jen.File, s *model.Struct) {
	if s.Anon != nil {
		jf.Comment(s.Name + " is the named copy of an anonymous struct type of the package, with the")
		jf.Comment("methods the fields of that type reach by conversion, (*" + s.Name + ")(&v.F).")
		jf.Type().Qual(e.path, s.Name).Add(typeCode(s.Anon)).Line()
	}
	if !s.Embeddable && !s.Body { // body.go: the type's own methods call the body
		jf.Add(e.marshalMethod(s)).Line()
	}
	if s.MapFormat {
		jf.Add(e.appendMapFormatMethod(s)).Line() // map.go
	} else {
		jf.Add(e.appendMethod(s)).Line()
	}
	jf.Add(e.sizeMethod(s)).Line()
	if !s.Embeddable && !s.Body {
		jf.Add(e.unmarshalMethod(s)).Line()
	}
	if e.compact(s) {
		// small.go: the table and the one loop of both formats.
		jf.Add(e.fieldsTableDecl(s)).Add(e.decodeCompactMethod(s)).Line()
		return
	}
	jf.Add(e.decodeMethod(s)).Line()
	if s.Value != nil {
		return // a value type has no array, legacy or per-field decoder
	}
	if !s.MapFormat {
		if m := e.decodeArrayMethod(s); m != nil {
			jf.Add(m).Line()
		}
		if firstVariant(s) {
			jf.Add(e.decodeAfterFirstMethod(s)).Line() // content.go
		}
	}
	if !s.NoLegacy {
		jf.Add(e.keyTableDecls(s)).Add(e.decodeMapMethod(s)).Line()
	}
	jf.Add(e.decodeFieldsMethod(s)).Line()
}

// File renders f as Go source, not yet gofmt'd (finish.Output formats
// it).
func File(f *model.File) ([]byte, error) {
	rendered, err := renderChunks(f, emitChunks(len(f.Structs)))
	if err != nil {
		return nil, err
	}
	return resolveNames(rendered, f.Path, f.Taken)
}

// versionHeader is the header line that names the generator's version.
func versionHeader() string {
	return "cbor-gen " + model.Version() + ", generated code version " + strconv.Itoa(genrt.GenVersion)
}

// VersionGuard is the constant declaration that makes a generated file
// and a runtime that do not fit fail to compile, with an error that names
// the side to update (see runtime/genrt/version.go).
func VersionGuard(version int) jen.Code {
	v := jen.Lit(version)
	return jen.Comment("The generated code and the runtime must fit: a compile error here names the one to update.").Line().
		Const().Defs(
		jen.Id("_").Op("=").Add(rt("UpgradeCborgenRuntime")).Call(rt("GenVersion").Op("-").Add(v)),
		jen.Id("_").Op("=").Add(rt("RegenerateWithNewerCborgen")).Call(v.Clone().Op("-").Add(rt("MinGenVersion"))),
	)
}
