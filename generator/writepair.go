package generator

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The output and its schema record are written as a pair: each to a
// temporary file in its own directory, then renamed over the old one, so
// that a full disk or a file that cannot be written leaves both as they
// were, never a truncated output, nor a new output beside an old record.

// A pendingWrite is a file to write and its new content.
type pendingWrite struct {
	path string
	data []byte
}

// writeFS is the file system that writeFiles uses: the os package, or in
// tests one that fails where a test says.
type writeFS interface {
	ReadFile(name string) ([]byte, error)
	Lstat(name string) (fs.FileInfo, error)
	EvalSymlinks(path string) (string, error)
	// OpenWritable reports whether an existing file may be written, as
	// writing it in place would have found: a read-only one may not.
	OpenWritable(name string) error
	// CreateTemp creates a new file in dir named prefix, a random
	// number and suffix, with permissions perm less the umask.
	CreateTemp(dir, prefix, suffix string, perm fs.FileMode) (tempFile, error)
	Chmod(name string, mode fs.FileMode) error
	Rename(oldpath, newpath string) error
	Remove(name string) error
}

// tempFile is the part of *os.File that writeFiles uses.
type tempFile interface {
	Name() string
	Write(b []byte) (int, error)
	Sync() error
	Close() error
}

// osFS is writeFS on the operating system's file system.
type osFS struct{}

func (osFS) ReadFile(name string) ([]byte, error)      { return os.ReadFile(name) }
func (osFS) Lstat(name string) (fs.FileInfo, error)    { return os.Lstat(name) }
func (osFS) EvalSymlinks(path string) (string, error)  { return filepath.EvalSymlinks(path) }
func (osFS) Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }
func (osFS) Rename(oldpath, newpath string) error      { return os.Rename(oldpath, newpath) }
func (osFS) Remove(name string) error                  { return os.Remove(name) }
func (osFS) CreateTemp(dir, prefix, suffix string, perm fs.FileMode) (tempFile, error) {
	// os.CreateTemp makes its files 0600; an output written for the
	// first time is made as os.WriteFile would make it.
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			if err != nil {
				return nil, err
			}
			return f, nil
		}
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"+suffix), Err: fs.ErrExist}
}
func (osFS) OpenWritable(name string) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// newFileMode is the mode of an output or record written for the first
// time, less the umask: the generated files are as readable as the
// sources beside them.
const newFileMode = 0o644

// writeFiles writes the files whose content differs from what is on
// disk (one that is already as it should be keeps its modification
// time), all or none: each goes to a temporary file in the directory of
// the file it replaces (a symbolic link's target), with that file's mode,
// and only when every one is written in full are they renamed into
// place. A failure before the renames leaves every file as it was; a
// rename that fails undoes the renames before it. No temporary file is
// left behind. It reports whether it wrote any file.
func writeFiles(fsys writeFS, files []pendingWrite) (changed bool, err error) {
	type staged struct {
		path    string // the file to replace
		temp    string // its new content, to be renamed over it
		old     []byte // its content before, to put back
		existed bool
		mode    fs.FileMode
	}
	var todo []staged
	defer func() {
		if err != nil {
			for _, s := range todo {
				if s.temp != "" {
					fsys.Remove(s.temp)
				}
			}
		}
	}()
	for _, f := range files {
		path := f.path
		if target, err := fsys.EvalSymlinks(path); err == nil {
			path = target
		}
		s := staged{path: path}
		old, rerr := fsys.ReadFile(path)
		switch {
		case rerr == nil:
			if bytes.Equal(old, f.data) {
				continue // as it is: its time stays that of its last change
			}
			fi, err := fsys.Lstat(path)
			if err != nil {
				return false, err
			}
			if err := fsys.OpenWritable(path); err != nil {
				return false, err
			}
			s.old, s.existed, s.mode = old, true, fi.Mode().Perm()
		case !errors.Is(rerr, fs.ErrNotExist):
			return false, rerr
		}
		temp, err := writeTemp(fsys, path, f.data, s.mode)
		if temp != "" {
			s.temp = temp
			todo = append(todo, s)
		}
		if err != nil {
			return false, err
		}
	}
	for i, s := range todo {
		if err := fsys.Rename(s.temp, s.path); err != nil {
			// Put back the files already renamed into place.
			undo := []error{err}
			for _, done := range todo[:i] {
				if uerr := restore(fsys, done.path, done.old, done.existed, done.mode); uerr != nil {
					undo = append(undo, fmt.Errorf("%s could not be put back as it was: %w", model.RelPath(done.path), uerr))
				}
			}
			for _, rest := range todo[i:] {
				fsys.Remove(rest.temp)
			}
			todo = nil
			return false, errors.Join(undo...)
		}
		todo[i].temp = "" // in place: nothing to remove
	}
	return len(todo) > 0, nil
}

// writeTemp writes data to a new temporary file beside path, with mode
// (0: newFileMode less the umask), and returns its name ("" when none was
// created).
func writeTemp(fsys writeFS, path string, data []byte, mode fs.FileMode) (string, error) {
	perm := mode
	if perm == 0 {
		perm = newFileMode
	}
	f, err := fsys.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".", ".tmp", perm)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && mode != 0 {
		// The mode of the file replaced, which the umask may not allow.
		err = fsys.Chmod(f.Name(), mode)
	}
	if err != nil {
		return f.Name(), fmt.Errorf("writing %s: %w", model.RelPath(path), err)
	}
	return f.Name(), nil
}

// restore puts back a file that a failed writeFiles had replaced: its old
// content, or no file if there was none.
func restore(fsys writeFS, path string, old []byte, existed bool, mode fs.FileMode) error {
	if !existed {
		return fsys.Remove(path)
	}
	temp, err := writeTemp(fsys, path, old, mode)
	if err == nil {
		err = fsys.Rename(temp, path)
	}
	if err != nil && temp != "" {
		fsys.Remove(temp)
	}
	return err
}
