package fxmode

import (
	"errors"
	"strings"

	"github.com/cborgen/cborgen/runtime"
	"github.com/fxamacker/cbor/v2"
)

// ErrUnsupported is the cause of the error Options returns for a
// DecOptions setting that the runtime cannot honour yet.
var ErrUnsupported = errors.New("not supported by the cbor-gen runtime")

// Options returns the runtime.Options that give the generated decoders
// fxamacker/cbor's meaning of o: MaxNestedLevels is MaxDepth,
// MaxArrayElements and MaxMapPairs keep their names (zero takes the
// default in both, and the defaults are the same); DupMapKey,
// ExtraReturnErrors, FieldNameMatching, IndefLength, TagsMd, UTF8, NaN
// and Inf map to the runtime's settings of the same names, always set (a
// zero runtime setting would take the process default rather than
// fxamacker's). MaxStringLength, for
// which fxamacker has no setting, keeps the runtime's default (64 MiB),
// as the generated UnmarshalCBOR has it when fxamacker calls it.
//
// A field that the runtime has no setting for yet, set to anything but
// its default, is an error that names it (errors.Is finds
// ErrUnsupported); the options returned then hold the limits alone. The
// fields and their defaults are listed in one table, unsupported.
func Options(o cbor.DecOptions) (runtime.Options, error) {
	opts := runtime.Options{
		MaxDepth:         o.MaxNestedLevels,
		MaxArrayElements: o.MaxArrayElements,
		MaxMapPairs:      o.MaxMapPairs,
		// The modes are set whatever their value: a zero runtime setting
		// would take the process default, not fxamacker's.
		DupMapKey:         runtime.DupMapKeyQuiet,
		ExtraReturnErrors: runtime.ExtraDecErrorNone,
		FieldNameMatching: runtime.FieldNameMatchingPreferCaseSensitive,
		IndefLength:       runtime.IndefLengthAllowed,
		TagsMd:            runtime.TagsAllowed,
		UTF8:              runtime.UTF8RejectInvalid,
		NaN:               runtime.NaNDecodeAllowed,
		Inf:               runtime.InfDecodeAllowed,
	}
	var bad []string
	switch o.DupMapKey {
	case cbor.DupMapKeyQuiet:
	case cbor.DupMapKeyEnforcedAPF:
		opts.DupMapKey = runtime.DupMapKeyEnforcedAPF
	default:
		bad = append(bad, "DupMapKey")
	}
	switch o.ExtraReturnErrors {
	case cbor.ExtraDecErrorNone:
	case cbor.ExtraDecErrorUnknownField:
		opts.ExtraReturnErrors = runtime.ExtraDecErrorUnknownField
	default:
		bad = append(bad, "ExtraReturnErrors")
	}
	switch o.FieldNameMatching {
	case cbor.FieldNameMatchingPreferCaseSensitive:
	case cbor.FieldNameMatchingCaseSensitive:
		opts.FieldNameMatching = runtime.FieldNameMatchingCaseSensitive
	default:
		bad = append(bad, "FieldNameMatching")
	}
	switch o.IndefLength {
	case cbor.IndefLengthAllowed:
	case cbor.IndefLengthForbidden:
		opts.IndefLength = runtime.IndefLengthForbidden
	default:
		bad = append(bad, "IndefLength")
	}
	switch o.TagsMd {
	case cbor.TagsAllowed:
	case cbor.TagsForbidden:
		opts.TagsMd = runtime.TagsForbidden
	default:
		bad = append(bad, "TagsMd")
	}
	switch o.UTF8 {
	case cbor.UTF8RejectInvalid:
	case cbor.UTF8DecodeInvalid:
		opts.UTF8 = runtime.UTF8DecodeInvalid
	default:
		bad = append(bad, "UTF8")
	}
	switch o.NaN {
	case cbor.NaNDecodeAllowed:
	case cbor.NaNDecodeForbidden:
		opts.NaN = runtime.NaNDecodeForbidden
	default:
		bad = append(bad, "NaN")
	}
	switch o.Inf {
	case cbor.InfDecodeAllowed:
	case cbor.InfDecodeForbidden:
		opts.Inf = runtime.InfDecodeForbidden
	default:
		bad = append(bad, "Inf")
	}
	for _, u := range unsupported {
		if !u.isDefault(&o) {
			bad = append(bad, u.name)
		}
	}
	if len(bad) != 0 {
		return opts, &unsupportedError{fields: bad}
	}
	return opts, nil
}

type unsupportedError struct{ fields []string }

func (e *unsupportedError) Error() string {
	return "fxmode: DecOptions." + strings.Join(e.fields, ", DecOptions.") + " other than the default: " + ErrUnsupported.Error()
}

func (e *unsupportedError) Unwrap() error { return ErrUnsupported }

// unsupported lists every DecOptions field that Options does not map yet,
// with the test that it holds fxamacker/cbor's default (the zero value:
// DecOptions() of a DecMode returns zero for each of them when the
// program left it unset). To map one, move it into Options and out of
// this table.
var unsupported = []struct {
	name      string
	isDefault func(*cbor.DecOptions) bool
}{
	{"TimeTag", func(o *cbor.DecOptions) bool { return o.TimeTag == cbor.DecTagIgnored }},
	{"IntDec", func(o *cbor.DecOptions) bool { return o.IntDec == cbor.IntDecConvertNone }},
	{"MapKeyByteString", func(o *cbor.DecOptions) bool { return o.MapKeyByteString == cbor.MapKeyByteStringAllowed }},
	{"DefaultMapType", func(o *cbor.DecOptions) bool { return o.DefaultMapType == nil }},
	{"BigIntDec", func(o *cbor.DecOptions) bool { return o.BigIntDec == cbor.BigIntDecodeValue }},
	{"DefaultByteStringType", func(o *cbor.DecOptions) bool { return o.DefaultByteStringType == nil }},
	{"ByteStringToString", func(o *cbor.DecOptions) bool {
		return o.ByteStringToString == cbor.ByteStringToStringForbidden
	}},
	{"FieldNameByteString", func(o *cbor.DecOptions) bool {
		return o.FieldNameByteString == cbor.FieldNameByteStringForbidden
	}},
	{"UnrecognizedTagToAny", func(o *cbor.DecOptions) bool {
		return o.UnrecognizedTagToAny == cbor.UnrecognizedTagNumAndContentToAny
	}},
	{"TimeTagToAny", func(o *cbor.DecOptions) bool { return o.TimeTagToAny == cbor.TimeTagToTime }},
	{"SimpleValues", func(o *cbor.DecOptions) bool { return o.SimpleValues == nil }},
	{"ByteStringToTime", func(o *cbor.DecOptions) bool {
		return o.ByteStringToTime == cbor.ByteStringToTimeForbidden
	}},
	{"ByteStringExpectedFormat", func(o *cbor.DecOptions) bool {
		return o.ByteStringExpectedFormat == cbor.ByteStringExpectedFormatNone
	}},
	{"BignumTag", func(o *cbor.DecOptions) bool { return o.BignumTag == cbor.BignumTagAllowed }},
	{"BinaryUnmarshaler", func(o *cbor.DecOptions) bool {
		return o.BinaryUnmarshaler == cbor.BinaryUnmarshalerByteString
	}},
	{"TextUnmarshaler", func(o *cbor.DecOptions) bool { return o.TextUnmarshaler == cbor.TextUnmarshalerNone }},
	{"JSONUnmarshalerTranscoder", func(o *cbor.DecOptions) bool { return o.JSONUnmarshalerTranscoder == nil }},
}
