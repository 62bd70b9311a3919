package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// These tests cover what a new user meets first: the version, the notice
// that a schema record starts, the advice a refusal prints, and errors
// that say the fix.

func TestVersionFlag(t *testing.T) {
	_, pkg := shop(t)
	code, stdout, stderr := run(t, pkg, "-version")
	// The test binary is built from this checkout: "(devel)", as the
	// generated headers of the golden files say.
	if code != 0 || stdout != "cbor-gen (devel)\n" || stderr != "" {
		t.Errorf("cbor-gen -version: exit %d, stdout %q, stderr %q; want 0, \"cbor-gen (devel)\\n\"", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(pkg, "cbor_gen.go")); err == nil {
		t.Error("-version generated code")
	}
}

func TestNewRecordNotice(t *testing.T) {
	_, pkg := shop(t)
	stderr := generated(t, pkg)
	lock := filepath.Join(pkg, "cbor_gen.lock")
	if !strings.Contains(stderr, "no schema record at "+lock+": starting one") || !strings.Contains(stderr, "github.com/cborgen/cborgen/docs/schema.md") {
		t.Errorf("the first run does not say that it starts a record:\n%s", stderr)
	}
	if header := string(read(t, lock)); !strings.Contains(header, "# github.com/cborgen/cborgen/docs/schema.md\n") {
		t.Errorf("the record's header does not name the rules by module path:\n%s", header)
	}
	if stderr := generated(t, pkg); stderr != "" {
		t.Errorf("a run with a record printed:\n%s", stderr)
	}
}

// TestAcceptBreakAdvice: a refusal prints the command that accepts the
// change, in the form the //go:generate line runs the generator, with its
// arguments and directory; that command works as printed.
func TestAcceptBreakAdvice(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg, "-sort=length")
	broken := strings.Replace(shopSource, "\tItems []Item\n", "", 1)
	broken = strings.Replace(broken, "\tRef   *string\n", "\tRef   *string\n\tItems []Item\n", 1)
	write(t, filepath.Join(pkg, "shop.go"), broken)

	for _, tc := range []struct {
		line string // the //go:generate line go generate names; "" for a run by hand
		want string
	}{
		{"", "go tool cbor-gen"},
		{"//go:generate go tool cbor-gen -type Order,Item -sort=length", "go tool cbor-gen"},
		{"//go:generate go run -mod=mod github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0 -type Order,Item -sort=length",
			"go run -mod=mod github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0"},
		{"//go:generate cbor-gen -type Order,Item -sort=length", "cbor-gen"},
	} {
		env := []string{}
		if tc.line != "" {
			write(t, filepath.Join(pkg, "gen.go"), "package shop\n\n"+tc.line+"\n")
			env = []string{"GOFILE=gen.go", "GOLINE=3", "GOPACKAGE=shop"}
		}
		code, _, stderr := runEnv(t, pkg, env, "-type", "Order,Item", "-sort=length")
		want := "\n\t(cd " + pkg + " && " + tc.want + " -type Order,Item -sort=length -accept-break)"
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("line %q: exit %d, want 1 with the command %q:\n%s", tc.line, code, want, stderr)
		}
		os.Remove(filepath.Join(pkg, "gen.go"))
	}

	// Without -type the advice spells out the types this run generates.
	if code, _, stderr := run(t, pkg, "-sort=length"); code != 1 || !strings.Contains(stderr, "go tool cbor-gen -type Item,Order -sort=length -accept-break)") {
		t.Errorf("a run without -type: exit %d, want 1 with the -type list in the command:\n%s", code, stderr)
	}

	// The printed command, run as printed (but for the command name), accepts.
	generated(t, pkg, "-sort=length", "-accept-break")
	generated(t, pkg, "-sort=length", "-check")
}

// TestAcceptBreakKeepsTypes: -accept-break without -type must not change
// which types are generated: here a struct the //go:generate line leaves
// out would be added to the output and the record.
func TestAcceptBreakKeepsTypes(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)
	out, lock := filepath.Join(pkg, "cbor_gen.go"), filepath.Join(pkg, "cbor_gen.lock")
	before, beforeLock := read(t, out), read(t, lock)
	editShop(t, pkg, "\tQty uint32\n", "\tQty string\n", "type Order struct", "type Audit struct {\n\tWho string\n}\n\ntype Order struct")

	code, _, stderr := run(t, pkg, "-accept-break")
	want := "-accept-break without -type would generate Audit, Item, Order, but the schema record cbor_gen.lock holds Item, Order"
	if code != 1 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "go tool cbor-gen -type Item,Order -accept-break)") {
		t.Errorf("-accept-break without -type: exit %d, want 1 with %q and the command to run:\n%s", code, want, stderr)
	}
	if string(read(t, out)) != string(before) || string(read(t, lock)) != string(beforeLock) {
		t.Error("the refused -accept-break changed the output or the record")
	}
	if strings.Contains(stderr, "accepting") {
		t.Errorf("the refused -accept-break reports changes as accepted:\n%s", stderr)
	}

	// With the recorded types named, it accepts, and Audit stays out.
	generated(t, pkg, "-accept-break")
	if strings.Contains(string(read(t, lock)), "Audit") || strings.Contains(string(read(t, out)), "Audit") {
		t.Error("Audit was generated")
	}
}

func TestErrorsSayTheFix(t *testing.T) {
	_, pkg := shop(t)
	for _, tc := range []struct {
		args []string
		edit []string // replacements in shopSource
		want string   // a regexp
	}{
		{[]string{"-type", "Ordr,item"}, nil,
			`-type Ordr: no such type in package example.com/shop; did you mean Order\?\n-type item: no such type in package example.com/shop; did you mean Item\?`},
		{[]string{"-type", "Zebra"}, nil, `-type Zebra: no such type in package example.com/shop; its struct types are Item, Order`},
		{[]string{"-type", "Order,Item"}, []string{"\tRef   *string\n", "\tRef   *string\n\tDone  chan bool\n"},
			"(?m)^shop\\.go:15:2: field Order\\.Done has unsupported type chan bool: .*leave the field out of the encoding with the tag `cbor:\"-\"`"},
	} {
		src := shopSource
		for i := 0; i < len(tc.edit); i += 2 {
			src = strings.Replace(src, tc.edit[i], tc.edit[i+1], 1)
		}
		write(t, filepath.Join(pkg, "shop.go"), src)
		code, _, stderr := run(t, pkg, tc.args...)
		if code != 1 || !regexp.MustCompile(tc.want).MatchString(stderr) {
			t.Errorf("cbor-gen %s: exit %d, want 1 with %s:\n%s", strings.Join(tc.args, " "), code, tc.want, stderr)
		}
	}
}

func TestOutsideModule(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "shop.go"), shopSource)
	code, _, stderr := runEnv(t, dir, []string{"GOFLAGS=", "GO111MODULE="}, "-type", "Order,Item")
	if code != 1 || !strings.Contains(stderr, "is not in a Go module") || !strings.Contains(stderr, "go mod init") {
		t.Errorf("outside a module: exit %d, want 1 saying so:\n%s", code, stderr)
	}
}

// TestCheckAll: -check ./... checks every package with the arguments of
// its own //go:generate line, and reports each stale file.
func TestCheckAll(t *testing.T) {
	module, pkg := shop(t)
	write(t, filepath.Join(pkg, "gen.go"), "package shop\n\n//go:"+"generate go tool cbor-gen -type Order,Item -sort=length\n")
	generated(t, pkg, "-sort=length")
	other := filepath.Join(module, "other")
	write(t, filepath.Join(other, "other.go"), "package other\n\n//go:"+"generate go tool cbor-gen -o other_cbor.go\n\ntype Point struct{ X, Y int }\n")
	if code, _, stderr := run(t, other, "-o", "other_cbor.go"); code != 0 {
		t.Fatalf("generating other: exit %d\n%s", code, stderr)
	}
	// A package generated without a //go:generate line is checked with
	// the defaults; another generator's cbor_gen.go is left alone.
	plain := filepath.Join(module, "plain")
	write(t, filepath.Join(plain, "plain.go"), "package plain\n\ntype Pair struct{ A, B string }\n")
	if code, _, stderr := run(t, plain); code != 0 {
		t.Fatalf("generating plain: exit %d\n%s", code, stderr)
	}
	foreign := filepath.Join(module, "foreign")
	write(t, filepath.Join(foreign, "foreign.go"), "package foreign\n\ntype Pair struct{ A, B string }\n")
	write(t, filepath.Join(foreign, "cbor_gen.go"), "// Code generated by github.com/whyrusleeping/cbor-gen. DO NOT EDIT.\n\npackage foreign\n")
	if code, _, stderr := run(t, module, "-check", "./..."); code != 0 {
		t.Fatalf("-check ./... on fresh files: exit %d\n%s", code, stderr)
	}
	write(t, filepath.Join(plain, "plain.go"), "package plain\n\ntype Pair struct{ A, B, C string }\n")
	if code, _, stderr := run(t, module, "-check", "./..."); code != 1 || !strings.Contains(stderr, "plain/cbor_gen.go (run go generate)") {
		t.Errorf("-check ./... with a stale package without a //go:generate line: exit %d, want 1:\n%s", code, stderr)
	}
	write(t, filepath.Join(plain, "plain.go"), "package plain\n\ntype Pair struct{ A, B string }\n")

	// Stale in both packages: each is reported, with the file to regenerate.
	editShop(t, pkg, "\tRef   *string\n", "\tRef   *string\n\tTotal int64\n")
	write(t, filepath.Join(other, "other.go"), "package other\n\n//go:"+"generate go tool cbor-gen -o other_cbor.go\n\ntype Point struct{ X, Y, Z int }\n")
	code, _, stderr := run(t, module, "-check", "./...")
	for _, want := range []string{"cbor_gen.go (run go generate)", "other_cbor.go (run go generate)", "+\tdst = genrt.AppendInt(dst, int64(v.Z))"} {
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("-check ./... with two stale packages: exit %d, want 1 with %q:\n%s", code, want, stderr)
		}
	}

	// A refusal names the command of the package's own line, to run in
	// its directory.
	editShop(t, pkg, "\tID    uint64\n", "", "\tRef   *string\n", "\tRef   *string\n\tID    uint64\n")
	code, _, stderr = run(t, module, "-check", "./...")
	if want := "\t(cd " + pkg + " && go tool cbor-gen -type Order,Item -sort=length -accept-break)"; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("-check ./... with a refused change: exit %d, want 1 with %q:\n%s", code, want, stderr)
	}

	// -accept-break left in a line fails the check instead of hiding in it.
	write(t, filepath.Join(other, "other.go"), "package other\n\n//go:"+"generate go tool cbor-gen -o other_cbor.go -accept-break\n\ntype Point struct{ X, Y int }\n")
	if code, _, stderr := run(t, module, "-check", "./..."); code != 1 || !regexp.MustCompile(`(?m)^other/other\.go:3:1: this //go:generate line does not run cbor-gen as it should`).MatchString(stderr) {
		t.Errorf("-check ./... over a line with -accept-break: exit %d, want 1 naming the line:\n%s", code, stderr)
	}

	// The flags come from the lines: giving others is an error.
	if code, _, stderr := run(t, module, "-check", "-type", "Order", "./..."); code != 1 || !strings.Contains(stderr, "give no other flag than -tags") {
		t.Errorf("-check -type Order ./...: exit %d, want 1:\n%s", code, stderr)
	}
}

// TestQuickStart follows the README's quick start literally, in a new
// module outside this repository: go mod init, go get -tool, the
// //go:generate line and type of the README, go generate, go mod tidy, go
// generate again, go build, go vet. The module is not published, so a
// replace directive points at this checkout. It must pass on a machine
// with an empty module cache whose only network is the module proxy (the
// checksum database unreachable, as on many CI machines): the go command
// downloads through the proxy of the environment, never directly from a
// repository (see moduleProxy), and checksum verification stays on. The
// new module starts with this checkout's go.sum, which holds the verified
// sums of the dependency versions the replace brings in, as a user's go
// get -tool would write them from the checksum database; every module
// the go command downloads is still checked against them, and a module
// outside them is still looked up in the GOSUMDB of the environment.
func TestQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module from scratch")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(read(t, filepath.Join(root, "README.md")))
	section := readme[strings.Index(readme, "## Quick start"):]
	section = section[:strings.Index(section[3:], "\n## ")+3]
	blocks := regexp.MustCompile("(?s)```(sh|go)\n(.*?)```").FindAllStringSubmatch(section, -1)
	var getTool, source string
	var steps [][]string
	for _, b := range blocks {
		switch {
		case b[1] == "go" && strings.HasPrefix(b[2], "package ") && source == "":
			source = b[2]
		case b[1] == "sh":
			for _, line := range strings.Split(b[2], "\n") {
				cmd, _, _ := strings.Cut(line, "#")
				if f := strings.Fields(cmd); len(f) > 0 {
					if len(f) > 2 && f[0] == "go" && f[1] == "get" {
						getTool = strings.TrimSpace(cmd)
					}
					steps = append(steps, f)
				}
			}
		}
	}
	if getTool != "go get -tool github.com/cborgen/cborgen/cmd/cbor-gen" || source == "" ||
		!strings.Contains(source, "//go:generate go tool cbor-gen -type Item\n") {
		t.Fatalf("the README's quick start changed: %q, %q", getTool, source)
	}

	dir := t.TempDir()
	pkgName := strings.Fields(source)[1]
	write(t, filepath.Join(dir, pkgName, pkgName+".go"), source)
	env := append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY="+moduleProxy(t), "GO111MODULE=")
	sh := func(args ...string) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	sh("go", "mod", "init", "example.com/"+pkgName)
	sh("go", "mod", "edit", "-replace", "github.com/cborgen/cborgen="+root)
	seedGoSum(t, root, dir)
	for _, step := range steps {
		sh(step...)
	}
	sh("go", "mod", "tidy")
	sh("go", "generate", "./...")
	sh("go", "build", "./...")
	sh("go", "vet", "./...")
	cmd := exec.Command("go", "tool", "cbor-gen", "-version")
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.Output(); err != nil || string(out) != "cbor-gen (devel)\n" {
		t.Errorf("go tool cbor-gen -version in the new module: %q, %v; want \"cbor-gen (devel)\\n\" (a replace directive)", out, err)
	}
	gomod := string(read(t, filepath.Join(dir, "go.mod")))
	if !strings.Contains(gomod, "\ntool github.com/cborgen/cborgen/cmd/cbor-gen\n") {
		t.Errorf("go.mod after go mod tidy lacks the tool directive:\n%s", gomod)
	}
	if src := string(read(t, filepath.Join(dir, pkgName, "cbor_gen.go"))); !strings.HasPrefix(src, "// Code generated by cbor-gen. DO NOT EDIT.\n// cbor-gen (devel), generated code version ") {
		t.Errorf("generated header:\n%.200s", src)
	}
}
