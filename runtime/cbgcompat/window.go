package cbgcompat

import (
	"bytes"
	"io"
	"unsafe"
)

// window is how a Decoder reads a *bytes.Reader in place: the reader's
// WriteTo hands its unread bytes to Write in one call, and a Write that
// takes none of them leaves the reader where it was. The bytes are the
// slice the reader was made over, which its owner gave to it to read;
// the Decoder reads them and then moves the reader past what it used
// (skip), as a read of that many bytes would.
//
// Where the reader's fields are laid out as readerFields says
// (readerInPlace, checked once), the window reads and moves them
// directly: the same bytes and the same moves, without the calls
// (WriteTo, Write, Seek: about 100 instructions a decode).
type window struct {
	p []byte
}

// Write notes p and takes none of it.
func (w *window) Write(p []byte) (int, error) {
	w.p = p
	return 0, nil
}

// unread returns r's unread bytes without moving r (skip, which always
// follows, resets the rune state as WriteTo would).
func (w *window) unread(r *bytes.Reader) []byte {
	if readerInPlace {
		f := (*readerFields)(unsafe.Pointer(r))
		if f.i >= int64(len(f.s)) {
			return nil
		}
		p := f.s[f.i:]
		return p[:len(p):len(p)]
	}
	w.p = nil
	if r.Len() > 0 {
		r.WriteTo(w) // io.ErrShortWrite: the bytes are left unread
	}
	p := w.p
	w.p = nil
	return p[:len(p):len(p)]
}

// skip moves r past n of the bytes unread returned, as Seek(n,
// io.SeekCurrent) does.
func (w *window) skip(r *bytes.Reader, n int) {
	if readerInPlace {
		f := (*readerFields)(unsafe.Pointer(r))
		f.i += int64(n)
		f.prevRune = -1
		return
	}
	r.Seek(int64(n), io.SeekCurrent)
}

// readerFields is the layout of bytes.Reader's fields: the slice it
// reads, the offset of the next byte, and where the last rune read
// began (or < 0 when the last read was not ReadRune).
type readerFields struct {
	s        []byte
	i        int64
	prevRune int
}

// readerInPlace reports whether bytes.Reader is laid out as
// readerFields: of the same size, and its fields seen through it move
// as the reader's methods say they do.
var readerInPlace = checkReaderFields()

func checkReaderFields() bool {
	if unsafe.Sizeof(bytes.Reader{}) != unsafe.Sizeof(readerFields{}) {
		return false
	}
	probe := []byte("a\u00e9cdef")
	r := bytes.NewReader(probe)
	f := (*readerFields)(unsafe.Pointer(r))
	if unsafe.SliceData(f.s) != unsafe.SliceData(probe) || len(f.s) != len(probe) || cap(f.s) != cap(probe) ||
		f.i != 0 || f.prevRune != -1 {
		return false
	}
	r.ReadByte()
	if ru, _, _ := r.ReadRune(); ru != '\u00e9' || f.i != 3 || f.prevRune != 1 {
		return false
	}
	r.Seek(1, io.SeekCurrent)
	if f.i != 4 || f.prevRune != -1 {
		return false
	}
	r.ReadRune()
	f.i, f.prevRune = 5, -1
	if r.Len() != 2 || r.UnreadRune() == nil {
		return false
	}
	if c, _ := r.ReadByte(); c != 'e' || f.i != 6 {
		return false
	}
	return true
}

var _ io.Writer = (*window)(nil)
