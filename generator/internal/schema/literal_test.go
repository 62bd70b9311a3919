package schema

import (
	"bytes"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// sampleModel is the model of the golden case testdata/golden/buildtag
// as a literal, with extra fields appended.
func sampleModel(extra ...*model.Field) *model.File {
	pos := token.Position{Filename: "buildtag.go", Line: 9, Column: 6}
	return &model.File{
		Package: "buildtag",
		Path:    "github.com/cborgen/cborgen/testdata/golden/buildtag",
		Structs: []*model.Struct{{
			Name: "Sample",
			Pos:  pos,
			Fields: append([]*model.Field{
				{Name: "Name", Pos: pos, Key: "Name", Type: model.String{Go: types.Typ[types.String]}},
				{Name: "Count", Pos: pos, Key: "Count", Type: model.Int{Go: types.Typ[types.Int], Signed: true}},
			}, extra...),
		}},
	}
}

// TestCheckGoldenRecord runs the check on a literal model and the golden
// case's record, bytes in and values out: the model the record was
// written from gives the record back and no break; a field added at the
// end is optional for stored arrays; a field whose kind changed is a
// break naming it.
func TestCheckGoldenRecord(t *testing.T) {
	out := filepath.Join("..", "..", "..", "testdata", "golden", "buildtag", model.DefaultOutput)
	old, err := os.ReadFile(LockPath(out))
	if err != nil {
		t.Fatal(err)
	}
	f := sampleModel()
	res := Check(f, out, old)
	if res.Breaks != nil || res.Unreadable != nil {
		t.Fatalf("the golden model breaks its own record: %v %v", res.Breaks, res.Unreadable)
	}
	if !bytes.Equal(res.Record, old) {
		t.Errorf("the record comes back as\n%s\nwant\n%s", res.Record, old)
	}
	if f.Structs[0].Optional != 0 {
		t.Errorf("Optional = %d, want 0", f.Structs[0].Optional)
	}

	grown := sampleModel(&model.Field{Name: "Note", Key: "Note", Type: model.String{Go: types.Typ[types.String]}})
	res = Check(grown, out, old)
	if res.Breaks != nil || res.Required["Sample"] != 2 || grown.Structs[0].Optional != 1 {
		t.Errorf("an appended field: breaks %v, required %d, Optional %d; want none, 2, 1", res.Breaks, res.Required["Sample"], grown.Structs[0].Optional)
	}
	if !strings.Contains(string(res.Record), `Sample 2 Note "Note" string`) {
		t.Errorf("the new record lacks the appended field:\n%s", res.Record)
	}

	changed := sampleModel()
	changed.Structs[0].Fields[1].Type = model.String{Go: types.Typ[types.String]}
	res = Check(changed, out, old)
	if res.Breaks == nil || !strings.Contains(res.Breaks.Error(), "Count") {
		t.Errorf("a field that changed kind: breaks %v, want one naming Count", res.Breaks)
	}
}
