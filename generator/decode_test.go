package generator

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	err := Read(ReadConfig{Decode: "Path", Dir: filepath.Join("..", "examples", "storage")}, strings.NewReader("8219fffff4"), &out)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "Path.Domain: integer 65535 overflows uint16") && !strings.Contains(err.Error(), "Path.Identifier: expected text string, found bool") {
		t.Errorf("error %v", err)
	}
	if !strings.Contains(out.String(), "/ 1: Identifier: expected text string, found bool /") {
		t.Errorf("got\n%s", out.String())
	}
}

// TestCDDLRecords writes the CDDL of every schema record in the
// repository (the examples and the golden cases) and checks that it has a
// rule for each recorded type and union, and that each array rule lists
// the slots in slot order; where node and the test module's packages are
// installed, also that the npm cddl package parses every file and reads
// the same members.
func TestCDDLRecords(t *testing.T) {
	locks, _ := filepath.Glob(filepath.Join("..", "examples", "*", "cbor_gen.lock"))
	golden, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "*", "cbor_gen.lock"))
	locks = append(locks, golden...)
	if len(locks) < 10 {
		t.Fatalf("%d records", len(locks))
	}
	tmp := t.TempDir()
	var files []string
	want := map[string]map[string][]string{} // file, array rule: members
	for i, lock := range locks {
		schema, _, err := readSchema(filepath.Dir(lock), "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := Read(ReadConfig{CDDL: true, Dir: filepath.Dir(lock)}, nil, &out); err != nil {
			t.Fatal(err)
		}
		if err := diagCheckCDDL(schema, out.String()); err != nil {
			t.Errorf("%s: %v\n%s", lock, err, out.String())
		}
		file := filepath.Join(tmp, strconv.Itoa(i)+".cddl")
		if err := os.WriteFile(file, out.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
		want[file] = map[string][]string{}
		for name, typ := range schema.Types {
			if !typ.Map && len(typ.Slots) > 0 {
				want[file][name+"-array"] = slotNames(typ)
			}
		}
	}
	got, ok := nodeParseCDDL(t, files)
	if !ok {
		t.Log("node or the npm cddl package is not installed (npm ci in generator/internal/diag/testdata/npm): parsed with the Go checks only")
		return
	}
	for _, file := range files {
		for rule, members := range want[file] {
			if !slices.Equal(got[file][rule], members) {
				t.Errorf("%s %s: the cddl package reads %v, want %v", file, rule, got[file][rule], members)
			}
		}
	}
}

// TestDecodeSourceHints checks what the package's source adds to the
// record, read without compiling it: the kinds of named types of other
// kinds (a union's untagged variants are then told apart, a Dict's values
// annotated). The same record alone shows the
// same bytes without judging what it cannot know.
func TestDecodeSourceHints(t *testing.T) {
	decode := func(dir, typ, in string) (string, error) {
		var out bytes.Buffer
		err := Read(ReadConfig{Decode: typ, Dir: dir}, strings.NewReader(in), &out)
		return out.String(), err
	}
	lockOnly := func(example string) string {
		dir := t.TempDir()
		lock, err := os.ReadFile(filepath.Join("..", "examples", example, "cbor_gen.lock"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cbor_gen.lock"), lock, 0o666); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	store := filepath.Join("..", "examples", "store")
	// "a", true, 133({"k": 164(1)}): a StringValue, a BoolValue, a Dict of UInt64Value.
	const values = "6161 f5 d885a1616bd8a401"
	if out, err := decode(store, "Value", values); err != nil ||
		!strings.Contains(out, "/ StringValue (Value variant) /") || !strings.Contains(out, "/ BoolValue (Value variant) /") ||
		!strings.Contains(out, `"k": 164(1)`) || !strings.Contains(out, "/ UInt64Value (Value variant) /") {
		t.Errorf("with the source: %v\n%s", err, out)
	}
	// The record holds the value types' kinds (version 3): alone, it tells
	// the variants apart as the source does.
	if out, err := decode(lockOnly("store"), "Value", values); err != nil ||
		!strings.Contains(out, "/ StringValue (Value variant) /") || !strings.Contains(out, "/ BoolValue (Value variant) /") ||
		!strings.Contains(out, "/ UInt64Value (Value variant) /") {
		t.Errorf("record alone: %v\n%s", err, out)
	}
	// A record of an older cbor-gen, without them, does not judge what it
	// cannot know.
	old := lockOnly("store")
	lock, err := os.ReadFile(filepath.Join(old, "cbor_gen.lock"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(lock), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[1] == "value" {
			continue
		}
		kept = append(kept, strings.Replace(line, "cbor-gen schema 3", "cbor-gen schema 1", 1))
	}
	if err := os.WriteFile(filepath.Join(old, "cbor_gen.lock"), []byte(strings.Join(kept, "\n")), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, err := decode(old, "Value", values); err != nil || !strings.Contains(out, "/ Value: one of BoolValue, StringValue (the record does not say which) /") {
		t.Errorf("an older record alone: %v\n%s", err, out)
	}
	// 18({}): a map where Sign1, //cborgen:nolegacy, takes only an array.
	cose := filepath.Join("..", "examples", "cose")
	if out, err := decode(cose, "Sign1", "d2a0"); !errors.Is(err, ErrRefused) || !strings.Contains(out, "expected array, found map (Sign1 has no legacy map form)") {
		t.Errorf("with the source: %v\n%s", err, out)
	}
	// The record says so too (its nolegacy token), so the record alone
	// refuses the map the same way.
	if out, err := decode(lockOnly("cose"), "Sign1", "d2a0"); !errors.Is(err, ErrRefused) || !strings.Contains(out, "expected array, found map (Sign1 has no legacy map form)") {
		t.Errorf("record alone: %v\n%s", err, out)
	}
	// A file that does not parse is passed over; the others still count.
	dir := lockOnly("store")
	src, err := os.ReadFile(filepath.Join(store, "store.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "store.go"), src, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package store\nfunc {"), 0o666); err != nil {
		t.Fatal(err)
	}
	if out, err := decode(dir, "Value", values); err != nil || !strings.Contains(out, "/ StringValue (Value variant) /") {
		t.Errorf("beside a broken file: %v\n%s", err, out)
	}
}
