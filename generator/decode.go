package generator

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/diag"
	"github.com/cborgen/cborgen/generator/internal/schema"
)

// Reading stored data from the schema record alone: -decode TYPE prints
// CBOR from standard input in diagnostic notation annotated with the
// record's slots, keys and variants; -cddl prints the record's types as
// CDDL. Neither loads the package: a directory with its cbor_gen.lock is
// enough, and Go files beside it, parsed but not type-checked, add what
// the record leaves out (sourceHints). The work is in internal/diag; this
// file reads the record, the source and the input.

// ReadConfig is a run of -decode or -cddl.
type ReadConfig struct {
	Decode string // the type (or union) to read standard input as
	Hex    bool   // the input is hex text (without it: hex when it looks like hex)
	Plain  bool   // diagnostic notation without the annotations
	CDDL   bool   // print the record's types as CDDL
	Dir    string // the package directory; "" means "."
	Output string // -o, beside which the record lies; "" means DefaultOutput in Dir
}

// BindReadFlags defines -decode, -hex, -plain and -cddl on fs.
func BindReadFlags(fs *flag.FlagSet, rc *ReadConfig) {
	fs.StringVar(&rc.Decode, "decode", "", "read CBOR from standard input as `TYPE` and print it in diagnostic notation, annotated from the schema record")
	fs.BoolVar(&rc.Hex, "hex", false, "with -decode: the input is hex text (default: hex when it looks like hex)")
	fs.BoolVar(&rc.Plain, "plain", false, "with -decode: plain diagnostic notation, without the annotations")
	fs.BoolVar(&rc.CDDL, "cddl", false, "print the types of the schema record as CDDL (RFC 8610)")
}

// Active reports whether rc asks for -decode or -cddl (or misuses -hex or
// -plain without them, which Read refuses).
func (rc ReadConfig) Active() bool { return rc.Decode != "" || rc.CDDL || rc.Hex || rc.Plain }

// maxInput is the most -decode reads from standard input.
const maxInput = 1 << 30

// Read runs rc: it reads the schema record, and for -decode the input
// from in, and writes the result to out. The error is a usage error, a
// record that is missing or does not parse, or input that the generated
// decoder refuses (its problems are written to out as comments and
// listed in the error); errors.Is(err, ErrRefused) tells the last apart.
func Read(rc ReadConfig, in io.Reader, out io.Writer) error {
	switch {
	case rc.CDDL && rc.Decode != "":
		return errors.New("-cddl and -decode cannot be combined")
	case rc.Decode == "" && (rc.Hex || rc.Plain):
		return errors.New("-hex and -plain go with -decode TYPE")
	}
	schema, lock, err := readSchema(rc.Dir, rc.Output)
	if err != nil {
		return err
	}
	if rc.CDDL {
		_, err := out.Write(diag.CDDL(schema, "schema record "+filepath.Base(lock)))
		return err
	}
	data, err := io.ReadAll(io.LimitReader(in, maxInput+1))
	if err != nil {
		return fmt.Errorf("reading standard input: %v", err)
	}
	if len(data) > maxInput {
		return fmt.Errorf("standard input holds more than %d bytes", maxInput)
	}
	if h, ok := diag.Hex(data); ok {
		data = h
	} else if rc.Hex {
		return errors.New("-hex: standard input is not hex text (pairs of hex digits, white space between them)")
	}
	w := bufio.NewWriter(out)
	res, err := diag.Decode(schema, rc.Decode, data, diag.Options{Plain: rc.Plain, Out: w})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("%s: %v", lock, err)
	}
	return refusal(rc.Decode, res)
}

// ErrRefused is the error of a -decode whose input the generated decoder
// of the type would refuse.
var ErrRefused = errors.New("the generated decoder refuses this input")

// refusal is the error of a result with problems, nil for one without.
func refusal(typ string, res *diag.Result) error {
	if res.OK() {
		return nil
	}
	var msgs []string
	switch {
	case res.Items == 0:
		msgs = append(msgs, "no CBOR item on standard input")
	case res.Err != nil:
		msgs = append(msgs, "not well-formed CBOR at "+res.Err.Error())
	}
	const most = 20
	for i, p := range res.Problems {
		if i == most {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(res.Problems)+res.More-most))
			break
		}
		msgs = append(msgs, p.String())
	}
	return fmt.Errorf("%w as %s:\n\t%s", ErrRefused, typ, strings.Join(msgs, "\n\t"))
}

// readSchema reads the schema record of the package in dir (beside the
// output file output) and returns it in diag's terms, with its path.
func readSchema(dir, output string) (*diag.Schema, string, error) {
	if dir == "" {
		dir = "."
	}
	if output == "" {
		output = filepath.Join(dir, DefaultOutput)
	}
	lock := LockPath(output)
	data, err := os.ReadFile(lock)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, lock, fmt.Errorf("no schema record at %s: it holds the types that -decode and -cddl read; run cbor-gen in the package first", lock)
	}
	if err != nil {
		return nil, lock, err
	}
	rec, err := schema.ParseRecord(lock, data)
	if err != nil {
		return nil, lock, err
	}
	s := schemaOf(rec)
	sourceHints(dir, output, s)
	return s, lock, nil
}

// sourceHints adds to s what the record does not hold but the package's
// source says, where the source is at hand: the kinds of named types of
// other kinds (type Dict map[string]Value), which types are structs, the
// type parameters of generic types, and the directives //cborgen:nolegacy,
// extensible and catchall. It parses
// the files without type-checking them, so code that does not compile
// still helps; files that do not parse are passed over, and without
// source the record alone is used. The generated file, output, declares
// none of the types and is not read.
func sourceHints(dir, output string, s *diag.Schema) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	decls := map[string]*ast.TypeSpec{}
	docs := map[string][]*ast.Comment{}
	skip, _ := filepath.Abs(output)
	for _, file := range files {
		if abs, _ := filepath.Abs(file); strings.HasSuffix(file, "_test.go") || abs == skip {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				decls[ts.Name.Name] = ts
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if doc != nil {
					docs[ts.Name.Name] = doc.List
				}
			}
		}
	}
	for name, t := range s.Types {
		ts := decls[name]
		if ts == nil || ts.Assign.IsValid() {
			continue
		}
		for _, c := range docs[name] {
			switch strings.TrimSpace(strings.TrimPrefix(c.Text, "//cborgen:")) {
			case "nolegacy":
				t.NoLegacy = true
			case "extensible":
				t.Extensible = true
			case "catchall":
				t.CatchAll = true
			}
		}
		if ts.TypeParams != nil {
			for _, f := range ts.TypeParams.List {
				for _, n := range f.Names {
					t.Params = append(t.Params, n.Name)
				}
			}
		}
		if _, ok := ts.Type.(*ast.StructType); ok {
			t.Struct = true
			continue
		}
		if len(t.Slots) == 0 && !t.Map {
			t.Value = sourceKind(ts.Type, s, decls, 0)
		}
	}
}

// sourceKind writes the type expression e as a wire kind: basic types by
// their names (byte as uint8), named types of the record by name, other
// named types of the package by what they are, and anything else ("" for
// a kind that is not known) as the record would write it, for diag to
// show as it is.
func sourceKind(e ast.Expr, s *diag.Schema, decls map[string]*ast.TypeSpec, depth int) string {
	if depth > 16 {
		return ""
	}
	sub := func(e ast.Expr) string { return sourceKind(e, s, decls, depth+1) }
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "byte":
			return "uint8"
		case "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "any":
			return e.Name
		}
		if s.Types[e.Name] != nil || s.Unions[e.Name] != nil {
			return e.Name
		}
		if ts := decls[e.Name]; ts != nil {
			if _, isStruct := ts.Type.(*ast.StructType); !isStruct {
				return sub(ts.Type)
			}
		}
		return e.Name
	case *ast.StarExpr:
		if elem := sub(e.X); elem != "" {
			return "*" + elem
		}
	case *ast.ArrayType:
		elem := sub(e.Elt)
		if elem == "uint8" {
			elem = "byte"
		}
		switch {
		case elem == "":
		case e.Len == nil:
			return "[]" + elem
		default:
			if lit, ok := e.Len.(*ast.BasicLit); ok && lit.Kind == token.INT {
				return "[" + lit.Value + "]" + elem
			}
		}
	case *ast.MapType:
		if k, v := sub(e.Key), sub(e.Value); k != "" && v != "" {
			return "map[" + k + "]" + v
		}
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name // time.Time, big.Int
		}
	case *ast.InterfaceType:
		return "any"
	}
	return ""
}

// schemaOf converts a parsed record.
func schemaOf(rec *schema.Record) *diag.Schema {
	s := &diag.Schema{Types: map[string]*diag.Type{}, Unions: map[string]*diag.Union{}}
	for _, tr := range rec.Types() {
		t := &diag.Type{Name: tr.Name, Map: tr.MapFormat, Required: tr.Required, NoLegacy: tr.NoLegacy, Body: tr.Body, Unknown: tr.Unknown, Value: tr.Value}
		// Only an extensible array type keeps trailing elements.
		t.Extensible = tr.Unknown != "" && !tr.MapFormat
		t.HasOptional, t.Optional = tr.Optional >= 0, tr.Optional
		if tr.Tag != "" {
			n, _ := strconv.ParseUint(strings.TrimSuffix(tr.Tag, "?"), 10, 64) // ParseRecord checked it
			t.HasTag, t.Tag, t.TagOptional = true, n, strings.HasSuffix(tr.Tag, "?")
		}
		if tr.Case != "" {
			t.Case, t.HasCase = diag.ParseKey(tr.Case)
		}
		for _, sr := range tr.Slots {
			slot := diag.Slot{Reserved: sr.Reserved, Name: sr.Name, Kind: sr.Kind}
			if sr.Key != "" {
				slot.Key, slot.HasKey = diag.ParseKey(sr.Key)
			}
			t.Slots = append(t.Slots, slot)
		}
		s.Types[tr.Name] = t
	}
	by := rec.UnionsBy()
	for name, variants := range rec.Unions() {
		u := &diag.Union{Name: name, Variants: variants}
		if b, ok := strings.CutPrefix(by[name], "key "); ok {
			u.By, u.Key = "key", must(diag.ParseKey(b))
		} else {
			u.By = by[name]
		}
		s.Unions[name] = u
	}
	return s
}

// must is the key of a token the record parser has checked.
func must(k diag.Key, _ bool) diag.Key { return k }
