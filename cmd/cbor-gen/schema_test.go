package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// These tests run the command on the shop module of main_test.go through
// the life of a type: the schema record is created by the first run, and
// later runs refuse the changes that would make stored data decode
// wrongly.

// editShop rewrites shop.go with each old -> new replacement applied once.
func editShop(t *testing.T, pkg string, pairs ...string) {
	t.Helper()
	src := shopSource
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(src, pairs[i]) {
			t.Fatalf("shop source lacks %q", pairs[i])
		}
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	write(t, filepath.Join(pkg, "shop.go"), src)
}

// generated runs cbor-gen -type Order,Item and fails the test unless it
// succeeds.
func generated(t *testing.T, pkg string, args ...string) (stderr string) {
	t.Helper()
	code, _, stderr := run(t, pkg, append([]string{"-type", "Order,Item"}, args...)...)
	if code != 0 {
		t.Fatalf("cbor-gen %s exited %d:\n%s", strings.Join(args, " "), code, stderr)
	}
	return stderr
}

// refused runs cbor-gen -type Order,Item, with and without -check, and
// checks that both exit 1, leave the output and the record alone, and
// print errors matching every pattern.
func refused(t *testing.T, pkg string, patterns ...string) {
	t.Helper()
	out, lock := filepath.Join(pkg, "cbor_gen.go"), filepath.Join(pkg, "cbor_gen.lock")
	before, beforeLock := read(t, out), read(t, lock)
	for _, args := range [][]string{{"-type", "Order,Item"}, {"-type", "Order,Item", "-check"}} {
		code, _, stderr := run(t, pkg, args...)
		if code != 1 {
			t.Errorf("cbor-gen %s: exit %d, want 1:\n%s", strings.Join(args, " "), code, stderr)
		}
		for _, p := range patterns {
			if !regexp.MustCompile(p).MatchString(stderr) {
				t.Errorf("cbor-gen %s: stderr does not match %s:\n%s", strings.Join(args, " "), p, stderr)
			}
		}
		if !strings.Contains(stderr, "-accept-break") {
			t.Errorf("the refusal does not say how to accept the change:\n%s", stderr)
		}
	}
	if string(read(t, out)) != string(before) || string(read(t, lock)) != string(beforeLock) {
		t.Error("a refused run changed the output or the record")
	}
}

func TestSchemaFirstRunCreatesRecord(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)
	lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock")))
	for _, line := range []string{
		"cbor-gen schema 1\n",
		"\ntype Item required=2\nItem 0 SKU \"sku\" string\nItem 1 Qty \"Qty\" uint32\n",
		"\ntype Order required=4\nOrder 0 ID \"ID\" uint64\nOrder 1 Items \"Items\" []Item\n" +
			"Order 2 Notes \"Notes\" map[string]string\nOrder 3 Ref \"Ref\" *string\n",
	} {
		if !strings.Contains(lock, line) {
			t.Errorf("cbor_gen.lock lacks %q:\n%s", line, lock)
		}
	}
	// -check agrees, and fails when the record is missing or edited.
	if code, _, stderr := run(t, pkg, "-type", "Order,Item", "-check"); code != 0 {
		t.Errorf("-check after generating: exit %d:\n%s", code, stderr)
	}
	write(t, filepath.Join(pkg, "cbor_gen.lock"), strings.Replace(lock, "Qty \"Qty\" uint32", "Qty \"Qty\" uint16", 1))
	code, _, stderr := run(t, pkg, "-type", "Order,Item", "-check")
	if code != 1 || !strings.Contains(stderr, "cbor_gen.lock (run go generate)") || !strings.Contains(stderr, "+Item 1 Qty \"Qty\" uint32") {
		t.Errorf("-check with a record that disagrees with the types: exit %d, want 1 with a diff of cbor_gen.lock:\n%s", code, stderr)
	}
	os.Remove(filepath.Join(pkg, "cbor_gen.lock"))
	if code, _, stderr := run(t, pkg, "-type", "Order,Item", "-check"); code != 1 || !strings.Contains(stderr, "cbor_gen.lock") {
		t.Errorf("-check without a record: exit %d, want 1 naming cbor_gen.lock:\n%s", code, stderr)
	}
	// -accept-break is for one run by hand: never with -check (and so
	// never from a //go:generate line that make check replays).
	if code, _, stderr := run(t, pkg, "-type", "Order,Item", "-check", "-accept-break"); code != 1 || !strings.Contains(stderr, "cannot be combined with -check") {
		t.Errorf("-check -accept-break: exit %d, want 1:\n%s", code, stderr)
	}
}

func TestSchemaSwapRefused(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)
	editShop(t, pkg, "\tID    uint64\n\tItems []Item\n", "\tItems []Item\n\tID    uint64\n")
	refused(t, pkg,
		`(?m)^shop\.go:11:2: field Order\.Items moved from slot 1 to slot 0, where stored data holds Order\.ID: existing data would decode the values of ID into Items`,
		`(?m)^shop\.go:12:2: field Order\.ID moved from slot 0 to slot 1, where stored data holds Order\.Items`,
	)
}

func TestSchemaRemoveField(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)

	// Removing Notes moves Ref into its slot: refused, with the way out.
	editShop(t, pkg, "\tNotes map[string]string\n", "")
	refused(t, pkg,
		`field Order\.Notes \(slot 2\) was removed: stored data still holds its values in slot 2`,
		`_ runtime\.Reserved`,
		`shop\.go:13:2: field Order\.Ref moved from slot 3 to slot 2, where stored data holds Order\.Notes`,
	)

	// Removing the last field is refused too: a field appended later
	// would read its values.
	editShop(t, pkg, "\tRef   *string\n", "")
	refused(t, pkg, `field Order\.Ref \(slot 3\) was removed: .*a field added later would decode its values`)

	// Reserving the slot retires the field: accepted, and the record
	// remembers what the slot held.
	editShop(t, pkg,
		"package shop\n", "package shop\n\nimport \"github.com/cborgen/cborgen/runtime\"\n",
		"\tNotes map[string]string\n", "\t_     runtime.Reserved // was Notes\n")
	generated(t, pkg)
	lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock")))
	if !strings.Contains(lock, "Order 2 reserved was Notes \"Notes\" map[string]string\nOrder 3 Ref \"Ref\" *string\n") {
		t.Errorf("record after retiring Notes:\n%s", lock)
	}
	generated(t, pkg, "-check")

	// The reserved slot is not given to a new field.
	editShop(t, pkg,
		"package shop\n", "package shop\n\nimport \"github.com/cborgen/cborgen/runtime\"\n\nvar _ runtime.Reserved\n",
		"\tNotes map[string]string\n", "\tMemo  string\n")
	refused(t, pkg, `field Order\.Memo takes slot 2, which is reserved \(it held Notes\)`)
	// Nor is the reservation dropped.
	editShop(t, pkg, "\tNotes map[string]string\n", "")
	refused(t, pkg, `field Order\.Ref moved from slot 3 to slot 2, which holds the reserved slot of Notes`)
}

func TestSchemaTypeChange(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)
	editShop(t, pkg, "\tQty uint32\n", "\tQty string\n")
	refused(t, pkg, `(?m)^shop\.go:7:2: field Item\.Qty changed from uint32 to string: stored data holds uint32 values in slot 1, which a string field cannot decode`)
	editShop(t, pkg, "\tQty uint32\n", "\tQty int16\n")
	refused(t, pkg, `field Item\.Qty changed from uint32 to int16`)

	// Widening is compatible, and the record follows.
	editShop(t, pkg, "\tQty uint32\n", "\tQty int64\n", "\tRef   *string\n", "\tRef   **string\n")
	generated(t, pkg)
	lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock")))
	if !strings.Contains(lock, "Item 1 Qty \"Qty\" int64\n") || !strings.Contains(lock, "Order 3 Ref \"Ref\" **string\n") {
		t.Errorf("record after widening:\n%s", lock)
	}
	// ...and narrowing back is refused: new data may hold int64 values.
	editShop(t, pkg, "\tQty uint32\n", "\tQty uint32\n", "\tRef   *string\n", "\tRef   **string\n")
	refused(t, pkg, `field Item\.Qty changed from int64 to uint32`)

	// A renamed legacy key is refused, with the tag that keeps it.
	editShop(t, pkg, "\tQty uint32\n", "\tQty int64 `cbor:\"q\"`\n", "\tRef   *string\n", "\tRef   **string\n")
	refused(t, pkg, "field Item\\.Qty: legacy map key changed from \"Qty\" to \"q\": maps written before the array format hold Qty under \"Qty\" and would decode with Qty left zero. Keep the key with the tag `cbor:\"Qty\"`")

	// A Go rename that keeps the slot, the key and the kind is harmless.
	editShop(t, pkg, "\tQty uint32\n", "\tCount int64 `cbor:\"Qty\"`\n", "\tRef   *string\n", "\tRef   **string\n")
	generated(t, pkg)
	if lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock"))); !strings.Contains(lock, "Item 1 Count \"Qty\" int64\n") {
		t.Errorf("record after a rename:\n%s", lock)
	}
}

const decodeProgram = `package main

import (
	"encoding/hex"
	"fmt"
	"os"

	"example.com/shop"
)

func main() {
	b, err := hex.DecodeString(os.Args[1])
	if err != nil {
		panic(err)
	}
	o := shop.Order{Total: 99, Tags: []string{"stale"}}
	if err := o.UnmarshalCBOR(b); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Printf("ID=%d Items=%d Notes=%d Ref=%s Total=%d Tags=%v\n", o.ID, len(o.Items), len(o.Notes), *o.Ref, o.Total, o.Tags)
}
`

func TestSchemaAppendField(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	module, pkg := shop(t)
	generated(t, pkg)
	// Bytes of version 1: [7, [["a", 2]], {"a": "1", "b": "2"}, "r-1"].
	old := strings.TrimSpace(goCmd(t, module, "run", "./cmd/roundtrip"))

	editShop(t, pkg, "\tRef   *string\n", "\tRef   *string\n\tTotal int64\n\tTags  []string\n")
	generated(t, pkg)
	lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock")))
	if !strings.Contains(lock, "type Order required=4\n") || !strings.Contains(lock, "Order 4 Total \"Total\" int64\nOrder 5 Tags \"Tags\" []string\n") {
		t.Errorf("record after appending:\n%s", lock)
	}
	generated(t, pkg, "-check")

	// Version 2 reads the shorter arrays of version 1: the new fields
	// come out zero, whatever the value held before.
	write(t, filepath.Join(module, "cmd", "decode", "main.go"), decodeProgram)
	got := strings.TrimSpace(goCmd(t, module, "run", "./cmd/decode", old))
	if want := "ID=7 Items=1 Notes=2 Ref=r-1 Total=0 Tags=[]"; got != want {
		t.Errorf("version 2 decoding version 1's %s printed %q, want %q", old, got, want)
	}

	// An array shorter than the first version is still an error.
	code, out := runProgram(t, module, "./cmd/decode", "83070000")
	if code == 0 || !strings.Contains(out, "expected array of 4 to 6 elements, found 3") {
		t.Errorf("decoding a 3-element Order: exit %d, %s", code, out)
	}
}

func TestSchemaAcceptBreak(t *testing.T) {
	_, pkg := shop(t)
	generated(t, pkg)
	editShop(t, pkg, "\tID    uint64\n\tItems []Item\n", "\tItems []Item\n\tID    uint64\n", "\tQty uint32\n", "\tQty string\n")
	refused(t, pkg, `Order\.Items moved`, `Item\.Qty changed`)

	stderr := generated(t, pkg, "-accept-break")
	for _, want := range []string{"-accept-break: accepting", "cbor_gen.lock is rewritten", "field Order.Items moved from slot 1 to slot 0", "field Item.Qty changed from uint32 to string"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-accept-break does not report %q:\n%s", want, stderr)
		}
	}
	lock := string(read(t, filepath.Join(pkg, "cbor_gen.lock")))
	if !strings.Contains(lock, "Order 0 Items \"Items\" []Item\nOrder 1 ID \"ID\" uint64\n") || !strings.Contains(lock, "Item 1 Qty \"Qty\" string\n") {
		t.Errorf("the record was not rewritten:\n%s", lock)
	}
	if !strings.Contains(string(read(t, filepath.Join(pkg, "cbor_gen.go"))), "v.Qty = x") {
		t.Error("the output was not written")
	}
	// From now on the new order is the contract.
	generated(t, pkg, "-check")
	if s := generated(t, pkg); s != "" {
		t.Errorf("a run after -accept-break printed %s", s)
	}

	// A type dropped from the run is refused too, at its record line.
	code, _, stderr := run(t, pkg, "-type", "Item")
	if code != 1 || !regexp.MustCompile(`cbor_gen\.lock:\d+:1: type Order is in the schema record but no longer generated`).MatchString(stderr) {
		t.Errorf("dropping Order: exit %d:\n%s", code, stderr)
	}
}

func TestSchemaUnknownDirective(t *testing.T) {
	_, pkg := shop(t)
	editShop(t, pkg, "type Order struct {\n", "//cborgen:extensibel\ntype Order struct {\n")
	code, _, stderr := run(t, pkg, "-type", "Order,Item")
	if code != 1 || !strings.Contains(stderr, "shop.go:10:1: type Order: unknown directive //cborgen:extensibel (known: ") || !strings.Contains(stderr, "//cborgen:extensible,") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}

// runProgram runs a main package of the module with go run and returns
// its exit code and combined output.
func runProgram(t *testing.T, dir, pkg string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", pkg}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}
