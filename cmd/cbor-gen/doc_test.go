package main

import (
	"flag"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"testing"

	"github.com/cborgen/cborgen/generator"
)

// TestDocumentedFlags: the package doc (doc.go), the command's manual,
// lists exactly the flags the command has, each once, in a line of its
// own ("-name ..." in the flag list).
func TestDocumentedFlags(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package doc")
	}
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^\t-([a-z][a-z-]*)\b`).FindAllStringSubmatch(f.Doc.Text(), -1) {
		documented = append(documented, m[1])
	}
	var cfg generator.Config
	fs, _, _, _ := newFlagSet(&cfg)
	var defined []string
	fs.VisitAll(func(fl *flag.Flag) { defined = append(defined, fl.Name) })

	sorted := slices.Sorted(slices.Values(documented))
	if len(slices.Compact(slices.Clone(sorted))) != len(sorted) {
		t.Errorf("doc.go lists a flag twice: %q", documented)
	}
	slices.Sort(defined)
	if !slices.Equal(slices.Compact(sorted), defined) {
		t.Errorf("doc.go documents the flags %q; the command has %q", sorted, defined)
	}
}
