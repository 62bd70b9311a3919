package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The smaller things a new user meets: a long line in a test file, a
// -type that names nothing to generate or a type of a test file, notes
// on every go generate, and what -accept-break says of what it accepts.

// TestCheckAllLongLine: -check ./... reads the //go:generate lines of a
// package whose test file holds a line over 64 KB (bufio.Scanner's
// limit stopped it with "token too long").
func TestCheckAllLongLine(t *testing.T) {
	module, pkg := shop(t)
	write(t, filepath.Join(pkg, "gen.go"), "package shop\n\n"+goGenerate+" go tool cbor-gen -type Order,Item\n")
	write(t, filepath.Join(pkg, "extra.go"), "package shop\n\ntype Extra struct{ N int }\n")
	write(t, filepath.Join(pkg, "data_test.go"), "package shop\n\nvar blob = \""+strings.Repeat("ab", 100<<10)+"\"\n\n"+goGenerate+" go tool cbor-gen -type Extra -o extra_gen.go\n")
	generated(t, pkg)
	if code, _, stderr := run(t, pkg, "-type", "Extra", "-o", "extra_gen.go"); code != 0 {
		t.Fatalf("generating extra_gen.go: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, module, "-check", "./..."); code != 0 {
		t.Errorf("-check ./... over a package with a 200 KB line: exit %d\n%s", code, stderr)
	}
	// Both lines are read: the one after the long line too.
	editShop(t, pkg, "\tQty uint32\n", "\tQty uint32\n\tNote string\n")
	write(t, filepath.Join(pkg, "extra.go"), "package shop\n\ntype Extra struct{ N, M int }\n")
	code, _, stderr := run(t, module, "-check", "./...")
	if code != 1 || !strings.Contains(stderr, "cbor_gen.go (run go generate)") || !strings.Contains(stderr, "extra_gen.go (run go generate)") {
		t.Errorf("-check ./... with both outputs stale: exit %d, want 1 naming both:\n%s", code, stderr)
	}
}

// TestTypeNothingToGenerate: a -type that names a plain named basic type
// (nothing to generate: it is written as its underlying type with or
// without methods) is refused with the reason, and so is a type declared
// only in a test file; neither reaches the output or the record.
func TestTypeNothingToGenerate(t *testing.T) {
	_, pkg := shop(t)
	write(t, filepath.Join(pkg, "name.go"), "package shop\n\ntype Name string\n\n//cborgen:tag 1000\ntype Code string\n")
	write(t, filepath.Join(pkg, "fixture_test.go"), "package shop\n\ntype Fixture struct{ A int }\n")
	mustFail(t, pkg, []string{"name.go:3:6: -type Name: Name is a named string type without a //cborgen:tag directive", "nothing to generate"}, "-type", "Order,Item,Name")
	mustFail(t, pkg, []string{"fixture_test.go:3:6: -type Fixture: Fixture is declared in the test file fixture_test.go", "without its test files"}, "-type", "Order,Item,Fixture")
	// A tagged one has something to generate: its tag.
	generated(t, pkg)
	if code, _, stderr := run(t, pkg, "-type", "Order,Item,Code"); code != 0 {
		t.Errorf("-type Code (tagged): exit %d\n%s", code, stderr)
	}
	if lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock"))); strings.Contains(lock, "Name") {
		t.Errorf("the record holds Name:\n%s", lock)
	}
}

// TestNotesOnChange: the notes of a run (a field encoded with
// reflection) print when the output changes, not on every go generate,
// and -q silences them.
func TestNotesOnChange(t *testing.T) {
	_, pkg := shop(t)
	editShop(t, pkg, "\tRef   *string\n", "\tRef   *string\n\tExtra any\n")
	note := regexp.MustCompile(`(?m)^shop\.go:15:2: note: field Order\.Extra \(any\) is encoded and decoded by fxamacker/cbor with reflection`)
	if stderr := generated(t, pkg); !note.MatchString(stderr) {
		t.Errorf("the first run prints no note:\n%s", stderr)
	}
	if stderr := generated(t, pkg); stderr != "" {
		t.Errorf("a run that changes nothing printed:\n%s", stderr)
	}
	if stderr := generated(t, pkg, "-check"); stderr != "" {
		t.Errorf("-check on fresh files printed:\n%s", stderr)
	}
	editShop(t, pkg, "\tRef   *string\n", "\tRef   *string\n\tExtra any\n\tMore  int\n")
	if stderr := generated(t, pkg); !note.MatchString(stderr) {
		t.Errorf("a run that changes the output prints no note:\n%s", stderr)
	}
	editShop(t, pkg, "\tRef   *string\n", "\tRef   *string\n\tExtra any\n\tMore  int\n\tLast  int\n")
	if stderr := generated(t, pkg, "-q"); stderr != "" {
		t.Errorf("-q printed:\n%s", stderr)
	}
	if !strings.Contains(string(read(t, filepath.Join(pkg, "cbor_gen.go"))), "v.Last") {
		t.Error("-q did not generate")
	}
}

// TestAcceptBreakSaysWhatItAccepts: -accept-break reports the changes it
// accepts without the advice a refusal gives (keep a compatible type, the
// command below), which would tell the user to undo what they asked for.
func TestAcceptBreakSaysWhatItAccepts(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)
	editShop(t, pkg, "\tQty uint32\n", "\tQty int32\n")
	refused(t, pkg, `shop\.go:7:2: field Item\.Qty changed from uint32 to int32: stored data holds uint32 values in slot 1, which an int32 field cannot decode to the same value\. Keep a compatible type`)
	stderr := generated(t, pkg, "-accept-break")
	if want := "shop.go:7:2: field Item.Qty changed from uint32 to int32: stored data holds uint32 values in slot 1, which an int32 field cannot decode to the same value\n"; !strings.Contains(stderr, want) {
		t.Errorf("-accept-break does not say what it accepts (%q):\n%s", want, stderr)
	}
	if strings.Contains(stderr, "Keep") {
		t.Errorf("-accept-break advises against what it accepts:\n%s", stderr)
	}

	// A type dropped from -type: the refusal points at the command below
	// it, and prints it; the acceptance says neither.
	write(t, filepath.Join(pkg, "audit.go"), "package shop\n\ntype Audit struct{ Who string }\n")
	generated(t, pkg, "-type", "Order,Item,Audit")
	code, _, stderr := run(t, pkg, "-type", "Order,Item")
	if code != 1 || !strings.Contains(stderr, "with the -accept-break command below") || !strings.Contains(stderr, "go tool cbor-gen -type Order,Item -accept-break)") {
		t.Errorf("-type Order,Item after Order,Item,Audit: exit %d, want 1 with the command below the problem:\n%s", code, stderr)
	}
	code, _, stderr = run(t, pkg, "-type", "Order,Item", "-accept-break")
	if code != 0 || !strings.Contains(stderr, "type Audit is in the schema record but no longer generated") || strings.Contains(stderr, "below") || strings.Contains(stderr, "Generate it") {
		t.Errorf("-type Order,Item -accept-break: exit %d, want 0 saying what it accepts, without advice:\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(pkg, "cbor_gen.go")); err != nil {
		t.Fatal(err)
	}
}
