// Package methoderrors is a golden case: fields whose types have CBOR
// methods of their own that fail, directly, in containers, behind
// pointers, inside a hand-written UnmarshalCBOR that calls generated code,
// and on the slow path (a type parameter). The generated code hands their
// errors back as fxamacker/cbor does (examples/internal/kindsdiff checks
// the texts against it).
package methoderrors

import (
	"errors"
	"fmt"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// Blob is a byte string of at most 4 bytes, with methods of its own. A
// Blob that starts with 0xee is written as an integer, which its own
// UnmarshalCBOR refuses with fxamacker's words for it.
type Blob []byte

// MarshalCBOR writes b as a byte string (0xee first: as the integer 1).
func (b Blob) MarshalCBOR() ([]byte, error) {
	if len(b) > 0 && b[0] == 0xee {
		return []byte{0x01}, nil
	}
	return genrt.AppendBytes(nil, b), nil
}

// UnmarshalCBOR reads a byte string of at most 4 bytes.
func (b *Blob) UnmarshalCBOR(data []byte) error {
	if len(data) == 0 || data[0]>>5 != genrt.MajorBytes {
		return errors.New("cbor: require bstr type")
	}
	v, err := runtime.NewBytesDecoder(data).ReadBytes(nil)
	if err != nil {
		return err
	}
	if len(v) > 4 {
		return fmt.Errorf("methoderrors: a Blob of %d bytes, at most 4", len(v))
	}
	*b = v
	return nil
}

// Broken writes Fault as an unsigned integer when Fault%8 is 0; otherwise
// its MarshalCBOR fails (1) or returns bytes that are not one well-formed
// item (2-7), as a faulty hand-written marshaler may.
type Broken struct{ Fault uint8 }

var brokenOutputs = [8][]byte{2: {}, 3: {0x18}, 4: {0x01, 0x01}, 5: {0x9f, 0x01, 0xff}, 6: {0x1c}, 7: {0xc2, 0x01}}

// MarshalCBOR writes Fault, or fails by the rule above.
func (k Broken) MarshalCBOR() ([]byte, error) {
	switch f := k.Fault % 8; f {
	case 0:
		return genrt.AppendUint(nil, uint64(k.Fault)), nil
	case 1:
		return nil, errors.New("methoderrors: this Broken cannot be written")
	default:
		return brokenOutputs[f], nil
	}
}

// UnmarshalCBOR reads Fault.
func (k *Broken) UnmarshalCBOR(data []byte) error {
	v, err := runtime.NewBytesDecoder(data).ReadUint8()
	k.Fault = v
	return err
}

// Wrapper is written as an Inner and read through Inner's generated
// decoder, the pattern of a hand-written UnmarshalCBOR around generated
// code: a Count over 127 does not fit Inner.N, and Inner's error comes
// back through Wrapper's method as it is.
type Wrapper struct {
	Count uint16
	B     Blob
}

// MarshalCBOR writes w as the Inner it holds.
func (w Wrapper) MarshalCBOR() ([]byte, error) {
	dst := genrt.AppendUint(genrt.AppendArrayHead(nil, 2), uint64(w.Count))
	b, err := w.B.MarshalCBOR()
	return append(dst, b...), err
}

// UnmarshalCBOR reads an Inner.
func (w *Wrapper) UnmarshalCBOR(data []byte) error {
	var in Inner
	if err := in.UnmarshalCBOR(data); err != nil {
		return err
	}
	w.Count, w.B = uint16(in.N), in.B
	return nil
}

// Inner is generated; Wrapper's methods use it.
type Inner struct {
	N int8
	B Blob
}

// Box holds its value on the slow path (a type parameter).
type Box[T any] struct{ V T }

// Mid is a struct of such fields inside another.
type Mid struct {
	B Blob
	K Broken
	W *Wrapper
}

// Holder has every shape of such fields.
type Holder struct {
	B    Blob
	PB   *Blob
	Bs   []Blob
	MB   map[string]Blob
	Mid  Mid
	PMid *Mid
	W    Wrapper
	Ws   []Wrapper
	K    Broken
	PK   *Broken
	Ks   []Broken
	MK   map[string]Broken
	Box  Box[Blob]
}

// Sparse is a map-format struct of such fields.
//
//cborgen:map
type Sparse struct {
	B  Blob            `cbor:"b"`
	K  *Broken         `cbor:"k"`
	W  []Wrapper       `cbor:"w"`
	MB map[string]Blob `cbor:"mb"`
	M  *Mid            `cbor:"m"`
}
