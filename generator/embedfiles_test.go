package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// attrs is the package of the embedding cases: a generated type that a
// tag library's users extend by embedding it.
const attrs = "package c\n\n//cborgen:array\ntype GlobalAttributes struct {\n\tID    string `cbor:\"1,keyasint\"`\n\tClass string `cbor:\"2,keyasint\"`\n}\n"

// TestEmbeddingInOtherFiles: a struct that embeds a generated type loses
// its other fields when it is built, whatever file it is in; the files
// the run's type check does not see (test files, those of an external
// _test package, those of other build configurations) are read for
// their syntax, and the run is refused with the file named.
func TestEmbeddingInOtherFiles(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string // besides c.go (attrs)
		errs  []string          // each a part of the error; none: accepted
	}{{
		name: "a test file of the package",
		files: map[string]string{"ext_test.go": "package c\n\nimport \"testing\"\n\n" +
			"type Ext struct {\n\tGlobalAttributes\n\tBing string `cbor:\"32768,keyasint\"`\n}\n\nfunc TestExt(t *testing.T) {}\n"},
		errs: []string{
			"ext_test.go:6:2: Ext, in ext_test.go (a test file), embeds GlobalAttributes, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates: " +
				"Go promotes them to it, so fxamacker/cbor would encode it as its GlobalAttributes alone and drop its other fields, in both directions. " +
				"Give Ext MarshalCBOR and UnmarshalCBOR of its own, name the field (GlobalAttributes GlobalAttributes), or mark GlobalAttributes //cborgen:embeddable",
		},
	}, {
		name: "a file of another build configuration",
		files: map[string]string{"ext.go": "//go:build sometag\n\npackage c\n\n" +
			"type Ext struct {\n\t*GlobalAttributes\n\tBing string\n}\n"},
		errs: []string{"ext.go:6:2: Ext, in ext.go (built only with //go:build sometag), embeds GlobalAttributes", "name the field (GlobalAttributes *GlobalAttributes)"},
	}, {
		name: "a file of a newer Go",
		files: map[string]string{"new.go": "//go:build go1.99\n\npackage c\n\n" +
			"func f() any {\n\ttype local struct {\n\t\tGlobalAttributes\n\t\tN int\n\t}\n\treturn local{}\n}\n"},
		errs: []string{"new.go:6:7: the type local declared inside a function, in new.go (built only with //go:build go1.99), embeds GlobalAttributes",
			"Mark GlobalAttributes //cborgen:embeddable (generated without those two methods), or name the field (GlobalAttributes GlobalAttributes)"},
	}, {
		name: "an external test package",
		files: map[string]string{"ext_x_test.go": "package c_test\n\nimport (\n\t\"testing\"\n\n\tattrs \"example.com/x/%s\"\n)\n\n" +
			"type Ext struct {\n\tattrs.GlobalAttributes\n\tBing string\n}\n\n" +
			"func TestExt(t *testing.T) {\n\t_ = struct {\n\t\t*attrs.GlobalAttributes\n\t\tN int\n\t}{}\n}\n"},
		errs: []string{
			"ext_x_test.go:10:2: Ext, in ext_x_test.go (a test file of the external package c_test), embeds attrs.GlobalAttributes",
			"or mark attrs.GlobalAttributes //cborgen:embeddable",
			"ext_x_test.go:15:6: the anonymous struct type struct{*attrs.GlobalAttributes; N int}, in ext_x_test.go",
		},
	}, {
		name: "a named field",
		files: map[string]string{"ext_test.go": "package c\n\n" +
			"type Ext struct {\n\tGA   GlobalAttributes\n\tBing string\n}\n"},
	}, {
		name: "methods of its own",
		files: map[string]string{"ext_test.go": "package c\n\n" +
			"type Ext struct {\n\tGlobalAttributes\n\tBing string\n}\n\n" +
			"func (e Ext) MarshalCBOR() ([]byte, error) { return nil, nil }\n\nfunc (e *Ext) UnmarshalCBOR([]byte) error { return nil }\n"},
	}, {
		name: "two generated types at one level",
		files: map[string]string{"ext_test.go": "package c\n\n" +
			"type Ext struct {\n\tGlobalAttributes\n\tMore\n\tN int\n}\n",
			"other.go": "package c\n\ntype More struct{ B int }\n"},
	}, {
		name: "a configuration without the generated methods",
		files: map[string]string{
			"c.go":             "//go:build linux\n\n" + attrs,
			"c_windows.go":     "package c\n\ntype Ext struct {\n\tGlobalAttributes\n\tBing string\n}\n",
			"attrs_windows.go": "package c\n\ntype GlobalAttributes struct{ ID string }\n",
		},
	}, {
		name: "a type of the same name declared in the file",
		files: map[string]string{
			"c_plan9.go": "package c\n\ntype Ext struct {\n\tGlobalAttributes\n\tBing string\n}\n",
			"c_other.go": "//go:build !plan9\n\npackage c\n\ntype Ext struct{}\n",
		},
		errs: []string{"c_plan9.go:4:2: Ext, in c_plan9.go (built only for plan9 (its name says so)), embeds GlobalAttributes"},
	}}
	dir := schemaModule(t)
	for i, tc := range cases {
		pkg := fmt.Sprintf("c%d", i)
		pkgDir := filepath.Join(dir, pkg)
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(pkgDir, "c.go"), attrs)
		for name, src := range tc.files {
			writeFile(t, filepath.Join(pkgDir, name), strings.ReplaceAll(src, "%s", pkg))
		}
		t.Run(tc.name, func(t *testing.T) {
			types := []string{"GlobalAttributes"}
			if tc.name == "two generated types at one level" {
				types = append(types, "More")
			}
			_, err := Render(Config{Pattern: pkgDir, Settings: Settings{Types: types}})
			if len(tc.errs) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.errs {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestCheckAllEmbedding: -check ./... refuses a struct of any package of
// the module that embeds a type generated in another one, in any of its
// files, whether the package runs cbor-gen itself or not; a named field,
// an embeddable type and a struct with methods of its own pass.
func TestCheckAllEmbedding(t *testing.T) {
	dir := schemaModule(t)
	files := map[string]string{
		"a/a.go": "package a\n\n//go:generate go tool cbor-gen -type T,E\n\ntype T struct{ A int }\n\n" +
			"//cborgen:embeddable\ntype E struct{ B int }\n",
		// b runs no cbor-gen.
		"b/b.go": "package b\n\nimport \"example.com/x/a\"\n\ntype Ext struct {\n\ta.T\n\tBing string\n}\n\n" +
			"type Named struct {\n\tT    a.T\n\tBing string\n}\n\ntype Fine struct {\n\ta.E\n\tBing string\n}\n\n" +
			"type Own struct {\n\t*a.T\n\tBing string\n}\n\nfunc (o Own) MarshalCBOR() ([]byte, error) { return nil, nil }\n\n" +
			"func (o *Own) UnmarshalCBOR([]byte) error { return nil }\n",
		"b/b_test.go": "package b\n\nimport (\n\t\"testing\"\n\n\tgen \"example.com/x/a\"\n)\n\n" +
			"func TestB(t *testing.T) {\n\ttype local struct {\n\t\tgen.T\n\t\tN int\n\t}\n\t_ = local{}\n}\n",
		"b/b_new.go": "//go:build sometag\n\npackage b\n\nimport \"example.com/x/a\"\n\ntype Later struct {\n\ta.T\n\tN int\n}\n",
		// c runs cbor-gen, and only its tests import a.
		"c/c.go": "package c\n\n//go:generate go tool cbor-gen -type C\n\ntype C struct{ X int }\n",
		"c/c_test.go": "package c\n\nimport \"example.com/x/a\"\n\ntype Ext struct {\n\ta.T\n\tC\n\tN int\n}\n\n" +
			"type Wrap struct {\n\ta.T\n\tN int\n}\n",
		// d has tests alone.
		"d/d_test.go": "package d_test\n\nimport \"example.com/x/a\"\n\ntype W struct {\n\ta.T\n\tN int\n}\n",
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, name), src)
	}
	for _, g := range []Config{
		{Pattern: filepath.Join(dir, "a"), Settings: Settings{Types: []string{"T", "E"}}},
		{Pattern: filepath.Join(dir, "c"), Settings: Settings{Types: []string{"C"}}},
	} {
		if err := Generate(g); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	err := Generate(Config{Pattern: "./...", Check: true})
	if err == nil {
		t.Fatal("-check ./... passed")
	}
	msg := err.Error()
	for _, w := range []string{
		"b/b.go:6:2: Ext, in b.go, embeds a.T, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates",
		"name the field (T a.T), or mark a.T //cborgen:embeddable",
		"b/b_new.go:8:2: Later, in b_new.go (built only with //go:build sometag), embeds a.T",
		"b/b_test.go:10:7: the type local declared inside a function, in b_test.go (a test file), embeds gen.T",
		"c/c_test.go:12:2: Wrap, in c_test.go (a test file), embeds a.T",
		"d/d_test.go:6:2: W, in d_test.go (a test file of the external package d_test), embeds a.T",
	} {
		if !strings.Contains(msg, w) {
			t.Errorf("-check ./... error lacks %q:\n%s", w, msg)
		}
	}
	for _, not := range []string{"Named", "Fine", "Own", "c_test.go:6:", "stale", "run go generate"} {
		if strings.Contains(msg, not) {
			t.Errorf("-check ./... error has %q:\n%s", not, msg)
		}
	}
	if n := strings.Count(msg, "\n") + 1; n != 5 {
		t.Errorf("-check ./... reported %d lines, want 5:\n%s", n, msg)
	}
}
