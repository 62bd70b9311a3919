package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for the command: run with
// CBORGEN_AS_COMMAND=1 it is cbor-gen, so the tests below run the real
// command line without building it separately.
func TestMain(m *testing.M) {
	if os.Getenv("CBORGEN_AS_COMMAND") == "1" {
		main()
		os.Exit(0)
	}
	// The commands the tests run share a regeneration cache of their
	// own, not the user's: every test that runs cbor-gen twice on the
	// same inputs then takes the output from it, as users do.
	cache, err := os.MkdirTemp("", "cbor-gen-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("CBORGEN_CACHE", cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

// shopSource is a package as the README sets one up. Its //go:generate
// line is spliced in, so that go generate and cbor-gen -check ./... in
// this repository do not take it for one of this package's own.
const shopSource = `package shop

` + "//go:" + `generate go tool cbor-gen -type Order,Item

type Item struct {
	SKU string ` + "`cbor:\"sku\"`" + `
	Qty uint32
}

type Order struct {
	ID    uint64
	Items []Item
	Notes map[string]string
	Ref   *string
}
`

const roundTripProgram = `package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"

	"example.com/shop"
)

func main() {
	ref := "r-1"
	in := shop.Order{ID: 7, Items: []shop.Item{{SKU: "a", Qty: 2}}, Notes: map[string]string{"b": "2", "a": "1"}, Ref: &ref}
	b, err := in.MarshalCBOR()
	if err != nil {
		panic(err)
	}
	var out shop.Order
	if err := out.UnmarshalCBOR(b); err != nil {
		panic(err)
	}
	again, _ := out.MarshalCBOR()
	if !bytes.Equal(again, b) || out.Items[0].SKU != "a" || *out.Ref != "r-1" {
		fmt.Println("round trip failed")
		os.Exit(1)
	}
	fmt.Println(hex.EncodeToString(b))
}
`

// shop lays out a module with one package, shop, that uses this
// repository through a replace directive, and returns its directory.
func shop(t *testing.T) (module, pkg string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	module = t.TempDir()
	write(t, filepath.Join(module, "go.mod"), "module example.com/shop\n\ngo 1.24\n\n"+
		"require github.com/cborgen/cborgen v0.0.0\n\nreplace github.com/cborgen/cborgen => "+root+"\n")
	seedGoSum(t, root, module)
	pkg = module
	write(t, filepath.Join(module, "shop.go"), shopSource)
	write(t, filepath.Join(module, "cmd", "roundtrip", "main.go"), roundTripProgram)
	return module, pkg
}

// seedGoSum writes this checkout's go.sum into a new module that takes
// the checkout through a replace directive: the verified sums of the
// dependency versions the replace brings in, so that the go command has
// no checksum database to ask on a machine whose module cache is empty.
func seedGoSum(t *testing.T, root, module string) {
	t.Helper()
	write(t, filepath.Join(module, "go.sum"), string(read(t, filepath.Join(root, "go.sum"))))
}

// run runs the command in dir and returns its exit code and output.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runEnv(t, dir, nil, args...)
}

// runEnv is run with more environment variables, which win over the
// test's own.
func runEnv(t *testing.T, dir string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CBORGEN_AS_COMMAND=1", "GOFLAGS=-mod=mod", "GOWORK=off")
	cmd.Env = append(cmd.Env, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), o.String(), e.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, o.String(), e.String()
}

// goCmd runs the go command in dir and fails the test if it fails.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	module, pkg := shop(t)
	out := filepath.Join(pkg, "cbor_gen.go")

	// Generate, then build and run a program that round-trips an Order.
	if code, _, stderr := run(t, pkg, "-type", "Order,Item"); code != 0 {
		t.Fatalf("cbor-gen exited %d:\n%s", code, stderr)
	}
	first := read(t, out)
	got := strings.TrimSpace(goCmd(t, module, "run", "./cmd/roundtrip"))
	// [7, [["a", 2]], {"a": "1", "b": "2"}, "r-1"]
	const want = "840781826161" + "02" + "a2616161316162613263722d31"
	if got != want {
		t.Errorf("round trip program printed %s, want %s", got, want)
	}

	// A second run writes the same bytes, and -check agrees.
	if code, _, stderr := run(t, pkg, "-type", "Order,Item"); code != 0 {
		t.Fatalf("second run exited %d:\n%s", code, stderr)
	}
	if !bytes.Equal(read(t, out), first) {
		t.Error("a second run changed the output")
	}
	if code, _, stderr := run(t, pkg, "-type", "Order,Item", "-check"); code != 0 {
		t.Errorf("-check on a fresh file exited %d:\n%s", code, stderr)
	}

	// Change the type: -check fails with a diff and leaves the file alone.
	write(t, filepath.Join(pkg, "shop.go"), strings.Replace(shopSource, "\tRef   *string\n", "\tRef   *string\n\tTotal int64\n", 1))
	code, _, stderr := run(t, pkg, "-type", "Order,Item", "-check")
	if code != 1 || !strings.Contains(stderr, "out of date") || !strings.Contains(stderr, "+\tdst = genrt.AppendInt(dst, v.Total)") {
		t.Errorf("-check on a stale file: exit %d, want 1 with a diff:\n%s", code, stderr)
	}
	if !bytes.Equal(read(t, out), first) {
		t.Error("-check wrote the file")
	}

	// The stale file no longer compiles against the new type only if it
	// is broken; make it so, and regeneration must still work.
	write(t, out, "package shop\n\nfunc (v *Order) Broken() { undefinedFunction(v.Gone) }\n")
	if code, _, stderr := run(t, pkg); code != 0 {
		t.Fatalf("regenerating over a broken file exited %d:\n%s", code, stderr)
	}
	if !strings.Contains(string(read(t, out)), "v.Total") {
		t.Error("regenerated file lacks the new field")
	}
	write(t, out, "package wrongname\n\nvar x = 1 +\n")
	if code, _, stderr := run(t, pkg, "-type", "Order,Item"); code != 0 {
		t.Fatalf("regenerating over a file with another package name exited %d:\n%s", code, stderr)
	}
	write(t, out, "this is not Go at all {\n")
	if code, _, stderr := run(t, pkg, "-type", "Order,Item"); code != 0 {
		t.Fatalf("regenerating over a file that does not parse exited %d:\n%s", code, stderr)
	}
	goCmd(t, module, "build", "./...")
}

func TestUnsupportedField(t *testing.T) {
	_, pkg := shop(t)
	write(t, filepath.Join(pkg, "shop.go"), strings.Replace(shopSource, "\tRef   *string\n", "\tRef   *string\n\tDone  chan bool\n", 1))
	code, _, stderr := run(t, pkg, "-type", "Order,Item")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^shop\.go:15:2: field Order\.Done has unsupported type chan bool`).MatchString(stderr) {
		t.Errorf("stderr does not point at the field:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(pkg, "cbor_gen.go")); err == nil {
		t.Error("a failed run wrote the output file")
	}
}

// TestPackageErrors: a package that does not type-check is reported once
// per error, in source order, each line starting with its position, without
// the go command's own copy of the same errors.
func TestPackageErrors(t *testing.T) {
	_, pkg := shop(t)
	write(t, filepath.Join(pkg, "bad.go"), "package shop\n\nimport \"strings\"\n\nvar x undefinedName\n")
	code, _, stderr := run(t, pkg, "-type", "Order,Item")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, stderr)
	}
	want := "bad.go:3:8: \"strings\" imported and not used\nbad.go:5:7: undefined: undefinedName\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

func TestUsage(t *testing.T) {
	_, pkg := shop(t)
	for _, args := range [][]string{
		{"-sort", "random"},
		{"-type", "Nope"},
		{"-nosuchflag"},
		{"a", "b"},
	} {
		if code, _, stderr := run(t, pkg, args...); code != 1 || stderr == "" {
			t.Errorf("cbor-gen %s: exit %d, stderr %q; want exit 1 with an error", strings.Join(args, " "), code, stderr)
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
