//go:build linux

package genrt_test

import (
	"syscall"
	"testing"
)

// readOnly returns a copy of data in memory mapped read-only: a write into
// it is a fault (a panic under debug.SetPanicOnFault, else the end of the
// program), as into a file mapped with PROT_READ.
func readOnly(t *testing.T, data []byte) []byte {
	t.Helper()
	size := (len(data) + syscall.Getpagesize() - 1) / syscall.Getpagesize() * syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(m) })
	copy(m, data)
	if err := syscall.Mprotect(m, syscall.PROT_READ); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	return m[:len(data):len(data)]
}
