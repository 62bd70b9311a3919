package runtime_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestProgramAPI checks what go doc shows of this package: every exported
// name is either listed, as a doc link, under "For programs" in doc.go, or
// declared in generated.go under a Deprecated comment (the names code of
// generated code versions 2-8 calls); every name listed exists; and each
// program name here is one that package genrt's own doc lists for
// programs, so the two lists cannot drift apart.
func TestProgramAPI(t *testing.T) {
	here := parseDoc(t, ".", "github.com/cborgen/cborgen/runtime")
	genrt := parseDoc(t, "genrt", "github.com/cborgen/cborgen/runtime/genrt")

	listed := section(here.Doc, "For programs")
	genrtListed := section(genrt.Doc, "For programs")
	if len(listed) == 0 || len(genrtListed) == 0 {
		t.Fatal(`no "For programs" section in doc.go or genrt/doc.go`)
	}

	exported := map[string]string{} // name -> file
	fset := token.NewFileSet()
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			deprecated := func(g *ast.CommentGroup) bool { return g != nil && strings.Contains(g.Text(), "Deprecated:") }
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && token.IsExported(d.Name.Name) {
					exported[d.Name.Name] = name
					if name == "generated.go" && !deprecated(d.Doc) {
						t.Errorf("%s in generated.go is not marked Deprecated", d.Name.Name)
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					var names []*ast.Ident
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names = []*ast.Ident{s.Name}
					case *ast.ValueSpec:
						names = s.Names
					}
					for _, n := range names {
						if !token.IsExported(n.Name) {
							continue
						}
						exported[n.Name] = name
						if name == "generated.go" && !deprecated(d.Doc) {
							t.Errorf("%s in generated.go is not in a block marked Deprecated", n.Name)
						}
					}
				}
			}
		}
	}
	var missing, stale, notGenrt []string
	for n, file := range exported {
		if file != "generated.go" && !listed[n] {
			missing = append(missing, n)
		}
		if file == "generated.go" && listed[n] {
			t.Errorf("%s is listed for programs but declared in generated.go, for old generated code", n)
		}
	}
	for n := range listed {
		if _, ok := exported[n]; !ok {
			stale = append(stale, n)
		}
		if !genrtListed[n] {
			notGenrt = append(notGenrt, n)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	sort.Strings(notGenrt)
	if len(missing) > 0 {
		t.Errorf(`exported but not listed under "For programs" in doc.go: %s`, strings.Join(missing, " "))
	}
	if len(stale) > 0 {
		t.Errorf("listed in doc.go but not exported: %s", strings.Join(stale, " "))
	}
	if len(notGenrt) > 0 {
		t.Errorf(`listed for programs here but not in genrt/doc.go's "For programs": %s`, strings.Join(notGenrt, " "))
	}
}

func parseDoc(t *testing.T, dir, path string) *doc.Package {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// section returns the names linked ([Name]) under the heading h of a
// package doc, up to the next heading.
func section(docText, h string) map[string]bool {
	names := map[string]bool{}
	link := regexp.MustCompile(`\[([A-Z][A-Za-z0-9]*)\]`)
	in := false
	for _, line := range strings.Split(docText, "\n") {
		if head, ok := strings.CutPrefix(line, "# "); ok {
			in = head == h
			continue
		}
		if in {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				names[m[1]] = true
			}
		}
	}
	return names
}
