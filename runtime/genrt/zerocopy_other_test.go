//go:build !linux

package genrt_test

import "testing"

// readOnly is the read-only memory of zerocopy_linux_test.go, on Linux only.
func readOnly(t *testing.T, data []byte) []byte {
	t.Skip("read-only memory is mapped on Linux only")
	return data
}
