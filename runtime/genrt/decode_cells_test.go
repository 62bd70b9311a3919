package genrt

import (
	"bytes"
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
			made += int(d.stringsBlock)
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

// textItems decodes an array of text strings as the loops of generated
// code read map keys and a union's text: TryText, else ReadString.
type textItems []string

func (l *textItems) DecodeCBOR(d *Decoder) error {
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	*l = (*l)[:0]
	for range n {
		s, ok := d.TryText()
		if !ok {
			if s, err = d.ReadString(); err != nil {
				return err
			}
		}
		*l = append(*l, s)
	}
	d.Leave()
	return nil
}

// TestTextChunks checks the copies of the input that short text is read
// from on a decoder over a slice: every string is what the input held and
// stays so after the input is overwritten, none is a view of the input,
// each chunk is at most textChunk bytes and no longer than the input
// left, the chunks cover the input about once, and a decoder given new
// bytes at the same address (Reset, Unmarshal's pooled decoder) reads the
// new bytes, not a copy of the old ones.
func TestTextChunks(t *testing.T) {
	want := texts(1, 2000) // about 70 KB, a sixth of it past blockText
	in := encodeTexts(want)
	d := NewBytesDecoder(in)
	var got textItems
	if err := got.DecodeCBOR(d); err != nil {
		t.Fatal(err)
	}
	if d.chunk == nil || d.chunkEnd-d.chunkAt > textChunk {
		t.Fatalf("the last chunk holds %d bytes of the input", d.chunkEnd-d.chunkAt)
	}
	for i, s := range got {
		if s != want[i] {
			t.Fatalf("string %d is %q, want %q", i, s, want[i])
		}
		if inBytes(s, in) {
			t.Fatalf("string %d is a view of the input", i)
		}
	}
	kept := got

	// The same array, new text in it, through Reset and through
	// Unmarshal: a chunk of the bytes before must not be read again.
	for round, decode := range []func([]byte, *textItems) error{
		func(b []byte, l *textItems) error { d.Reset(b); return l.DecodeCBOR(d) },
		func(b []byte, l *textItems) error { return Unmarshal(b, l, Options{}) },
		func(b []byte, l *textItems) error { return Unmarshal(b, l, Options{}) },
	} {
		again := texts(2+round, 2000)
		b := encodeTexts(again)
		if len(b) > cap(in) {
			t.Fatalf("round %d: %d bytes do not fit the first input's %d", round, len(b), cap(in))
		}
		copy(in[:cap(in)], b) // the same address, other text
		var now textItems
		if err := decode(in[:len(b)], &now); err != nil {
			t.Fatal(err)
		}
		for i, s := range now {
			if s != again[i] {
				t.Fatalf("round %d: string %d is %q, want %q", round, i, s, again[i])
			}
		}
		for i, s := range kept {
			if s != want[i] {
				t.Fatalf("round %d: the first decode's string %d became %q, want %q", round, i, s, want[i])
			}
		}
	}

	// The same for an input whose first chunk starts at its first
	// string (more than textChunk bytes, less than twice as many), so that
	// a second decode would start inside the first one's chunk.
	short := make([]byte, 16<<10)
	for round := range 4 {
		words := texts(10+round, 150)
		b := encodeTexts(words)
		if len(b) <= textChunk || len(b) > 2*textChunk {
			t.Fatalf("%d bytes: not between one and two chunks", len(b))
		}
		copy(short, b)
		var now textItems
		var err error
		switch round {
		case 0:
			d.Reset(short[:len(b)])
			err = now.DecodeCBOR(d)
		case 1:
			d.Reset(short[:len(b)])
			err = now.DecodeCBOR(d)
		default:
			err = Unmarshal(short[:len(b)], &now, Options{})
		}
		if err != nil || !reflect.DeepEqual([]string(now), words) {
			t.Fatalf("round %d: %v, or the strings differ", round, err)
		}
	}
	pooled := NewBytesDecoder(nil)
	for round := range 2 {
		words := texts(20+round, 150)
		b := encodeTexts(words)
		copy(short, b)
		pooled.resetBytes(short[:len(b)], &Options{})
		var now textItems
		if err := now.DecodeCBOR(pooled); err != nil || !reflect.DeepEqual([]string(now), words) {
			t.Fatalf("resetBytes, round %d: %v, or the strings differ", round, err)
		}
	}

	// An input shorter than a chunk has its strings in a text block, no
	// larger than the input left.
	small := NewBytesDecoder(encodeTexts([]string{"ab", "cd"}))
	if err := got.DecodeCBOR(small); err != nil || got[0] != "ab" || got[1] != "cd" {
		t.Fatalf("%q, %v", got, err)
	}
	if small.chunk != nil || small.text == nil || small.textLeft > 3 {
		t.Errorf("a 7-byte input: chunk %v, text block %v with %d bytes free", small.chunk, small.text, small.textLeft)
	}

	// Short text between long byte strings: one chunk per text, as long
	// as the input after it, at most textChunk; the chunks take about the
	// input's length, not a chunk per text of two bytes.
	var hostile []byte
	hostile = AppendArrayHead(hostile, 200)
	blob := make([]byte, 3000)
	for i := range 100 {
		hostile = append(AppendTextHead(hostile, 1), byte('a'+i%26))
		hostile = AppendBytes(hostile, blob)
	}
	var st runtime.MemStats
	runtime.ReadMemStats(&st)
	before := st.TotalAlloc
	hd := NewBytesDecoder(hostile)
	if _, err := hd.ReadArrayHead(); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		s, err := hd.ReadString()
		if err != nil || s != string(rune('a'+i%26)) {
			t.Fatalf("text %d: %q, %v", i, s, err)
		}
		if err := hd.Skip(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&st)
	if n := st.TotalAlloc - before; n > uint64(len(hostile))+uint64(len(hostile))/4+textChunk {
		t.Errorf("100 texts of 1 byte between byte strings of 3000 took %d bytes for %d of input", n, len(hostile))
	}

	// Text that is not a stretch of the input (an indefinite-length
	// string put together in scratch space) is copied, not taken from a
	// chunk.
	ind := []byte{0x82, 0x7f, 0x62, 'a', 'b', 0x61, 'c', 0xff, 0x61, 'z'}
	id := NewBytesDecoder(ind)
	if err := got.DecodeCBOR(id); err != nil || len(got) != 2 || got[0] != "abc" || got[1] != "z" {
		t.Fatalf("%q, %v", got, err)
	}
	if inBytes(got[0], ind) || id.chunk != nil && inBytes(got[0], unsafe.Slice((*byte)(id.chunk), id.chunkEnd-id.chunkAt)) {
		t.Error("the indefinite-length text is a view of the input or of a chunk")
	}

	// A stream has no chunk: its buffer is refilled in place.
	sd := NewDecoder(bytes.NewReader(encodeTexts(want)))
	if err := got.DecodeCBOR(sd); err != nil {
		t.Fatal(err)
	}
	for i, s := range got {
		if s != want[i] {
			t.Fatalf("stream: string %d is %q, want %q", i, s, want[i])
		}
	}
	if sd.chunk != nil {
		t.Error("a decoder over a stream made a chunk")
	}
}
