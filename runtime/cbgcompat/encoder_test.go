package cbgcompat

import (
	"bytes"
	"io"
	"testing"
)

// TestRoom: Room hands out a bytes.Buffer's free space only when it
// holds at least minRoom bytes, as an empty slice over the buffer's own
// memory; any other writer, and a buffer with less room, get nil.
func TestRoom(t *testing.T) {
	for _, tc := range []struct {
		used, free int
		want       bool
	}{
		{0, 0, false},
		{0, minRoom - 1, false},
		{5, minRoom - 1, false},
		{0, minRoom, true},
		{7, minRoom, true},
		{100, 4000, true},
	} {
		bb := bytes.NewBuffer(make([]byte, tc.used, tc.used+tc.free))
		got, room := Room(bb)
		if (got != nil) != tc.want {
			t.Fatalf("used %d free %d: Room gave %v, want it %v", tc.used, tc.free, got != nil, tc.want)
		}
		if !tc.want {
			if room != nil {
				t.Fatalf("used %d free %d: room %d bytes without the buffer", tc.used, tc.free, cap(room))
			}
			continue
		}
		if got != bb || len(room) != 0 || cap(room) != tc.free {
			t.Fatalf("used %d free %d: room len %d cap %d", tc.used, tc.free, len(room), cap(room))
		}
		room = append(room, "item"...)
		if _, err := bb.Write(room); err != nil || bb.Len() != tc.used+4 || string(bb.Bytes()[tc.used:]) != "item" {
			t.Fatalf("used %d free %d: after Write %q, %v", tc.used, tc.free, bb.Bytes(), err)
		}
	}
	for _, w := range []io.Writer{io.Discard, &Writer{Buf: make([]byte, 0, 1024)}, nil} {
		if got, room := Room(w); got != nil || room != nil {
			t.Fatalf("%T: Room gave a buffer", w)
		}
	}
}
