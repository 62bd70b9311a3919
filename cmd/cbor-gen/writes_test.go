package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFullDisk regenerates a package on a file system too full for its
// new output: a tmpfs of 256 KB, mounted in a mount namespace of its own
// (unshare -rm, where the platform allows it without privileges). The run
// fails with the file system's error, and the old output and record are
// as they were, with no temporary file beside them; written in place, the
// output was left truncated.
func TestFullDisk(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare")
	}
	if out, err := exec.Command(unshare, "-rm", "true").CombinedOutput(); err != nil {
		t.Skipf("unshare -rm: %v %s", err, out)
	}
	var fields strings.Builder
	for i := range 40 {
		fmt.Fprintf(&fields, "\tF%d map[string][]uint32\n", i)
	}
	src := "package big\n\ntype Big struct {\n" + fields.String() + "}\n"
	mod := newModule(t, map[string]string{"big.go": src})
	mustGenerate(t, mod, "-type", "Big")
	before := read(t, filepath.Join(mod, "cbor_gen.go"))
	beforeLock := read(t, filepath.Join(mod, "cbor_gen.lock"))
	// Fields added at the end: a longer output, which the record accepts.
	write(t, filepath.Join(mod, "big.go"), strings.Replace(src, "}\n", strings.ReplaceAll(fields.String(), "\tF", "\tG")+"}\n", 1))

	// In the namespace: mount, copy the module in, fill the disk but for
	// 8 KB, regenerate, and copy what is left out for the checks.
	after := t.TempDir()
	script := `set -e
mount -t tmpfs -o size=256k tmpfs "$MNT"
cp -a "$MOD"/. "$MNT"/
cat /dev/zero > "$MNT"/fill 2>/dev/null || true
truncate -s -8k "$MNT"/fill
cd "$MNT"
set +e
"$BIN" -type Big 2>"$AFTER"/stderr
echo $? > "$AFTER"/code
rm "$MNT"/fill
cp -a "$MNT"/. "$AFTER"/
`
	cmd := exec.Command(unshare, "-rm", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "MNT="+t.TempDir(), "MOD="+mod, "AFTER="+after, "BIN="+os.Args[0],
		"CBORGEN_AS_COMMAND=1", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("the tmpfs could not be set up: %v\n%s", err, out)
	}
	code, stderr := strings.TrimSpace(string(read(t, filepath.Join(after, "code")))), string(read(t, filepath.Join(after, "stderr")))
	if code != "1" || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("on a full disk: exit %s, want 1 with the file system's error:\n%s", code, stderr)
	}
	if got := read(t, filepath.Join(after, "cbor_gen.go")); !bytes.Equal(got, before) {
		t.Errorf("the output changed: %d bytes, was %d", len(got), len(before))
	}
	if got := read(t, filepath.Join(after, "cbor_gen.lock")); !bytes.Equal(got, beforeLock) {
		t.Error("the record changed")
	}
	entries, _ := os.ReadDir(after)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}
