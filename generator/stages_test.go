package generator

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// stages are the generator's packages in the order of the pipeline: each
// may import those before it, never one after it. An import the other
// way round that closes a cycle is a compile error; this test catches
// the rest (emit importing finish, say).
var stages = []string{"model", "load", "build", "schema", "emit", "compat", "finish", "cache"}

// readers are packages beside the pipeline, which read what it wrote:
// diag reads stored data for -decode and -cddl, from the record the root
// hands it. A reader may import the record's own stages (readable), no
// other.
var readers = []string{"diag"}

var readable = []string{"model", "schema"}

// TestStageImports holds the stage packages to the order of stages, and
// checks that no package under internal/ is missing from it.
func TestStageImports(t *testing.T) {
	const prefix = "github.com/cborgen/cborgen/generator/internal/"
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports}, "./internal/...")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		name, _ := strings.CutPrefix(p.PkgPath, prefix)
		at := slices.Index(stages, name)
		if name == "testmod" {
			continue // imported by tests only
		}
		if slices.Contains(readers, name) {
			for path := range p.Imports {
				if dep, ok := strings.CutPrefix(path, prefix); ok && !slices.Contains(readable, dep) {
					t.Errorf("%s reads stored data beside the pipeline, yet imports %s", name, dep)
				}
			}
			continue
		}
		if at < 0 {
			t.Errorf("%s is not a stage: add it to stages, in its place, and to doc.go", p.PkgPath)
			continue
		}
		for path := range p.Imports {
			dep, ok := strings.CutPrefix(path, prefix)
			if !ok {
				continue
			}
			if i := slices.Index(stages, dep); i < 0 || i >= at {
				t.Errorf("%s imports %s, which comes after it in the pipeline", name, dep)
			}
		}
	}
	if len(pkgs) < len(stages)+len(readers) {
		t.Errorf("%d packages under internal/, want the %d stages and readers", len(pkgs), len(stages)+len(readers))
	}
}
