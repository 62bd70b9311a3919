// Package dynamic encodes and decodes the values whose type generated code
// cannot know when it is generated: fields of interface type (any, or a
// named interface) and fields of a type parameter of a generic struct.
//
// Interface fields go to fxamacker/cbor, which inspects the dynamic type
// with reflection: this is the slow path, and cbor-gen prints a note for
// every field that takes it. The bytes are exactly fxamacker/cbor's, with
// CoreDetEncOptions and the generator's -sort, -time and -timetag choices
// (Options), and decoding is fxamacker's Unmarshal with its default
// options (but UTF8DecodeInvalid when the Decoder's Options.UTF8 is),
// after the runtime has checked the item against the Decoder's limits
// (and, at the top level, against its IndefLength, TagsMd, NaN and Inf
// settings).
//
// Type parameter fields take a fast path first: a value whose pointer has
// the generated methods (AppendCBOR, DecodeCBOR) is encoded through them,
// and bool, the integer and float types, string, []byte, time.Time and
// big.Int are handled here exactly as generated code handles a field of
// that type. Everything else (named non-struct types, composites such as
// []T or map[K]V written as type arguments) goes to fxamacker/cbor.
package dynamic

import (
	"math/big"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// Options are the generator's choices that fxamacker/cbor must follow to
// write the same bytes as generated code. The zero value is the default:
// bytewise key order, time as integer seconds without a tag.
type Options struct {
	Sort    genrt.KeyOrder
	Time    genrt.TimeMode
	TimeTag bool
	// NilEmpty writes nil slices, maps and byte slices as empty ones, as
	// fxamacker's NilContainerAsEmpty (cbor-gen -nilempty).
	NilEmpty bool
	// FloatNone writes every float at its Go width, as fxamacker's
	// ShortestFloatNone (cbor-gen -float none).
	FloatNone bool
}

var modes sync.Map // Options -> cbor.EncMode

func (o Options) encMode() (cbor.EncMode, error) {
	if m, ok := modes.Load(o); ok {
		return m.(cbor.EncMode), nil
	}
	opts := cbor.CoreDetEncOptions()
	switch o.Sort {
	case genrt.SortLengthFirst:
		opts.Sort = cbor.SortLengthFirst
	case genrt.SortNone:
		opts.Sort = cbor.SortNone
	}
	opts.Time = cbor.TimeMode(o.Time) // the runtime's modes are fxamacker's, in its order
	if o.TimeTag {
		opts.TimeTag = cbor.EncTagRequired
	}
	if o.NilEmpty {
		opts.NilContainers = cbor.NilContainerAsEmpty
	}
	if o.FloatNone {
		opts.ShortestFloat = cbor.ShortestFloatNone
	}
	m, err := opts.EncMode()
	if err != nil {
		return nil, err
	}
	modes.Store(o, m)
	return m, nil
}

// Append appends v as fxamacker/cbor encodes it (null for a nil
// interface).
func Append(dst []byte, v any, o Options) ([]byte, error) {
	if v == nil {
		return genrt.AppendNull(dst), nil
	}
	m, err := o.encMode()
	if err != nil {
		return dst, err
	}
	b, err := m.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// Decode reads the next item from d into the value ptr points to, as
// fxamacker/cbor's Unmarshal does. The item is first checked to be
// well-formed within d's limits; an error from fxamacker (or from a
// method it called) keeps its text, wrapped by Decoder.MethodError in a
// *runtime.Error at the item's offset (errors.As finds both).
func Decode(d *genrt.Decoder, ptr any) error {
	off := d.Offset()
	raw, err := d.ReadRawChecked()
	if err != nil {
		return err
	}
	unmarshal := cbor.Unmarshal
	if d.Options().UTF8 == genrt.UTF8DecodeInvalid {
		unmarshal = utf8Invalid.Unmarshal
	}
	if err := unmarshal(raw, ptr); err != nil {
		return d.MethodError(off, err)
	}
	return nil
}

// utf8Invalid is fxamacker's default DecMode but for UTF8DecodeInvalid.
var utf8Invalid = func() cbor.DecMode {
	m, err := cbor.DecOptions{UTF8: cbor.UTF8DecodeInvalid}.DecMode()
	if err != nil {
		panic(err)
	}
	return m
}()

// generated is the method set cbor-gen gives a pointer to a struct.
type generated interface {
	AppendCBOR(dst []byte) ([]byte, error)
	DecodeCBOR(d *genrt.Decoder) error
}

// AppendValue appends *p, a value of a type parameter: through its
// generated methods, directly for the basic types, else through
// fxamacker/cbor.
func AppendValue[T any](dst []byte, p *T, o Options) ([]byte, error) {
	switch p := any(p).(type) {
	case generated:
		return p.AppendCBOR(dst)
	case *bool:
		return genrt.AppendBool(dst, *p), nil
	case *int:
		return genrt.AppendInt(dst, int64(*p)), nil
	case *int8:
		return genrt.AppendInt(dst, int64(*p)), nil
	case *int16:
		return genrt.AppendInt(dst, int64(*p)), nil
	case *int32:
		return genrt.AppendInt(dst, int64(*p)), nil
	case *int64:
		return genrt.AppendInt(dst, *p), nil
	case *uint:
		return genrt.AppendUint(dst, uint64(*p)), nil
	case *uint8:
		return genrt.AppendUint(dst, uint64(*p)), nil
	case *uint16:
		return genrt.AppendUint(dst, uint64(*p)), nil
	case *uint32:
		return genrt.AppendUint(dst, uint64(*p)), nil
	case *uint64:
		return genrt.AppendUint(dst, *p), nil
	case *float32:
		if o.FloatNone {
			return genrt.AppendFloat32Full(dst, *p), nil
		}
		return genrt.AppendFloat32(dst, *p), nil
	case *float64:
		if o.FloatNone {
			return genrt.AppendFloat64Full(dst, *p), nil
		}
		return genrt.AppendFloat64(dst, *p), nil
	case *string:
		return genrt.AppendString(dst, *p), nil
	case *[]byte:
		if *p == nil {
			return genrt.AppendNull(dst), nil
		}
		return genrt.AppendBytes(dst, *p), nil
	case *time.Time:
		return genrt.AppendTime(dst, *p, o.Time, o.TimeTag)
	case *big.Int:
		return genrt.AppendBigInt(dst, p), nil
	}
	return Append(dst, p, o)
}

// DecodeValue decodes the next item from d into *p, a value of a type
// parameter, choosing the way AppendValue chose to encode it.
//
// A null keeps the value of a type that cannot be nil (outside strict
// mode, runtime.Decoder.KeepNull), as fxamacker/cbor keeps it.
func DecodeValue[T any](d *genrt.Decoder, p *T) (err error) {
	switch any(p).(type) {
	case *bool, *int, *int8, *int16, *int32, *int64, *uint, *uint8, *uint16, *uint32, *uint64,
		*float32, *float64, *string, *time.Time:
		if d.KeepNull() {
			return nil
		}
	}
	switch p := any(p).(type) {
	case generated:
		return p.DecodeCBOR(d)
	case *bool:
		*p, err = d.ReadBool()
	case *int:
		*p, err = d.ReadInt()
	case *int8:
		*p, err = d.ReadInt8()
	case *int16:
		*p, err = d.ReadInt16()
	case *int32:
		*p, err = d.ReadInt32()
	case *int64:
		*p, err = d.ReadInt64()
	case *uint:
		*p, err = d.ReadUint()
	case *uint8:
		*p, err = d.ReadUint8()
	case *uint16:
		*p, err = d.ReadUint16()
	case *uint32:
		*p, err = d.ReadUint32()
	case *uint64:
		*p, err = d.ReadUint64()
	case *float32:
		*p, err = d.ReadFloat32()
	case *float64:
		*p, err = d.ReadFloat64()
	case *string:
		*p, err = d.ReadString()
	case *[]byte:
		var null bool
		if null, err = d.ReadNull(); err == nil {
			if null {
				*p = nil
			} else {
				*p, err = d.ReadBytes(*p)
			}
		}
	case *time.Time:
		*p, err = d.ReadTime()
	case *big.Int:
		err = d.ReadBigInt(p)
	default:
		err = Decode(d, p)
	}
	return err
}

// plural is the "s" of a count other than 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// isByte reports whether T's kind is uint8, as for type Kind uint8: a
// slice or array of it is a byte string, as fxamacker/cbor writes it.
func isByte[T any]() bool { return reflect.TypeFor[T]().Kind() == reflect.Uint8 }

// asBytes views a slice of a uint8-kinded T as []byte, with its capacity
// (DecodeSlice reads into it).
func asBytes[T any](s []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s))[:len(s)]
}

// AppendSlice appends s, a []T for a type parameter T: null when nil
// (empty with Options.NilEmpty), a byte string when T's kind is uint8,
// else an array of AppendValue's encodings.
func AppendSlice[T any](dst []byte, s []T, o Options) ([]byte, error) {
	if s == nil && !o.NilEmpty {
		return genrt.AppendNull(dst), nil
	}
	return AppendArray(dst, s, o)
}

// AppendArray appends a[:] of a [N]T for a type parameter T: a byte string
// when T's kind is uint8, else an array.
func AppendArray[T any](dst []byte, a []T, o Options) (_ []byte, err error) {
	if isByte[T]() {
		return genrt.AppendBytes(dst, asBytes(a)), nil
	}
	dst = genrt.AppendArrayHead(dst, len(a))
	for i := range a {
		if dst, err = AppendValue(dst, &a[i], o); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// DecodeSlice decodes into *s, a []T for a type parameter T, what
// AppendSlice writes, into the array of *s when its capacity holds the
// elements (each decoded in place, as fxamacker/cbor decodes them).
func DecodeSlice[T any](d *genrt.Decoder, s *[]T) error {
	if null, err := d.ReadNil(); err != nil {
		return err
	} else if null {
		*s = nil
		return nil
	}
	if isByte[T]() {
		b, err := d.ReadBytes(asBytes((*s)[:0]))
		*s = unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), cap(b))[:len(b)]
		return err
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	out := genrt.ReuseSlice(d, *s, n) // elements decoded in place, as fxamacker does
	for i := 0; ; i++ {
		more, err := d.NextElem(n, i)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		out = genrt.Grow(out)
		if err := DecodeValue(d, &out[i]); err != nil {
			*s = out
			return genrt.AtIndex(err, i)
		}
	}
	d.Leave()
	*s = out
	return nil
}

// DecodeArray decodes into a[:] of a [N]T for a type parameter T what
// AppendArray writes, N elements (or bytes), and as fxamacker/cbor reads
// an array of another length (outside strict mode): the elements past N
// are skipped, the missing ones zero; a null keeps the array.
func DecodeArray[T any](d *genrt.Decoder, a []T) error {
	if isByte[T]() {
		return d.ReadByteArray(asBytes(a))
	}
	if d.KeepNull() {
		return nil
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return err
	}
	i := 0
	for ; ; i++ {
		more, err := d.NextElem(n, i)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if i >= len(a) {
			// Skipped, as fxamacker/cbor skips them (strict mode: ErrLength).
			if err := d.ArrayExtra(len(a)); err != nil {
				return err
			}
			continue
		}
		if err := DecodeValue(d, &a[i]); err != nil {
			return genrt.AtIndex(err, i)
		}
	}
	if i < len(a) {
		if err := d.ArrayShort(len(a), i); err != nil {
			return err
		}
		clear(a[i:])
	}
	d.Leave()
	return nil
}
