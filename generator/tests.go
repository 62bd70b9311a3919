package generator

import (
	"os"
	"path/filepath"
	"strings"
)

// fxamackerPath is the module whose bytes -tests compares with, when the
// module of the package requires it.
const fxamackerPath = "github.com/fxamacker/cbor/v2"

// requiresFxamacker reports whether the go.mod of the module holding
// dir requires fxamacker/cbor: only then can the tests that -tests writes
// import it (through runtime/dynamic) without a change to go.mod.
func requiresFxamacker(dir string) bool {
	for d := dir; ; {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			return requires(string(data), fxamackerPath)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// requires reports whether the go.mod text gomod has a require
// directive for the module path.
func requires(gomod, path string) bool {
	inBlock := false
	for _, line := range strings.Split(gomod, "\n") {
		line, _, _ = strings.Cut(line, "//")
		words := strings.Fields(line)
		switch {
		case len(words) == 0:
		case inBlock && words[0] == ")":
			inBlock = false
		case inBlock:
			if words[0] == path {
				return true
			}
		case words[0] == "require" && len(words) > 1 && words[1] == "(":
			inBlock = true
		case words[0] == "require" && len(words) > 1 && words[1] == path:
			return true
		}
	}
	return false
}
