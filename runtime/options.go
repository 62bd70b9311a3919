package runtime

// Default limits; see Options.
const (
	DefaultMaxDepth         = 32
	DefaultMaxArrayElements = 131072
	DefaultMaxMapPairs      = 131072
	DefaultMaxStringLength  = 64 << 20

	maxDepthCap = 65535 // the most MaxDepth can be, as in fxamacker/cbor
)

// Options are the limits and the strictness a Decoder enforces. A zero
// field takes its default.
type Options struct {
	// MaxDepth bounds the nesting of arrays, maps and tags within tags, as
	// fxamacker/cbor counts it: with 32, 32 nested arrays decode and 33 do
	// not. Default 32, at most 65535.
	MaxDepth int
	// MaxArrayElements bounds the length of one array. Default 131072.
	MaxArrayElements int
	// MaxMapPairs bounds the number of pairs in one map. Default 131072.
	MaxMapPairs int
	// MaxStringLength bounds one byte or text string, in bytes (for an
	// indefinite-length string, all its chunks together). Default 64 MiB.
	MaxStringLength int
	// Strict rejects indefinite lengths, heads that are not the shortest
	// for their argument, and duplicate map keys, everywhere in the item,
	// and each item that fxamacker/cbor's default options read beyond the
	// CBOR data model of the Go type, which the decoders read too when
	// Strict is off (decode_lenient.go): null or undefined into a value
	// that cannot be nil (left as it was), a simple value into a number
	// (its code), a byte string of another length into a [N]byte and an
	// array of another length into a [N]T (cut, or zero-filled), an array
	// of integers into a byte string type, a tag around null into a slice
	// or map (nil), a legacy map that names a field twice (the first value
	// stays). With Strict these are ErrType, ErrLength or ErrDuplicateKey.
	Strict bool
	// ZeroCopy makes a decoder over a byte slice return text and byte
	// strings of definite length that alias the input instead of copies:
	// decoding allocates nothing for them. The decoded strings and byte
	// slices are then valid only as long as the input lives and is not
	// modified; modifying the input changes strings, which Go assumes
	// never change. Byte slices are capped at their length, so appending
	// to one copies it. Off by default; a decoder over a stream ignores
	// it (its buffer is reused), as do indefinite-length strings, which
	// are copied. A later decode into the same value never writes through
	// these slices into the input (see the package doc).
	ZeroCopy bool
}

// DefaultOptions returns the built-in defaults: the options a new Decoder
// has unless SetDefaultOptions set others.
func DefaultOptions() Options {
	return Options{
		MaxDepth:         DefaultMaxDepth,
		MaxArrayElements: DefaultMaxArrayElements,
		MaxMapPairs:      DefaultMaxMapPairs,
		MaxStringLength:  DefaultMaxStringLength,
	}
}

func (o Options) withDefaults() Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxDepth > maxDepthCap {
		o.MaxDepth = maxDepthCap // the call stack of a decoder grows with the depth
	}
	if o.MaxArrayElements <= 0 {
		o.MaxArrayElements = DefaultMaxArrayElements
	}
	if o.MaxMapPairs <= 0 {
		o.MaxMapPairs = DefaultMaxMapPairs
	}
	if o.MaxStringLength <= 0 {
		o.MaxStringLength = DefaultMaxStringLength
	}
	return o
}
