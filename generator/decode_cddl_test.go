package generator

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/diag"
)

// slotNames are the members an array rule lists: the field names in slot
// order, reservedN for a reserved slot.
func slotNames(t *diag.Type) []string {
	var names []string
	for i, s := range t.Slots {
		if s.Reserved {
			names = append(names, fmt.Sprintf("reserved%d", i))
		} else {
			names = append(names, s.Name)
		}
	}
	return names
}

// diagCheckCDDL reads the CDDL text as a person does: a rule "NAME = "
// for every type and union, and for an array type the lines of its
// NAME-array rule, whose member keys must be the slots in order.
func diagCheckCDDL(s *diag.Schema, text string) error {
	lines := strings.Split(text, "\n")
	has := func(rule string) int {
		return slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, rule+" = ") })
	}
	for name := range s.Unions {
		if has(name) < 0 {
			return fmt.Errorf("no rule for union %s", name)
		}
	}
	for name, t := range s.Types {
		if has(name) < 0 {
			return fmt.Errorf("no rule for %s", name)
		}
		if t.Map || len(t.Slots) == 0 {
			continue
		}
		at := has(name + "-array")
		if at < 0 {
			return fmt.Errorf("no array rule for %s", name)
		}
		var members []string
		for _, l := range lines[at+1:] {
			if l == "]" {
				break
			}
			if strings.HasPrefix(l, "  * ") {
				continue // the elements of newer versions of an extensible type
			}
			if g := strings.TrimSpace(l); g == "? (" || g == ")," {
				continue // the trailing groups of a //cborgen:optional type
			}
			m, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(l), "? "), ":")
			members = append(members, m)
		}
		if want := slotNames(t); !slices.Equal(members, want) {
			return fmt.Errorf("%s-array lists %v, want the slots %v", name, members, want)
		}
	}
	return nil
}

// nodeParseCDDL parses files with the npm cddl package, through the diag
// package's test module, and returns the members of each array rule; ok
// is false when node or the package is not installed. A file it does not
// read fails the test.
func nodeParseCDDL(t *testing.T, files []string) (arrays map[string]map[string][]string, ok bool) {
	t.Helper()
	module, err := filepath.Abs(filepath.Join("internal", "diag", "testdata", "npm"))
	if err != nil {
		t.Fatal(err)
	}
	required := os.Getenv("CBORGEN_NODE_CHECKS") == "required" // .ci/run installs them
	if _, err := exec.LookPath("node"); err != nil {
		if required {
			t.Fatal("node is not installed")
		}
		return nil, false
	}
	if _, err := os.Stat(filepath.Join(module, "node_modules", "cddl", "package.json")); errors.Is(err, os.ErrNotExist) {
		if required {
			t.Fatalf("the npm package cddl is not installed (npm ci in %s)", module)
		}
		return nil, false
	}
	cmd := exec.Command("node", append([]string{filepath.Join(module, "parse.mjs")}, files...)...)
	cmd.Dir = module
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node parse.mjs: %v", err)
	}
	arrays = map[string]map[string][]string{}
	file := ""
	for _, l := range strings.Split(string(out), "\n") {
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
	return arrays, true
}
