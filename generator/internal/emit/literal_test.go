package emit

import (
	"bytes"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// buildtagModel is the model of the golden case testdata/golden/buildtag,
// written as a literal: what the builder makes of the package, without
// loading it.
func buildtagModel() *model.File {
	pos := func(line, col int) token.Position {
		return token.Position{Filename: "buildtag.go", Line: line, Column: col}
	}
	return &model.File{
		Package: "buildtag",
		Path:    "github.com/cborgen/cborgen/testdata/golden/buildtag",
		Order:   model.OrderBytewise,
		Build:   "//go:build go1.21",
		Taken:   map[string]bool{"Sample": true},
		Structs: []*model.Struct{{
			Name: "Sample",
			Pos:  pos(9, 6),
			Fields: []*model.Field{
				{Name: "Name", Pos: pos(10, 2), Key: "Name", Type: model.String{Go: types.Typ[types.String]}, Zero: model.ZeroText},
				{Name: "Count", Pos: pos(11, 2), Key: "Count", Type: model.Int{Go: types.Typ[types.Int], Signed: true}, Zero: model.ZeroNumber},
			},
		}},
	}
}

// TestLiteralModel emits a model written as a literal, with no package
// loaded and no module: formatted, it is the golden file of the case the
// model describes, byte for byte, whether rendered as one file or in
// chunks.
func TestLiteralModel(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "golden", "buildtag", model.DefaultOutput))
	if err != nil {
		t.Fatal(err)
	}
	for _, chunks := range []int{0, 2} {
		old := ChunksForTests
		ChunksForTests = chunks
		rendered, err := File(buildtagModel())
		ChunksForTests = old
		if err != nil {
			t.Fatal(err)
		}
		got, err := format.Source(rendered)
		if err != nil {
			t.Fatalf("chunks %d: the emitted source does not parse: %v", chunks, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("chunks %d: the literal model emits other source than testdata/golden/buildtag:\n%s", chunks, got)
		}
	}
}
