package diag

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// nodeModule returns the test module in dir (testdata/npm), or skips the
// test when node or the module's packages are not installed: they are a
// test-only oracle, installed with npm ci in that directory. With
// CBORGEN_NODE_CHECKS=required in the environment (as .ci/run sets it
// after installing them), a missing oracle fails the test instead.
func nodeModule(t *testing.T, dir string) string {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CBORGEN_NODE_CHECKS") == "required" {
		skip = t.Fatalf
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not installed")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"cbor", "cddl"} {
		if _, err := os.Stat(filepath.Join(abs, "node_modules", pkg, "package.json")); err != nil {
			skip("the npm package %s is not installed (npm ci in %s)", pkg, dir)
		}
	}
	return abs
}

// runNode runs a script of the test module with stdin and returns its
// standard output.
func runNode(t *testing.T, module, stdin, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command("node", append([]string{filepath.Join(module, script)}, args...)...)
	cmd.Dir = module
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, errOut.String())
	}
	return out.String()
}

// NodeParseCDDL parses CDDL files with the npm cddl package (parse.mjs),
// fails the test for any it does not read, and returns the member names
// of the array rules of each file. dir is the test module.
func NodeParseCDDL(t *testing.T, dir string, files ...string) map[string]map[string][]string {
	t.Helper()
	module := nodeModule(t, dir)
	arrays := map[string]map[string][]string{}
	file := ""
	for _, l := range strings.Split(runNode(t, module, "", "parse.mjs", files...), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 2 && f[0] == "ok":
			file = f[1]
			arrays[file] = map[string][]string{}
		case len(f) >= 2 && f[0] == "array":
			arrays[file][f[1]] = f[2:]
		case len(f) > 0 && f[0] == "error":
			t.Errorf("the cddl package does not read %s", l)
		}
	}
	for _, f := range files {
		if arrays[f] == nil {
			t.Errorf("the cddl package read nothing of %s", f)
		}
	}
	return arrays
}
