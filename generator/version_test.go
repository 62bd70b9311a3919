package generator

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/emit"
	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

func TestModuleVersion(t *testing.T) {
	released := &debug.Module{Path: model.ModulePath, Version: "v1.4.0", Sum: "h1:abc="}
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"checkout", debug.BuildInfo{Main: debug.Module{Path: model.ModulePath, Version: "(devel)"}}, "(devel)"},
		{"checkout stamped by version control", debug.BuildInfo{Main: debug.Module{Path: model.ModulePath, Version: "v1.4.1-0.20261130120000-abcdef123456+dirty"}}, "(devel)"},
		{"go install @version", debug.BuildInfo{Main: *released}, "v1.4.0"},
		{"go tool in a user's module", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/shop", Version: "(devel)"},
			Deps: []*debug.Module{{Path: "example.com/other", Version: "v0.1.0", Sum: "h1:x="}, released},
		}, "v1.4.0"},
		{"directory replace", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/shop", Version: "(devel)"},
			Deps: []*debug.Module{{Path: model.ModulePath, Version: "v0.0.0-00010101000000-000000000000", Replace: &debug.Module{Path: "../cborgen"}}},
		}, "(devel)"},
		{"module replace", debug.BuildInfo{
			Main: debug.Module{Path: "example.com/shop", Version: "(devel)"},
			Deps: []*debug.Module{{Path: model.ModulePath, Version: "v1.4.0", Sum: "h1:abc=", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.4.2", Sum: "h1:def="}}},
		}, "v1.4.2"},
		{"not found", debug.BuildInfo{Main: debug.Module{Path: "example.com/shop"}}, "(devel)"},
	} {
		if got := model.ModuleVersion(&tc.bi); got != tc.want {
			t.Errorf("%s: version %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVersionGuard builds a package holding the version guard of a
// generated file newer than the runtime, one older than the runtime still
// runs, and one that fits, against this module's runtime, and checks that
// the compiler's error names the side to update.
func TestVersionGuard(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, tc := range []struct {
		version int
		want    string // in the compiler's output; "" for a build that succeeds
	}{
		{genrt.GenVersion, ""},
		// The compiler names the type by its package name:
		// genrt is no other package.
		{genrt.GenVersion + 1, `constant -1 overflows genrt.UpgradeCborgenRuntime`},
		{genrt.MinGenVersion - 1, `constant -1 overflows genrt.RegenerateWithNewerCborgen`},
	} {
		t.Run(fmt.Sprint(tc.version), func(t *testing.T) {
			t.Parallel()
			jf := jen.NewFile("guard")
			jf.ImportName(model.GenrtPath, "genrt")
			jf.HeaderComment(model.GeneratedHeader)
			jf.Add(emit.VersionGuard(tc.version))
			var src bytes.Buffer
			if err := jf.Render(&src); err != nil {
				t.Fatal(err)
			}
			out, err := buildAgainstRuntime(t, src.Bytes())
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("a file of the runtime's own version does not build: %v\n%s", err, out)
			case tc.want != "" && err == nil:
				t.Fatalf("a file of generated code version %d builds against runtime %d-%d", tc.version, genrt.MinGenVersion, genrt.GenVersion)
			case tc.want != "" && !strings.Contains(out, tc.want):
				t.Fatalf("the compiler's error does not say %q:\n%s", tc.want, out)
			}
		})
	}
}

// buildAgainstRuntime runs go build on src, a package in a module of its
// own that takes this module from its directory (a replace directive), as
// a user's module with a dependency's generated files would.
func buildAgainstRuntime(t *testing.T, src []byte) (string, error) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := fmt.Sprintf("module example.com/guard\n\ngo 1.24\n\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %s => %s\n", model.ModulePath, model.ModulePath, root)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "guard.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "-mod=mod", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
