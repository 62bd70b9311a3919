package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// faultFS is the operating system's file system, but for the one call
// that fail names ("Write:2", the second Write), which fails as a full
// disk or a read-only file fails: a Write writes half its bytes first.
type faultFS struct {
	osFS
	fail  string
	calls map[string]int
}

var errInjected = syscall.ENOSPC

func (f *faultFS) hit(op string) bool {
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[op]++
	return f.fail == fmt.Sprintf("%s:%d", op, f.calls[op])
}

func (f *faultFS) OpenWritable(name string) error {
	if f.hit("OpenWritable") {
		return &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	return f.osFS.OpenWritable(name)
}

func (f *faultFS) CreateTemp(dir, prefix, suffix string, perm fs.FileMode) (tempFile, error) {
	if f.hit("CreateTemp") {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: errInjected}
	}
	t, err := f.osFS.CreateTemp(dir, prefix, suffix, perm)
	if err != nil {
		return nil, err
	}
	return &faultFile{t.(*os.File), f}, nil
}

func (f *faultFS) Chmod(name string, mode fs.FileMode) error {
	if f.hit("Chmod") {
		return &fs.PathError{Op: "chmod", Path: name, Err: syscall.EPERM}
	}
	return f.osFS.Chmod(name, mode)
}

func (f *faultFS) Rename(oldpath, newpath string) error {
	if f.hit("Rename") {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: syscall.EIO}
	}
	return f.osFS.Rename(oldpath, newpath)
}

type faultFile struct {
	*os.File
	fs *faultFS
}

func (f *faultFile) Write(b []byte) (int, error) {
	if f.fs.hit("Write") {
		n, _ := f.File.Write(b[:len(b)/2])
		return n, &fs.PathError{Op: "write", Path: f.Name(), Err: errInjected}
	}
	return f.File.Write(b)
}

func (f *faultFile) Sync() error {
	if f.fs.hit("Sync") {
		return errInjected
	}
	return f.File.Sync()
}

func (f *faultFile) Close() error {
	err := f.File.Close()
	if f.fs.hit("Close") {
		return errInjected
	}
	return err
}

// TestWriteFilesAllOrNone: the output and the record are written as a
// pair. Whichever step fails (a file that may not be written, a
// temporary file that cannot be made, a write that fills the disk half
// way, a sync, a close, a chmod, a rename), both files are as they were,
// content and mode, a file that was not there is still not there, and no
// temporary file is left; when every step succeeds both have their new
// content and keep their modes.
func TestWriteFilesAllOrNone(t *testing.T) {
	var steps []string
	for _, op := range []string{"OpenWritable", "CreateTemp", "Write", "Sync", "Close", "Chmod", "Rename"} {
		steps = append(steps, op+":1", op+":2")
	}
	for _, existing := range []bool{true, false} {
		for _, step := range steps {
			if !existing && strings.HasPrefix(step, "OpenWritable") {
				continue // a new file is not opened
			}
			t.Run(fmt.Sprintf("existing=%v/%s", existing, step), func(t *testing.T) {
				dir := t.TempDir()
				out, lock := filepath.Join(dir, "cbor_gen.go"), filepath.Join(dir, "cbor_gen.lock")
				if existing {
					writeMode(t, out, "old output", 0o600)
					writeMode(t, lock, "old record", 0o640)
				}
				fsys := &faultFS{fail: step}
				_, err := writeFiles(fsys, []pendingWrite{{out, bytes.Repeat([]byte("new output "), 1000)}, {lock, []byte("new record")}})
				if fsys.calls[step[:len(step)-2]] < int(step[len(step)-1]-'0') {
					t.Skipf("no %s: %v", step, fsys.calls)
				}
				if err == nil {
					t.Fatalf("the failed %s was not reported", step)
				}
				if existing {
					wantFile(t, out, "old output", 0o600)
					wantFile(t, lock, "old record", 0o640)
				} else {
					wantNoFile(t, out)
					wantNoFile(t, lock)
				}
				wantOnly(t, dir, existing)
			})
		}
	}

	t.Run("success", func(t *testing.T) {
		dir := t.TempDir()
		out, lock := filepath.Join(dir, "cbor_gen.go"), filepath.Join(dir, "cbor_gen.lock")
		writeMode(t, out, "old output", 0o600)
		writeMode(t, lock, "record", 0o664)
		past := time.Now().Add(-time.Hour).Truncate(time.Second)
		if err := os.Chtimes(lock, past, past); err != nil {
			t.Fatal(err)
		}
		if changed, err := writeFiles(osFS{}, []pendingWrite{{out, []byte("new output")}, {lock, []byte("record")}}); err != nil || !changed {
			t.Fatalf("changed %v, %v", changed, err)
		}
		if changed, err := writeFiles(osFS{}, []pendingWrite{{out, []byte("new output")}, {lock, []byte("record")}}); err != nil || changed {
			t.Fatalf("writing the same again: changed %v, %v; want false", changed, err)
		}
		wantFile(t, out, "new output", 0o600)
		wantFile(t, lock, "record", 0o664)
		if fi, err := os.Stat(lock); err != nil || !fi.ModTime().Equal(past) {
			t.Errorf("the record, already as it should be, was written again (%v)", err)
		}
		wantOnly(t, dir, true)

		// A first run: new files, made as os.WriteFile makes them
		// (newFileMode less the umask).
		fresh := t.TempDir()
		if _, err := writeFiles(osFS{}, []pendingWrite{{filepath.Join(fresh, "cbor_gen.go"), []byte("x")}, {filepath.Join(fresh, "cbor_gen.lock"), []byte("y")}}); err != nil {
			t.Fatal(err)
		}
		wantOnly(t, fresh, true)
		like := filepath.Join(t.TempDir(), "like")
		if err := os.WriteFile(like, nil, newFileMode); err != nil {
			t.Fatal(err)
		}
		likeFi, _ := os.Stat(like)
		for _, name := range []string{"cbor_gen.go", "cbor_gen.lock"} {
			if fi, err := os.Stat(filepath.Join(fresh, name)); err != nil || fi.Mode().Perm() != likeFi.Mode().Perm() {
				t.Errorf("a new %s: mode %v (%v), want %v", name, fi.Mode(), err, likeFi.Mode())
			}
		}
	})

	// A symbolic link is written through: the link stays, its target
	// changes, and the temporary file is made beside the target.
	t.Run("symlink", func(t *testing.T) {
		dir, real := t.TempDir(), t.TempDir()
		target := filepath.Join(real, "shared.go")
		writeMode(t, target, "old", 0o644)
		link := filepath.Join(dir, "cbor_gen.go")
		if err := os.Symlink(target, link); err != nil {
			t.Skip(err)
		}
		if _, err := writeFiles(osFS{}, []pendingWrite{{link, []byte("new")}}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v", err)
		}
		wantFile(t, target, "new", 0o644)
	})
}

func writeMode(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func wantFile(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != content {
		t.Errorf("%s holds %.40q (%v), want %q", filepath.Base(path), b, err, content)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
		t.Errorf("%s has mode %v (%v), want %v", filepath.Base(path), fi.Mode().Perm(), err, mode)
	}
}

func wantNoFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists (%v), want none", filepath.Base(path), err)
	}
}

// wantOnly checks that dir holds the output and the record (or nothing)
// and no temporary file.
func wantOnly(t *testing.T, dir string, pair bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string(nil)
	if pair {
		want = []string{"cbor_gen.go", "cbor_gen.lock"}
	}
	if !slices.Equal(names, want) {
		t.Errorf("the directory holds %q, want %q", names, want)
	}
}
