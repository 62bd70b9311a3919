package cache

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"testing"
)

// TestEntry: an entry reads back as written, for its key only, and a
// torn or damaged one reads as a miss, whatever byte is cut or changed.
func TestEntry(t *testing.T) {
	key := sha256.Sum256([]byte("inputs"))
	source, lock := []byte("package x\n"), []byte("cbor-gen schema 1\n")
	notes := []string{"/p/x.go:3:2: note: field A goes through fxamacker/cbor", ""}
	data := appendEntry(nil, key, source, lock, notes)
	gotSource, gotLock, gotNotes, ok := parseEntry(data, key)
	if !ok || !bytes.Equal(gotSource, source) || !bytes.Equal(gotLock, lock) || !slices.Equal(gotNotes, notes) {
		t.Fatalf("parseEntry = %q, %q, %q, %v; want what was written", gotSource, gotLock, gotNotes, ok)
	}
	if _, _, _, ok := parseEntry(data, sha256.Sum256([]byte("other inputs"))); ok {
		t.Error("an entry reads back for another key")
	}
	for n := range len(data) {
		if _, _, _, ok := parseEntry(data[:n], key); ok {
			t.Fatalf("an entry cut to %d of %d bytes reads back", n, len(data))
		}
		damaged := bytes.Clone(data)
		damaged[n] ^= 0x20
		if _, _, _, ok := parseEntry(damaged, key); ok {
			t.Fatalf("an entry with byte %d changed reads back", n)
		}
	}
}

// TestNotePaths: the file of a note's position is rewritten, the rest of
// the note and a note without a position are left alone.
func TestNotePaths(t *testing.T) {
	got := notePaths([]string{"x.go:3:2: note: slow path", "no position here"}, func(p string) string { return "/abs/" + p })
	want := []string{"/abs/x.go:3:2: note: slow path", "no position here"}
	if !slices.Equal(got, want) {
		t.Errorf("notePaths = %q, want %q", got, want)
	}
}

// TestNilRun: a run without a cache misses, stores nothing and closes.
func TestNilRun(t *testing.T) {
	var c *Run
	if _, _, _, ok := c.Lookup(); ok {
		t.Error("a nil Run hits")
	}
	c.PinBeside()
	c.Store([]byte("x"), nil, nil)
	c.Close()
	if c.Out() != "" {
		t.Error("a nil Run has an output")
	}
}
