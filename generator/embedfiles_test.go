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
const attrs = "package c\n\ntype GlobalAttributes struct {\n\tID    string `cbor:\"1,keyasint\"`\n\tClass string `cbor:\"2,keyasint\"`\n}\n"

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
			"ext_test.go:5:6: Ext, in ext_test.go (a test file), embeds GlobalAttributes, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates: " +
				"Go promotes them to it, so fxamacker/cbor would encode it as its GlobalAttributes alone and drop its other fields, in both directions. " +
				"Give Ext MarshalCBOR and UnmarshalCBOR of its own, name the field (GlobalAttributes GlobalAttributes), or mark GlobalAttributes //cborgen:embeddable",
		},
	}, {
		name: "a file of another build configuration",
		files: map[string]string{"ext.go": "//go:build sometag\n\npackage c\n\n" +
			"type Ext struct {\n\t*GlobalAttributes\n\tBing string\n}\n"},
		errs: []string{"ext.go:5:6: Ext, in ext.go (built only with //go:build sometag), embeds GlobalAttributes", "name the field (GlobalAttributes *GlobalAttributes)"},
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
			"ext_x_test.go:9:6: Ext, in ext_x_test.go (a test file of the external package c_test), embeds attrs.GlobalAttributes",
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
		errs: []string{"c_plan9.go:3:6: Ext, in c_plan9.go (built only for plan9 (its name says so)), embeds GlobalAttributes"},
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
