package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGoCommandErrors: when the go command that loads the package fails
// (a go.mod that does not parse or needs updating, a missing go.sum
// entry, a -mod mode that refuses, a $GOFLAGS it does not take), cbor-gen
// exits 1 with the go command's own words, for one package and for
// -check ./..., never with an error of its own that hides them ("no Go
// package found") nor go/packages' wrapping of them.
func TestGoCommandErrors(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const replace = "\nreplace github.com/cborgen/cborgen => "
	// The runtime needs no module but this one; an interface field makes
	// the output import runtime/dynamic, which needs fxamacker/cbor.
	dynamic := "package shop\n\n" + goGenerate + " go tool cbor-gen -type Item\n\ntype Item struct {\n\tA int\n\tB any\n}\n"
	source := "package shop\n\nimport _ \"github.com/cborgen/cborgen/runtime\"\n\n" + goGenerate + " go tool cbor-gen -type Item\n\ntype Item struct{ A int }\n"
	for _, tc := range []struct {
		name   string
		gomod  string // the module's go.mod; the replace directive is added
		gosum  string // the module's go.sum: "all" the checkout's, "go.mod" its go.mod lines, "" none
		source string // shop.go
		env    []string
		want   string // a regexp of the error output, with and without -check ./...
		old    bool   // whether the package has an earlier output
	}{
		{"go.mod needs updating", // written by hand: go mod tidy writes go 1.24.0
			"module example.com/shop\n\ngo 1.24\n\nrequire github.com/cborgen/cborgen v0.0.0\n", "all", source, nil,
			`(?m)^cbor-gen: go: updates to go.mod needed; to update it:\n\tgo mod tidy$`, false},
		{"missing go.sum entry of a go.mod file",
			"module example.com/shop\n\ngo 1.24.0\n\nrequire (\n\tgithub.com/cborgen/cborgen v0.0.0\n\tgolang.org/x/tools v0.30.0\n)\n", "all", source, nil,
			// Which of its two complaints the go command makes first
			// depends on what it is asked to list.
			`(?m)^cbor-gen: go: (golang.org/x/tools@v0.30.0: missing go.sum entry for go.mod file; to add it:\n\tgo mod download golang.org/x/tools|updates to go.mod needed; to update it:\n\tgo mod tidy)$`, false},
		{"missing go.sum entry of an imported package",
			tidyGoMod, "go.mod", dynamic, nil,
			`(?m)^cbor-gen: the generated code imports github.com/cborgen/cborgen/runtime/dynamic, which the go command cannot load:\n.*dynamic.go:\d+:\d+: missing go.sum entry for module providing package github.com/fxamacker/cbor/v2 \(imported by github.com/cborgen/cborgen/runtime/dynamic\)`, false},
		{"missing go.sum entry of an imported package, over an earlier output",
			tidyGoMod, "go.mod", dynamic, nil,
			`(?m)^cbor-gen: the generated code imports github.com/cborgen/cborgen/runtime/dynamic, which the go command cannot load:\n.*dynamic.go:\d+:\d+: missing go.sum entry for module providing package github.com/fxamacker/cbor/v2 \(imported by github.com/cborgen/cborgen/runtime/dynamic\)`, true},
		{"missing go.sum entry of a package of the package's own imports",
			"module example.com/shop\n\ngo 1.24.0\n\nrequire (\n\tgithub.com/cborgen/cborgen v0.0.0\n\tgithub.com/fxamacker/cbor/v2 v2.10.0\n)\n", "go.mod",
			"package shop\n\nimport _ \"github.com/fxamacker/cbor/v2\"\n\n" + goGenerate + " go tool cbor-gen -type Item\n\ntype Item struct{ A int }\n", nil,
			`(?m)\Ashop.go:3:8: missing go.sum entry for module providing package github.com/fxamacker/cbor/v2 \(imported by example.com/shop\); to add:\n\tgo get example.com/shop\n\z`, false},
		{"missing go.sum",
			tidyGoMod, "", dynamic, nil,
			`(?m)^.*dynamic.go:\d+:\d+: missing go.sum entry for module providing package github.com/fxamacker/cbor/v2 \(imported by github.com/cborgen/cborgen/runtime/dynamic\); to add:$`, false},
		{"a module that does not require this one",
			"module example.com/shop\n\ngo 1.24.0\n", "", dynamic, nil,
			`(?m)^module github.com/cborgen/cborgen provides package github.com/cborgen/cborgen/runtime and is replaced but not required; to add it:\n\tgo get github.com/cborgen/cborgen\nrun go get -tool github.com/cborgen/cborgen/cmd/cbor-gen`, false},
		{"go.mod does not parse",
			"module example.com/shop\n\ngo 1.24.0\n\nrequire github.com/cborgen/cborgen\n", "all", source, nil,
			`(?m)^cbor-gen: go: errors parsing go.mod:\n.*go.mod:5: usage: require module/path v1.2.3$`, false},
		{"-mod=vendor without a vendor directory that agrees",
			tidyGoMod, "all", source, []string{"GOFLAGS=-mod=vendor"},
			`(?m)^cbor-gen: go: inconsistent vendoring in .*:$`, false},
		{"-mod=readonly with a go.mod to update",
			"module example.com/shop\n\ngo 1.24\n\nrequire github.com/cborgen/cborgen v0.0.0\n", "all", source, []string{"GOFLAGS=-mod=readonly"},
			`(?m)^cbor-gen: go: updates to go.mod needed, disabled by -mod=readonly; to update it:\n\tgo mod tidy$`, false},
		{"a $GOFLAGS the go command does not take",
			tidyGoMod, "all", source, []string{"GOFLAGS=-nosuchflag"},
			`(?m)^cbor-gen: go: parsing \$GOFLAGS: unknown flag -nosuchflag$`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), tc.gomod+replace+root+"\n")
			var sum []string
			for _, line := range strings.SplitAfter(string(read(t, filepath.Join(root, "go.sum"))), "\n") {
				if tc.gosum == "all" || tc.gosum == "go.mod" && strings.Contains(line, "/go.mod ") {
					sum = append(sum, line)
				}
			}
			write(t, filepath.Join(dir, "go.sum"), strings.Join(sum, ""))
			write(t, filepath.Join(dir, "shop.go"), tc.source)
			if tc.old {
				write(t, filepath.Join(dir, "cbor_gen.go"), "// Code generated by cbor-gen. DO NOT EDIT.\n\npackage shop\n")
			}
			env := append([]string{"GOFLAGS=", "GOPROXY=off"}, tc.env...)
			forms := [][]string{{"-type", "Item"}, {"-check", "./..."}}
			if testing.Short() {
				forms = forms[:1] // -check ./... loads the same way
			}
			for _, args := range forms {
				code, _, stderr := runEnv(t, dir, env, args...)
				if code != 1 || !regexp.MustCompile(tc.want).MatchString(stderr) {
					t.Errorf("cbor-gen %s: exit %d, want 1 with %q:\n%s", strings.Join(args, " "), code, tc.want, stderr)
				}
				for _, hides := range []string{"no Go package found", "exit status", "stderr:", "no package has a //go:generate line", "could not import"} {
					if strings.Contains(stderr, hides) {
						t.Errorf("cbor-gen %s: the error says %q:\n%s", strings.Join(args, " "), hides, stderr)
					}
				}
			}
		})
	}
}

// tidyGoMod is the go.mod of a module that imports the runtime package,
// as go mod tidy writes it.
const tidyGoMod = "module example.com/shop\n\ngo 1.24.0\n\nrequire github.com/cborgen/cborgen v0.0.0\n"
