package kindsdiff_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/marshalers"
	me "github.com/cborgen/cborgen/testdata/golden/methoderrors"
)

// Errors of the program's own methods, against fxamacker/cbor: random
// values of the golden methoderrors types, whose Blob, Broken and Wrapper
// fields fail in their own methods now and then, encoded and decoded
// through the generated code and through fxamacker with mirror types (the
// array format, and the legacy map of a mirror without toarray); the two
// must agree on the bytes, on the decoded value, or on the error's text.

type (
	aBox struct {
		_ struct{} `cbor:",toarray"`
		V me.Blob
	}
	aMid struct {
		_ struct{} `cbor:",toarray"`
		B me.Blob
		K me.Broken
		W *me.Wrapper
	}
	aHolder struct {
		_    struct{} `cbor:",toarray"`
		B    me.Blob
		PB   *me.Blob
		Bs   []me.Blob
		MB   map[string]me.Blob
		Mid  aMid
		PMid *aMid
		W    me.Wrapper
		Ws   []me.Wrapper
		K    me.Broken
		PK   *me.Broken
		Ks   []me.Broken
		MK   map[string]me.Broken
		Box  aBox
	}
	// The legacy format: the mirrors without toarray.
	mBox struct{ V me.Blob }
	mMid struct {
		B me.Blob
		K me.Broken
		W *me.Wrapper
	}
	mHolder struct {
		B    me.Blob
		PB   *me.Blob
		Bs   []me.Blob
		MB   map[string]me.Blob
		Mid  mMid
		PMid *mMid
		W    me.Wrapper
		Ws   []me.Wrapper
		K    me.Broken
		PK   *me.Broken
		Ks   []me.Broken
		MK   map[string]me.Broken
		Box  mBox
	}
	// Sparse is a map-format type; the Mid it holds is an array.
	sSparse struct {
		B  me.Blob            `cbor:"b"`
		K  *me.Broken         `cbor:"k"`
		W  []me.Wrapper       `cbor:"w"`
		MB map[string]me.Blob `cbor:"mb"`
		M  *aMid              `cbor:"m"`
	}
)

// faulty makes random values of the methoderrors types; each method fails
// with probability about 1 in rate.
type faulty struct {
	r    *rand.Rand
	rate int
}

func (f faulty) blob() me.Blob {
	if f.r.IntN(4) == 0 {
		return nil
	}
	n := f.r.IntN(5) // at most 4 bytes: read back
	if f.r.IntN(f.rate) == 0 {
		n = 5 + f.r.IntN(3) // too long for UnmarshalCBOR
	}
	b := make(me.Blob, n)
	for i := range b {
		b[i] = byte(f.r.IntN(256))
		if i == 0 && b[i] == 0xee {
			b[i] = 0 // 0xee is the fault below
		}
	}
	if n > 0 && f.r.IntN(f.rate) == 0 {
		b[0] = 0xee // written as an integer: "cbor: require bstr type"
	}
	return b
}

func (f faulty) broken(ok bool) me.Broken {
	k := me.Broken{Fault: uint8(f.r.IntN(32)) * 8}
	if !ok && f.r.IntN(f.rate) == 0 {
		k.Fault += uint8(1 + f.r.IntN(7)) // each way of failing
	}
	return k
}

func (f faulty) wrapper() me.Wrapper {
	w := me.Wrapper{Count: uint16(f.r.IntN(128)), B: f.blob()}
	if f.r.IntN(f.rate) == 0 {
		w.Count = uint16(128 + f.r.IntN(1000)) // beyond Inner.N
	}
	return w
}

func (f faulty) mid() me.Mid {
	m := me.Mid{B: f.blob(), K: f.broken(false)}
	if f.r.IntN(2) == 0 {
		w := f.wrapper()
		m.W = &w
	}
	return m
}

func (f faulty) holder() me.Holder {
	h := me.Holder{B: f.blob(), Mid: f.mid(), W: f.wrapper(), K: f.broken(false), Box: me.Box[me.Blob]{V: f.blob()}}
	if f.r.IntN(2) == 0 {
		b := f.blob()
		h.PB = &b
	}
	if f.r.IntN(2) == 0 {
		m := f.mid()
		h.PMid = &m
	}
	if f.r.IntN(2) == 0 {
		k := f.broken(false)
		h.PK = &k
	}
	for range f.r.IntN(4) {
		h.Bs = append(h.Bs, f.blob())
		h.Ws = append(h.Ws, f.wrapper())
		h.Ks = append(h.Ks, f.broken(false))
	}
	if n := f.r.IntN(4); n > 0 {
		h.MB, h.MK = map[string]me.Blob{}, map[string]me.Broken{}
		bad := f.r.IntN(n) // one key may fail to encode: which is met first is Go's map order
		for i := range n {
			k := fmt.Sprint("k", i)
			h.MB[k] = f.blob()
			h.MK[k] = f.broken(i != bad)
		}
	}
	return h
}

func (f faulty) sparse() me.Sparse {
	s := me.Sparse{B: f.blob()}
	if f.r.IntN(2) == 0 {
		k := f.broken(false)
		s.K = &k
	}
	for range f.r.IntN(3) {
		s.W = append(s.W, f.wrapper())
	}
	if f.r.IntN(2) == 0 {
		s.MB = map[string]me.Blob{"a": f.blob(), "b": f.blob()}
	}
	if f.r.IntN(2) == 0 {
		m := f.mid()
		s.M = &m
	}
	return s
}

// sameError says how err (generated) and fxErr (fxamacker) differ, or "".
func sameError(err, fxErr error) string {
	switch {
	case err == nil && fxErr == nil:
		return ""
	case err == nil || fxErr == nil:
		return fmt.Sprintf("error %v, fxamacker's %v", err, fxErr)
	case err.Error() != fxErr.Error():
		return fmt.Sprintf("error\n%s\nfxamacker's\n%s", err, fxErr)
	}
	return ""
}

// methodCase encodes and decodes one random value of a generated type T
// (through its pointer P) against fxamacker with the array mirror A (or,
// for a map-format type, its map mirror) and, if it has one, the legacy
// mirror M (nil: none); it returns what differs, or "".
func methodCase[T any, P interface {
	*T
	MarshalCBOR() ([]byte, error)
	UnmarshalCBOR([]byte) error
}, A, M any](v T, legacy bool) string {
	var a A
	mirror.Convert(&a, v)
	got, err := P(&v).MarshalCBOR()
	want, fxErr := cborEnc.Marshal(a)
	if d := sameError(err, fxErr); d != "" {
		return "encoding: " + d
	}
	if err == nil && string(got) != string(want) {
		return fmt.Sprintf("encoding: %x, fxamacker %x", got, want)
	}
	inputs := [][]byte{want}
	if legacy {
		var m M
		mirror.Convert(&m, v)
		if b, err := cborEnc.Marshal(m); err == nil {
			inputs = append(inputs, b)
		}
	}
	for i, in := range inputs {
		if in == nil {
			continue
		}
		var dec T
		err := P(&dec).UnmarshalCBOR(in)
		var fxErr error
		var back any
		if i == 0 {
			var fa A
			fxErr = cbor.Unmarshal(in, &fa)
			back = fa
		} else {
			var fm M
			fxErr = cbor.Unmarshal(in, &fm)
			back = fm
		}
		if d := sameError(err, fxErr); d != "" {
			return fmt.Sprintf("decoding %x: %s", in, d)
		}
		if err == nil {
			var fromFx T
			switch b := back.(type) {
			case A:
				mirror.Convert(&fromFx, b)
			case M:
				mirror.Convert(&fromFx, b)
			}
			if d := mirror.Diff(dec, fromFx); d != "" {
				return fmt.Sprintf("decoding %x: %s", in, d)
			}
		}
	}
	return ""
}

var cborEnc = func() cbor.EncMode {
	em, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		panic(err)
	}
	return em
}()

func TestMethodErrorsAgainstFxamacker(t *testing.T) {
	n := 6000
	if testing.Short() {
		n = 600
	}
	r := rand.New(rand.NewPCG(26, 4))
	var failed, encFailed int
	for i := range n {
		f := faulty{r: r, rate: 2 + i%12}
		h := f.holder()
		if d := methodCase[me.Holder, *me.Holder, aHolder, mHolder](h, true); d != "" {
			t.Fatalf("Holder %+v: %s", h, d)
		}
		s := f.sparse()
		if d := methodCase[me.Sparse, *me.Sparse, sSparse, sSparse](s, false); d != "" {
			t.Fatalf("Sparse %+v: %s", s, d)
		}
		if _, err := h.MarshalCBOR(); err != nil {
			encFailed++
		} else if b, _ := h.MarshalCBOR(); new(me.Holder).UnmarshalCBOR(b) != nil {
			failed++
		}
	}
	// The table above must exercise both directions.
	if encFailed < n/10 || failed < n/10 {
		t.Errorf("%d of %d values failed to encode, %d to decode: the faults are too rare to test", encFailed, n, failed)
	}
}

// TestMethodErrorWhere: a method's error keeps its own text, and the
// *runtime.Error around it says where: the Go path, the offset of the
// item the method was handed, and Detail for both in one line.
func TestMethodErrorWhere(t *testing.T) {
	h := me.Holder{Bs: []me.Blob{{1}, {2}, {3, 3, 3, 3, 3}}}
	data, err := h.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	err = new(me.Holder).UnmarshalCBOR(data)
	const text = "methoderrors: a Blob of 5 bytes, at most 4"
	var re *runtime.Error
	if err == nil || err.Error() != text || !errors.As(err, &re) {
		t.Fatalf("error %#v, want %q in a *runtime.Error", err, text)
	}
	// 8d f6 f6 83 41 01 41 02 45...: the third Blob starts at offset 8.
	if re.Path() != "Holder.Bs[2]" || re.Offset != 8 || re.Detail() != "cbor: Holder.Bs[2]: "+text+" at offset 8" {
		t.Errorf("path %q, offset %d, detail %q", re.Path(), re.Offset, re.Detail())
	}

	// Generated code inside a hand-written UnmarshalCBOR inside generated
	// code: Inner's error, as Wrapper returned it, with one offset in
	// the text; the outer one is on the *runtime.Error around it.
	h = me.Holder{Ws: []me.Wrapper{{}, {Count: 300}}}
	if data, err = h.MarshalCBOR(); err != nil {
		t.Fatal(err)
	}
	err = new(me.Holder).UnmarshalCBOR(data)
	var inner me.Inner
	innerErr := inner.UnmarshalCBOR([]byte{0x82, 0x19, 0x01, 0x2c, 0xf6})
	if err == nil || innerErr == nil || err.Error() != innerErr.Error() || strings.Count(err.Error(), "at offset") != 1 {
		t.Fatalf("error %v, want Inner's %v", err, innerErr)
	}
	at := bytes.Index(data, []byte{0x82, 0x19, 0x01, 0x2c})
	if !errors.As(err, &re) || re.Path() != "Holder.Ws[1]" || re.Offset != int64(at) ||
		re.Detail() != "cbor: Holder.Ws[1]: "+strings.TrimPrefix(innerErr.Error(), "cbor: ")+fmt.Sprintf(" in the item at offset %d", at) {
		t.Errorf("outer: %q at %d: %s", re.Path(), re.Offset, re.Detail())
	}
	var innerRE *runtime.Error
	if !errors.As(re.Err, &innerRE) || innerRE.Path() != "Inner.N" {
		t.Errorf("the *runtime.Error of Inner is not reachable from %#v", re.Err)
	}

	// The slow path: fxamacker's call of Blob's method, its text once.
	h = me.Holder{Box: me.Box[me.Blob]{V: me.Blob{0xee}}}
	if data, err = h.MarshalCBOR(); err != nil {
		t.Fatal(err)
	}
	err = new(me.Holder).UnmarshalCBOR(data)
	if err == nil || err.Error() != "cbor: require bstr type" || !errors.As(err, &re) || re.Path() != "Holder.Box.V" {
		t.Errorf("slow path: %v (%q)", err, re.Path())
	}

	// MarshalCBOR's bytes refused: fxamacker's words, the check's cause.
	_, err = me.Holder{PK: &me.Broken{Fault: 3}}.MarshalCBOR()
	var mErr *runtime.MarshalerError
	if !errors.As(err, &mErr) || mErr.Type != "methoderrors.Broken" || !errors.Is(err, io.ErrUnexpectedEOF) ||
		err.Error() != "cbor: error calling MarshalCBOR for type methoderrors.Broken: unexpected EOF" {
		t.Errorf("MarshalCBOR's output: %#v", err)
	}
}

// TestMethodTypeErrorDeparture pins the documented departure: fxamacker
// renames the struct field of its own *cbor.UnmarshalTypeError that a
// field's method returns to the holder's field; the generated code hands
// it on as the method returned it.
func TestMethodTypeErrorDeparture(t *testing.T) {
	type priced struct {
		_      struct{} `cbor:",toarray"`
		Price  marshalers.Money
		Prices []marshalers.Money
		Best   *marshalers.Money
	}
	in := []byte{0x83, 0x07, 0xf6, 0xf6} // Price: 7, not Money's array
	own := new(marshalers.Money).UnmarshalCBOR(in[1:2])
	err := new(marshalers.Priced).UnmarshalCBOR(in)
	fxErr := cbor.Unmarshal(in, new(priced))
	var ute *cbor.UnmarshalTypeError
	if own == nil || err == nil || err.Error() != own.Error() || !errors.As(err, &ute) {
		t.Fatalf("generated: %v, want Money's own %v", err, own)
	}
	if fxErr == nil || !strings.Contains(fxErr.Error(), "into Go struct field kindsdiff_test.priced.Price of type") ||
		strings.Contains(own.Error(), "struct field") {
		t.Errorf("fxamacker: %v (Money's own: %v): the departure is gone or changed; update docs/guide.md", fxErr, own)
	}
}
