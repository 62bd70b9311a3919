package generator

import (
	"path/filepath"
	"testing"
)

// TestDirectivesInOtherFiles: the //cborgen: lines of the files that the
// type check does not see are checked too: a test file's (whose types
// are never generated) and those of a file another build configuration
// compiles, read for their syntax; and a file's header.
func TestDirectivesInOtherFiles(t *testing.T) {
	t.Parallel()
	dir := schemaModule(t)
	writeFile(t, filepath.Join(dir, "x.go"), "// cborgen:nolegacy\n\npackage x\n\ntype T struct{ A int }\n")
	writeFile(t, filepath.Join(dir, "x_test.go"), "package x\n\n//cborgen:tag 1020\ntype M struct{ A int }\n")
	writeFile(t, filepath.Join(dir, "y_test.go"), "package x_test\n\nfunc f() {\n\t//cborgen:map\n}\n")
	writeFile(t, filepath.Join(dir, "z_windows.go"), "package x\n\n//cborgen:unoin\ntype V interface{ isV() }\n\n//cborgen:union\ntype W interface{ isW() }\n\n//cborgen:map\ntype S int\n\n//cborgen:array\ntype U other.Type\n")
	_, err := Render(Config{Pattern: dir})
	if err == nil {
		t.Fatal("no error")
	}
	inOrder(t, "error", err.Error(), []string{
		`x.go:1:1: "// cborgen:nolegacy" is a plain comment, not a directive, because of its space`,
		"x_test.go:3:1: type M: //cborgen:tag 1020 is not read on a type of a test file: cbor-gen generates no type of a test file; a directive goes in the doc comment of the type it is for " + knownList,
		"y_test.go:4:2: //cborgen:map is not read inside a function",
		"z_windows.go:3:1: type V: unknown directive //cborgen:unoin " + knownList,
		"z_windows.go:9:1: type S: //cborgen:map is for struct types; S is a named int type",
	})
}
