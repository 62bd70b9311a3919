package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPendingLineForms: a package generated before the package whose
// struct type a field holds (a first go generate ./... visits a before b)
// sends the field through that type's generated methods, whichever form
// of //go:generate line b uses to run cbor-gen; the lines are read as
// -check ./... reads them. A b whose line does not generate the type, or
// runs another command, leaves the field to fxamacker/cbor.
func TestPendingLineForms(t *testing.T) {
	forms := []struct {
		line      string
		generated bool
	}{
		{"go tool cbor-gen -type B", true},
		{"go run github.com/cborgen/cborgen/cmd/cbor-gen -type B", true},
		{"go run github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.3 -type B", true}, // the form the README documents
		{"go run -mod=mod github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.3 -type=B", true},
		{`go tool cbor-gen "-type" "A,B"`, true},
		{"go tool cbor-gen -type B -o ${GOPACKAGE}_cbor.go", true},
		{"cbor-gen -type B", true},
		{"go tool cbor-gen", true}, // the default: every exported struct type
		{"go tool cbor-gen -type A", false},
		{"go tool cbor-gen -type B ../other", false}, // a run on another package
		{"go tool stringer -type B", false},
	}
	files := map[string]string{}
	var fields, imports strings.Builder
	for i, f := range forms {
		files[fmt.Sprintf("b%d/b.go", i)] = fmt.Sprintf("package b%d\n\n%s %s\n\ntype A struct{ X int }\n\ntype B struct{ N int }\n", i, goGenerate, f.line)
		fmt.Fprintf(&imports, "\t\"example.com/m/b%d\"\n", i)
		fmt.Fprintf(&fields, "\tF%d b%d.B\n", i, i)
	}
	files["a/a.go"] = "package a\n\nimport (\n" + imports.String() + ")\n\ntype Outer struct {\n" + fields.String() + "}\n"
	dir := newModule(t, files)
	mustGenerate(t, filepath.Join(dir, "a"), "-type", "Outer")
	out := string(read(t, filepath.Join(dir, "a", "cbor_gen.go")))
	for i, f := range forms {
		methods := regexp.MustCompile(fmt.Sprintf(`v\.F%d\.AppendCBOR\(`, i)).MatchString(out)
		if methods != f.generated {
			t.Errorf("b%d's line %q: field F%d through B's generated methods: %v, want %v", i, f.line, i, methods, f.generated)
		}
	}
	if t.Failed() {
		t.Logf("a's output:\n%s", out)
	}
}
