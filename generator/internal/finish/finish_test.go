package finish

import (
	"bytes"
	"go/format"
	"regexp"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/testmod"
)

// TestFinishOutput: a large output formatted and checked in parts is what
// format.Source makes of it, and an error in it is reported as one check
// of the formatted output reports it.
func TestFinishOutput(t *testing.T) {
	dir := testmod.Large(t, 60)
	out, err := generated(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := load.Load(dir, "", nil, false)
	if err != nil {
		t.Fatal(err)
	}
	// Rendered code is not indented; gofmt indents it.
	rendered := regexp.MustCompile(`(?m)^\t+`).ReplaceAll(out.Source, nil)
	known := knownPackages(l)
	src, done, err := finishParts(l, rendered, known, 3)
	if src == nil || !done || err != nil {
		t.Fatalf("finishParts: formatted %v, done %v, %v", src != nil, done, err)
	}
	if want, _ := format.Source(rendered); !bytes.Equal(src, want) || !bytes.Equal(src, out.Source) {
		t.Errorf("finishParts differs from format.Source:\n%s", diff("format.Source", "finishParts", want, src))
	}

	at := bytes.LastIndex(rendered, []byte("\nreturn nil\n}"))
	broken := append(append(bytes.Clone(rendered[:at]), "\nreturn 1\n}"...), rendered[at+len("\nreturn nil\n}"):]...)
	src, done, err = finishParts(l, broken, known, 3)
	if src == nil || done || err != nil {
		t.Fatalf("finishParts of a broken output: formatted %v, done %v, %v; want it left to the whole check", src != nil, done, err)
	}
	want, _ := format.Source(broken)
	wantErr := typecheckOutput(l, want)
	_, gotErr := Output(l, broken)
	if wantErr == nil || gotErr == nil || gotErr.Error() != wantErr.Error() {
		t.Errorf("Output: %v\nwant %v", gotErr, wantErr)
	}
}
