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
	pin  int    // while pinned: buf[pin:] must survive a refill

	depth int
	// opts are the options in force: the built-in defaults (builtinOpts),
	// those of SetDefaultOptions, or d's own copy (ownOpts), which
	// SetOptions writes. Held by pointer so that a Decoder stays under
	// the size that the compiler clears with a loop (192 bytes), as
	// every generated UnmarshalCBOR builds one in its frame.
	opts   *Options
	hinted int64 // capacity granted by Hint so far

	checkedTo int64      // end of the last item checkItem checked (the next one starts here or after)
	tagAt     int64      // 1 + offset of the content of the tag read last (0: none)
	breaks    uint64     // bit i: the container at depth i was counted; Leave consumes its break
	slow      *slowState // made on first use

	// st holds what only a decoder over a stream uses; nil on a decoder
	// over a slice (so st != nil tells the two apart).
	st *streamState

	// Blocks of the pointees NewScalar and NewString hand out (decode_cells.go),
	// and how many cells of each are left; stringsBlock is the size of the
	// last block of strings, which the next one doubles.
	scalars      unsafe.Pointer
	strings      unsafe.Pointer
	scalarsLeft  uint16
	stringsLeft  uint16
	stringsBlock uint16

	checks walkFlags // the checks of the whole item that the options ask for (Options.itemChecks)

	// shortText bounds the text TryString copies: it takes lengths below
	// it, 24 by default (23 bytes), fewer under a smaller MaxStringLength,
	// none in zero-copy mode (ReadString then returns a view of the input).
	shortText uint8

	// resetFor is what resetBytes set opts, checks and shortText for, when
	// it set them last (1, plus 2 for Strict, plus 4 for ZeroCopy), so
	// that a pooled decoder used with the same options again keeps them;
	// 0 when anything else set them.
	resetFor uint8

	pinned  bool // buf[pin:] must survive a refill (a stream's), and the read may return to pin
	ownOpts bool // opts points to d's own copy, which SetOptions may write

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
}

// streamState is what a decoder over a stream keeps besides the fields
// both kinds use.
type streamState struct {
	r      io.Reader
	rerr   error // the error the reader returned, kept
	raws   int   // the RawStart marks not yet ended by RawBytes
	rawPin int   // buf[rawPin:] must survive a refill while raws > 0
}

// builtinOpts are the built-in default options, and with Strict, with
// ZeroCopy and with both (indexed by 1 for Strict plus 2 for ZeroCopy).
// Decoders point to them and never write them.
var builtinOpts = [4]Options{
	{MaxDepth: DefaultMaxDepth, MaxArrayElements: DefaultMaxArrayElements, MaxMapPairs: DefaultMaxMapPairs, MaxStringLength: DefaultMaxStringLength},
	{MaxDepth: DefaultMaxDepth, MaxArrayElements: DefaultMaxArrayElements, MaxMapPairs: DefaultMaxMapPairs, MaxStringLength: DefaultMaxStringLength, Strict: true},
	{MaxDepth: DefaultMaxDepth, MaxArrayElements: DefaultMaxArrayElements, MaxMapPairs: DefaultMaxMapPairs, MaxStringLength: DefaultMaxStringLength, ZeroCopy: true},
	{MaxDepth: DefaultMaxDepth, MaxArrayElements: DefaultMaxArrayElements, MaxMapPairs: DefaultMaxMapPairs, MaxStringLength: DefaultMaxStringLength, Strict: true, ZeroCopy: true},
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
	d := &Decoder{buf: data, shortText: shortTextLimit, opts: &builtinOpts[0]}
	d.applyDefaults() // defaults.go
	return d
}

// NewDecoder returns a Decoder that reads from r, item after item, with
// default options (DefaultOptions, or those of SetDefaultOptions). It buffers;
// its buffer grows only as data arrives.
func NewDecoder(r io.Reader) *Decoder {
	// One allocation for the decoder and its stream state.
	p := &struct {
		d  Decoder
		st streamState
	}{d: Decoder{opts: &builtinOpts[0], shortText: shortTextLimit}, st: streamState{r: r}}
	d := &p.d
	d.st = &p.st
	d.applyStreamDefaults() // defaults.go
	return d
}

// Reset makes d a decoder over data with its current options.
func (d *Decoder) Reset(data []byte) {
	opts, own := d.opts, d.ownOpts
	if opts == nil { // a zero Decoder
		opts = &builtinOpts[0]
		if p := processDefaults.Load(); p != nil {
			opts = &p.opts
		}
	}
	*d = Decoder{buf: data, opts: opts, ownOpts: own, checks: d.checks, slow: d.slow, shortText: d.shortText, text: d.text, textLeft: d.textLeft}
	if d.slow != nil {
		d.slow.reset()
	}
}

// resetBytes readies the pooled decoder of Unmarshal, which has read only
// byte slices, for data with the options *o (a pointer, so that the
// arguments fit in registers): Reset and SetOptions in one call, field by
// field (cheaper than building a whole Decoder in place, which in a heap
// object stores every word). Options whose limits and modes are all zero,
// the usual ones, are taken from builtinOpts when no process defaults are
// set; what a reused decoder rarely holds (a stream's state, the slow
// paths' state) is reset out of line. About 30 instructions fewer than
// the two calls, an eighth of what Unmarshal costs besides the decoding
// itself.
func (d *Decoder) resetBytes(data []byte, o *Options) {
	d.buf, d.off, d.base = data, 0, 0
	d.checkedTo, d.tagAt, d.breaks, d.depth, d.hinted = 0, 0, 0, 0, 0
	d.pinned, d.pin = false, 0
	d.chunk, d.chunkAt, d.chunkEnd = nil, 0, 0 // a copy of the input before
	if d.st != nil || d.slow != nil {
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
	if d.ownOpts {
		*d.opts = builtinOpts[mode>>1] // keep the copy for the next SetOptions
	} else {
		d.opts = &builtinOpts[mode>>1]
	}
	d.checks = 0
	if o.Strict {
		d.checks = checkUTF8 | checkDups // Options.itemChecks
	}
	d.shortText = shortTextLimit // below DefaultMaxStringLength+1
	if o.ZeroCopy {
		d.shortText = 0 // d.st is nil: SetOptions' zeroCopy
	}
}

// resetRare is the rest of resetBytes, kept out of line so that
// resetBytes stays short.
//
//go:noinline
func (d *Decoder) resetRare() {
	d.st = nil
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
	if !d.ownOpts {
		d.opts, d.ownOpts = new(Options), true
	}
	*d.opts = o
	d.checks = o.itemChecks()
	d.shortText = uint8(min(shortTextLimit-1, o.MaxStringLength) + 1)
	if d.zeroCopy() {
		d.shortText = 0
	}
}

// zeroCopy reports whether strings read should alias the input.
func (d *Decoder) zeroCopy() bool { return d.opts.ZeroCopy && d.st == nil }

// Options returns the options in force.
func (d *Decoder) Options() Options {
	if d.opts == nil {
		return Options{} // a zero Decoder
	}
	return *d.opts
}

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
	if d.st != nil && n > len(d.buf)-d.off {
		_ = d.fill(n) // an error stays in d.st.rerr for the read that meets it
	}
	left := d.base + int64(len(d.buf)) - d.hinted
	if d.st != nil {
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
	return d.st != nil && d.fill(1) == nil
}

// need makes n bytes available at buf[off:], reading from the stream if
// there is one. It returns io.ErrUnexpectedEOF (or the reader's error)
// when they cannot be had.
func (d *Decoder) need(n int) error {
	if len(d.buf)-d.off >= n {
		return nil
	}
	if d.st == nil {
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
	st := d.st
	for len(d.buf)-d.off < n {
		if st.rerr != nil {
			if st.rerr == io.EOF {
				return io.ErrUnexpectedEOF
			}
			return st.rerr
		}
		if len(d.buf) == cap(d.buf) {
			d.makeRoom()
		}
		m, err := st.r.Read(d.buf[len(d.buf):cap(d.buf)])
		if m < 0 || m > cap(d.buf)-len(d.buf) {
			err = errors.New("cbor: reader returned an invalid count")
			m = 0
		}
		d.buf = d.buf[:len(d.buf)+m]
		if err != nil {
			st.rerr = err
		} else if m == 0 {
			st.rerr = io.ErrNoProgress
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
	if d.st.raws > 0 && d.st.rawPin < drop {
		drop = d.st.rawPin
	}
	if drop > 0 && drop >= len(d.buf)/2 {
		n := copy(d.buf, d.buf[drop:])
		d.buf = d.buf[:n]
		d.off -= drop
		d.pin -= drop
		d.st.rawPin -= drop
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
	d.st.rawPin -= drop
	d.base += int64(drop)
}
