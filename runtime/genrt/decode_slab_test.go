package genrt

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"
)

// slabItem stands for a pointer variant of a union: a struct with
// pointers in it, so that its blocks are scanned memory.
type slabItem struct {
	Name  string
	Kids  []*slabItem
	Count uint64
}

// slabBlockOf is d's block of T, nil when d has none.
func slabBlockOf[T any](d *Decoder, s Slab[T]) *slabBlock[T] {
	b, _ := d.slabs[s.id&(slabWays-1)].(*slabBlock[T])
	return b
}

// TestSlabNew checks that New hands out zero values at distinct addresses
// that do not overlap, that a decode of one value takes one allocation
// of its own and the blocks start with the second, and that the values
// stay as they were written after the decoder is gone and collections ran.
func TestSlabNew(t *testing.T) {
	s := NewSlab[slabItem]()
	d := NewBytesDecoder(make([]byte, 100000))
	first := s.New(d)
	if slabBlockOf(d, s) != nil {
		t.Fatal("the first value started a block")
	}
	*first = slabItem{Name: "first", Count: 1}
	var got []*slabItem
	seen := map[*slabItem]bool{first: true}
	for i := range 1000 {
		p := s.New(d)
		if seen[p] {
			t.Fatalf("value %d handed out twice", i)
		}
		seen[p] = true
		if p.Name != "" || p.Kids != nil || p.Count != 0 {
			t.Fatalf("value %d is not zero: %+v", i, *p)
		}
		p.Name, p.Count, p.Kids = "item", uint64(i), []*slabItem{first}
		got = append(got, p)
	}
	if b := slabBlockOf(d, s); b == nil || len(b.block) != slabMost[slabItem]() {
		t.Fatalf("after 1001 values the block is not of the largest size %d", slabMost[slabItem]())
	}
	d = nil
	runtime.GC()
	runtime.GC()
	for i, p := range got {
		if p.Name != "item" || p.Count != uint64(i) || len(p.Kids) != 1 || p.Kids[0] != first || first.Name != "first" {
			t.Fatalf("value %d is %+v: values overlap", i, *p)
		}
	}
	if raceEnabled {
		return
	}
	d = NewBytesDecoder(make([]byte, 100000))
	const n = 2000
	if allocs := testing.AllocsPerRun(1, func() {
		for range n {
			_ = s.New(d)
		}
	}); allocs > n/float64(slabMost[slabItem]())+8 {
		t.Errorf("%d values: %v allocations", n, allocs)
	}
}

// TestSlabBound checks the bounds on what the blocks hold: no block
// holds more elements than the input that remained when it was made had
// bytes, nor more than slabMost; the elements made are at most about
// twice those handed out; and a type larger than slabBytes gets blocks of
// one value.
func TestSlabBound(t *testing.T) {
	s := NewSlab[slabItem]()
	for _, size := range []int{0, 1, 3, 10, 100, 1000, 100000} {
		d := NewBytesDecoder(make([]byte, size))
		made, handed := 1, 1 // the first value, an allocation of its own
		_ = s.New(d)
		var last *slabBlock[slabItem]
		for i := range 3000 {
			if size > 0 && i%3 == 0 && d.off < len(d.buf) {
				d.off++ // the items the values stand for take the input
			}
			left := len(d.buf) - d.off
			_ = s.New(d)
			handed++
			b := slabBlockOf(d, s)
			if b.next == 1 { // a new block
				if len(b.block) > max(left, 1) || len(b.block) > slabMost[slabItem]() {
					t.Fatalf("input of %d, %d bytes left: a block of %d", size, left, len(b.block))
				}
				made += len(b.block)
				last = b
			}
			if made > 2*handed+slabFirst {
				t.Fatalf("input of %d: %d values handed out, %d made", size, handed, made)
			}
		}
		if last == nil {
			t.Fatalf("input of %d: no block", size)
		}
	}
	type big [slabBytes/8 + 1]uint64
	bs := NewSlab[big]()
	d := NewBytesDecoder(make([]byte, 100000))
	for range 5 {
		_ = bs.New(d)
		if b := slabBlockOf(d, bs); b != nil && len(b.block) != 1 {
			t.Fatalf("a block of %d values of %d bytes", len(b.block), unsafe.Sizeof(big{}))
		}
	}
}

// TestSlabSlice checks the slices carved from blocks: length 0 and
// capacity n, an append past it copies (the next slice is unchanged), a
// destination with room is reused, and lengths that are indefinite,
// forged (more than Hint grants) or large get slices of their own.
func TestSlabSlice(t *testing.T) {
	s := NewSlab[any]()
	d := NewBytesDecoder(make([]byte, 100000))
	var all [][]any
	for i := range 200 {
		n := 1 + i%7
		x := s.Slice(d, nil, n)
		if len(x) != 0 || cap(x) != n {
			t.Fatalf("slice %d: len %d cap %d, want 0 and %d", i, len(x), cap(x), n)
		}
		for j := range n {
			x = append(x, i*10+j)
		}
		all = append(all, x)
	}
	if slabBlockOf(d, s) == nil {
		t.Fatal("no block after 200 slices")
	}
	for i := range all {
		all[i] = append(all[i], "appended") // copies: cap was len
	}
	for i, x := range all {
		n := 1 + i%7
		if len(x) != n+1 || x[n] != "appended" {
			t.Fatalf("slice %d is %v", i, x)
		}
		for j := range n {
			if x[j] != i*10+j {
				t.Fatalf("slice %d is %v: an append wrote into it", i, x)
			}
		}
	}
	// Reused: the destination holds the elements.
	dst := make([]any, 3, 8)
	if x := s.Slice(d, dst, 8); cap(x) != 8 || &x[:1][0] != &dst[0] {
		t.Error("a destination with room was not reused")
	}
	// Indefinite and large lengths: slices of their own, as ReuseSlice.
	if x := s.Slice(d, nil, -1); x == nil || len(x) != 0 {
		t.Errorf("indefinite: %v", x)
	}
	large := slabMost[any]()/4 + 1
	if x := s.Slice(d, nil, large); cap(x) != large {
		t.Errorf("large: cap %d, want %d", cap(x), large)
	} else if b := slabBlockOf(d, s); b != nil && len(x[:1]) == 1 && &x[:1][0] == &b.block[0] {
		t.Error("a large slice was carved from a block")
	}
	// Forged: more elements than the input has bytes; no block grows
	// past what remains.
	d = NewBytesDecoder(make([]byte, 20))
	_ = s.Slice(d, nil, 2) // the first, of its own
	x := s.Slice(d, nil, 50)
	if cap(x) > 20 {
		t.Errorf("a forged length of 50 over 20 bytes: cap %d", cap(x))
	}
	if b := slabBlockOf(d, s); b != nil && len(b.block) > 20 {
		t.Errorf("a block of %d over 20 bytes", len(b.block))
	}
	if raceEnabled {
		return
	}
	d = NewBytesDecoder(make([]byte, 100000))
	if allocs := testing.AllocsPerRun(1, func() {
		for range 1000 {
			_ = s.Slice(d, nil, 4)
		}
	}); allocs > 1000*4/float64(slabMost[any]())+8 {
		t.Errorf("1000 slices of 4: %v allocations", allocs)
	}
}

// TestSlabWays checks two types whose slabs share a decoder's slot: the
// values are still zero and distinct, and the two taken by turns
// allocate no more than a value each.
func TestSlabWays(t *testing.T) {
	a := NewSlab[slabItem]()
	b := Slab[[2]string]{id: a.id + slabWays}
	d := NewBytesDecoder(make([]byte, 100000))
	var as []*slabItem
	var bs []*[2]string
	for i := range 500 {
		if i%16 < 8 {
			p := a.New(d)
			if p.Count != 0 {
				t.Fatal("not zero")
			}
			p.Count = uint64(i)
			as = append(as, p)
		} else {
			p := b.New(d)
			if p[0] != "" {
				t.Fatal("not zero")
			}
			p[0] = "b"
			bs = append(bs, p)
		}
	}
	for i, p := range as {
		if p.Count != uint64(i/8*16+i%8) {
			t.Fatalf("value %d is %d", i, p.Count)
		}
	}
	for _, p := range bs {
		if p[0] != "b" || p[1] != "" {
			t.Fatalf("%q", *p)
		}
	}
	if raceEnabled {
		return
	}
	if allocs := testing.AllocsPerRun(5, func() {
		for i := range 100 {
			if i%2 == 0 {
				_ = a.New(d)
			} else {
				_ = b.New(d)
			}
		}
	}); allocs > 100 {
		t.Errorf("100 values of two types by turns: %v allocations", allocs)
	}
}

// TestSlabPooled checks a decoder that keeps its blocks across Reset, as
// Unmarshal's pooled decoders do, used by goroutines one after another
// while the values of the decodes before are written by their own
// goroutines: each value is its own (the race detector sees no shared
// memory) and keeps what its goroutine wrote.
func TestSlabPooled(t *testing.T) {
	s := NewSlab[slabItem]()
	vs := NewSlab[any]()
	var pool sync.Pool
	pool.New = func() any { return NewBytesDecoder(nil) }
	data := make([]byte, 4000)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 50 {
				d := pool.Get().(*Decoder)
				d.Reset(data)
				var got []*slabItem
				var lists [][]any
				for i := range 20 {
					got = append(got, s.New(d))
					lists = append(lists, append(vs.Slice(d, nil, 3), g, round, i))
				}
				pool.Put(d)
				for i, p := range got {
					p.Count = uint64(g*1000000 + round*1000 + i)
					lists[i][0] = -g
				}
				for i, p := range got {
					if p.Count != uint64(g*1000000+round*1000+i) || lists[i][0] != -g || lists[i][1] != round || lists[i][2] != i {
						t.Errorf("goroutine %d round %d: value %d changed", g, round, i)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
