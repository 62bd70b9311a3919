package genrt

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Sentinel causes of a decoding *Error; test them with errors.Is.
// Truncated input wraps io.ErrUnexpectedEOF instead.
var (
	ErrSyntax       = errors.New("not well-formed")   // RFC 8949 says the bytes are not CBOR
	ErrType         = errors.New("wrong type")        // well-formed, but not what the Go type takes
	ErrRange        = errors.New("out of range")      // a number that does not fit the Go type
	ErrLimit        = errors.New("limit exceeded")    // depth, element, pair or string length limit
	ErrUTF8         = errors.New("invalid UTF-8")     // a text string that is not UTF-8
	ErrDuplicateKey = errors.New("duplicate map key") // a key seen twice in one map
	ErrUnknownField = errors.New("unknown field")     // a struct's map key that names no field, under ExtraDecErrorUnknownField
	ErrLength       = errors.New("wrong length")      // an array or byte string of the wrong length
	ErrTrailing     = errors.New("trailing data")     // bytes left after the item
	ErrStrict       = errors.New("not allowed in strict mode")
	ErrForbidden    = errors.New("forbidden by the options") // an indefinite length, a tag, a NaN or an infinity that Options forbid; an indefinite length EncOptions forbid
	ErrTag          = errors.New("invalid tag content")      // tags 0-3 with content RFC 8949 §3.4 forbids
	ErrTagNumber    = errors.New("wrong tag number")         // a type declared with //cborgen:tag N without tag N
)

// Error is the error every decoder returns. It says what went wrong (Msg),
// where in the input (Offset, in bytes from the start of the input or
// stream), where in the Go value (the path, built by generated code as the
// error travels out: "Order.Items[3].SKU"), and why (Err: one of the
// sentinels above, or an io error such as io.ErrUnexpectedEOF).
//
// An error that code other than the generated decoder returned (a type's
// own UnmarshalCBOR or UnmarshalBinary, or fxamacker/cbor on the slow
// path) is a *Error made by [MethodError]: its Error is that error's own
// text, unchanged, as fxamacker/cbor hands it back; Err is that error, and
// Offset and Path say where the item it failed on starts. Detail gives
// every *Error's text with its path and offset.
type Error struct {
	Offset int64
	Msg    string
	Err    error

	root     string   // type name set by AtRoot
	path     []string // path segments, innermost first
	verbatim bool     // Err is another decoder's error: Error is its text
}

// Error formats as "cbor: Order.Items[3].SKU: expected text string, found
// unsigned integer at offset 12", or, for an error made by [MethodError],
// as the text of the error it wraps.
func (e *Error) Error() string {
	if e.verbatim {
		return e.Err.Error()
	}
	return e.Detail()
}

// Detail formats e with its path and offset, also where Error gives the
// text of another decoder's error: "cbor: Msg.Payload: require bstr type
// at offset 2" for a field whose UnmarshalCBOR returned "cbor: require
// bstr type". Where that error holds a *Error of its own (generated code
// that a hand-written UnmarshalCBOR called), whose text ends with its own
// offset, counted from the start of the bytes that method was handed,
// the offset of the item comes as "in the item at offset N".
func (e *Error) Detail() string {
	var b strings.Builder
	b.WriteString("cbor: ")
	if p := e.Path(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	var inner *Error
	if e.verbatim {
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "cbor: "))
		if errors.As(e.Err, &inner) {
			b.WriteString(" in the item")
		}
	} else {
		b.WriteString(e.Msg)
	}
	b.WriteString(" at offset ")
	b.WriteString(strconv.FormatInt(e.Offset, 10))
	return b.String()
}

// Path returns the Go path of the value being decoded, "" at the top.
func (e *Error) Path() string {
	var b strings.Builder
	b.WriteString(e.root)
	for i := len(e.path) - 1; i >= 0; i-- {
		s := e.path[i]
		if b.Len() == 0 && s[0] == '.' {
			s = s[1:]
		}
		b.WriteString(s)
	}
	return b.String()
}

// Unwrap returns the cause: a sentinel of this package or an io error.
func (e *Error) Unwrap() error { return e.Err }

func prepend(err error, seg string) error {
	var e *Error
	if errors.As(err, &e) {
		e.path = append(e.path, seg)
	}
	return err
}

// AtField records that err happened in the struct field name. Errors that
// are not *Error are returned unchanged.
func AtField(err error, name string) error { return prepend(err, "."+name) }

// AtIndex records that err happened in element i of an array or slice.
func AtIndex(err error, i int) error { return prepend(err, "["+strconv.Itoa(i)+"]") }

// InKey records that err happened inside a map key that is an array, a
// struct or a pointer to one (shown as [key]): the key's own path
// follows, as in Index.ByCred[key].Hash. An error in the item of a bool,
// integer, text, float or byte array key names the map only.
func InKey(err error) error { return prepend(err, "[key]") }

// AtKey records that err happened in the value of map key key: a string,
// bool, int, int64, uint64 or float64 shown as Go writes it, a []byte (a
// byte array key) in CBOR's diagnostic notation, h'0a0b'; any other key
// (nil among them) as ?.
func AtKey(err error, key any) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	var s string
	switch k := key.(type) {
	case string:
		s = strconv.Quote(k)
	case bool:
		s = strconv.FormatBool(k)
	case int64:
		s = strconv.FormatInt(k, 10)
	case uint64:
		s = strconv.FormatUint(k, 10)
	case int:
		s = strconv.Itoa(k)
	case float64:
		s = strconv.FormatFloat(k, 'g', -1, 64)
	case []byte:
		s = "h'" + hex.EncodeToString(k) + "'"
	default:
		s = "?"
	}
	e.path = append(e.path, "["+s+"]")
	return err
}

// Extent is how much of its input a decoder read, for [AtRoot]: one item
// of a buffer or stream, or the whole input.
type Extent uint8

const (
	// OneItem is what a DecodeCBOR method reads: one item of a buffer or
	// stream, inside whatever encloses it.
	OneItem Extent = iota

	// WholeInput is what UnmarshalCBOR and [Unmarshal] read: all of the
	// input, which must hold exactly one item.
	WholeInput
)

// AtRoot names the root of err's path: name is the type that a decoder
// reading extent of its input decodes; other errors than *Error are
// returned unchanged, but for io.EOF after WholeInput. After OneItem
// (each DecodeCBOR on the way out), name replaces any root named before,
// so the outermost type names the path. After WholeInput, a root named by
// the DecodeCBOR that read the item (a union's variant) stays, name fills
// in where there is none, and io.EOF becomes a *Error "no data" wrapping
// io.ErrUnexpectedEOF, as from Valid. A nil err is nil, without the
// allocation of errors.As's target (code generated with -small calls it
// on success too).
func AtRoot(err error, name string, extent Extent) error {
	if err == nil {
		return nil
	}
	if extent == WholeInput && err == io.EOF {
		err = &Error{Msg: "no data", Err: io.ErrUnexpectedEOF}
	}
	var e *Error
	if errors.As(err, &e) && (extent == OneItem || e.root == "") {
		e.root = name
	}
	return err
}

// Errorf returns a typed error at the decoder's current offset.
func (d *Decoder) Errorf(cause error, format string, args ...any) error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Offset: d.Offset(), Msg: msg, Err: cause}
}

// MethodError is the error for a value whose own UnmarshalCBOR or
// UnmarshalBinary, or fxamacker/cbor on the slow path, failed on the item
// that starts at offset off. Its text is err's, unchanged, as
// fxamacker/cbor returns a method's error ("cbor: require bstr type");
// it wraps err, so errors.As and errors.Is find it, and the path the
// generated code adds on the way out, with off, is in Path, Offset and
// Detail ("cbor: Msg.Payload: require bstr type at offset 4").
func (d *Decoder) MethodError(off int64, err error) error {
	return &Error{Offset: off, Msg: strings.TrimPrefix(err.Error(), "cbor: "), Err: err, verbatim: true}
}

// errAt is the *Error at offset off with the cause and message msg.
func (d *Decoder) errAt(off int64, cause error, msg string) error {
	return &Error{Offset: off, Msg: msg, Err: cause}
}

// DuplicateField is called for a key of a legacy map that names field
// name a second time: outside strict mode and DupMapKeyEnforcedAPF it
// skips the value, so that the first one stays, as fxamacker/cbor's
// default (DupMapKeyQuiet) keeps it; else it is an ErrDuplicateKey.
//
// Deprecated: code generated since version 8 calls RepeatedField.
func (d *Decoder) DuplicateField(name string) error {
	if !d.opts.Strict && d.opts.DupMapKey != DupMapKeyEnforcedAPF {
		return d.Skip()
	}
	return d.Errorf(ErrDuplicateKey, "duplicate map key %q", name)
}

// wrongLength is the error for an array of got elements where the Go type
// needs want (a struct of want fields, or a [want]T).
func (d *Decoder) wrongLength(want, got int) error {
	return d.Errorf(ErrLength, "expected array of %s, found %d", count(want, "element"), got)
}

// count is n and unit, plural unless n is 1: "1 byte", "2 bytes".
func count(n int, unit string) string {
	s := strconv.Itoa(n) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}

// eof converts a failure of need into a typed error at offset off: the
// end of the data in what, or the reader's error.
func (d *Decoder) eof(err error, off int64, what string) error {
	if err == io.ErrUnexpectedEOF {
		return d.errAt(off, err, "unexpected end of data in "+what)
	}
	return d.errAt(off, err, "reading "+what+": "+err.Error())
}

var majorNames = [8]string{"unsigned integer", "negative integer", "byte string", "text string", "array", "map", "tag", "simple value"}

// describe names the item whose initial byte is b, for "found ..." messages.
func describe(b byte) string {
	switch b {
	case byteFalse, byteTrue:
		return "bool"
	case byteNull:
		return "null"
	case byteUndefined:
		return "undefined"
	case byteFloat16, byteFloat32, byteFloat64:
		return "float"
	case byteBreak:
		return "break"
	}
	return majorNames[b>>5]
}

// NotAVariantToEncode is the error for encoding a value of a union's
// interface type that is none of its variants (a type that implements the
// interface but that cbor-gen did not generate). Its decoding counterpart
// is Decoder.NoVariant.
func NotAVariantToEncode(union string, v any) error {
	return fmt.Errorf("cbor: %T is not a variant of %s", v, union)
}
