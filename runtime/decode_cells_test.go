package runtime

import (
	"testing"
	"unsafe"
)

// TestCells checks that NewScalar and NewString hand out zero values at
// distinct addresses that do not overlap, across blocks, and that they
// allocate one heap object per block.
func TestCells(t *testing.T) {
	d := NewBytesDecoder(nil)
	seen := map[uintptr]bool{}
	var i64 []*int64
	for i := 0; i < 3*scalarsMore; i++ {
		var p unsafe.Pointer
		switch i % 4 {
		case 0:
			x := NewScalar[int64](d)
			i64 = append(i64, x)
			p = unsafe.Pointer(x)
		case 1:
			x := NewScalar[bool](d)
			if *x {
				t.Fatal("NewScalar[bool] is not false")
			}
			*x = true
			p = unsafe.Pointer(x)
		case 2:
			x := NewScalar[float32](d)
			*x = 1.5
			p = unsafe.Pointer(x)
		default:
			type kind uint8
			x := NewScalar[kind](d)
			*x = 7
			p = unsafe.Pointer(x)
		}
		if seen[uintptr(p)] || uintptr(p)%8 != 0 {
			t.Fatalf("cell %d at %p: handed out twice or not aligned", i, p)
		}
		seen[uintptr(p)] = true
	}
	for i, x := range i64 {
		if *x != 0 {
			t.Fatalf("int64 cell %d is %d, not zero: another cell overlaps it", i, *x)
		}
		*x = -1
	}
	type name string
	var strs []*name
	for i := 0; i < stringsFirst+2*stringsMore+1; i++ {
		s := NewString[name](d)
		if *s != "" {
			t.Fatalf("string cell %d is %q", i, *s)
		}
		*s = name(rune('a' + i))
		strs = append(strs, s)
	}
	for i, s := range strs {
		if *s != name(rune('a'+i)) {
			t.Fatalf("string cell %d is %q: cells overlap", i, *s)
		}
	}
	if raceEnabled {
		return
	}
	d = NewBytesDecoder(nil)
	if n := testing.AllocsPerRun(1, func() {
		for i := 0; i < scalarsFirst+scalarsMore; i++ {
			_ = NewScalar[uint16](d)
		}
		for i := 0; i < stringsMore; i++ {
			_ = NewString[string](d)
		}
	}); n > 3 {
		t.Errorf("%v allocations for two blocks of scalars and one of strings", n)
	}
}
