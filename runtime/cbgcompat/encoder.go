package cbgcompat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// AppendHeader appends the head of an item of major type maj with
// argument n, in its shortest form.
func AppendHeader(dst []byte, maj byte, n uint64) []byte {
	switch {
	case n < 24:
		return append(dst, maj<<5|byte(n))
	case n <= 0xff:
		return append(dst, maj<<5|24, byte(n))
	case n <= 0xffff:
		return append(dst, maj<<5|25, byte(n>>8), byte(n))
	case n <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(dst, maj<<5|26), uint32(n))
	default:
		return binary.BigEndian.AppendUint64(append(dst, maj<<5|27), n)
	}
}

// AppendInt64 appends v as an unsigned or negative integer.
func AppendInt64(dst []byte, v int64) []byte {
	if v >= 0 {
		return AppendHeader(dst, MajUnsignedInt, uint64(v))
	}
	return AppendHeader(dst, MajNegativeInt, uint64(-v-1))
}

// AppendString appends s as a text string.
func AppendString(dst []byte, s string) []byte {
	return append(AppendHeader(dst, MajTextString, uint64(len(s))), s...)
}

// AppendBytes appends b as a byte string.
func AppendBytes(dst []byte, b []byte) []byte {
	return append(AppendHeader(dst, MajByteString, uint64(len(b))), b...)
}

// AppendBool appends f4 or f5.
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, 0xf5)
	}
	return append(dst, 0xf4)
}

// ErrUndefinedCid is the error of writing cid.Undef, as
// whyrusleeping/cbor-gen's WriteCid refuses it.
var ErrUndefinedCid = errors.New("undefined cid")

// AppendCid appends a CID as whyrusleeping/cbor-gen's WriteCid writes
// it: tag 42 over a byte string of a 0 and the CID's binary form (its
// KeyString); an empty one is cid.Undef, an error.
func AppendCid(dst []byte, key string) ([]byte, error) {
	if key == "" {
		return dst, ErrUndefinedCid
	}
	dst = append(dst, 0xd8, 42)
	dst = AppendHeader(dst, MajByteString, uint64(len(key))+1)
	dst = append(dst, 0)
	return append(dst, key...), nil
}

// A Writer appends what is written to it to Buf: a field's own
// MarshalCBOR(io.Writer) writes through it into the buffer of the
// generated holder.
type Writer struct {
	Buf  []byte
	slot uint8 // the slot of spareWriters w goes back to (GetWriter's)
}

// Write appends p.
func (w *Writer) Write(p []byte) (int, error) {
	w.Buf = append(w.Buf, p...)
	return len(p), nil
}

// WriteString appends s.
func (w *Writer) WriteString(s string) (int, error) {
	w.Buf = append(w.Buf, s...)
	return len(s), nil
}

// Writers, for MarshalCBOR(io.Writer) to append into before it writes
// once to its io.Writer, are kept as the decoders are (spares): one in
// each of spareSlots slots, the one the goroutine's stack picks, and in
// a sync.Pool when that slot is taken. An encode that writes item after
// item from one goroutine hands one Writer back and forth with two
// atomic operations instead of the pool's Get and Put (about 120
// instructions, a fifth of a small record's encode). The spares are
// never released: at most spareSlots Writers of at most spareStorage
// bytes each; a larger one goes to the pool, up to maxKeptWriter.
const maxKeptWriter = 1 << 16

var (
	spareWriters [spareSlots]struct {
		w atomic.Pointer[Writer]
		_ [64 - 8]byte // a cache line each
	}
	writers = sync.Pool{New: func() any { return &Writer{Buf: make([]byte, 0, 512)} }}
)

// GetWriter returns an empty Writer, kept from an earlier encode.
func GetWriter() *Writer {
	i := spareSlot()
	if s := &spareWriters[i].w; s.Load() != nil {
		if w := s.Swap(nil); w != nil {
			w.Buf = w.Buf[:0] // w.slot is i: it was put back there
			return w
		}
	}
	w := writers.Get().(*Writer)
	w.Buf, w.slot = w.Buf[:0], i
	return w
}

// minRoom is the free space a bytes.Buffer needs for Room to hand it
// out: as much as the buffer's first allocation (bytes.Buffer's
// smallest), so that a fresh buffer grows as it always did and a small
// item fits.
const minRoom = 64

// Room returns w as a *bytes.Buffer and its free space (len 0) when it
// is one with at least minRoom bytes free, for MarshalCBOR to append an
// item there and Write it (the copy of a slice onto itself) instead of
// filling a buffer of its own and copying that. An item larger than the
// room grows as append grows a slice and is then written, copied once
// more. Else nil.
func Room(w io.Writer) (*bytes.Buffer, []byte) {
	if bb, ok := w.(*bytes.Buffer); ok && bb.Available() >= minRoom {
		return bb, bb.AvailableBuffer()
	}
	return nil, nil
}

// Flush writes what w holds to out, then gives w back (a large buffer
// is dropped).
func (w *Writer) Flush(out io.Writer) error {
	_, err := out.Write(w.Buf)
	w.Put()
	return err
}

// Put gives back w, taken from GetWriter, for a later encode.
func (w *Writer) Put() {
	if cap(w.Buf) > maxKeptWriter {
		return
	}
	if s := &spareWriters[w.slot].w; cap(w.Buf) > spareStorage || s.Load() != nil || !s.CompareAndSwap(nil, w) {
		writers.Put(w)
	}
}

// The version guard of generated files (see runtime/genrt/version.go): a file
// and a package that do not fit fail to compile on a line that names
// the side to update.
const (
	// GenVersion is the version of generated code this package is for.
	// 2: generated code reads scalars with Uint64, Uint8, Int64 and
	// Bool, and go-state-types' big.Int and go-address's Address with
	// AppendFilInt, FilInt, AppendAddress and AddressBytes. 3: CIDs
	// and addresses that CheckCid and CheckAddress take are made from
	// their bytes (NewStringValues, ValidCid, CidProbes, AddressProbes).
	// 4: indigo's LexBlob and LexLink read and written in place
	// (Decoder.MoveTo, CheckInPlace, NewCidTexts, CastVia,
	// LegacyCidDecoder). 5: MarshalCBOR appends into a bytes.Buffer's
	// free space (Room); a tuple's one-byte head is tested in line
	// (Decoder.Head). 6: the values of pointer fields to go-state-types'
	// big.Int, CIDs and addresses come from the Decoder's blocks
	// (FilIntPtr, StringValues.MakePtr).
	GenVersion = 6
	// MinGenVersion is the oldest generated code it still supports.
	MinGenVersion = 1
)

// UpgradeCborgenRuntime overflows when generated code is newer than
// this package: update github.com/cborgen/cborgen.
type UpgradeCborgenRuntime uint

// RegenerateWithNewerCborgen overflows when generated code is older
// than this package supports: run go generate again.
type RegenerateWithNewerCborgen uint

var wrappers = sync.Pool{New: func() any { return new(Writer) }}

// Wrap returns a Writer from a pool for AppendCBOR, whose Buf the
// generated code sets to the caller's buffer around each call of a
// field's own MarshalCBOR; Unwrap returns it.
func Wrap() *Writer { return wrappers.Get().(*Writer) }

// Unwrap returns w, taken from Wrap, to its pool, without the buffer it
// last held.
func (w *Writer) Unwrap() {
	w.Buf = nil
	wrappers.Put(w)
}
