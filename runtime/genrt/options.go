package genrt

// Default limits; see Options.
const (
	DefaultMaxDepth         = 32
	DefaultMaxArrayElements = 131072
	DefaultMaxMapPairs      = 131072
	DefaultMaxStringLength  = 64 << 20

	maxDepthCap = 65535 // the most MaxDepth can be, as in fxamacker/cbor
)

// Options are the limits and the rules a Decoder enforces.
//
// A zero field means the process default: what SetDefaultOptions set for
// that field, else the built-in default (DefaultOptions). This holds
// wherever options are taken (Unmarshal, UnmarshalBody, SetOptions,
// NewBytesDecoder, NewDecoder), so a hook that passes Options{} decodes
// with the program's settings, not with the built-in ones. The settings
// with a choice of modes (DupMapKey, ExtraReturnErrors,
// FieldNameMatching, IndefLength, TagsMd, UTF8, NaN, Inf) have a zero value named
// ...Default for this; their other values mean what the fxamacker/cbor
// v2.10.0 DecOptions field of the same name means, each named as there.
// The two bool fields (Strict, ZeroCopy) cannot say "off" against a
// process default of "on": true turns the rule on, false leaves the
// process default, so a program that sets either in SetDefaultOptions has
// it everywhere.
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

	// DupMapKey says what a map key that comes twice in one map is, as
	// fxamacker's DecOptions.DupMapKey: DupMapKeyQuiet (the built-in
	// default) reads it as fxamacker's default does (in a struct's map the
	// first value of a field stays, a later one is skipped; in a Go map
	// the last value wins); DupMapKeyEnforcedAPF makes it an
	// ErrDuplicateKey, in every map a generated decoder reads into a
	// struct (legacy and //cborgen:map) or into a Go map field. In a
	// struct's map a key is a repeat when it names a field already read
	// (also through the case-insensitive match of FieldNameMatching), or
	// when it names no field and came before as a key that names no field
	// (text compared by its bytes, integers by value); in a Go map when
	// the map holds its key already, unless the map held it before the
	// decode began and the input had not named it yet (fxamacker's rule).
	// The message is fxamacker's: "found duplicate map key "x" at map
	// element index 2". Items an interface{} field holds go to fxamacker
	// with its default options and are not checked; Strict checks
	// every map of the item, by value.
	DupMapKey DupMapKeyMode
	// ExtraReturnErrors, as fxamacker's: ExtraDecErrorUnknownField makes a
	// key of a struct's map (legacy or //cborgen:map) that names no field
	// an ErrUnknownField ("found unknown field at map element index 1");
	// ExtraDecErrorNone (the built-in default) skips such a key and its
	// value. A key of a field retired with runtime.Reserved names no field.
	ExtraReturnErrors ExtraDecErrorCond
	// FieldNameMatching, as fxamacker's: FieldNameMatchingPreferCaseSensitive
	// (the built-in default) matches a text key of a struct's map that
	// names no field exactly to the first field whose name equals it under
	// case folding; FieldNameMatchingCaseSensitive does not, so such a key
	// names no field (skipped, or refused under ExtraDecErrorUnknownField).
	FieldNameMatching FieldNameMatchingMode

	// IndefLength, as fxamacker's: IndefLengthForbidden makes an
	// indefinite-length string, array or map anywhere in the item an
	// ErrForbidden ("indefinite-length map isn't allowed"), found by a
	// check of the whole item before it is decoded, as fxamacker checks
	// it (so also in what is skipped, in what a field's own UnmarshalCBOR
	// or an interface field is handed). IndefLengthAllowed is the
	// built-in default.
	IndefLength IndefLengthMode
	// TagsMd, as fxamacker's: TagsForbidden makes a tag anywhere in the
	// item an ErrForbidden ("CBOR tag isn't allowed"), checked as
	// IndefLength is; TagsAllowed is the built-in default.
	TagsMd TagsMode
	// UTF8, as fxamacker's: UTF8DecodeInvalid reads text that is not
	// valid UTF-8 into a string (a field, a Go map's key, a struct's map
	// key) as it is, instead of refusing it with ErrUTF8 (UTF8RejectInvalid,
	// the built-in default). Strict still refuses it, and so do Valid
	// and a union's catch-all, which keeps only what Valid accepts.
	UTF8 UTF8Mode
	// NaN, as fxamacker's: NaNDecodeForbidden makes a floating-point NaN
	// of any width anywhere in the item an ErrForbidden ("data item of cbor
	// type primitives is not accepted by protocol: floating-point NaN"),
	// whatever it would be read into, checked as IndefLength is.
	NaN NaNMode
	// Inf, as fxamacker's: InfDecodeForbidden does for ±infinity what
	// NaNDecodeForbidden does for NaN ("...: floating-point infinity").
	Inf InfMode
}

// IndefLengthMode is the Options.IndefLength setting.
type IndefLengthMode uint8

const (
	IndefLengthDefault   IndefLengthMode = iota // the process default (IndefLengthAllowed unless set)
	IndefLengthAllowed                          // fxamacker's IndefLengthAllowed
	IndefLengthForbidden                        // fxamacker's IndefLengthForbidden: ErrForbidden
)

// TagsMode is the Options.TagsMd setting.
type TagsMode uint8

const (
	TagsDefault   TagsMode = iota // the process default (TagsAllowed unless set)
	TagsAllowed                   // fxamacker's TagsAllowed
	TagsForbidden                 // fxamacker's TagsForbidden: ErrForbidden
)

// UTF8Mode is the Options.UTF8 setting.
type UTF8Mode uint8

const (
	UTF8Default       UTF8Mode = iota // the process default (UTF8RejectInvalid unless set)
	UTF8RejectInvalid                 // fxamacker's UTF8RejectInvalid: ErrUTF8
	UTF8DecodeInvalid                 // fxamacker's UTF8DecodeInvalid: read as it is
)

// NaNMode is the Options.NaN setting.
type NaNMode uint8

const (
	NaNDecodeDefault   NaNMode = iota // the process default (NaNDecodeAllowed unless set)
	NaNDecodeAllowed                  // fxamacker's NaNDecodeAllowed
	NaNDecodeForbidden                // fxamacker's NaNDecodeForbidden: ErrForbidden
)

// InfMode is the Options.Inf setting.
type InfMode uint8

const (
	InfDecodeDefault   InfMode = iota // the process default (InfDecodeAllowed unless set)
	InfDecodeAllowed                  // fxamacker's InfDecodeAllowed
	InfDecodeForbidden                // fxamacker's InfDecodeForbidden: ErrForbidden
)

// itemChecks are the checks of the whole item that o asks for before a
// decoder at the top level decodes it (checkItem): Strict's, and those of
// the modes that fxamacker checks while it checks well-formedness.
func (o *Options) itemChecks() walkFlags {
	var f walkFlags
	if o.Strict {
		f |= checkUTF8 | checkDups
	}
	if o.IndefLength == IndefLengthForbidden {
		f |= forbidIndef
	}
	if o.TagsMd == TagsForbidden {
		f |= forbidTags
	}
	if o.NaN == NaNDecodeForbidden {
		f |= forbidNaN
	}
	if o.Inf == InfDecodeForbidden {
		f |= forbidInf
	}
	return f
}

// FieldNameMatchingMode is the Options.FieldNameMatching setting.
type FieldNameMatchingMode uint8

const (
	FieldNameMatchingDefault             FieldNameMatchingMode = iota // the process default (FieldNameMatchingPreferCaseSensitive unless set)
	FieldNameMatchingPreferCaseSensitive                              // fxamacker's: exact match first, then case-insensitive
	FieldNameMatchingCaseSensitive                                    // fxamacker's: exact match only
)

// DupMapKeyMode is the Options.DupMapKey setting.
type DupMapKeyMode uint8

const (
	DupMapKeyDefault     DupMapKeyMode = iota // the process default (DupMapKeyQuiet unless set)
	DupMapKeyQuiet                            // fxamacker's DupMapKeyQuiet: repeated keys are read, not refused
	DupMapKeyEnforcedAPF                      // fxamacker's DupMapKeyEnforcedAPF: a repeated key is ErrDuplicateKey
)

// ExtraDecErrorCond is the Options.ExtraReturnErrors setting. Unlike
// fxamacker's, whose only condition is a bit, it is one value: there is
// one condition, and a zero that means "the process default".
type ExtraDecErrorCond uint8

const (
	ExtraDecErrorDefault      ExtraDecErrorCond = iota // the process default (ExtraDecErrorNone unless set)
	ExtraDecErrorNone                                  // fxamacker's ExtraDecErrorNone: unknown fields are skipped
	ExtraDecErrorUnknownField                          // fxamacker's ExtraDecErrorUnknownField: an unknown field is ErrUnknownField
)

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

// withDefaults fills the zero fields of o from the process defaults
// (SetDefaultOptions), or the built-in ones.
func (o Options) withDefaults() Options {
	if p := processDefaults.Load(); p != nil {
		return o.over(p.opts)
	}
	return o.over(Options{})
}

// over fills the zero fields of o from base, whose zero fields take the
// built-in defaults; Strict and ZeroCopy are on when either has them on.
func (o Options) over(base Options) Options {
	if o.MaxDepth <= 0 {
		o.MaxDepth = base.MaxDepth
	}
	if o.MaxArrayElements <= 0 {
		o.MaxArrayElements = base.MaxArrayElements
	}
	if o.MaxMapPairs <= 0 {
		o.MaxMapPairs = base.MaxMapPairs
	}
	if o.MaxStringLength <= 0 {
		o.MaxStringLength = base.MaxStringLength
	}
	o.Strict = o.Strict || base.Strict
	o.ZeroCopy = o.ZeroCopy || base.ZeroCopy
	if o.DupMapKey == DupMapKeyDefault {
		o.DupMapKey = base.DupMapKey
	}
	if o.ExtraReturnErrors == ExtraDecErrorDefault {
		o.ExtraReturnErrors = base.ExtraReturnErrors
	}
	if o.FieldNameMatching == FieldNameMatchingDefault {
		o.FieldNameMatching = base.FieldNameMatching
	}
	if o.IndefLength == IndefLengthDefault {
		o.IndefLength = base.IndefLength
	}
	if o.TagsMd == TagsDefault {
		o.TagsMd = base.TagsMd
	}
	if o.UTF8 == UTF8Default {
		o.UTF8 = base.UTF8
	}
	if o.NaN == NaNDecodeDefault {
		o.NaN = base.NaN
	}
	if o.Inf == InfDecodeDefault {
		o.Inf = base.Inf
	}
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
