//go:build !linux

package cbortest

import "bytes"

// ReadOnlyCopy returns a copy of data; memory is mapped read-only on Linux
// only (see readonly_linux.go).
func ReadOnlyCopy(data []byte) ([]byte, func()) { return bytes.Clone(data), func() {} }
