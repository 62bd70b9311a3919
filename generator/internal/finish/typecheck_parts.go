package finish

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	goruntime "runtime"
	"strconv"
	"sync"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// A large output is type-checked in parts at once, one part per CPU: the
// output is cut between functions into files that each repeat its header
// (package clause, build constraints, imports), and each checker checks
// the package with the bodies of its own part and only the declarations
// of the others (a function without a body, as one implemented in
// assembly is). Every body is checked once, each against every
// declaration of the package, so an error in a body or in a declaration
// shows in one check at least.
//
// Two things one check sees that the parts do not: an import that only
// another part uses (each part has the imports of the whole output, and
// reports those its bodies do not use: an error in the imports counts
// only when every part reports it), and an initialization cycle that
// runs through bodies of two parts (initFree rules it out beforehand).
//
// The parts only tell that the package compiles. When one reports an
// error, the whole check runs again as one, so that the errors are
// reported exactly as one check reports them, with the positions of the
// output as it would be written.
const minPartBytes = 256 << 10 // a part smaller than this is not worth a checker of its own

// checkParts is the number of parts an output of n bytes is checked in.
func checkParts(n int) int {
	parts := min(goruntime.GOMAXPROCS(0), model.MaxParts, n/minPartBytes)
	return max(parts, 1)
}

// initFree reports whether no package-level variable of the package is
// initialized from a function or method of the package, or from a name
// the load did not resolve (a generated method that does not exist yet).
// Then no initialization cycle can involve the generated code, whose
// bodies the parts check apart.
func initFree(l *load.Package) bool {
	info := l.Pkg.TypesInfo
	if info == nil {
		return false
	}
	for _, f := range userFiles(l) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				free := true
				for _, v := range s.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						id, ok := n.(*ast.Ident)
						if !ok || !free || id.Name == "_" {
							return free
						}
						obj := info.Uses[id]
						if obj == nil {
							free = info.Defs[id] != nil
						} else if fn, ok := obj.(*types.Func); ok && fn.Pkg() == l.Pkg.Types {
							free = false
						}
						return free
					})
				}
				if !free {
					return false
				}
			}
		}
	}
	return true
}

// typecheckParts checks the package with src as its output in parts (see
// above). It reports done when that settled the check: err is nil, or it
// is the missing runtime. Otherwise (a part does not parse, the output
// declares a variable other than a table of constants, a part reports an
// error) the whole check is left to run.
func typecheckParts(l *load.Package, src []byte, known map[string]*types.Package, parts int) (done bool, err error) {
	texts, headerLen := splitOutput(src, parts)
	if len(texts) < 2 {
		return false, nil
	}
	files := parseParts(l, texts)
	if files == nil {
		return false, nil
	}
	return checkParsed(l, files, headerLen, known)
}

// checkParsed is typecheckParts over parts already parsed, each of which
// starts with the header of the output, headerLen bytes long.
func checkParsed(l *load.Package, files []*ast.File, headerLen int, known map[string]*types.Package) (done bool, err error) {
	if err := supportMissing(l, files[0]); err != nil {
		return true, err
	}
	stubs := make([]*ast.File, len(files))
	for i, f := range files {
		if stubs[i] = declarationsOnly(f); stubs[i] == nil {
			return false, nil
		}
	}
	pc := &partsCheck{l: l, known: known, files: files, stubs: stubs, user: userFiles(l), headerLen: headerLen, owner: map[*token.File]int{}}
	for i, f := range files {
		pc.owner[l.Pkg.Fset.File(f.Pos())] = i
	}
	failed := make([]bool, len(files))
	inHeader := make([]map[string]bool, len(files)) // errors in the imports, by offset and message
	var wg sync.WaitGroup
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			failed[i], inHeader[i] = pc.check(i)
		}()
	}
	wg.Wait()
	for _, f := range failed {
		if f {
			return false, nil
		}
	}
	for e := range inHeader[0] {
		all := true
		for _, h := range inHeader[1:] {
			all = all && h[e]
		}
		if all {
			return false, nil
		}
	}
	return true, nil
}

// parseParts parses the parts at once, nil when one does not parse.
func parseParts(l *load.Package, texts [][]byte) []*ast.File {
	files := make([]*ast.File, len(texts))
	errs := make([]error, len(texts))
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Without comments: the checker has no use for them (the
			// parser reads a //go:build line's Go version all the same).
			files[i], errs[i] = parser.ParseFile(l.Pkg.Fset, l.OutPath, text, parser.SkipObjectResolution)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil
		}
	}
	return files
}

// partsCheck is what each part's check needs: the parts, their stubs,
// the user's files, and which part each file of the output is.
type partsCheck struct {
	l            *load.Package
	known        map[string]*types.Package
	files, stubs []*ast.File
	user         []*ast.File
	headerLen    int
	owner        map[*token.File]int
}

// check type-checks part i with the other parts' stubs and the user's
// files. It reports whether an error failed the check, and the errors in
// the shared header (the imports), which fail it only when every part
// reports them.
func (pc *partsCheck) check(i int) (failed bool, inHeader map[string]bool) {
	fset := pc.l.Pkg.Fset
	check := make([]*ast.File, 0, len(pc.files)+len(pc.user))
	for j := range pc.files {
		if j == i {
			check = append(check, pc.files[j])
		} else {
			check = append(check, pc.stubs[j])
		}
	}
	check = append(check, pc.user...)
	inHeader = map[string]bool{}
	conf := checkConfig(pc.known, func(err error) {
		te, ok := err.(types.Error)
		if !ok {
			failed = true
			return
		}
		part, inOutput := pc.owner[fset.File(te.Pos)]
		if inOutput && part != i {
			return // the part with the bodies decides
		}
		switch {
		case toleratedInCheck(te.Msg, inOutput):
		case inOutput && fset.Position(te.Pos).Offset < pc.headerLen:
			inHeader[strconv.Itoa(fset.Position(te.Pos).Offset)+" "+te.Msg] = true
		default:
			failed = true
		}
	})
	conf.Check(pc.l.Pkg.PkgPath, fset, check, nil)
	return failed, inHeader
}

// splitOutput cuts src into at most parts Go files of about the same
// size, between top-level functions (a line that starts with "func "),
// each after the header of src (up to the end of its imports), and the
// length of the header. It returns nil when src has no header to tell or
// no place to cut.
func splitOutput(src []byte, parts int) (texts [][]byte, headerLen int) {
	hdr, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return nil, 0
	}
	end := hdr.Name.End()
	for _, d := range hdr.Decls {
		end = d.End()
	}
	header := src[:int(end)-int(hdr.FileStart)]
	var cuts []int
	from := len(header)
	for k := 1; k < parts; k++ {
		at := max(len(header)+k*(len(src)-len(header))/parts, from)
		i := bytes.Index(src[at:], []byte("\nfunc "))
		if i < 0 {
			break
		}
		from = at + i + 1
		cuts = append(cuts, from)
	}
	if len(cuts) == 0 {
		return nil, 0
	}
	texts = [][]byte{src[:cuts[0]]}
	for k, c := range cuts {
		next := len(src)
		if k+1 < len(cuts) {
			next = cuts[k+1]
		}
		text := make([]byte, 0, len(header)+2+next-c)
		text = append(append(append(text, header...), "\n\n"...), src[c:next]...)
		texts = append(texts, text)
	}
	return texts, len(header)
}

// declarationsOnly is f with the bodies of its functions left out, or
// nil when f declares a variable that is not a table of constants (an
// initializer that may call the functions whose bodies are left out).
func declarationsOnly(f *ast.File) *ast.File {
	stub := *f
	stub.Decls = make([]ast.Decl, len(f.Decls))
	for i, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.VAR && !constantTables(d) {
				return nil
			}
		case *ast.FuncDecl:
			if d.Body != nil && d.Type.TypeParams == nil {
				fn := *d
				fn.Body = nil
				stub.Decls[i] = &fn
				continue
			}
		}
		stub.Decls[i] = d
	}
	return &stub
}

// constantTables reports whether every variable d declares is initialized
// with a composite literal of an array or slice of a named element type
// whose elements are basic literals (var cborKeysT = [...]string{"id",
// "kind"}, the legacy decoders' key tables): an initializer that calls
// nothing and names no variable, which needs no body of another part.
func constantTables(d *ast.GenDecl) bool {
	for _, spec := range d.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok || vs.Type != nil || len(vs.Values) != len(vs.Names) {
			return false
		}
		for _, v := range vs.Values {
			lit, ok := v.(*ast.CompositeLit)
			if !ok {
				return false
			}
			at, ok := lit.Type.(*ast.ArrayType)
			if !ok {
				return false
			}
			switch n := at.Len.(type) {
			case nil, *ast.Ellipsis:
				if n, ok := n.(*ast.Ellipsis); ok && n.Elt != nil {
					return false
				}
			case *ast.BasicLit:
				if n.Kind != token.INT {
					return false
				}
			default:
				return false
			}
			if _, ok := at.Elt.(*ast.Ident); !ok {
				return false
			}
			for _, el := range lit.Elts {
				if _, ok := el.(*ast.BasicLit); !ok {
					return false
				}
			}
		}
	}
	return true
}
