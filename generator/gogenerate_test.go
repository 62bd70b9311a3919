package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGenerateDirectives is the one table of //go:generate line forms:
// the reader that -check ./..., the golden tests, the command a message
// prints and pending generation all use.
func TestGenerateDirectives(t *testing.T) {
	t.Setenv("CBORGEN_TEST_DIR", "/opt/tools")
	type want struct {
		line      int
		cmd, args []string
	}
	for _, tc := range []struct {
		name string
		src  string // lines after "package shop"
		want []want // nil: no line runs cbor-gen
	}{
		{"go tool", "//go:generate go tool cbor-gen -type A,B",
			[]want{{3, []string{"go", "tool", "cbor-gen"}, []string{"-type", "A,B"}}}},
		{"go tool by import path", "//go:generate go tool github.com/cborgen/cborgen/cmd/cbor-gen",
			[]want{{3, []string{"go", "tool", "github.com/cborgen/cborgen/cmd/cbor-gen"}, []string{}}}},
		{"go run", "//go:generate go run github.com/cborgen/cborgen/cmd/cbor-gen -type B",
			[]want{{3, []string{"go", "run", "github.com/cborgen/cborgen/cmd/cbor-gen"}, []string{"-type", "B"}}}},
		{"go run @version", "//go:generate go run github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.3 -type B",
			[]want{{3, []string{"go", "run", "github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.3"}, []string{"-type", "B"}}}},
		{"go run with flags", "//go:generate go run -mod=mod -tags 'x' github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0 -sort=none .",
			[]want{{3, []string{"go", "run", "-mod=mod", "-tags", "'x'", "github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0"}, []string{"-sort=none", "."}}}},
		{"go run ./cmd/cbor-gen", "//go:generate go run ../cmd/cbor-gen -type B",
			[]want{{3, []string{"go", "run", "../cmd/cbor-gen"}, []string{"-type", "B"}}}},
		{"cbor-gen on PATH", "//go:generate cbor-gen -type B",
			[]want{{3, []string{"cbor-gen"}, []string{"-type", "B"}}}},
		{"a path to cbor-gen", "//go:generate $CBORGEN_TEST_DIR/cbor-gen -type B",
			[]want{{3, []string{"/opt/tools/cbor-gen"}, []string{"-type", "B"}}}},
		{"quoted arguments", `//go:generate go tool cbor-gen "-type" "A,B" -tags "a b" -o "x\ty.go"`,
			[]want{{3, []string{"go", "tool", "cbor-gen"}, []string{"-type", "A,B", "-tags", "a b", "-o", "x\ty.go"}}}},
		{"$GOFILE and the other variables", `//go:generate go tool cbor-gen -o $GOFILE.cbor.go -tags ${GOPACKAGE}_$GOLINE "$DOLLAR"`,
			[]want{{3, []string{"go", "tool", "cbor-gen"}, []string{"-o", "shop.go.cbor.go", "-tags", "shop_3", "$"}}}},
		{"a tab after the directive", "//go:generate\tgo tool cbor-gen\t-type B",
			[]want{{3, []string{"go", "tool", "cbor-gen"}, []string{"-type", "B"}}}},
		{"CRLF", "//go:generate go tool cbor-gen -type B\r\ntype B struct{}\r",
			[]want{{3, []string{"go", "tool", "cbor-gen"}, []string{"-type", "B"}}}},
		{"a -command shorthand", "//go:generate -command cbor go tool cbor-gen\n//go:generate cbor -type B",
			[]want{{4, []string{"go", "tool", "cbor-gen"}, []string{"-type", "B"}}}},
		{"two lines", "//go:generate stringer -type K\n//go:generate go tool cbor-gen -type A\n\n//go:generate go tool cbor-gen -type B -o b.go",
			[]want{{4, []string{"go", "tool", "cbor-gen"}, []string{"-type", "A"}}, {6, []string{"go", "tool", "cbor-gen"}, []string{"-type", "B", "-o", "b.go"}}}},
		{"a line over 64 KB before it", "var s = \"" + strings.Repeat("x", 200<<10) + "\"\n//go:generate go tool cbor-gen -type B",
			[]want{{4, []string{"go", "tool", "cbor-gen"}, []string{"-type", "B"}}}},
		{"another generator", "//go:generate stringer -type Kind", nil},
		{"another go tool", "//go:generate go tool stringer -type Kind", nil},
		{"another go run", "//go:generate go run ./gen", nil},
		{"not a directive: a space", "// go:generate go tool cbor-gen", nil},
		{"not a directive: no space", "//go:generatego tool cbor-gen", nil},
		{"a directive in a block comment is one too", "/*\n//go:generate go tool cbor-gen\n*/",
			[]want{{4, []string{"go", "tool", "cbor-gen"}, []string{}}}},
		{"a quoted string that does not end", `//go:generate go tool cbor-gen -type "B`, nil},
		{"a quoted string not followed by a space", `//go:generate go tool cbor-gen -type "B"x`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readDirectives(strings.NewReader("package shop\n\n"+tc.src+"\n"), "/src/shop/shop.go", func() string { return "shop" })
			if err != nil {
				t.Fatal(err)
			}
			var have []want
			for _, d := range got {
				if d.file != "/src/shop/shop.go" {
					t.Errorf("file %q", d.file)
				}
				have = append(have, want{d.line, d.command, d.args})
			}
			if !reflect.DeepEqual(have, tc.want) {
				t.Errorf("got %q\nwant %q", have, tc.want)
			}
		})
	}
}

func TestDirectiveTooLong(t *testing.T) {
	src := "package shop\n\n//go:generate go tool cbor-gen -tags " + strings.Repeat("x", 100<<10) + "\n"
	if _, err := readDirectives(strings.NewReader(src), "shop.go", func() string { return "shop" }); err == nil || !strings.Contains(err.Error(), "shop.go:3: //go:generate directive too long") {
		t.Errorf("a directive of 100 KB: %v, want an error naming the line", err)
	}
}

// TestPackageDirectives: the lines of a package's files and its test
// files, in file name order, with $GOPACKAGE from each file's own package
// clause, as go generate sets it.
func TestPackageDirectives(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"b.go":      "package shop\n\n//go:generate go tool cbor-gen -o ${GOPACKAGE}_gen.go\n",
		"a.go":      "package shop\n\n//go:generate go tool cbor-gen -type A\n",
		"x_test.go": "package shop_test\n\n//go:generate go tool cbor-gen -o $GOPACKAGE.go\n",
		"c.go":      "package shop\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := packageDirectives(dir, []string{filepath.Join(dir, "b.go"), filepath.Join(dir, "a.go"), filepath.Join(dir, "c.go")})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, d := range got {
		have = append(have, fmt.Sprintf("%s:%d %s", filepath.Base(d.file), d.line, strings.Join(d.args, " ")))
	}
	want := []string{"a.go:3 -type A", "b.go:3 -o shop_gen.go", "x_test.go:3 -o shop_test.go"}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("got %q, want %q", have, want)
	}
}
