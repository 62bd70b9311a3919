package generator

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeExamples reads every stored sample of the examples, in the
// current format and the legacy one, from their schema records alone:
// the generated decoders take each, so -decode must find no problem, and
// it must name the format it found.
func TestDecodeExamples(t *testing.T) {
	whole := map[string]string{"store": "Value", "cose": "Sign1"} // the type of a sample named after its case
	files, err := filepath.Glob(filepath.Join("..", "examples", "*", "testdata", "*.hex"))
	if err != nil || len(files) < 20 {
		t.Fatalf("%d samples, %v", len(files), err)
	}
	for _, file := range files {
		dir := filepath.Dir(filepath.Dir(file))
		schema, _, err := readSchema(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		typ, _, _ := strings.Cut(filepath.Base(file), ".")
		if schema.Types[typ] == nil {
			typ = whole[filepath.Base(dir)]
		}
		in, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = Read(ReadConfig{Decode: typ, Dir: dir}, in, &out)
		in.Close()
		if err != nil {
			t.Errorf("%s as %s: %v\n%s", file, typ, err, out.String())
			continue
		}
		format := "current format"
		if strings.Contains(file, ".legacy.") {
			format = "legacy map"
		}
		notStruct := strings.Contains(file, "dictionary") || strings.Contains(file, "text") // a Dict, a text string: no format
		if !notStruct && !strings.Contains(out.String(), format) {
			t.Errorf("%s: does not say %q:\n%s", file, format, out.String())
		}
	}
}

// TestDecodeRefused checks that a refusal is ErrRefused and that the
// notation still comes out.
func TestDecodeRefused(t *testing.T) {
	var out bytes.Buffer
	err := Read(ReadConfig{Decode: "Path", Dir: filepath.Join("..", "examples", "storage")}, strings.NewReader("8219fffff6"), &out)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "Path.Domain: integer 65535 overflows uint16") && !strings.Contains(err.Error(), "Path.Identifier: expected text string, found null") {
		t.Errorf("error %v", err)
	}
	if !strings.Contains(out.String(), "/ 1: Identifier: expected text string, found null /") {
		t.Errorf("got\n%s", out.String())
	}
}
