package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goldenSample matches the sentence by which an emitter's doc comment
// says that its sample output comes from a golden case, whole ("From")
// or with lines left out ("Abridged from", each gap a line with "...").
var goldenSample = regexp.MustCompile(`(From|Abridged from) testdata/golden/(\w+):`)

// TestDocSamples checks the sample output in the emitters' doc comments:
// a comment that names a golden case ("From testdata/golden/x:") shows,
// in its indented block, code that the case's golden file holds
// verbatim; an abridged one ("Abridged from testdata/golden/x:") shows
// lines of it in their order, where each line with "..." stands for
// those left out. The sample cannot drift from what is generated.
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
				t.Errorf("%s: %s names %s but shows no code", name, fd.Name.Name, m[2])
				continue
			}
			golden, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "golden", m[2], "cbor_gen.go"))
			if err != nil {
				t.Errorf("%s: %s: %v", name, fd.Name.Name, err)
				continue
			}
			if m[1] == "From" && !strings.Contains(string(golden), code) {
				t.Errorf("%s: the sample of %s is not in testdata/golden/%s/cbor_gen.go:\n%s", name, fd.Name.Name, m[2], code)
			}
			if m[1] == "Abridged from" {
				if line, ok := inOrder(string(golden), sample); !ok {
					t.Errorf("%s: the abridged sample of %s has a line testdata/golden/%s/cbor_gen.go lacks there: %s", name, fd.Name.Name, m[2], line)
				}
			}
			checked++
		}
	}
	if checked < 2 {
		t.Errorf("%d samples checked; appendMethod's and decodeMethod's at least name their golden case", checked)
	}
}

// inOrder reports whether the lines of sample, but those with "...",
// are lines of text in the same order; if not, the first that is not.
func inOrder(text string, sample []string) (string, bool) {
	lines := strings.Split(text, "\n")
	at := 0
	for _, line := range sample {
		if strings.Contains(line, "...") || line == "" {
			continue
		}
		i := slices.Index(lines[at:], line)
		if i < 0 {
			return line, false
		}
		at += i + 1
	}
	return "", true
}
