package genrt_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	. "github.com/cborgen/cborgen/runtime/genrt"
)

func TestFoldedField(t *testing.T) {
	keys := []string{"id", "ID2", "", "name", "", "σς", "Key", "KEY"}
	for _, tc := range []struct {
		key  string
		want int
	}{
		{"ID", 0}, {"id2", 1}, {"Name", 3}, {"ΣΣ", 5}, {"kEY", 6}, // the first in field order
		{"nam", -1}, {"", -1}, {"K", -1}, // Kelvin sign: three bytes, "k" one
	} {
		if got := FoldedField([]byte(tc.key), keys); got != tc.want {
			t.Errorf("FoldedField(%q) = %d, want %d", tc.key, got, tc.want)
		}
	}
	k := []byte("NAME")
	if n := testing.AllocsPerRun(100, func() { FoldedField(k, keys) }); n != 0 {
		t.Errorf("FoldedField allocates %v times", n)
	}
}

// TestNextField: an array of another length than the struct's field
// count. An indefinite-length array is counted by ReadArrayHead where it
// can be, so that its elements are read like a definite array's; over a
// stream that cannot look ahead, NextField steps through its elements.
func TestNextField(t *testing.T) {
	for _, tc := range []struct {
		hex    string
		fields int
		err    string
	}{
		{"8101", 0, "expected array of 2 elements, found 1"},
		{"83010203", 0, "expected array of 2 elements, found 3"},
		{"9f0102ff", 2, ""},
		{"9f01ff", 1, "expected array of 2 elements, found 1"},
		{"9f010203ff", 2, "expected array of 2 elements, found more"},
	} {
		d := NewDecoder(iotest.OneByteReader(bytes.NewReader(mustHex(tc.hex))))
		n, err := d.ReadArrayHead()
		if err != nil {
			t.Fatal(err)
		}
		if n == 2 {
			continue // counted ahead: the generated decoder reads it as a definite array
		}
		fields := 0
		for i := 0; ; i++ {
			more, e := d.NextField(n, i, 2)
			if !more {
				err = e
				break
			}
			fields++
			if err := d.Skip(); err != nil {
				t.Fatal(err)
			}
		}
		if n >= 0 {
			// Counted ahead: a definite length, refused before any field.
			tc.fields, tc.err = 0, fmt.Sprintf("expected array of 2 elements, found %d", n)
		}
		if tc.err == "" {
			if err != nil || fields != 2 || DepthOf(d) != 0 {
				t.Errorf("%s: %d fields, depth %d, %v", tc.hex, fields, DepthOf(d), err)
			}
			continue
		}
		if !errors.Is(err, ErrLength) || !strings.Contains(err.Error(), tc.err) || fields != tc.fields {
			t.Errorf("%s: %d fields, %v; want %d, %q", tc.hex, fields, err, tc.fields, tc.err)
		}
	}
}
