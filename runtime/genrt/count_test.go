package genrt

import (
	"strings"
	"testing"
)

// TestCountWording: a count of one in an error message is singular.
func TestCountWording(t *testing.T) {
	var one [1]byte
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"trailing", Valid([]byte{0x01, 0x02}), "1 byte after the item"},
		{"trailing", Valid([]byte{0x01, 0x02, 0x03}), "2 bytes after the item"},
		{"truncated", func() error { _, err := NewBytesDecoder([]byte{0x61}).ReadString(); return err }(), "text string of 1 byte"},
		{"truncated", func() error { _, err := NewBytesDecoder([]byte{0x62}).ReadString(); return err }(), "text string of 2 bytes"},
		{"byte array", func() *Decoder {
			d := NewBytesDecoder([]byte{0x42, 1, 2})
			d.SetOptions(Options{Strict: true})
			return d
		}().ReadByteArray(one[:]), "expected byte string of 1 byte, found 2"},
		{"elements left", func() error { _, err := NewBytesDecoder([]byte{0x82, 0x01}).ReadArrayHead(); return err }(), "exceed the 1 byte left"},
		{"struct array", NewBytesDecoder(nil).wrongLength(1, 2), "expected array of 1 element, found 2"},
		{"struct array", NewBytesDecoder(nil).wrongLength(2, 1), "expected array of 2 elements, found 1"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, tc.err, tc.want)
		}
	}
}
