package runtime_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestAPISections checks the package doc's account of the API: every
// exported identifier (and method of an exported type) is listed, as a
// doc link, under exactly one of the headings "For programs" and "For
// generated code only" (a method not listed itself is where its type is),
// and every name listed there exists. A new exported name fails this test
// until doc.go says who it is for.
func TestAPISections(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/cborgen/cborgen/runtime")
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	addValues := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				if token.IsExported(n) {
					exported[n] = true
				}
			}
		}
	}
	addValues(p.Consts)
	addValues(p.Vars)
	for _, f := range p.Funcs {
		exported[f.Name] = true
	}
	for _, ty := range p.Types {
		exported[ty.Name] = true
		addValues(ty.Consts)
		addValues(ty.Vars)
		for _, f := range ty.Funcs {
			exported[f.Name] = true
		}
		for _, m := range ty.Methods {
			exported[ty.Name+"."+m.Name] = true
		}
	}

	sections := map[string]map[string]bool{}
	link := regexp.MustCompile(`\[([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?)\]`)
	var current string
	for _, line := range strings.Split(p.Doc, "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			current = h
			continue
		}
		if current != "For programs" && current != "For generated code only" {
			continue
		}
		if sections[current] == nil {
			sections[current] = map[string]bool{}
		}
		for _, m := range link.FindAllStringSubmatch(line, -1) {
			sections[current][m[1]] = true
		}
	}
	programs, generated := sections["For programs"], sections["For generated code only"]
	if len(programs) == 0 || len(generated) == 0 {
		t.Fatalf("the package doc lacks the sections \"# For programs\" and \"# For generated code only\" with doc links")
	}
	var missing, both, stale []string
	for name := range exported {
		typ, _, isMethod := strings.Cut(name, ".")
		switch {
		case programs[name] && generated[name]:
			both = append(both, name)
		case programs[name] || generated[name]:
		case isMethod && (programs[typ] || generated[typ]):
			// A method is where its type is, unless listed itself.
		default:
			missing = append(missing, name)
		}
	}
	for _, sec := range []map[string]bool{programs, generated} {
		for name := range sec {
			if !exported[name] {
				stale = append(stale, name)
			}
		}
	}
	sort.Strings(missing)
	sort.Strings(both)
	sort.Strings(stale)
	if len(missing) > 0 {
		t.Errorf("exported but not listed in doc.go under \"For programs\" or \"For generated code only\": %s", strings.Join(missing, " "))
	}
	if len(both) > 0 {
		t.Errorf("listed under both headings: %s", strings.Join(both, " "))
	}
	if len(stale) > 0 {
		t.Errorf("listed in doc.go but not exported: %s", strings.Join(stale, " "))
	}
}
