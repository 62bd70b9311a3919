package finish

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"sync"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// Output formats the rendered source and type-checks it (see
// formatSource and typecheckOutput), and returns the output as it is
// written.
//
// A large output is cut into parts once, for both, each part with the
// header of the output (its comments, package clause and imports): each
// part is parsed once, printed as gofmt prints it (the header once, for
// all), and type-checked as typecheckParts checks it, all at once. The
// part checked is the part as rendered, not as printed; gofmt only moves
// white space and comments, so the two compile alike. When the parts do
// not settle it (a part does not format, or the check in parts finds an
// error), the formatting and the check fall back to their own ways, so
// that errors read as they always have: format.Source's, and one check's
// with the positions of the output as it would be written.
func Output(l *load.Package, rendered []byte) ([]byte, error) {
	known := knownPackages(l)
	var src []byte
	if parts := checkParts(len(rendered)); parts > 1 && initFree(l) {
		var done bool
		var err error
		if src, done, err = finishParts(l, rendered, known, parts); done {
			return src, err
		}
	}
	if src == nil {
		var err error
		if src, err = formatSource(rendered); err != nil {
			return nil, fmt.Errorf("formatting generated code: %v\n%s", err, model.NumberLines(rendered))
		}
		return src, typecheckOutput(l, src)
	}
	return src, typecheckWhole(l, src, known)
}

// finishParts formats and checks rendered in at most parts parts at
// once. It returns the formatted output, nil when a part did not format,
// and reports done when the check settled it.
func finishParts(l *load.Package, rendered []byte, known map[string]*types.Package, parts int) (src []byte, done bool, err error) {
	texts, _ := cutFunctions(rendered, parts)
	if len(texts) < 2 {
		return nil, false, nil
	}
	header, fmtHeader, fmtClause, ok := outputHeader(rendered)
	if !ok || len(header) > len(texts[0]) {
		return nil, false, nil
	}
	for i := 1; i < len(texts); i++ {
		texts[i] = append(append(append(make([]byte, 0, len(header)+2+len(texts[i])), header...), "\n\n"...), texts[i]...)
	}
	files := make([]*ast.File, len(texts))
	printed := make([][]byte, len(texts))
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i], printed[i] = formatPart(l.Pkg.Fset, l.OutPath, text, fmtClause, i == len(texts)-1)
		}()
	}
	wg.Wait()
	size := 0
	for i := range texts {
		if printed[i] == nil {
			return nil, false, nil
		}
		size += len(printed[i]) + 1
	}
	src = make([]byte, 0, len(fmtHeader)+size)
	src = append(src, fmtHeader...)
	for _, p := range printed {
		src = append(append(src, '\n'), p...)
	}
	done, err = checkParsed(l, files, len(header), known)
	return src, done, err
}

// formatPart parses one part of finishParts into fset as the file name,
// and prints it as gofmt does, without the header. It returns nil for
// the text when the part does not parse or does not start and end as a
// part cut between functions does.
//
// The part is printed without its imports, behind the header's comments
// and package clause only (fmtClause, as gofmt prints them), which are
// then taken off again: format.Node, given grouped imports, prints a
// file twice to sort them (format.Source sorts them on the tree it
// parsed), and finishParts prints the imports once, with the header.
func formatPart(fset *token.FileSet, name string, text, fmtClause []byte, last bool) (*ast.File, []byte) {
	f, err := parser.ParseFile(fset, name, text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil
	}
	bare := *f
	for len(bare.Decls) > 0 {
		if g, ok := bare.Decls[0].(*ast.GenDecl); !ok || g.Tok != token.IMPORT {
			break
		}
		bare.Decls = bare.Decls[1:]
	}
	bare.Imports = nil
	var buf bytes.Buffer
	buf.Grow(len(text) + len(text)/4)
	if err := format.Node(&buf, ownFileSet(fset.File(f.Pos())), &bare); err != nil {
		return nil, nil
	}
	// The part starts with its function or its doc comment, right after
	// the clause and one blank line.
	rest, found := bytes.CutPrefix(buf.Bytes(), fmtClause)
	if !found || len(rest) < 2 || rest[0] != '\n' || rest[1] == '\n' {
		return nil, nil
	}
	rest = rest[1:]
	if !last && !bytes.HasSuffix(rest, []byte("}\n")) {
		return nil, nil
	}
	return f, rest
}

// outputHeader is the header of rendered source (its comments, package
// clause and imports) as it is, and as gofmt prints it with and without
// its imports.
func outputHeader(rendered []byte) (header, formatted, fmtClause []byte, ok bool) {
	hdr, err := parser.ParseFile(token.NewFileSet(), "", rendered, parser.ImportsOnly)
	if err != nil {
		return nil, nil, nil, false
	}
	end := hdr.Name.End()
	clause := rendered[:int(end)-int(hdr.FileStart)]
	for _, d := range hdr.Decls {
		end = d.End()
	}
	header = rendered[:int(end)-int(hdr.FileStart)]
	if formatted, err = format.Source(header); err != nil {
		return nil, nil, nil, false
	}
	if fmtClause, err = format.Source(clause); err != nil {
		return nil, nil, nil, false
	}
	return header, formatted, fmtClause, true
}

// ownFileSet is a file set that holds only f, at the same base: the
// printer looks up the position of every token, and in the load's file
// set, shared by the parts printed at once and by hundreds of imported
// packages, each lookup misses the set's cache of the last file used and
// searches them all under a lock.
func ownFileSet(f *token.File) *token.FileSet {
	fset := token.NewFileSet()
	own := fset.AddFile(f.Name(), f.Base(), f.Size())
	own.SetLines(f.Lines())
	return fset
}

// typecheckOutput type-checks the package with src as its output file,
// the last line of defence before anything is written: cbor-gen never
// writes code that does not compile. The package's other files are the
// syntax the loader already parsed, and every import comes from the same
// load, so this costs one more type check of the package and nothing
// from disk.
//
// Errors that generation cures are tolerated as in load, and in the
// output itself only where a method of another package's type is missing
// (that package is generated later in the same go generate ./...).
//
// A large output is first checked in parts at once (typecheckParts);
// the whole check below runs when that is not possible or finds an
// error, so that what it reports is exactly what one check reports.
func typecheckOutput(l *load.Package, src []byte) error {
	known := knownPackages(l)
	if parts := checkParts(len(src)); parts > 1 && initFree(l) {
		if done, err := typecheckParts(l, src, known, parts); done {
			return err
		}
	}
	return typecheckWhole(l, src, known)
}
