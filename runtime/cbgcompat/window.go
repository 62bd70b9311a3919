package cbgcompat

import (
	"bytes"
	"io"
)

// window is how a Decoder reads a *bytes.Reader in place: the reader's
// WriteTo hands its unread bytes to Write in one call, and a Write that
// takes none of them leaves the reader where it was. The bytes are the
// slice the reader was made over, which its owner gave to it to read;
// the Decoder reads them and then moves the reader past what it used
// (Release), as a read of that many bytes would.
type window struct {
	p []byte
}

// Write notes p and takes none of it.
func (w *window) Write(p []byte) (int, error) {
	w.p = p
	return 0, nil
}

// unread returns r's unread bytes without moving r.
func (w *window) unread(r *bytes.Reader) []byte {
	w.p = nil
	if r.Len() > 0 {
		r.WriteTo(w) // io.ErrShortWrite: the bytes are left unread
	}
	p := w.p
	w.p = nil
	return p[:len(p):len(p)]
}

var _ io.Writer = (*window)(nil)
