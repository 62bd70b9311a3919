//go:build linux

package cbortest

import (
	"bytes"
	"syscall"
)

// ReadOnlyCopy returns a copy of data in memory mapped read-only, as a file
// mapped with PROT_READ is (a write into it is a fault: a panic under
// debug.SetPanicOnFault, else the end of the program), and the function
// that unmaps it. Where the memory cannot be mapped, it returns a copy in
// ordinary memory.
func ReadOnlyCopy(data []byte) ([]byte, func()) {
	page := syscall.Getpagesize()
	size := max(page, (len(data)+page-1)/page*page)
	m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return bytes.Clone(data), func() {}
	}
	copy(m, data)
	if err := syscall.Mprotect(m, syscall.PROT_READ); err != nil {
		_ = syscall.Munmap(m)
		return bytes.Clone(data), func() {}
	}
	return m[:len(data):len(data)], func() { _ = syscall.Munmap(m) }
}
