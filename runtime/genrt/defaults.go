package genrt

import (
	"io"
	"sync/atomic"
)

// processDefaults are the options SetDefaultOptions set, with their
// defaults filled in, and the short-text bound they give a decoder over
// a byte slice; nil until it is first called.
var processDefaults atomic.Pointer[defaultSet]

type defaultSet struct {
	opts        Options
	shortText   uint8 // for a decoder over a byte slice
	streamShort uint8 // for a decoder over a stream, which ignores ZeroCopy
	checks      walkFlags
}

// SetDefaultOptions sets the options of every decoder made without
// options from now on, in the whole process: those of NewBytesDecoder and
// NewDecoder, and so of the generated UnmarshalCBOR methods that
// fxamacker/cbor's Unmarshal calls, and of the zero fields of every
// Options given to Unmarshal, UnmarshalBody and SetOptions (so a hook that
// passes Options{} keeps the program's settings). Zero fields of o take
// the built-in defaults, so the zero Options restores them; DefaultOptions,
// Valid and decoders made before keep theirs. Strict and ZeroCopy set here
// cannot be turned off by the options of one call (see Options).
//
// Call it at start-up for data that needs other limits than fxamacker's
// defaults (a ledger's MaxDepth 256). It is safe while other goroutines
// decode: each new decoder takes the options set last, whole. Interface
// fields go to fxamacker/cbor with its default DecOptions, whatever is
// set here.
func SetDefaultOptions(o Options) {
	if o == (Options{}) {
		processDefaults.Store(nil)
		return
	}
	o = o.over(Options{})
	var d, s Decoder
	d.setResolved(o)
	s.st = &streamState{r: eofReader{}}
	s.setResolved(o)
	processDefaults.Store(&defaultSet{opts: *d.opts, shortText: d.shortText, streamShort: s.shortText, checks: d.checks})
}

// applyStreamDefaults is applyDefaults for a new decoder over a stream.
func (d *Decoder) applyStreamDefaults() {
	if p := processDefaults.Load(); p != nil {
		d.opts, d.shortText, d.checks = &p.opts, p.streamShort, p.checks
	}
}

// eofReader stands for a stream when SetDefaultOptions works out the
// options of a decoder over one.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// applyDefaults gives d, a new decoder over a byte slice, the options
// SetDefaultOptions set, if it was called.
func (d *Decoder) applyDefaults() {
	if p := processDefaults.Load(); p != nil {
		d.opts, d.shortText, d.checks = &p.opts, p.shortText, p.checks
	}
}

// ProcessOptions returns the options a decoder made without options takes
// now: those SetDefaultOptions set last, with their defaults filled in, or
// DefaultOptions. It is what a generated UnmarshalCBOR decodes with, for
// code that chooses between it and Unmarshal with options of its own
// (package fxmode).
func ProcessOptions() Options {
	if p := processDefaults.Load(); p != nil {
		return p.opts
	}
	return DefaultOptions()
}
