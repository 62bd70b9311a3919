// Package cbgcompat is what code generated with -compat whyrusleeping
// calls: the heads, strings, CIDs and skips of whyrusleeping/cbor-gen's
// wire format, with its decoding rules (shortest heads only, no
// indefinite lengths, its limits), over a buffer or an io.Reader.
//
// Generated types declare MarshalCBOR(io.Writer) and
// UnmarshalCBOR(io.Reader), as whyrusleeping/cbor-gen's do, and beside
// them AppendCBOR([]byte) and UnmarshalCBORBytes([]byte). Those four go
// through a Decoder or an appended buffer; a Writer and a Decoder are
// also an io.Writer and an io.Reader, so that a field type with its own
// MarshalCBOR(io.Writer) or UnmarshalCBOR(io.Reader) (big.Int wrappers,
// addresses, bitfields) writes into and reads from the same place.
//
// This package imports no CID or address library: it checks the CIDs
// it skips itself (CheckCid). Generated code with CID or address
// fields, whose package imports github.com/ipfs/go-cid or
// github.com/filecoin-project/go-address, makes their values from the
// bytes where CheckCid or CheckAddress takes them and the type is a
// string alone (StringValues, checked once), and with those libraries'
// Cast and NewFromBytes otherwise.
package cbgcompat

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The major types, as whyrusleeping/cbor-gen numbers them.
const (
	MajUnsignedInt = 0
	MajNegativeInt = 1
	MajByteString  = 2
	MajTextString  = 3
	MajArray       = 4
	MajMap         = 5
	MajTag         = 6
	MajOther       = 7
)

// Null is the encoding of a nil pointer or a nil receiver.
const Null = 0xf6

// MaxMapStruct is the most pairs a map-format struct may declare:
// whyrusleeping/cbor-gen checks its constant MaxLength there, whatever
// its Gen limits say.
const MaxMapStruct = 8192

// A Decoder reads items from a buffer, refilled from an io.Reader when
// it has one. It reads no byte of the reader past the item it decodes.
// A *bytes.Reader or a *bytes.Buffer is read in place: the Decoder reads
// its unread bytes where they are and moves it past what it used. It is an io.Reader and an
// io.ByteScanner, so that a field's own UnmarshalCBOR reads from it.
type Decoder struct {
	buf   []byte
	pos   int
	start int       // where the current top-level item began
	src   io.Reader // nil: buf is all there is
	// A *bytes.Reader's unread bytes are buf (see window); it is moved
	// past what was read when released.
	rdr    *bytes.Reader
	win    window
	bbuf   *bytes.Buffer // buf is bbuf.Bytes(); Next(pos) when released
	own    []byte        // the pooled storage of buf
	unread bool          // the byte before pos may be unread (UnreadByte)
	// strs is the block short strings are copied into (see str): bytes
	// before its length belong to strings and byte slices handed out
	// (blockBytes) and are never written again by d.
	strs []byte
	// ints and words are the blocks go-state-types big.Ints are taken
	// from (see FilInt): those from nints and nwords on are free. Indexes,
	// not slices moved along, so that taking one stores no pointer.
	ints   []big.Int
	words  []big.Word
	nints  int
	nwords int
	// boxes and refs are the blocks that pointer fields' values are
	// taken from (see FilIntPtr and StringValues.MakePtr): the
	// go-state-types big.Ints that a *big.Int field points to, and the
	// CIDs and addresses (strings) that a *cid.Cid or *address.Address
	// points to; those from nboxes and nrefs on are free.
	boxes  []FilIntBox
	refs   []string
	nboxes int
	nrefs  int
	slot   uint8 // the slot of spares d goes back to
}

// Decoders are kept between items in spares, one a slot, and in a
// sync.Pool when the slot is taken. A goroutine takes the Decoder of the
// slot that the address of its stack picks (spareSlot), and the Decoder
// goes back to the slot it was taken for: a goroutine that decodes item
// after item from one place hands one Decoder back and forth with two
// atomic operations, where sync.Pool's Get and Put each pin the goroutine
// to its P (about 120 instructions); goroutines whose stacks lie apart
// most often pick different slots, so that they seldom move one slot
// between processors. The spares are never released: at most
// spareSlots Decoders, each with its blocks (at most 4 KiB of strings,
// 4 KiB of big.Ints and words, and 4 KiB of the values pointer fields
// point to) and no more than spareStorage
// bytes of storage for a stream (one with more goes to the pool).
const (
	spareSlots   = 16
	spareStorage = 4 << 10
)

var (
	spares [spareSlots]struct {
		d atomic.Pointer[Decoder]
		_ [64 - 8]byte // a cache line each
	}
	decoders = sync.Pool{New: func() any { return new(Decoder) }}
)

// spareSlot is the slot of the calling goroutine's stack: its address in
// blocks of 2 KiB (the least a goroutine's stack takes), hashed.
func spareSlot() uint8 {
	var mark byte
	sp := uint64(uintptr(unsafe.Pointer(&mark)))
	return uint8((sp >> 11) * 0x9e3779b97f4a7c15 >> 60)
}

func getDecoder() *Decoder {
	i := spareSlot()
	if s := &spares[i].d; s.Load() != nil {
		if d := s.Swap(nil); d != nil {
			return d // d.slot is i: it was put back there
		}
	}
	d := decoders.Get().(*Decoder)
	d.slot = i
	return d
}

func putDecoder(d *Decoder) {
	if s := &spares[d.slot].d; s.Load() != nil || cap(d.own) > spareStorage || !s.CompareAndSwap(nil, d) {
		decoders.Put(d)
	}
}

// NewBytesDecoder returns a Decoder over data.
func NewBytesDecoder(data []byte) *Decoder {
	d := getDecoder()
	d.buf = data
	return d
}

// NewDecoder returns a Decoder that reads from r. When r is a Decoder
// (a generated holder calling a field's UnmarshalCBOR), it is r itself,
// and owned reports false: Release must not be called on it.
func NewDecoder(r io.Reader) (d *Decoder, owned bool) {
	switch r := r.(type) {
	case *Decoder:
		r.start = r.pos
		return r, false
	case *bytes.Reader:
		// getDecoder and window.unread, written out: the call of
		// go-ipld-cbor and of most programs, where they are a tenth of
		// a small item's decode.
		i := spareSlot()
		if s := &spares[i].d; s.Load() != nil {
			d = s.Swap(nil) // d.slot is i: it was put back there
		}
		if d == nil {
			d = decoders.Get().(*Decoder)
			d.slot = i
		}
		d.rdr = r
		if readerInPlace {
			if f := (*readerFields)(unsafe.Pointer(r)); f.i < int64(len(f.s)) {
				p := f.s[f.i:]
				d.buf = p[:len(p):len(p)]
			}
		} else {
			d.buf = d.win.unread(r)
		}
	case *bytes.Buffer:
		d = getDecoder()
		d.bbuf = r
		d.buf = r.Bytes()
	default:
		d = getDecoder()
		d.src = r
		d.buf = d.own
	}
	return d, true
}

// Release moves a *bytes.Reader or *bytes.Buffer that d reads in place
// past what d used, keeps d for a later item (its spare slot, else the
// pool), and returns err as UnmarshalCBOR returns it: io.EOF only when
// the item had no byte at all, io.ErrUnexpectedEOF after that.
func (d *Decoder) Release(err error) error { return d.release(d.eof(err)) }

func (d *Decoder) release(err error) error {
	// A Decoder kept for a later item holds nothing of its last one:
	// only its blocks and its storage are kept. Only the fields that are set are
	// cleared (a pointer stored costs more than a test while the
	// collector runs).
	switch {
	case d.rdr != nil:
		if readerInPlace {
			// window.skip, written out.
			f := (*readerFields)(unsafe.Pointer(d.rdr))
			f.i += int64(d.pos)
			f.prevRune = -1
		} else {
			d.win.skip(d.rdr, d.pos)
		}
		d.rdr = nil
	case d.bbuf != nil:
		d.bbuf.Next(d.pos)
		d.bbuf = nil
	case d.src != nil:
		if cap(d.buf) <= 1<<16 {
			d.own = d.buf[:0]
		}
		d.src = nil
	}
	d.buf = nil
	d.pos, d.start, d.unread = 0, 0, false
	// putDecoder, written out.
	if s := &spares[d.slot].d; s.Load() != nil || cap(d.own) > spareStorage || !s.CompareAndSwap(nil, d) {
		decoders.Put(d)
	}
	return err
}

// Done checks, for a decode of a whole buffer, that the item ended at
// its end, then releases d.
func (d *Decoder) Done(err error) error {
	if err == nil && d.pos != len(d.buf) {
		err = fmt.Errorf("cbor input had %d bytes after the item", len(d.buf)-d.pos)
	}
	return d.Release(err)
}

// Finish is the error an UnmarshalCBOR on a Decoder it did not make
// returns: io.EOF as Release says.
func (d *Decoder) Finish(err error) error { return d.eof(err) }

func (d *Decoder) eof(err error) error {
	if err == io.EOF && d.pos > d.start {
		return io.ErrUnexpectedEOF
	}
	return err
}

// fill makes n more bytes available at pos, or returns io.EOF or
// io.ErrUnexpectedEOF. It reads no byte past them (the reader's next
// item stays in the reader), and grows the buffer as the bytes arrive,
// not by n: a head that promises a long string over a short input
// costs about what the input holds.
func (d *Decoder) fill(n int) error {
	have := len(d.buf) - d.pos
	if d.src == nil {
		if have == 0 {
			return io.EOF
		}
		return io.ErrUnexpectedEOF
	}
	end := len(d.buf) + n - have
	got := 0
	for first := true; len(d.buf) < end; first = false {
		// Room for all of it at first, as far as fillStep or twice
		// what d holds; then more each time what has arrived fills it.
		if len(d.buf) == cap(d.buf) || first && cap(d.buf) < end {
			c := min(end+len(d.buf)/2, max(2*cap(d.buf), len(d.buf)+fillStep))
			nb := make([]byte, len(d.buf), c)
			copy(nb, d.buf)
			d.buf = nb
		}
		m, err := d.src.Read(d.buf[len(d.buf):min(cap(d.buf), end)])
		d.buf = d.buf[:len(d.buf)+m]
		got += m
		if err == nil || len(d.buf) >= end {
			continue
		}
		if err == io.EOF && got == 0 && have == 0 {
			return io.EOF
		}
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// fillStep is the least fill grows its buffer by when it must.
const fillStep = 4096

// Read reads from what d holds, then from its reader: a field's own
// UnmarshalCBOR reads through it.
func (d *Decoder) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if d.pos == len(d.buf) {
		if err := d.fill(1); err != nil {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return 0, err
		}
	}
	n := copy(p, d.buf[d.pos:])
	d.pos += n
	d.unread = true
	return n, nil
}

// ReadByte reads one byte.
func (d *Decoder) ReadByte() (byte, error) {
	if d.pos == len(d.buf) {
		if err := d.fill(1); err != nil {
			return 0, io.EOF
		}
	}
	b := d.buf[d.pos]
	d.pos++
	d.unread = true
	return b, nil
}

// UnreadByte unreads the last byte read.
func (d *Decoder) UnreadByte() error {
	if !d.unread || d.pos == 0 {
		return bufio.ErrInvalidUnreadByte
	}
	d.pos--
	d.unread = false
	return nil
}

// Null reports whether the next item is null, and reads it if so (a nil
// pointer field).
func (d *Decoder) Null() (bool, error) {
	if d.pos == len(d.buf) {
		if err := d.fill(1); err != nil {
			return false, err
		}
	}
	if d.buf[d.pos] == Null {
		d.pos++
		return true, nil
	}
	return false, nil
}

// Head reports whether the next byte held is b, and moves past it if
// so: the generated code's test of a tuple's array head of one byte,
// before ReadHeader (which takes every head, and gives the errors).
func (d *Decoder) Head(b byte) bool {
	if d.pos < len(d.buf) && d.buf[d.pos] == b {
		d.pos++
		return true
	}
	return false
}

// ReadHeader reads the head of an item: its major type and argument.
// Only the shortest form of each argument is accepted, and no
// indefinite length or reserved additional information.
func (d *Decoder) ReadHeader() (byte, uint64, error) {
	if d.pos < len(d.buf) {
		first := d.buf[d.pos]
		if low := first & 0x1f; low < 24 {
			d.pos++
			return first >> 5, uint64(low), nil
		}
	}
	return d.readHeaderSlow()
}

var (
	errCanon24 = errors.New("cbor input was not canonical (lval 24 with value < 24)")
	errCanon25 = errors.New("cbor input was not canonical (lval 25 with value <= MaxUint8)")
	errCanon26 = errors.New("cbor input was not canonical (lval 26 with value <= MaxUint16)")
	errCanon27 = errors.New("cbor input was not canonical (lval 27 with value <= MaxUint32)")
)

func (d *Decoder) readHeaderSlow() (byte, uint64, error) {
	if len(d.buf)-d.pos >= 9 {
		// The longest head is held: no refill to check for.
		p := d.buf[d.pos : d.pos+9]
		maj := p[0] >> 5
		switch p[0] & 0x1f {
		case 24:
			if p[1] < 24 {
				d.pos += 2
				return 0, 0, errCanon24
			}
			d.pos += 2
			return maj, uint64(p[1]), nil
		case 25:
			d.pos += 3
			v := uint64(binary.BigEndian.Uint16(p[1:3]))
			if v <= math.MaxUint8 {
				return 0, 0, errCanon25
			}
			return maj, v, nil
		case 26:
			d.pos += 5
			v := uint64(binary.BigEndian.Uint32(p[1:5]))
			if v <= math.MaxUint16 {
				return 0, 0, errCanon26
			}
			return maj, v, nil
		case 27:
			d.pos += 9
			v := binary.BigEndian.Uint64(p[1:9])
			if v <= math.MaxUint32 {
				return 0, 0, errCanon27
			}
			return maj, v, nil
		}
	}
	if d.pos == len(d.buf) {
		if err := d.fill(1); err != nil {
			return 0, 0, err
		}
	}
	first := d.buf[d.pos]
	maj, low := first>>5, first&0x1f
	var n int
	switch {
	case low < 24:
		d.pos++
		return maj, uint64(low), nil
	case low == 24:
		n = 1
	case low == 25:
		n = 2
	case low == 26:
		n = 4
	case low == 27:
		n = 8
	default:
		d.pos++
		return 0, 0, fmt.Errorf("invalid header: (%x)", first)
	}
	if len(d.buf)-d.pos < 1+n {
		if err := d.fill(1 + n); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, 0, err
		}
	}
	p := d.buf[d.pos+1 : d.pos+1+n]
	d.pos += 1 + n
	switch n {
	case 1:
		if p[0] < 24 {
			return 0, 0, errCanon24
		}
		return maj, uint64(p[0]), nil
	case 2:
		v := uint64(binary.BigEndian.Uint16(p))
		if v <= math.MaxUint8 {
			return 0, 0, errCanon25
		}
		return maj, v, nil
	case 4:
		v := uint64(binary.BigEndian.Uint32(p))
		if v <= math.MaxUint16 {
			return 0, 0, errCanon26
		}
		return maj, v, nil
	default:
		v := binary.BigEndian.Uint64(p)
		if v <= math.MaxUint32 {
			return 0, 0, errCanon27
		}
		return maj, v, nil
	}
}

// view returns the next n bytes, valid until the next read.
func (d *Decoder) view(n uint64) ([]byte, error) {
	if rest := d.buf[d.pos:]; uint64(len(rest)) >= n {
		d.pos += int(n)
		return rest[:n], nil
	}
	return d.viewMore(n)
}

// viewMore is view when d does not hold n bytes yet.
func (d *Decoder) viewMore(n uint64) ([]byte, error) {
	if d.src == nil || n > math.MaxInt32 {
		d.pos = len(d.buf)
		return nil, io.ErrUnexpectedEOF
	}
	if err := d.fill(int(n)); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	b := d.buf[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return b, nil
}

// ReadFull fills p with the next len(p) bytes.
func (d *Decoder) ReadFull(p []byte) error {
	b, err := d.view(uint64(len(p)))
	copy(p, b)
	return err
}

// Bytes returns a new slice with the next n bytes (n is within a limit
// the caller checked).
func (d *Decoder) Bytes(n uint64) ([]byte, error) {
	b, err := d.view(n)
	if err != nil {
		return nil, err
	}
	return append(make([]byte, 0, n), b...), nil
}

// ReadString reads a text string of at most max bytes. Its bytes are
// not checked to be UTF-8, as whyrusleeping/cbor-gen does not.
func (d *Decoder) ReadString(max uint64) (string, error) {
	if b, ok := d.shortText(max); ok {
		return d.str(b), nil
	}
	maj, l, err := d.ReadHeader()
	if err != nil {
		return "", err
	}
	if maj != MajTextString {
		return "", fmt.Errorf("got tag %d while reading string value (l = %d)", maj, l)
	}
	if l > max {
		return "", errors.New("string in input was too long")
	}
	b, err := d.view(l)
	if err != nil {
		return "", err
	}
	return d.str(b), nil
}

// Strings up to maxBlockString bytes are copied into blocks of up to
// stringBlock bytes, one allocation for many strings; a string kept
// keeps its block alive (at most stringBlock bytes). A Decoder's first
// block over a buffer is no larger than the input it was made over
// (see block); each later one is twice the one it follows, up to
// grownStringBlock: a block made over a small item is never larger than
// that, however many items came before it. A pooled Decoder keeps what
// is left of its block for the next item.
const (
	maxBlockString   = 64
	stringBlock      = 4096
	grownStringBlock = 2048
)

// str returns b as a string of its own bytes.
func (d *Decoder) str(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > maxBlockString {
		return string(b)
	}
	// block, written out.
	var c []byte
	if off := len(d.strs); cap(d.strs)-off >= n {
		d.strs = d.strs[:off+n]
		c = d.strs[off : off+n : off+n]
		copy(c, b)
	} else {
		c = d.newBlock(b)
	}
	return unsafe.String(unsafe.SliceData(c), n)
}

// blockBytes returns a copy of b (never nil) with no room to grow into:
// short ones in the block of short strings, where the bytes of each are
// its own to write.
func (d *Decoder) blockBytes(b []byte) []byte {
	n := len(b)
	if n == 0 {
		return []byte{}
	}
	if n > maxBlockString {
		return append(make([]byte, 0, n), b...)
	}
	return d.block(b)
}

// block copies b, at most maxBlockString bytes, into the block of short
// strings and returns the copy. A Decoder's first block over a buffer
// takes no more memory than an allocation as large as the input would
// (see maxBlockString): the input's length rounded up as far as the
// size classes of Go's allocator round it (classFloor); a later one
// twice the last, when that is more, up to grownStringBlock. Where that
// leaves no room for a second string as long as b, b is copied on its
// own instead.
func (d *Decoder) block(b []byte) []byte {
	n, off := len(b), len(d.strs)
	if cap(d.strs)-off < n {
		return d.newBlock(b)
	}
	d.strs = d.strs[:off+n]
	c := d.strs[off : off+n : off+n]
	copy(c, b)
	return c
}

// newBlock is block when the block has no room for b.
func (d *Decoder) newBlock(b []byte) []byte {
	n := len(b)
	size := stringBlock
	if d.src == nil && len(d.buf) < size {
		size = classFloor(len(d.buf))
	}
	// Twice the last block, up to grownStringBlock: a Decoder kept for
	// item after item allocates seldom (see maxIntBlock).
	size = max(size, min(2*cap(d.strs), grownStringBlock))
	if size < 2*n {
		return append(make([]byte, 0, n), b...)
	}
	d.strs = append(make([]byte, 0, size), b...)
	return d.strs[:n:n]
}

// classFloor is n rounded up to a multiple of 16 when n is over 24: at
// most what an allocation of n bytes takes, since Go's size classes
// above 24 bytes are all multiples of 16.
func classFloor(n int) int {
	if n <= 24 {
		return n
	}
	return (n + 15) &^ 15
}

// ReadConst reads a text string of at most max bytes into a field whose
// tag gives it the constant c: c itself when the bytes are c's (no
// copy), else a string of the bytes read, as whyrusleeping/cbor-gen
// keeps whatever it reads.
func (d *Decoder) ReadConst(max uint64, c string) (string, error) {
	b, err := d.ReadKey(max)
	if err != nil {
		return "", err
	}
	if string(b) == c {
		return c, nil
	}
	return d.str(b), nil
}

// ReadKey reads a map key, a text string of at most max bytes, and
// returns its bytes, valid until the next read.
func (d *Decoder) ReadKey(max uint64) ([]byte, error) {
	if b, ok := d.shortText(max); ok {
		return b, nil
	}
	return d.readKey(max)
}

// shortText reads a text string of at most 23 bytes (a one-byte head)
// and at most max that d holds, and reports whether there was one.
func (d *Decoder) shortText(max uint64) ([]byte, bool) {
	if d.pos >= len(d.buf) {
		return nil, false
	}
	c := d.buf[d.pos]
	n := int(c) - MajTextString<<5
	if n < 0 || n >= 24 || uint64(n) > max || n >= len(d.buf)-d.pos {
		return nil, false
	}
	b := d.buf[d.pos+1 : d.pos+1+n]
	d.pos += 1 + n
	return b, true
}

func (d *Decoder) readKey(max uint64) ([]byte, error) {
	maj, l, err := d.ReadHeader()
	if err != nil {
		return nil, err
	}
	if maj != MajTextString {
		return nil, fmt.Errorf("got tag %d while reading string value (l = %d)", maj, l)
	}
	if l > max {
		return nil, errors.New("string in input was too long")
	}
	return d.view(l)
}

// CidBytes reads a CID as whyrusleeping/cbor-gen's ReadCid does, up to
// the CID library's own parse: tag 42 over a byte string of 2 to 512
// bytes whose first is 0. It returns the bytes after that prefix, valid
// until the next read, for the caller's cid.Cast.
func (d *Decoder) CidBytes() ([]byte, error) {
	// Tag 42 and a byte string of 24 to 255 bytes whose first is 0, as
	// the CIDs of IPLD are: the checks below, in the bytes themselves.
	// The bytes are read where the buffer holds them, without a further
	// check of their bounds: at least five of them, and all n of the
	// string's.
	if rest := len(d.buf) - d.pos; rest > 4 {
		p := (*[5]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.buf)), d.pos))
		if n := int(p[3]); p[0] == 0xd8 && p[1] == 42 && p[2] == 0x58 && n >= 24 && n <= rest-4 && p[4] == 0 {
			d.pos += 4 + n
			return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(p), 5)), n-1), nil
		}
	}
	return d.cidBytes()
}

// cidBytes is CidBytes for every form.
func (d *Decoder) cidBytes() ([]byte, error) {
	maj, extra, err := d.ReadHeader()
	if err != nil {
		return nil, err
	}
	if maj != MajTag {
		return nil, errors.New("expected cbor type 'tag' in input")
	}
	if extra != 42 {
		return nil, errors.New("expected tag 42")
	}
	maj, extra, err = d.ReadHeader()
	if err != nil {
		return nil, d.eof(err)
	}
	if maj != MajByteString {
		return nil, errors.New("expected cbor type 'byte string' in input")
	}
	if extra > 512 {
		return nil, fmt.Errorf("string in cbor input too long, maxlen: %d", 512)
	}
	b, err := d.view(extra)
	if err != nil {
		return nil, err
	}
	switch {
	case len(b) == 0:
		return nil, errors.New("undefined cid")
	case len(b) < 2:
		return nil, errors.New("cbor serialized CIDs must have at least two bytes")
	case b[0] != 0:
		return nil, errors.New("cbor serialized CIDs must have binary multibase")
	}
	return b[1:], nil
}

// maxSkipCid is the longest tag 42 content Skip takes.
const maxSkipCid = 100

// Skip reads past one item as whyrusleeping/cbor-gen's ScanForLinks
// does for a map key its type does not know: any depth, any length (the
// counts added as it adds them, in uint64), tag 42 holding a byte string
// of 1 to 100 bytes whose bytes after the first are a CID (CheckCid).
func (d *Decoder) Skip() error {
	for remaining := uint64(1); remaining > 0; remaining-- {
		maj, extra, err := d.ReadHeader()
		if err != nil {
			return err
		}
		switch maj {
		case MajUnsignedInt, MajNegativeInt, MajOther:
		case MajByteString, MajTextString:
			if extra > math.MaxInt32 {
				return errors.New("string in cbor input too long")
			}
			if _, err := d.view(extra); err != nil {
				return err
			}
		case MajTag:
			if extra != 42 {
				remaining++
				continue
			}
			maj, extra, err = d.ReadHeader()
			if err != nil {
				return err
			}
			if maj != MajByteString {
				return errors.New("expected cbor type 'byte string' in input")
			}
			if extra > maxSkipCid {
				return errors.New("string in cbor input too long")
			}
			if extra == 0 {
				return errors.New("string in cbor input is empty")
			}
			b, err := d.view(extra)
			if err != nil {
				return err
			}
			if err := CheckCid(b[1:]); err != nil {
				return err
			}
		case MajArray:
			remaining += extra
		case MajMap:
			remaining += extra * 2
		}
	}
	return nil
}

// The limits whyrusleeping/cbor-gen's Deferred checks, whatever the
// run's limits are.
const (
	deferredMaxBytes = 2 << 20
	deferredMaxLen   = 8192
)

// Deferred reads one item as whyrusleeping/cbor-gen's Deferred does and
// returns a copy of its bytes: strings of at most 2 MiB, arrays and maps
// of at most 8,192 elements or pairs, any tags.
func (d *Decoder) Deferred() ([]byte, error) {
	from := d.pos
	for remaining := uint64(1); remaining > 0; remaining-- {
		maj, extra, err := d.ReadHeader()
		if err != nil {
			return nil, err
		}
		switch maj {
		case MajByteString, MajTextString:
			if extra > deferredMaxBytes {
				return nil, errors.New("length beyond maximum allowed")
			}
			if _, err := d.view(extra); err != nil {
				return nil, err
			}
		case MajTag:
			remaining++
		case MajArray:
			if extra > deferredMaxLen {
				return nil, errors.New("length beyond maximum allowed")
			}
			remaining += extra
		case MajMap:
			if extra > deferredMaxLen {
				return nil, errors.New("length beyond maximum allowed")
			}
			remaining += extra * 2
		}
	}
	return append([]byte(nil), d.buf[from:d.pos]...), nil
}

// Pos is the offset of d in what it has read: UnmarshalCBOR notes it
// before an item, for End.
func (d *Decoder) Pos() int { return d.pos }

// End finishes an UnmarshalCBOR that began at start: io.EOF stays io.EOF
// only when the item had no byte; a Decoder the call made (owned) is
// released.
func (d *Decoder) End(owned bool, start int, err error) error {
	if err == io.EOF && d.pos > start {
		err = io.ErrUnexpectedEOF
	}
	if owned {
		return d.release(err) // err is as Release's check leaves it
	}
	return err
}

// View returns the next n bytes, valid until the next read.
func (d *Decoder) View(n uint64) ([]byte, error) { return d.view(n) }

// Avail refuses, over a buffer, a count of n items that the bytes left
// cannot hold (each takes at least one): the slice for them is not
// made. Over a reader it lets every count pass; the limits bound it.
func (d *Decoder) Avail(n uint64) error {
	if d.src == nil && n > uint64(len(d.buf)-d.pos) {
		d.pos = len(d.buf)
		return io.ErrUnexpectedEOF
	}
	return nil
}
