package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// schemaModule lays out a module whose package x is the file src, with
// this repository (for runtime.Reserved) through a replace directive.
func schemaModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/x\n\ngo 1.24.0\n\n"+
		"require github.com/cborgen/cborgen v0.0.0\n\nreplace github.com/cborgen/cborgen => "+root+"\n")
	return dir
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// versions generates package x in dir from each source in turn, writing
// the record after each, and returns the outcome of the last.
func versions(t *testing.T, dir string, cfg Config, srcs ...string) (*Output, error) {
	t.Helper()
	cfg.Pattern = dir
	var out *Output
	var err error
	for i, src := range srcs {
		writeFile(t, filepath.Join(dir, "x.go"), "package x\n\n"+src)
		out, err = Render(cfg)
		if i == len(srcs)-1 {
			break
		}
		if err != nil {
			t.Fatalf("version %d: %v", i+1, err)
		}
		writeFile(t, out.LockPath, string(out.Lock))
	}
	return out, err
}

func TestSchemaChanges(t *testing.T) {
	const reserved = "import \"github.com/cborgen/cborgen/runtime\"\n\n"
	for _, tc := range []struct {
		name     string
		versions []string
		want     []string // parts of the error of the last version, in order; none: success
		lock     []string // lines of the last record, when it succeeds
		only     bool     // want is the only error: nothing else in the message
	}{{
		name: "insert in the middle",
		versions: []string{
			"type T struct {\n\tA int\n\tB string\n}\n",
			"type T struct {\n\tA int\n\tN bool\n\tB string\n}\n",
		},
		want: []string{
			"x.go:5:2: field T.N is new at slot 1, where stored data holds T.B: existing data would decode the values of B into N. Add new fields at the end",
			"x.go:6:2: field T.B moved from slot 1 to slot 2, which holds no field: it was appended after the record",
		},
	}, {
		name: "promoted field moved",
		versions: []string{
			"type Base struct {\n\tA int\n\tB string\n}\n\ntype T struct {\n\tBase\n\tC int\n}\n",
			"type Base struct {\n\tB string\n\tA int\n}\n\ntype T struct {\n\tBase\n\tC int\n}\n",
		},
		want: []string{
			"x.go:4:2: field Base.B moved from slot 1 to slot 0",
			"x.go:4:2: field T.Base.B moved from slot 1 to slot 0, where stored data holds T.Base.A",
		},
	}, {
		name: "a field added at the end of an embedded struct",
		versions: []string{
			"type Meta struct {\n\tID int\n\tAt int64\n}\n\ntype Customer struct {\n\tName string\n\tMeta\n\tEmail string\n\tPhone string\n}\n",
			"type Meta struct {\n\tID int\n\tAt int64\n\tNote string\n}\n\ntype Customer struct {\n\tName string\n\tMeta\n\tEmail string\n\tPhone string\n}\n",
		},
		want: []string{
			"x.go:6:2: field Customer.Meta.Note, new in the embedded struct Meta, takes slot 3 in the middle of Customer's array, where stored data holds Customer.Email",
			"so the 2 fields of Customer from slot 3 on would move",
			"Add the field at the end of Customer instead; for a struct that will grow, embed it as a named field in new types (Meta Meta: a nested array",
			"-accept-break",
		},
		only: true,
	}, {
		name: "retired key taken",
		versions: []string{
			"type T struct {\n\tA int `cbor:\"a\"`\n\tB int\n}\n",
			reserved + "type T struct {\n\t_ runtime.Reserved\n\tB int\n\tC string `cbor:\"a\"`\n}\n",
		},
		want: []string{`x.go:8:2: field T.C uses the legacy key "a" of the retired field A`},
	}, {
		name: "reserved slot at the end dropped",
		versions: []string{
			reserved + "type T struct {\n\tA int\n\t_ runtime.Reserved\n}\n",
			"type T struct {\n\tA int\n}\n",
		},
		want: []string{"x.go:3:6: type T lost slot 1, which is reserved: stored data holds values there"},
	}, {
		name: "retire then append",
		versions: []string{
			"type T struct {\n\tA int8\n\tB []byte\n}\n",
			reserved + "type T struct {\n\tA int64\n\tB runtime.Reserved\n\tC [2]int8\n}\n",
		},
		lock: []string{"type T required=2\n", "T 0 A \"A\" int64\n", "T 1 reserved was B \"B\" []byte\n", "T 2 C \"C\" [2]int8\n"},
	}, {
		name: "a reserved slot keeps what it held",
		versions: []string{
			"type T struct {\n\tA int8\n\tB []byte\n}\n",
			reserved + "type T struct {\n\tA int8\n\t_ runtime.Reserved\n}\n",
			reserved + "type T struct {\n\tA int8\n\tgone runtime.Reserved\n\tC int\n}\n",
		},
		lock: []string{"T 1 reserved was B \"B\" []byte\n", "T 2 C \"C\" int\n"},
	}, {
		name: "extensible in a parenthesized declaration",
		versions: []string{
			"type (\n\t// T grows.\n\t//\n\t//cborgen:extensible\n\tT struct{ A int }\n\n\tU struct{ B int }\n)\n",
		},
		lock: []string{"type T required=1\n", "type U required=1\n"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := versions(t, schemaModule(t), Config{}, tc.versions...)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range tc.lock {
					if !strings.Contains(string(out.Lock), l) {
						t.Errorf("record lacks %q:\n%s", l, out.Lock)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; record:\n%s", out.Lock)
			}
			rest := err.Error()
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error does not contain %q (in order):\n%v", w, err)
				}
				rest = rest[i+len(w):]
			}
			if tc.only && strings.Count(err.Error(), "x.go:") != 1 {
				t.Errorf("more than the one error:\n%v", err)
			}
		})
	}
}

func TestSchemaEvolvedModel(t *testing.T) {
	dir := schemaModule(t)
	out, err := versions(t, dir, Config{},
		"//cborgen:extensible\ntype T struct {\n\tA int\n\tB int\n}\n",
		"//cborgen:extensible\ntype T struct {\n\tA int\n\tB int\n\tC int\n}\n",
	)
	if err != nil {
		t.Fatal(err)
	}
	src := string(out.Source)
	for _, want := range []string{
		"// Arrays written before C was added end early; it is set to zero.\n",
		"expected array of at least 2 elements, found %d",
		"if i <= 2 {\n\t\t\t\tv.C = 0\n",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	writeFile(t, out.LockPath, string(out.Lock))

	// -accept-break rewrites the record but keeps the arrays it accepted:
	// required stays 2.
	var log strings.Builder
	out, err = versions(t, dir, Config{AcceptBreak: true, Log: &log},
		"type T struct {\n\tB int\n\tA int\n\tC int\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Lock), "type T required=2\nT 0 B \"B\" int\nT 1 A \"A\" int\nT 2 C \"C\" int\n") {
		t.Errorf("record after -accept-break:\n%s", out.Lock)
	}
	if !strings.Contains(log.String(), "field T.B moved from slot 1 to slot 0") {
		t.Errorf("-accept-break logged:\n%s", log.String())
	}
	if !strings.Contains(string(out.Source), "expected array of 2 to 3 elements") {
		t.Error("the decoder no longer accepts the shorter arrays")
	}

	// A record that does not parse is an error at its line, and
	// -accept-break writes it anew.
	writeFile(t, out.LockPath, "cbor-gen schema 1\n\ntype T required=2\nT 0 B\n")
	if _, err := Render(Config{Pattern: dir}); err == nil || !strings.Contains(err.Error(), "cbor_gen.lock:4:1: want") {
		t.Errorf("broken record: %v", err)
	}
	log.Reset()
	out, err = Render(Config{Pattern: dir, AcceptBreak: true, Log: &log})
	if err != nil || !strings.Contains(string(out.Lock), "type T required=3\n") || !strings.Contains(log.String(), "does not parse") {
		t.Errorf("-accept-break over a broken record: %v\n%s\n%s", err, out.Lock, log.String())
	}
}
