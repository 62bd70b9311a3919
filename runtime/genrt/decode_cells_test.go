package genrt

import (
	"fmt"
	"reflect"
	"runtime"
	"strconv"
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
	for i := 0; i < 3*stringsMost; i++ {
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
		for i := 0; i < stringsFirst; i++ {
			_ = NewString[string](d)
		}
	}); n > 3 {
		t.Errorf("%v allocations for two blocks of scalars and one of strings", n)
	}
}

type (
	boxedText  string
	boxedUint  uint32
	boxedInt   int64
	boxedFloat float64
	boxedIface interface{ boxed() }
)

func (boxedText) boxed()  {}
func (boxedUint) boxed()  {}
func (boxedInt) boxed()   {}
func (boxedFloat) boxed() {}

// TestBoxes checks that values boxed in cells are the values Go boxes
// itself, in an interface with methods and in any: equal under ==, the
// same to a type switch, to reflect and to fmt, and still so after
// collections with the decoder gone; and that boxing many allocates a
// block per several values, not an object per value.
func TestBoxes(t *testing.T) {
	d := NewBytesDecoder(nil)
	var got, want []boxedIface
	var gotAny, wantAny []any
	for i := 0; i < 200; i++ {
		s := strconv.Itoa(i*7919) + "-text"
		switch i % 4 {
		case 0:
			got, want = append(got, BoxString(d, boxedIface(boxedText("")), s)), append(want, boxedText(s))
			gotAny, wantAny = append(gotAny, BoxString(d, any(boxedText("")), s)), append(wantAny, boxedText(s))
		case 1:
			got, want = append(got, BoxScalar(d, boxedIface(boxedUint(0)), boxedUint(i*1000))), append(want, boxedUint(i*1000))
		case 2:
			got, want = append(got, BoxScalar(d, boxedIface(boxedInt(0)), boxedInt(-i<<40))), append(want, boxedInt(-i<<40))
		case 3:
			got, want = append(got, BoxScalar(d, boxedIface(boxedFloat(0)), boxedFloat(float64(i)/3))), append(want, boxedFloat(float64(i)/3))
		}
	}
	d = nil
	runtime.GC()
	runtime.GC()
	for i := range got {
		if got[i] != want[i] || !reflect.DeepEqual(got[i], want[i]) || fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
			t.Fatalf("box %d holds %#v, want %#v", i, got[i], want[i])
		}
		switch x := got[i].(type) {
		case boxedText:
			if string(x) != string(want[i].(boxedText)) {
				t.Fatalf("box %d: %q", i, x)
			}
		case boxedUint, boxedInt, boxedFloat:
		default:
			t.Fatalf("box %d has type %T", i, x)
		}
	}
	for i := range gotAny {
		if gotAny[i] != wantAny[i] {
			t.Fatalf("any box %d holds %#v, want %#v", i, gotAny[i], wantAny[i])
		}
	}
	d = NewBytesDecoder(nil)
	allocs := testing.AllocsPerRun(10, func() {
		for i := 0; i < 64; i++ {
			_ = BoxString(d, boxedIface(boxedText("")), "x")
			_ = BoxScalar(d, boxedIface(boxedUint(0)), boxedUint(i+1000))
		}
	})
	if allocs > 64/scalarsMore+3 {
		t.Errorf("boxing 128 values allocates %v objects", allocs)
	}
}

// TestStringBlocks checks that blocks of strings grow to stringsMost
// cells, each in a size class of its own length (no room lost to the
// allocator's header), and that a decoder never has made more than three
// cells for each string it handed out (and stringsFirst).
func TestStringBlocks(t *testing.T) {
	d := NewBytesDecoder(nil)
	made, handed := 0, 0
	for range 10 * stringsMost {
		_ = NewString[string](d)
		handed++
		if d.stringsLeft == d.stringsBlock-1 {
			made += d.stringsBlock
		}
		if made > 3*handed+stringsFirst {
			t.Fatalf("%d strings handed out, %d made", handed, made)
		}
	}
	if d.stringsBlock != stringsMost {
		t.Errorf("after %d strings the block is of %d, want %d", handed, d.stringsBlock, stringsMost)
	}
	if raceEnabled {
		return
	}
	const n = 20000
	d = NewBytesDecoder(nil)
	if allocs := testing.AllocsPerRun(1, func() {
		for i := 0; i < n; i++ {
			_ = NewString[string](d)
		}
	}); allocs > n/stringsMost+8 {
		t.Errorf("%d strings: %v allocations, want at most %d", n, allocs, n/stringsMost+8)
	}
	// A full block: 255 strings and the allocator's header in 4 KB.
	// TotalAlloc counts the whole process's allocations, the other tests'
	// running beside this one too, which only add: the least of a few
	// tries is the block's own size.
	least := ^uint64(0)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 100 {
			d.moreStrings()
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/100)
	}
	if least > 4096 {
		t.Errorf("a block of %d strings took %d bytes", d.stringsLeft, least)
	}
}
