package runtime

import "github.com/cborgen/cborgen/runtime/genrt"

// The names that code generated before generated code version 9 calls.
// Generated code calls package genrt since version 9; files written
// before call these names of this package, which stay while
// MinGenVersion admits those files (docs/guide.md, "Versions"). Each is
// the genrt name of the same name. Regenerate such files with the
// current cbor-gen: the functions here are variables, which the compiler
// does not inline, so the old files run slower than before.

// Deprecated: for code generated before generated code version 9;
// regenerate it (go generate), and call package genrt.
const (
	GenVersion         = genrt.GenVersion
	KeyInt             = genrt.KeyInt
	KeyOther           = genrt.KeyOther
	KeyText            = genrt.KeyText
	MajorArray         = genrt.MajorArray
	MajorBytes         = genrt.MajorBytes
	MajorMap           = genrt.MajorMap
	MajorNeg           = genrt.MajorNeg
	MajorSimple        = genrt.MajorSimple
	MajorTag           = genrt.MajorTag
	MajorText          = genrt.MajorText
	MajorUint          = genrt.MajorUint
	MinGenVersion      = genrt.MinGenVersion
	NullKept           = genrt.NullKept
	OneItem            = genrt.OneItem
	SortBytewise       = genrt.SortBytewise
	SortLengthFirst    = genrt.SortLengthFirst
	SortNone           = genrt.SortNone
	TagSelfDescribed   = genrt.TagSelfDescribed
	TimeRFC3339        = genrt.TimeRFC3339
	TimeRFC3339Nano    = genrt.TimeRFC3339Nano
	TimeRFC3339NanoUTC = genrt.TimeRFC3339NanoUTC
	TimeUnix           = genrt.TimeUnix
	TimeUnixDynamic    = genrt.TimeUnixDynamic
	TimeUnixMicro      = genrt.TimeUnixMicro
	WholeInput         = genrt.WholeInput
)

// Deprecated: for code generated before generated code version 9;
// regenerate it (go generate), and call package genrt.
var (
	AppendArrayHead     = genrt.AppendArrayHead
	AppendBigInt        = genrt.AppendBigInt
	AppendBool          = genrt.AppendBool
	AppendBytes         = genrt.AppendBytes
	AppendBytesOrNull   = genrt.AppendBytesOrNull
	AppendFloat32       = genrt.AppendFloat32
	AppendFloat32Full   = genrt.AppendFloat32Full
	AppendFloat64       = genrt.AppendFloat64
	AppendFloat64Full   = genrt.AppendFloat64Full
	AppendHead          = genrt.AppendHead
	AppendInt           = genrt.AppendInt
	AppendMapHead       = genrt.AppendMapHead
	AppendMarshaled     = genrt.AppendMarshaled
	AppendMarshaledBy   = genrt.AppendMarshaledBy
	AppendNull          = genrt.AppendNull
	AppendRaw           = genrt.AppendRaw
	AppendString        = genrt.AppendString
	AppendTag           = genrt.AppendTag
	AppendTextHead      = genrt.AppendTextHead
	AppendTime          = genrt.AppendTime
	AppendUint          = genrt.AppendUint
	AppendUndefined     = genrt.AppendUndefined
	AppendUnknownElems  = genrt.AppendUnknownElems
	AppendUnknownPairs  = genrt.AppendUnknownPairs
	AtField             = genrt.AtField
	AtIndex             = genrt.AtIndex
	AtKey               = genrt.AtKey
	AtRoot              = genrt.AtRoot
	DuplicateField      = genrt.DuplicateField
	EmptyBinary         = genrt.EmptyBinary
	FoldKey             = genrt.FoldKey
	FoldedField         = genrt.FoldedField
	GetBuffer           = genrt.GetBuffer
	GetIntPairs         = genrt.GetIntPairs
	GetMapSorter        = genrt.GetMapSorter
	GetStringPairs      = genrt.GetStringPairs
	GetUintPairs        = genrt.GetUintPairs
	InKey               = genrt.InKey
	MethodError         = genrt.MethodError
	NoVariant           = genrt.NoVariant
	NotAVariant         = genrt.NotAVariant
	NotAVariantToEncode = genrt.NotAVariantToEncode
	SetMapHead          = genrt.SetMapHead
	SizeBigInt          = genrt.SizeBigInt
	SizeHead            = genrt.SizeHead
	WrongLength         = genrt.WrongLength
)

// Deprecated: for code generated before generated code version 9;
// regenerate it (go generate), and call package genrt.
type (
	RegenerateWithNewerCborgen = genrt.RegenerateWithNewerCborgen
	UnknownKeys                = genrt.UnknownKeys
	UpgradeCborgenRuntime      = genrt.UpgradeCborgenRuntime
)

// Deprecated: for code generated before generated code version 9; use
// [genrt.AppendBytesOf].
func AppendBytesOf[E ~uint8](dst []byte, b []E) []byte {
	return genrt.AppendBytesOf[E](dst, b)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.BoxScalar].
func BoxScalar[T genrt.Scalar, I any](d *Decoder, zero I, v T) I {
	return genrt.BoxScalar[T, I](d, zero, v)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.BoxString].
func BoxString[I any](d *Decoder, zero I, s string) I {
	return genrt.BoxString[I](d, zero, s)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.Grow].
func Grow[S ~[]E, E any](s S) S {
	return genrt.Grow[S, E](s)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.NewScalar].
func NewScalar[T genrt.Scalar](d *Decoder) *T {
	return genrt.NewScalar[T](d)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.NewString].
func NewString[T ~string](d *Decoder) *T {
	return genrt.NewString[T](d)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.PairValues].
func PairValues[V any](p *genrt.StringPairs) []V {
	return genrt.PairValues[V](p)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.ReadByteArrayOf].
func ReadByteArrayOf[E ~uint8](d *Decoder, dst []E) error {
	return genrt.ReadByteArrayOf[E](d, dst)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.ReadBytesOf].
func ReadBytesOf[E ~uint8](d *Decoder, buf []E) ([]E, error) {
	return genrt.ReadBytesOf[E](d, buf)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.ReadBytesUnmarshal].
func ReadBytesUnmarshal[E ~uint8, P interface {
	*E
	UnmarshalCBOR([]byte) error
}](d *Decoder, buf []E) ([]E, error) {
	return genrt.ReadBytesUnmarshal[E, P](d, buf)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.ReleasePairs].
func ReleasePairs[V any](p *genrt.StringPairs, vs []V) {
	genrt.ReleasePairs[V](p, vs)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.RepeatedKey].
func RepeatedKey[K comparable, V any](d *Decoder, s *genrt.MapDups[K], m map[K]V, k K, i int) error {
	return genrt.RepeatedKey[K, V](d, s, m, k, i)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.ReuseCleared].
func ReuseCleared[S ~[]E, E any](d *Decoder, s S, n int) S {
	return genrt.ReuseCleared[S, E](d, s, n)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.ReuseSlice].
func ReuseSlice[S ~[]E, E any](d *Decoder, s S, n int) S {
	return genrt.ReuseSlice[S, E](d, s, n)
}

// Deprecated: for code generated before generated code version 9; use
// [genrt.NewMapDups].
func NewMapDups[K comparable, V any](d *Decoder, m map[K]V) genrt.MapDups[K] {
	return genrt.NewMapDups[K, V](d, m)
}
