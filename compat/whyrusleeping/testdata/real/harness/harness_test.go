// Package harness holds both sides to the same bytes and the same
// accept/reject on the real code: go-state-types (builtin/v16 miner,
// market, power, verifreg) and indigo (api/atproto, api/bsky, lex/util)
// as their modules check them in (whyrusleeping/cbor-gen's code) against
// the same packages regenerated with -compat whyrusleeping (module
// ours.test/...). ../run.sh builds the modules and runs it.
package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"
	cbg "github.com/whyrusleeping/cbor-gen"

	tlexutil "github.com/bluesky-social/indigo/lex/util"
	addr "github.com/filecoin-project/go-address"
	"github.com/filecoin-project/go-bitfield"
	fbig "github.com/filecoin-project/go-state-types/big"
	tmarket "github.com/filecoin-project/go-state-types/builtin/v16/market"
	omarket "ours.test/go-state-types/builtin/v16/market"
	olexutil "ours.test/indigo/lex/util"
)

type pair struct {
	name   string
	theirs func() any
	ours   func() any
}

// rounds is how many random values each type gets.
func rounds() int {
	if testing.Short() {
		return 300
	}
	return 10000
}

// TestEncodeSameBytes: for random values of every type, both write the
// same bytes, or both refuse the value.
func TestEncodeSameBytes(t *testing.T) {
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(p.name))))
			refused, took, left := 0, 0, 0
			for i := range rounds() {
				tv := p.theirs()
				fill(r, reflect.ValueOf(tv).Elem(), 0)
				ov := p.ours()
				convert(reflect.ValueOf(ov).Elem(), reflect.ValueOf(tv).Elem())
				var tb, ob bytes.Buffer
				terr := tv.(cbg.CBORMarshaler).MarshalCBOR(&tb)
				oerr := ov.(cbg.CBORMarshaler).MarshalCBOR(&ob)
				if (terr == nil) != (oerr == nil) {
					t.Fatalf("value %d: theirs %v, ours %v\n%#v", i, terr, oerr, tv)
				}
				if terr != nil {
					refused++
					if ob.Len() != 0 {
						t.Fatalf("value %d: ours wrote %d bytes before refusing it", i, ob.Len())
					}
					rb := bytes.NewBuffer(make([]byte, 0, 4096))
					if err := ov.(cbg.CBORMarshaler).MarshalCBOR(rb); err == nil || rb.Len() != 0 {
						t.Fatalf("value %d into a buffer with room: %v, %d bytes written; want the refusal, none", i, err, rb.Len())
					}
					continue
				}
				if !bytes.Equal(tb.Bytes(), ob.Bytes()) {
					t.Fatalf("value %d:\ntheirs %x\nours   %x\n%#v", i, tb.Bytes(), ob.Bytes(), tv)
				}
				// Into a bytes.Buffer that holds a byte and has room for
				// none, some or all of the item, and more.
				room := r.IntN(2*tb.Len() + 2*64)
				eb := bytes.NewBuffer(append(make([]byte, 0, 1+room), 0xee))
				if err := ov.(cbg.CBORMarshaler).MarshalCBOR(eb); err != nil || eb.Len() != 1+tb.Len() || eb.Bytes()[0] != 0xee || !bytes.Equal(eb.Bytes()[1:], tb.Bytes()) {
					t.Fatalf("value %d into a buffer with %d bytes free: %x, %v; want ee%x", i, room, eb.Bytes(), err, tb.Bytes())
				}
				app, err := ov.(interface{ AppendCBOR([]byte) ([]byte, error) }).AppendCBOR([]byte{0xee})
				if err != nil || !bytes.Equal(app[1:], tb.Bytes()) || app[0] != 0xee {
					t.Fatalf("value %d: AppendCBOR %x, %v; want ee%x", i, app, err, tb.Bytes())
				}
				checkDecode(t, p, tb.Bytes(), fmt.Sprintf("value %d", i))
				if i%4 == 0 {
					for j, m := range mutations(r, tb.Bytes()) {
						if checkDecode(t, p, m, fmt.Sprintf("value %d mutation %d", i, j)) {
							took++
						} else {
							left++
						}
					}
				}
			}
			t.Logf("%s: %d values, %d refused by both, mutations taken by both %d, refused by both %d", p.name, rounds(), refused, took, left)
			if refused == rounds() {
				t.Fatal("every value was refused")
			}
			if took == 0 || left == 0 {
				t.Logf("of the mutated inputs, both took %d and both refused %d: the table tests one side of the rules only", took, left)
			}
		})
	}
}

// checkDecode decodes data with both, from a *bytes.Reader: both accept
// or both refuse; when they accept, the values are equal and both read
// the same number of bytes. Ours is also run over a reader that is not
// a ByteScanner, and over the buffer (UnmarshalCBORBytes, which takes
// exactly one item).
func checkDecode(t *testing.T, p pair, data []byte, what string) (accepted bool) {
	t.Helper()
	tv, ov := p.theirs(), p.ours()
	tr := bytes.NewReader(data)
	terr := tv.(cbg.CBORUnmarshaler).UnmarshalCBOR(tr)
	or := bytes.NewReader(data)
	oerr := ov.(cbg.CBORUnmarshaler).UnmarshalCBOR(or)
	if (terr == nil) != (oerr == nil) {
		t.Fatalf("%s: decoding %x: theirs %v, ours %v", what, data, terr, oerr)
	}
	if errors.Is(terr, io.EOF) != errors.Is(oerr, io.EOF) && terr != nil && len(data) == 0 {
		t.Fatalf("%s: decoding %x: theirs %v, ours %v", what, data, terr, oerr)
	}
	ov2 := p.ours()
	oerr2 := ov2.(cbg.CBORUnmarshaler).UnmarshalCBOR(iotest.OneByteReader(bytes.NewReader(data)))
	if (oerr2 == nil) != (oerr == nil) {
		t.Fatalf("%s: decoding %x one byte at a time: %v, from a bytes.Reader %v", what, data, oerr2, oerr)
	}
	ov3 := p.ours()
	oerr3 := ov3.(interface{ UnmarshalCBORBytes([]byte) error }).UnmarshalCBORBytes(data)
	if wantOK := terr == nil && tr.Len() == 0; (oerr3 == nil) != wantOK {
		t.Fatalf("%s: UnmarshalCBORBytes(%x): %v; theirs %v with %d bytes left", what, data, oerr3, terr, tr.Len())
	}
	if terr != nil {
		return false
	}
	if tr.Len() != or.Len() {
		t.Fatalf("%s: decoding %x: theirs left %d bytes, ours %d", what, data, tr.Len(), or.Len())
	}
	back := p.theirs()
	convert(reflect.ValueOf(back).Elem(), reflect.ValueOf(ov).Elem())
	if !equal(reflect.ValueOf(tv).Elem(), reflect.ValueOf(back).Elem()) {
		t.Fatalf("%s: decoding %x:\ntheirs %#v\nours   %#v", what, data, tv, back)
	}
	back2 := p.theirs()
	convert(reflect.ValueOf(back2).Elem(), reflect.ValueOf(ov2).Elem())
	if !equal(reflect.ValueOf(tv).Elem(), reflect.ValueOf(back2).Elem()) {
		t.Fatalf("%s: decoding %x one byte at a time:\ntheirs %#v\nours   %#v", what, data, tv, back2)
	}
	return true
}

// mutations of an encoding: cut short, bytes changed, bytes added, heads
// written long.
func mutations(r *rand.Rand, data []byte) [][]byte {
	var out [][]byte
	if len(data) > 0 {
		out = append(out, data[:r.IntN(len(data))])
	}
	for range 4 {
		m := append([]byte(nil), data...)
		if len(m) == 0 {
			break
		}
		i := r.IntN(len(m))
		switch r.IntN(4) {
		case 0:
			m[i] = byte(r.IntN(256))
		case 1:
			m[i] ^= 1 << r.IntN(8)
		case 2:
			m = append(m[:i], append([]byte{byte(r.IntN(256))}, m[i:]...)...)
		case 3:
			// A one-byte head written in two: not the shortest form.
			if m[i]&0x1f < 24 {
				m = append(m[:i], append([]byte{m[i]&0xe0 | 24, m[i] & 0x1f}, m[i+1:]...)...)
			}
		}
		out = append(out, m)
	}
	out = append(out, append(append([]byte(nil), data...), 0x00))
	return out
}

var (
	addrType        = reflect.TypeOf(addr.Address{})
	lexLinkType     = reflect.TypeOf(tlexutil.LexLink{})
	oursLexLinkType = reflect.TypeOf(olexutil.LexLink{})
	bitfieldType    = reflect.TypeOf(bitfield.BitField{})
	cidType         = reflect.TypeOf(cid.Cid{})
	bigType         = reflect.TypeOf(big.Int{})
	filIntType      = reflect.TypeOf(fbig.Int{})
	deferredType    = reflect.TypeOf(cbg.Deferred{})
	labelType       = reflect.TypeOf(tmarket.DealLabel{})
	oursLabelType   = reflect.TypeOf(omarket.DealLabel{})
)

// randomLabel is a market.DealLabel of text or bytes, short or about
// the limits of its constructors (256 bytes) and of the short heads
// (23, 24, 255), or the zero label; it is made by the label's own
// UnmarshalCBOR, as a decode makes it.
func randomLabel(r *rand.Rand) tmarket.DealLabel {
	var n int
	switch r.IntN(8) {
	case 0:
		return tmarket.DealLabel{}
	case 1:
		n = []int{0, 23, 24, 255, 256, 257, 300}[r.IntN(7)]
	default:
		n = r.IntN(70)
	}
	text := r.IntN(2) == 0
	b := make([]byte, 0, n)
	for len(b) < n {
		switch c := []string{"é", "€"}[r.IntN(2)]; {
		case !text:
			b = append(b, byte(r.IntN(256)))
		case r.IntN(4) == 0 && len(c) <= n-len(b):
			b = append(b, c...) // characters of two and three bytes
		default:
			b = append(b, byte('a'+r.IntN(26)))
		}
	}
	var in bytes.Buffer
	maj := byte(cbg.MajByteString)
	if text {
		maj = cbg.MajTextString
	}
	if err := cbg.WriteMajorTypeHeader(&in, maj, uint64(n)); err != nil {
		panic(err)
	}
	in.Write(b)
	var l tmarket.DealLabel
	if err := l.UnmarshalCBOR(&in); err != nil {
		panic(err)
	}
	return l
}

// sameLabel compares two DealLabels field by field: the bytes, whether
// they are nil, and whether the label is text.
func sameLabel(a, b reflect.Value) bool {
	ab, bb := a.Field(0), b.Field(0)
	return ab.IsNil() == bb.IsNil() && bytes.Equal(ab.Bytes(), bb.Bytes()) && a.Field(1).Bool() == b.Field(1).Bool()
}

// randomFilInt is a go-state-types big.Int with the edges its methods
// treat specially: a nil Int (written as zero), zero, negative values,
// and magnitudes of 126 and 127 bytes (the longest taken) and past
// them.
func randomFilInt(r *rand.Rand) fbig.Int {
	var n int
	switch r.IntN(10) {
	case 0:
		return fbig.Int{}
	case 1:
		n = 0
	case 2:
		n = 126 + r.IntN(4)
	default:
		n = r.IntN(40)
	}
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = byte(r.IntN(256))
	}
	if n > 0 && r.IntN(2) == 0 {
		buf[0] |= 0x80 // exactly n bytes long
	}
	x := new(big.Int).SetBytes(buf)
	if r.IntN(4) == 0 {
		x.Neg(x)
	}
	return fbig.Int{Int: x}
}

// randomAddress is a go-address Address of every protocol, or Undef
// (which both refuse to write).
func randomAddress(r *rand.Rand) addr.Address {
	payload := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	var a addr.Address
	var err error
	switch r.IntN(6) {
	case 0:
		a, err = addr.NewIDAddress(randUint(r) >> 1)
	case 1:
		a, err = addr.NewSecp256k1Address(payload(65))
	case 2:
		a, err = addr.NewActorAddress(payload(20))
	case 3:
		a, err = addr.NewBLSAddress(payload(48))
	case 4:
		a, err = addr.NewDelegatedAddress(uint64(r.IntN(1000)), payload(r.IntN(55)))
	case 5:
		if r.IntN(4) == 0 {
			return addr.Undef
		}
		a, err = addr.NewIDAddress(uint64(r.IntN(100)))
	}
	if err != nil {
		panic(err)
	}
	return a
}

// fill sets v to a random value, with the edges both sides treat
// specially: nil and empty slices, nil pointers, strings at and past the
// limits, negative big integers, undefined CIDs.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Type() {
	case addrType:
		v.Set(reflect.ValueOf(randomAddress(r)))
		return
	case filIntType:
		v.Set(reflect.ValueOf(randomFilInt(r)))
		return
	case bitfieldType:
		var set []uint64
		for range r.IntN(6) {
			set = append(set, uint64(r.IntN(2000)))
		}
		v.Set(reflect.ValueOf(bitfield.NewFromSet(set)))
		return
	case cidType, lexLinkType, oursLexLinkType:
		if r.IntN(40) == 0 {
			return // cid.Undef: both refuse it
		}
		v.Set(reflect.ValueOf(randomCid(r)).Convert(v.Type()))
		return
	case labelType:
		v.Set(reflect.ValueOf(randomLabel(r)))
		return
	case deferredType:
		switch r.IntN(20) {
		case 0: // Raw nil: both refuse it
		default:
			raw := []byte{0x82, byte(r.IntN(24)), 0x61, 'x'}
			v.Set(reflect.ValueOf(cbg.Deferred{Raw: raw}))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if r.IntN(3) == 0 || depth > 3 {
			return
		}
		if v.Type().Elem() == bigType {
			buf := make([]byte, r.IntN(40))
			for i := range buf {
				buf[i] = byte(r.IntN(256))
			}
			n := new(big.Int).SetBytes(buf)
			if r.IntN(30) == 0 {
				n.Neg(n)
			}
			v.Set(reflect.ValueOf(n))
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	case reflect.Uint64, reflect.Uint, reflect.Uint32, reflect.Uint16:
		v.SetUint(randUint(r))
		if v.OverflowUint(v.Uint()) {
			v.SetUint(uint64(r.IntN(200)))
		}
	case reflect.Int, reflect.Int32, reflect.Int16, reflect.Int8:
		v.SetInt(int64(r.IntN(200)) - 20)
	case reflect.Interface, reflect.Func, reflect.Chan:
	case reflect.Uint8:
		v.SetUint(uint64(r.IntN(256)))
	case reflect.Int64:
		u := randUint(r)
		if r.IntN(2) == 0 {
			v.SetInt(int64(u))
		} else {
			v.SetInt(-1 - int64(u>>1))
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.String:
		v.SetString(randString(r))
	case reflect.Slice:
		switch r.IntN(5) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		n := r.IntN(6)
		if r.IntN(200) == 0 {
			n = 8193 // past the default limit: both refuse it
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			v.SetBytes(b)
			return
		}
		if n > 6 && depth > 1 {
			n = 6
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fill(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		if r.IntN(4) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(5) {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(randString(r))
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Float64, reflect.Float32:
		v.SetFloat(r.Float64())
	default:
		panic("fill: " + v.Type().String())
	}
}

func randUint(r *rand.Rand) uint64 {
	switch r.IntN(6) {
	case 0:
		return uint64(r.IntN(24))
	case 1:
		return uint64(r.IntN(256))
	case 2:
		return uint64(r.IntN(65536))
	case 3:
		return uint64(r.Uint32())
	case 4:
		return []uint64{0, 23, 24, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxUint64}[r.IntN(10)]
	}
	return r.Uint64()
}

func randString(r *rand.Rand) string {
	switch r.IntN(40) {
	case 0:
		return strings.Repeat("s", 8192)
	case 1:
		return strings.Repeat("s", 8193) // past the default limit
	case 2:
		return "\xff\xfe" // not UTF-8: both take it
	}
	const letters = "abcdeé$"
	b := make([]byte, 0, 8)
	for range r.IntN(8) {
		b = append(b, letters[r.IntN(len(letters))])
	}
	return string(b)
}

func randomCid(r *rand.Rand) cid.Cid {
	digest := make([]byte, 32)
	for i := range digest {
		digest[i] = byte(r.IntN(256))
	}
	h, err := mh.Encode(digest, mh.SHA2_256)
	if err != nil {
		panic(err)
	}
	if r.IntN(4) == 0 {
		return cid.NewCidV0(h)
	}
	return cid.NewCidV1([]uint64{cid.DagCBOR, cid.Raw, cid.DagProtobuf}[r.IntN(3)], h)
}

// convert copies src into dst, types of the same shape in the other
// package, field by field, keeping nil apart from empty.
func convert(dst, src reflect.Value) {
	if dst.Type() == src.Type() {
		dst.Set(src)
		return
	}
	if (src.Type() == labelType || src.Type() == oursLabelType) && (dst.Type() == labelType || dst.Type() == oursLabelType) {
		// Through the labels' own methods: a nil label's bytes become
		// empty ones, as a decode makes them.
		p := reflect.New(src.Type())
		p.Elem().Set(src)
		var buf bytes.Buffer
		if err := p.Interface().(cbg.CBORMarshaler).MarshalCBOR(&buf); err != nil {
			panic(err)
		}
		if err := dst.Addr().Interface().(cbg.CBORUnmarshaler).UnmarshalCBOR(&buf); err != nil {
			panic(err)
		}
		return
	}
	if src.Kind() == reflect.Struct && src.Type().ConvertibleTo(dst.Type()) {
		dst.Set(src.Convert(dst.Type()))
		return
	}
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		p := reflect.New(dst.Type().Elem())
		convert(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Struct:
		for i := range src.NumField() {
			if src.Type().Field(i).IsExported() {
				convert(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		s := reflect.MakeSlice(dst.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			convert(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := range src.Len() {
			convert(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			dst.SetZero()
			return
		}
		m := reflect.MakeMap(dst.Type())
		it := src.MapRange()
		for it.Next() {
			k := reflect.New(dst.Type().Key()).Elem()
			convert(k, it.Key())
			e := reflect.New(dst.Type().Elem()).Elem()
			convert(e, it.Value())
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}

// equal is reflect.DeepEqual but for big.Int, compared by value.
func equal(a, b reflect.Value) bool {
	if a.Type() == reflect.PointerTo(bigType) {
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Interface().(*big.Int).Cmp(b.Interface().(*big.Int)) == 0
	}
	if a.Type() == labelType || a.Type() == oursLabelType {
		return sameLabel(a, b)
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem())
	case reflect.Interface:
		return a.IsNil() == b.IsNil()
	case reflect.Struct:
		if a.Type() == cidType || a.Type() == deferredType || a.Type() == addrType || a.Type() == bitfieldType || a.Type() == lexLinkType {
			return reflect.DeepEqual(a.Interface(), b.Interface())
		}
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() && !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !equal(it.Value(), bv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
