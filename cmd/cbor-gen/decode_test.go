package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runInput runs the command in dir with stdin as its standard input.
func runInput(t *testing.T, dir, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CBORGEN_AS_COMMAND=1")
	cmd.Stdin = strings.NewReader(stdin)
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

// TestDecodeCommand runs -decode on a directory that holds a schema
// record and nothing else: no Go code to load or compile. The exit status
// says whether the generated decoder takes the input.
func TestDecodeCommand(t *testing.T) {
	dir := t.TempDir()
	lock, err := os.ReadFile(filepath.Join("..", "..", "examples", "rpc", "cbor_gen.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cbor_gen.lock"), lock, 0o666); err != nil {
		t.Fatal(err)
	}
	// Entry{"k", 3, -1, 1.5}, as hex text and as binary.
	const entry = "84616b0320f93e00"
	for _, in := range []string{entry, "84 61 6b\n03 20 f9 3e 00\n", "\x84\x61\x6b\x03\x20\xf9\x3e\x00"} {
		code, out, errOut := runInput(t, dir, in, "-decode", "Entry")
		if code != 0 || errOut != "" || !strings.Contains(out, "/ Entry (current format) /") || !strings.Contains(out, `"k",`) || !strings.Contains(out, "/ 3: Score /") {
			t.Errorf("input %q: exit %d\nstdout:\n%s\nstderr:\n%s", in, code, out, errOut)
		}
	}
	if code, out, _ := runInput(t, dir, entry, "-decode", "Entry", "-plain"); code != 0 || out != "[\"k\", 3, -1, 1.5]\n" {
		t.Errorf("-plain: exit %d, %q", code, out)
	}
	// The legacy map form: {"key": "k", "SIZE": -1}.
	if code, out, errOut := runInput(t, dir, "a2636b6579616b6453495a4520", "-decode", "Entry", "."); code != 0 || !strings.Contains(out, "/ Entry (legacy map) /") || !strings.Contains(out, "/ 2: Size (key matched by case folding) /") {
		t.Errorf("legacy: exit %d\n%s%s", code, out, errOut)
	}
	// What the decoder refuses: exit 1, marked in the notation and listed.
	code, out, errOut := runInput(t, dir, "84616b0361786f", "-decode", "Entry")
	if code != 1 || !strings.Contains(out, "/ 2: Size: expected integer, found text string /") || !strings.Contains(errOut, "offset 4: Entry.Size: expected integer, found text string") {
		t.Errorf("refused: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// Not well-formed: the notation up to there, the offset, exit 1.
	code, out, errOut = runInput(t, dir, "84616b03", "-decode", "Entry")
	if code != 1 || !strings.Contains(out, "/ 1: Version /") || !strings.Contains(errOut, "offset 4: unexpected end of input") {
		t.Errorf("cut short: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"-decode", "Nope"}, "00", "type Nope is not in the schema record"},
		{[]string{"-decode", "Entry", "-hex"}, "\x84\x01", "-hex: standard input is not hex text"},
		{[]string{"-plain"}, "", "-hex and -plain go with -decode TYPE"},
		{[]string{"-decode", "Entry", "-cddl"}, "", "cannot be combined"},
		{[]string{"-decode", "Entry"}, "", "no CBOR item on standard input"},
		{[]string{"-decode", "Entry", t.TempDir()}, "00", "no schema record at"},
	} {
		code, _, errOut := runInput(t, dir, c.stdin, c.args...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}
