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

// TestSchemaValueTypes: a value type (a named type of another kind) is
// recorded by the wire kind of its underlying type, and a change that
// stored values would not survive is refused, as a field's would be.
func TestSchemaValueTypes(t *testing.T) {
	cfg := Config{Settings: Settings{Types: []string{"IDs", "T"}}}
	const holder = "\n\ntype T struct {\n\tA IDs\n}\n"
	for _, tc := range []struct {
		name     string
		versions []string
		want     string // part of the error of the last version; "": success
		lock     string // part of the last record, when it succeeds
	}{{
		name:     "recorded",
		versions: []string{"type IDs []uint64" + holder},
		lock:     "cbor-gen schema 3\n\ntype IDs required=0\nIDs value []uint64\n",
	}, {
		name:     "element changed",
		versions: []string{"type IDs []uint64" + holder, "type IDs []string" + holder},
		want:     "x.go:3:6: type IDs changed from []uint64 to []string: stored data holds []uint64 values, which a []string cannot decode to the same value",
	}, {
		name:     "widened",
		versions: []string{"type IDs []uint32" + holder, "type IDs []uint64" + holder},
		lock:     "IDs value []uint64\n",
	}, {
		name:     "scalar changed",
		versions: []string{"//cborgen:tag 1003\ntype IDs uint64" + holder, "//cborgen:tag 1003\ntype IDs string" + holder},
		want:     "type IDs changed from uint64 to string",
	}, {
		name:     "now a struct",
		versions: []string{"type IDs []uint64" + holder, "type IDs struct{ N []uint64 }" + holder},
		want:     "type IDs was a named []uint64 (stored values are []uint64 items) and is now a struct",
	}, {
		name:     "was a struct",
		versions: []string{"type IDs struct{ N []uint64 }" + holder, "type IDs []uint64" + holder},
		want:     "type IDs was a struct (stored values are its fields) and is now a named []uint64",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := versions(t, schemaModule(t), cfg, tc.versions...)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(out.Lock), tc.lock) {
					t.Errorf("record lacks %q:\n%s", tc.lock, out.Lock)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}

	// A record written before value lines were kept has none: the next
	// run cannot compare, records the kind, and compares from then on.
	dir := schemaModule(t)
	out, err := versions(t, dir, cfg, "type IDs []uint64"+holder)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(strings.Replace(string(out.Lock), "IDs value []uint64\n", "", 1), "cbor-gen schema 3", "cbor-gen schema 1", 1)
	writeFile(t, out.LockPath, old)
	out, err = versions(t, dir, cfg, "type IDs []string"+holder)
	if err != nil {
		t.Fatalf("a record without the value line: %v", err)
	}
	if note := "cbor_gen.lock: note: recording the kinds of named types of other kinds than struct (such as IDs"; !strings.Contains(strings.Join(out.Notes, "\n"), note) {
		t.Errorf("the run's notes:\n%s\nwant a note %q", strings.Join(out.Notes, "\n"), note)
	}
	if !strings.Contains(string(out.Lock), "IDs value []string\n") {
		t.Errorf("record after the first run with value lines:\n%s", out.Lock)
	}
	writeFile(t, out.LockPath, string(out.Lock))
	if _, err := versions(t, dir, cfg, "type IDs []int8"+holder); err == nil || !strings.Contains(err.Error(), "type IDs changed from []string to []int8") {
		t.Errorf("the change after the record gained its value line: %v", err)
	}
}
