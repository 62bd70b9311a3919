package runtime

import (
	"io"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// Decoding.

// A Decoder reads CBOR data items from a byte slice (NewBytesDecoder) or
// a stream (NewDecoder), item after item, with the limits and rules of its
// Options (SetOptions). A generated type reads itself from one with its
// DecodeCBOR method. Its methods are documented in package genrt, where it
// is declared: a program calls SetOptions, Options, Reset, Skip, More,
// Offset, and the Read methods and Leave for items it reads by hand; the
// other methods are for generated code.
type Decoder = genrt.Decoder

// NewBytesDecoder returns a Decoder that reads data, with the process
// default options. Reads and skips move an offset into data; nothing is
// copied unless a read returns a string or a byte slice (and not even
// then with Options.ZeroCopy).
func NewBytesDecoder(data []byte) *Decoder { return genrt.NewBytesDecoder(data) }

// NewDecoder returns a Decoder that reads from r, item after item, with
// the process default options. It buffers only what has arrived, and
// returns io.EOF when the stream ends between items.
func NewDecoder(r io.Reader) *Decoder { return genrt.NewDecoder(r) }

// Unmarshal decodes data, which must hold exactly one item and nothing
// after it, into v, a pointer to a type cbor-gen generated, with the
// limits and rules of opts (zero fields take the process defaults, see
// SetDefaultOptions). It is v.UnmarshalCBOR(data) with options:
//
//	var o Order
//	err := runtime.Unmarshal(data, &o, runtime.Options{MaxDepth: 8, Strict: true})
//
// The error is a *Error whose path starts with the type's name, as from
// UnmarshalCBOR; bytes after the item are ErrTrailing, no data at all is
// io.ErrUnexpectedEOF. Its decoder comes from a pool: a call allocates
// only what v holds.
func Unmarshal(data []byte, v interface{ DecodeCBOR(*Decoder) error }, opts Options) error {
	return genrt.Unmarshal(data, v, opts)
}

// UnmarshalBody is Unmarshal for the hook of a type declared with
// //cborgen:body: it decodes data with v's generated DecodeCBORBody, so
// that a hand-written UnmarshalCBOR can be
//
//	func (r *Record) UnmarshalCBOR(data []byte) error {
//		if err := runtime.UnmarshalBody(data, r, runtime.Options{}); err != nil {
//			return err
//		}
//		return r.check() // what the hook does around the body
//	}
func UnmarshalBody(data []byte, v interface{ DecodeCBORBody(*Decoder) error }, opts Options) error {
	return genrt.UnmarshalBody(data, v, opts)
}

// Valid returns nil if data is exactly one well-formed, valid CBOR data
// item (RFC 8949: definite and indefinite lengths, valid UTF-8 in text
// strings, no map with a key twice, tags 0-3 with the content RFC 8949
// requires) within the process default limits, and otherwise the *Error
// a strict decoder would return. It allocates only for maps of many pairs.
func Valid(data []byte) error { return genrt.Valid(data) }

// Options are the limits and the rules a Decoder enforces. A zero field
// means the process default (SetDefaultOptions), else the built-in default
// (DefaultOptions). Its fields, each documented in package genrt:
//
//   - the limits: MaxDepth (nesting, as fxamacker counts it; 32),
//     MaxArrayElements (131072), MaxMapPairs (131072), MaxStringLength (64
//     MiB);
//   - Strict: refuse what fxamacker's default options accept beyond the
//     data model (a null into a number, a non-shortest head...);
//   - ZeroCopy: strings and byte slices read from a byte slice alias it;
//   - the settings named as fxamacker/cbor's DecOptions fields, with their
//     meanings: DupMapKey, ExtraReturnErrors, FieldNameMatching,
//     IndefLength, TagsMd, UTF8, NaN, Inf.
type Options = genrt.Options

// DefaultOptions returns the built-in defaults: the options a new Decoder
// has unless SetDefaultOptions set others.
func DefaultOptions() Options { return genrt.DefaultOptions() }

// SetDefaultOptions sets the process defaults: the options a Decoder made
// afterwards starts with, what a zero field of the Options given to
// Unmarshal, UnmarshalBody and SetOptions takes, and the options of a
// generated UnmarshalCBOR, which fxamacker/cbor calls without options.
// Call it at start-up, before decoding; Valid and decoders made before
// keep theirs.
func SetDefaultOptions(o Options) { genrt.SetDefaultOptions(o) }

// ProcessOptions returns the options a decoder made without options
// takes: those SetDefaultOptions set, its zero fields filled from
// DefaultOptions.
func ProcessOptions() Options { return genrt.ProcessOptions() }

// The built-in limits; see Options.
const (
	DefaultMaxDepth         = genrt.DefaultMaxDepth
	DefaultMaxArrayElements = genrt.DefaultMaxArrayElements
	DefaultMaxMapPairs      = genrt.DefaultMaxMapPairs
	DefaultMaxStringLength  = genrt.DefaultMaxStringLength
)

// DupMapKeyMode is the Options.DupMapKey setting.
type DupMapKeyMode = genrt.DupMapKeyMode

const (
	DupMapKeyDefault     DupMapKeyMode = genrt.DupMapKeyDefault     // the process default (DupMapKeyQuiet unless set)
	DupMapKeyQuiet       DupMapKeyMode = genrt.DupMapKeyQuiet       // fxamacker's DupMapKeyQuiet: repeated keys are read, not refused
	DupMapKeyEnforcedAPF DupMapKeyMode = genrt.DupMapKeyEnforcedAPF // fxamacker's DupMapKeyEnforcedAPF: a repeated key is ErrDuplicateKey
)

// ExtraDecErrorCond is the Options.ExtraReturnErrors setting.
type ExtraDecErrorCond = genrt.ExtraDecErrorCond

const (
	ExtraDecErrorDefault      ExtraDecErrorCond = genrt.ExtraDecErrorDefault      // the process default (ExtraDecErrorNone unless set)
	ExtraDecErrorNone         ExtraDecErrorCond = genrt.ExtraDecErrorNone         // fxamacker's ExtraDecErrorNone: unknown fields are skipped
	ExtraDecErrorUnknownField ExtraDecErrorCond = genrt.ExtraDecErrorUnknownField // fxamacker's ExtraDecErrorUnknownField: an unknown field is ErrUnknownField
)

// FieldNameMatchingMode is the Options.FieldNameMatching setting: how the
// keys of a map-format struct find their fields.
type FieldNameMatchingMode = genrt.FieldNameMatchingMode

const (
	FieldNameMatchingDefault             FieldNameMatchingMode = genrt.FieldNameMatchingDefault             // the process default (FieldNameMatchingPreferCaseSensitive unless set)
	FieldNameMatchingPreferCaseSensitive FieldNameMatchingMode = genrt.FieldNameMatchingPreferCaseSensitive // fxamacker's: exact match first, then case-insensitive
	FieldNameMatchingCaseSensitive       FieldNameMatchingMode = genrt.FieldNameMatchingCaseSensitive       // fxamacker's: exact match only
)

// IndefLengthMode is the Options.IndefLength and EncOptions.IndefLength
// setting.
type IndefLengthMode = genrt.IndefLengthMode

const (
	IndefLengthDefault   IndefLengthMode = genrt.IndefLengthDefault   // the process default (IndefLengthAllowed unless set)
	IndefLengthAllowed   IndefLengthMode = genrt.IndefLengthAllowed   // fxamacker's IndefLengthAllowed
	IndefLengthForbidden IndefLengthMode = genrt.IndefLengthForbidden // fxamacker's IndefLengthForbidden: an indefinite length is ErrForbidden
)

// TagsMode is the Options.TagsMd setting.
type TagsMode = genrt.TagsMode

const (
	TagsDefault   TagsMode = genrt.TagsDefault   // the process default (TagsAllowed unless set)
	TagsAllowed   TagsMode = genrt.TagsAllowed   // fxamacker's TagsAllowed
	TagsForbidden TagsMode = genrt.TagsForbidden // fxamacker's TagsForbidden: a tag is ErrForbidden
)

// UTF8Mode is the Options.UTF8 setting.
type UTF8Mode = genrt.UTF8Mode

const (
	UTF8Default       UTF8Mode = genrt.UTF8Default       // the process default (UTF8RejectInvalid unless set)
	UTF8RejectInvalid UTF8Mode = genrt.UTF8RejectInvalid // fxamacker's UTF8RejectInvalid: invalid UTF-8 is ErrUTF8
	UTF8DecodeInvalid UTF8Mode = genrt.UTF8DecodeInvalid // fxamacker's UTF8DecodeInvalid: text is read as it is
)

// NaNMode is the Options.NaN setting.
type NaNMode = genrt.NaNMode

const (
	NaNDecodeDefault   NaNMode = genrt.NaNDecodeDefault   // the process default (NaNDecodeAllowed unless set)
	NaNDecodeAllowed   NaNMode = genrt.NaNDecodeAllowed   // fxamacker's NaNDecodeAllowed
	NaNDecodeForbidden NaNMode = genrt.NaNDecodeForbidden // fxamacker's NaNDecodeForbidden: a NaN is ErrForbidden
)

// InfMode is the Options.Inf setting.
type InfMode = genrt.InfMode

const (
	InfDecodeDefault   InfMode = genrt.InfDecodeDefault   // the process default (InfDecodeAllowed unless set)
	InfDecodeAllowed   InfMode = genrt.InfDecodeAllowed   // fxamacker's InfDecodeAllowed
	InfDecodeForbidden InfMode = genrt.InfDecodeForbidden // fxamacker's InfDecodeForbidden: an infinity is ErrForbidden
)

// Encoding.

// EncOptions are the encoding settings of the whole process
// (SetDefaultEncOptions): whether the output of a field's own MarshalCBOR
// and what a union's catch-all keeps may hold indefinite lengths
// (IndefLength). The bytes generated code writes itself are chosen when
// it is generated.
type EncOptions = genrt.EncOptions

// SetDefaultEncOptions sets the encoding settings of the whole process,
// named as SetDefaultOptions, its decoding counterpart. Call it at
// start-up, before encoding.
func SetDefaultEncOptions(o EncOptions) { genrt.SetDefaultEncOptions(o) }

// ProcessEncOptions returns the settings SetDefaultEncOptions set last,
// or the zero EncOptions.
func ProcessEncOptions() EncOptions { return genrt.ProcessEncOptions() }

// IndefiniteWrites returns how many times since the process started a
// generated encoder wrote an indefinite length it was handed (a field's
// own MarshalCBOR, a catch-all) under IndefLengthAllowed; package fxmode
// checks a direct encode with it.
func IndefiniteWrites() uint64 { return genrt.IndefiniteWrites() }

// Errors.

// Error is the error every decoder returns: what went wrong (Msg), where
// in the input (Offset), where in the Go value (the path: Path,
// "Order.Items[3].SKU") and why (Err, one of the sentinels below or an io
// error such as io.ErrUnexpectedEOF; errors.Is finds it). An error that a
// type's own UnmarshalCBOR or UnmarshalBinary returned keeps its own text;
// Detail prints it with the path and the offset.
type Error = genrt.Error

// MarshalerError is the error for a field whose own MarshalCBOR returned
// bytes that are not exactly one well-formed item, with fxamacker/cbor's
// text: "cbor: error calling MarshalCBOR for type shop.Money: unexpected
// EOF".
type MarshalerError = genrt.MarshalerError

// The causes of a decoding error (errors.Is).
var (
	ErrSyntax       = genrt.ErrSyntax       // RFC 8949 says the bytes are not CBOR
	ErrType         = genrt.ErrType         // well-formed, but not what the Go type takes
	ErrRange        = genrt.ErrRange        // a number that does not fit the Go type
	ErrLimit        = genrt.ErrLimit        // depth, element, pair or string length limit
	ErrUTF8         = genrt.ErrUTF8         // a text string that is not UTF-8
	ErrDuplicateKey = genrt.ErrDuplicateKey // a key seen twice in one map
	ErrUnknownField = genrt.ErrUnknownField // a struct's map key that names no field, under ExtraDecErrorUnknownField
	ErrLength       = genrt.ErrLength       // an array or byte string of the wrong length
	ErrTrailing     = genrt.ErrTrailing     // bytes left after the item
	ErrStrict       = genrt.ErrStrict       // what Options.Strict refuses
	ErrForbidden    = genrt.ErrForbidden    // an indefinite length, a tag, a NaN or an infinity that the options forbid
	ErrTag          = genrt.ErrTag          // tags 0-3 with content RFC 8949 §3.4 forbids
	ErrTagNumber    = genrt.ErrTagNumber    // a type declared with //cborgen:tag N without tag N
	ErrTimeRange    = genrt.ErrTimeRange    // a time that the Go type or the format cannot hold
)

// Evolving a type.

// Reserved is the type of a struct field that keeps the array slot of a
// retired field, so that the fields after it keep theirs:
//
//	type Order struct {
//		ID    uint64
//		_     runtime.Reserved // was Coupon string; retired in v3
//		Items []Item
//	}
//
// Generated code and fxamacker/cbor write a reserved slot as null (f6)
// and skip whatever an older writer left there. A reserved slot stays
// reserved: cbor-gen refuses to give it to another field
// (docs/schema.md).
type Reserved = genrt.Reserved

// Unknown keeps what a decoder found in a value that the value's type does
// not know, so that encoding the value writes it back: the pairs of a
// map-format struct (//cborgen:map) whose keys name no field, or the
// elements of an //cborgen:extensible struct's array past its last field.
// A struct holds one as a field of its own; its methods (Len, Pairs,
// Elems, AddPair, AddElem, Clone...) are documented in package genrt.
type Unknown = genrt.Unknown
