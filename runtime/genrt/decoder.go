package genrt

import (
	"errors"
	"io"
	"unsafe"
)

// A Decoder reads CBOR data items from a byte slice (NewBytesDecoder) or
// a stream (NewDecoder). Both have the same API; the one over a slice
// never copies what it skips and checks every declared length against the
// bytes that remain. A Decoder is not safe for concurrent use, and after
// it returns an error it must not be used again except through Reset.
type Decoder struct {
	buf  []byte // the input, or on a stream the bytes read and not yet dropped
	off  int    // read position in buf
	base int64  // offset in the stream of buf[0]

	r      io.Reader // nil for a decoder over a slice
	rerr   error     // the error the reader returned, kept
	pinned bool      // on a stream: buf[pin:] must survive a refill
	pin    int
	raws   int // on a stream: the RawStart marks not yet ended by RawBytes
	rawPin int // buf[rawPin:] must survive a refill while raws > 0

	checkedTo int64      // end of the last item checkItem checked (the next one starts here or after)
	checks    walkFlags  // the checks of the whole item that the options ask for (Options.itemChecks)
	tagAt     int64      // 1 + offset of the content of the tag read last (0: none)
	breaks    uint64     // bit i: the container at depth i was counted; Leave consumes its break
	slow      *slowState // made on first use

	depth  int
	opts   Options
	hinted int64 // capacity granted by Hint so far

	// Blocks of the pointees NewScalar and NewString hand out (decode_cells.go),
	// and how many cells of each are left; stringsBlock is the size of the
	// last block of strings, which the next one doubles.
	scalars      unsafe.Pointer
	scalarsLeft  int
	strings      unsafe.Pointer
	stringsLeft  int
	stringsBlock int

	// The block that short text read is copied into (decode_cells.go),
	// filled from its start: text points to its last byte, and its last
	// textLeft bytes are free.
	text     unsafe.Pointer
	textLeft int

	// The copy of the input that short text is read from as views
	// (decode_cells.go), on a decoder over a slice: buf[chunkAt:chunkEnd],
	// copied to chunk. Empty (chunkEnd 0) until a text needs it, and
	// after every Reset.
	chunk             unsafe.Pointer
	chunkAt, chunkEnd int

	// shortText bounds the text TryString copies: it takes lengths below
	// it, 17 by default (16 bytes), fewer under a smaller MaxStringLength,
	// none in zero-copy mode (ReadString then returns a view of the input).
	shortText uint

	// resetFor is what resetBytes set opts, checks and shortText for, when
	// it set them last (1, plus 2 for Strict, plus 4 for ZeroCopy), so
	// that a pooled decoder used with the same options again keeps them;
	// 0 when anything else set them.
	resetFor uint8
}

// slowState is what the slow paths for tags and indefinite lengths keep,
// apart so that the Decoder stays small for the fast paths (and for
// Reset).
type slowState struct {
	walkedTo    int64        // end of the last item checkDepth walked
	counts      []indefCount // counted indefinite-length containers ahead (walk_count.go)
	countAt     int          // the first of counts not yet passed
	countFailed bool         // a count met bytes the decode will refuse: count no more

	scratch []byte     // indefinite-length strings and keys, bignum bytes
	keys    keyChecker // duplicate-key detection for Valid and strict mode
}

// reset empties s for a new input, keeping its buffers.
func (s *slowState) reset() {
	*s = slowState{counts: s.counts[:0], scratch: s.scratch[:0], keys: s.keys}
	s.keys.reset()
}

func (d *Decoder) slowPath() *slowState {
	if d.slow == nil {
		d.slow = new(slowState)
	}
	return d.slow
}

// NewBytesDecoder returns a Decoder that reads data, with default options
// (DefaultOptions, or those of SetDefaultOptions).
func NewBytesDecoder(data []byte) *Decoder {
	// The options written out, not DefaultOptions(): the compiler then
	// stores them in place instead of copying a temporary.
	d := &Decoder{buf: data, shortText: shortTextLimit, opts: Options{
		MaxDepth:         DefaultMaxDepth,
		MaxArrayElements: DefaultMaxArrayElements,
		MaxMapPairs:      DefaultMaxMapPairs,
		MaxStringLength:  DefaultMaxStringLength,
	}}
	d.applyDefaults() // defaults.go
	return d
}

// NewDecoder returns a Decoder that reads from r, item after item, with
// default options (DefaultOptions, or those of SetDefaultOptions). It buffers;
// its buffer grows only as data arrives.
func NewDecoder(r io.Reader) *Decoder {
	d := &Decoder{r: r, opts: DefaultOptions(), shortText: shortTextLimit}
	d.applyStreamDefaults() // defaults.go
	return d
}

// Reset makes d a decoder over data with its current options.
func (d *Decoder) Reset(data []byte) {
	*d = Decoder{buf: data, opts: d.opts, checks: d.checks, slow: d.slow, shortText: d.shortText, text: d.text, textLeft: d.textLeft}
	if d.slow != nil {
		d.slow.reset()
	}
}

// resetBytes readies the pooled decoder of Unmarshal, which has read only
// byte slices, for data with the options *o (a pointer, so that the
// arguments fit in registers): Reset and SetOptions in one call, field by
// field (cheaper than building a whole Decoder in place, which in a heap
// object stores every word). Options whose limits and modes are all zero,
// the usual ones, are stored without withDefaults' temporary when no
// process defaults are set; what a reused decoder
// rarely holds (a reader's error, the slow paths' state) is reset out of
// line. About 30 instructions fewer than the two calls, an eighth of what
// Unmarshal costs besides the decoding itself.
func (d *Decoder) resetBytes(data []byte, o *Options) {
	d.buf, d.off, d.base = data, 0, 0
	d.checkedTo, d.tagAt, d.breaks, d.depth, d.hinted = 0, 0, 0, 0, 0
	d.pinned, d.pin, d.raws = false, 0, 0
	d.chunk, d.chunkAt, d.chunkEnd = nil, 0, 0 // a copy of the input before
	if d.rerr != nil || d.slow != nil {
		d.resetRare()
	}
	if o.MaxDepth|o.MaxArrayElements|o.MaxMapPairs|o.MaxStringLength != 0 ||
		o.DupMapKey|DupMapKeyMode(o.ExtraReturnErrors)|DupMapKeyMode(o.FieldNameMatching) != 0 ||
		uint8(o.IndefLength)|uint8(o.TagsMd)|uint8(o.UTF8)|uint8(o.NaN)|uint8(o.Inf) != 0 || processDefaults.Load() != nil {
		d.SetOptions(*o)
		return
	}
	mode := uint8(1)
	if o.Strict {
		mode |= 2
	}
	if o.ZeroCopy {
		mode |= 4
	}
	if d.resetFor == mode {
		return
	}
	d.resetFor = mode
	d.opts = Options{
		MaxDepth:         DefaultMaxDepth,
		MaxArrayElements: DefaultMaxArrayElements,
		MaxMapPairs:      DefaultMaxMapPairs,
		MaxStringLength:  DefaultMaxStringLength,
		Strict:           o.Strict,
		ZeroCopy:         o.ZeroCopy,
	}
	d.checks = 0
	if o.Strict {
		d.checks = checkUTF8 | checkDups // Options.itemChecks
	}
	d.shortText = shortTextLimit // below DefaultMaxStringLength+1
	if o.ZeroCopy {
		d.shortText = 0 // d.r is nil: SetOptions' zeroCopy
	}
}

// resetRare is the rest of resetBytes, kept out of line so that
// resetBytes stays short.
//
//go:noinline
func (d *Decoder) resetRare() {
	d.rerr = nil
	if d.slow != nil {
		d.slow.reset()
	}
}

// SetOptions sets the limits and rules; zero fields take the process
// defaults (SetDefaultOptions), else the built-in ones.
func (d *Decoder) SetOptions(o Options) {
	d.setResolved(o.withDefaults())
}

// setResolved sets options whose defaults are filled in.
func (d *Decoder) setResolved(o Options) {
	d.resetFor = 0
	d.opts = o
	d.checks = o.itemChecks()
	d.shortText = uint(min(shortTextLimit, d.opts.MaxStringLength+1))
	if d.zeroCopy() {
		d.shortText = 0
	}
}

// zeroCopy reports whether strings read should alias the input.
func (d *Decoder) zeroCopy() bool { return d.opts.ZeroCopy && d.r == nil }

// Options returns the options in force.
func (d *Decoder) Options() Options { return d.opts }

// Offset returns how many bytes of the input have been consumed.
func (d *Decoder) Offset() int64 { return d.base + int64(d.off) }

// Hint returns a safe initial capacity for a slice or map of n elements
// whose head was just read. Each element takes at least one byte and each
// item belongs to at most one container, so the element counts of all the
// containers in an input add up to less than its length: Hint grants n
// while the capacities granted so far stay within the input seen, and less
// after that. Forged counts nested inside one another, each within the
// bytes that remain, therefore cannot multiply what a decode allocates.
// Over a stream it first waits for n bytes to arrive (reading the n
// elements would wait as long) and grants no more than are buffered.
func (d *Decoder) Hint(n int) int {
	if d.r != nil && n > len(d.buf)-d.off {
		_ = d.fill(n) // an error stays in d.rerr for the read that meets it
	}
	left := d.base + int64(len(d.buf)) - d.hinted
	if d.r != nil {
		left = min(left, int64(len(d.buf)-d.off))
	}
	if int64(n) > left {
		n = int(max(left, 0))
	}
	d.hinted += int64(n)
	return n
}

// More reports whether a stream or slice has bytes left for another item.
func (d *Decoder) More() bool {
	if d.off < len(d.buf) {
		return true
	}
	return d.r != nil && d.fill(1) == nil
}

// need makes n bytes available at buf[off:], reading from the stream if
// there is one. It returns io.ErrUnexpectedEOF (or the reader's error)
// when they cannot be had.
func (d *Decoder) need(n int) error {
	if len(d.buf)-d.off >= n {
		return nil
	}
	if d.r == nil {
		return io.ErrUnexpectedEOF
	}
	return d.fill(n)
}

const minRead = 4096

// shortTextLimit is Decoder.shortText by default: TryString takes text of
// up to 23 bytes, as long as its head is one byte.
const shortTextLimit = 24

// fill reads until n bytes are available at buf[off:]. The buffer grows
// by doubling only when it is full of data that was really read, so its
// size stays within twice what the stream delivered.
func (d *Decoder) fill(n int) error {
	for len(d.buf)-d.off < n {
		if d.rerr != nil {
			if d.rerr == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return d.rerr
		}
		if len(d.buf) == cap(d.buf) {
			d.makeRoom()
		}
		m, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		if m < 0 || m > cap(d.buf)-len(d.buf) {
			err = errors.New("cbor: reader returned an invalid count")
			m = 0
		}
		d.buf = d.buf[:len(d.buf)+m]
		if err != nil {
			d.rerr = err
		} else if m == 0 {
			d.rerr = io.ErrNoProgress
		}
	}
	return nil
}

// makeRoom drops consumed bytes, or doubles the buffer when nothing can be
// dropped.
func (d *Decoder) makeRoom() {
	drop := d.off
	if d.pinned && d.pin < drop {
		drop = d.pin
	}
	if d.raws > 0 && d.rawPin < drop {
		drop = d.rawPin
	}
	if drop > 0 && drop >= len(d.buf)/2 {
		n := copy(d.buf, d.buf[drop:])
		d.buf = d.buf[:n]
		d.off -= drop
		d.pin -= drop
		d.rawPin -= drop
		d.base += int64(drop)
		return
	}
	c := 2 * cap(d.buf)
	if c < minRead {
		c = minRead
	}
	nb := make([]byte, len(d.buf)-drop, c)
	copy(nb, d.buf[drop:])
	d.buf = nb
	d.off -= drop
	d.pin -= drop
	d.rawPin -= drop
	d.base += int64(drop)
}
