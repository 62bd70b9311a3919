package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goldenSample matches the sentence by which an emitter's doc comment
// says that its sample output comes from a golden case.
var goldenSample = regexp.MustCompile(`From testdata/golden/(\w+):`)

// TestDocSamples checks the sample output in the emitters' doc comments:
// a comment that names a golden case ("From testdata/golden/x:") shows,
// in its indented block, code that the case's golden file holds
// verbatim, so that the sample cannot drift from what is generated.
func TestDocSamples(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			text := fd.Doc.Text()
			m := goldenSample.FindStringSubmatch(strings.ReplaceAll(text, "\n", " "))
			if m == nil {
				continue
			}
			var sample []string
			for _, line := range strings.Split(text, "\n") {
				if code, ok := strings.CutPrefix(line, "\t"); ok {
					sample = append(sample, code)
				} else if len(sample) > 0 && line == "" {
					sample = append(sample, "")
				}
			}
			code := strings.TrimRight(strings.Join(sample, "\n"), "\n")
			if code == "" {
				t.Errorf("%s: %s names %s but shows no code", name, fd.Name.Name, m[1])
				continue
			}
			golden, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "golden", m[1], "cbor_gen.go"))
			if err != nil {
				t.Errorf("%s: %s: %v", name, fd.Name.Name, err)
				continue
			}
			if !strings.Contains(string(golden), code) {
				t.Errorf("%s: the sample of %s is not in testdata/golden/%s/cbor_gen.go:\n%s", name, fd.Name.Name, m[1], code)
			}
			checked++
		}
	}
	if checked < 2 {
		t.Errorf("%d samples checked; appendMethod's and decodeMethod's at least name their golden case", checked)
	}
}
