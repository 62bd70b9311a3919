package kindsdiff_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
	cu "github.com/cborgen/cborgen/testdata/golden/contentunion"
)

// Unions chosen by content (testdata/golden/contentunion) have no
// counterpart in fxamacker/cbor. The oracle is the same choice made by
// hand, as a program without them makes it: decode into cbor.RawMessage,
// read the case (the first element, or the value of the key), then decode
// the item again into the variant's mirror. Both must accept and refuse
// the same inputs and give the same values, on random values and mutated
// encodings of them, over a slice and over a one-byte reader; the union
// must write the bytes the variant types alone write.

// errDup marks an input the oracle cannot judge: a map with a key twice,
// which fxamacker reads into a Go map by its own rule; such inputs are not
// compared.
var errDup = errors.New("duplicate key")

// refRaw is the item of data, without the self-described CBOR tags in
// front; ok is false when data is not exactly one well-formed item.
func refRaw(data []byte) (cbor.RawMessage, error) {
	var raw cbor.RawMessage
	if err := cbor.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	for len(raw) >= 3 && raw[0] == 0xd9 && raw[1] == 0xd9 && raw[2] == 0xf7 {
		raw = raw[3:]
	}
	return raw, nil
}

// refFirst reads an array's elements and its case: an integer (text
// when text) in the first element.
func refFirst(raw cbor.RawMessage, text bool) ([]cbor.RawMessage, any, error) {
	if raw[0]>>5 != genrt.MajorArray {
		return nil, nil, errors.New("not an array")
	}
	var elems []cbor.RawMessage
	if err := cbor.Unmarshal(raw, &elems); err != nil {
		return nil, nil, err
	}
	if len(elems) == 0 {
		return nil, nil, errors.New("no case")
	}
	c, err := refCase(elems[0], text)
	return elems, c, err
}

// refCase reads a case: an untagged integer within int64, or text.
func refCase(raw cbor.RawMessage, text bool) (any, error) {
	m := raw[0] >> 5
	if text {
		if m != genrt.MajorText {
			return nil, errors.New("case is not text")
		}
		var s string
		err := cbor.Unmarshal(raw, &s)
		return s, err
	}
	if m != genrt.MajorUint && m != genrt.MajorNeg {
		return nil, errors.New("case is not an integer")
	}
	var n int64
	err := cbor.Unmarshal(raw, &n)
	return n, err
}

// refElems decodes elems[1:] into the pointers dst, as fxamacker decodes
// each; the array must have between min and len(dst)+1 elements.
func refElems(elems []cbor.RawMessage, min int, dst ...any) error {
	if len(elems) < min || len(elems) > len(dst)+1 {
		return fmt.Errorf("%d elements", len(elems))
	}
	for i, e := range elems[1:] {
		if err := cbor.Unmarshal(e, dst[i]); err != nil {
			return err
		}
	}
	return nil
}

func refCert(data []byte) (cu.Cert, error) {
	raw, err := refRaw(data)
	if err != nil || raw[0] == 0xf6 || raw[0] == 0xf7 {
		return nil, err
	}
	elems, c, err := refFirst(raw, false)
	if err != nil {
		return nil, err
	}
	switch c.(int64) {
	case 0:
		x := &cu.StakeReg{Kind: 0}
		return x, refElems(elems, 2, &x.Cred)
	case 1:
		x := &cu.StakeDereg{Kind: 1}
		return x, refElems(elems, 2, &x.Cred)
	case 2:
		x := &cu.Deleg{Kind: 2}
		return x, refElems(elems, 3, &x.Cred, &x.Pool)
	case 3:
		x := &cu.PoolRetire{Kind: 3}
		return x, refElems(elems, 2, &x.Pool, &x.Epoch)
	}
	return nil, errors.New("no variant")
}

func refEvent(data []byte) (cu.Event, error) {
	raw, err := refRaw(data)
	if err != nil || raw[0] == 0xf6 || raw[0] == 0xf7 {
		return nil, err
	}
	catchAll := func() (cu.Event, error) {
		if err := runtime.Valid(data); err != nil {
			return nil, err
		}
		return cu.UnknownEvent(bytes.Clone(data)), nil
	}
	if raw[0]>>5 != genrt.MajorArray {
		return catchAll()
	}
	elems, c, err := refFirst(raw, true)
	if err != nil {
		return nil, err
	}
	switch c.(string) {
	case "put":
		x := &cu.Put{Op: "put"}
		return x, refElems(elems, 3, &x.Key, &x.Value)
	case "del":
		x := &cu.Del{Op: "del"}
		return x, refElems(elems, 2, &x.Key)
	}
	return catchAll()
}

// refKey reads the case of a map: the value of its first key that is k
// (for text, or equals k under case folding at the same length, as
// fxamacker matches a struct's field), reading the pairs before it with
// fxamacker's Decoder: each key read, each value skipped.
func refKey(raw cbor.RawMessage, k any, text bool) (any, error) {
	if raw[0]>>5 != genrt.MajorMap {
		return nil, errors.New("not a map")
	}
	ai, hl, n := raw[0]&0x1f, 1, -1
	switch {
	case ai < 24:
		n = int(ai)
	case ai < 28:
		hl = 1 + 1<<(ai-24)
		var arg uint64
		for _, c := range raw[1:hl] {
			arg = arg<<8 | uint64(c)
		}
		n = int(arg)
	}
	body := raw[hl:]
	dec := cbor.NewDecoder(bytes.NewReader(body))
	for i := 0; n < 0 || i < n; i++ {
		if n < 0 && body[dec.NumBytesRead()] == 0xff {
			break
		}
		if body[dec.NumBytesRead()]>>5 == genrt.MajorTag {
			return nil, errors.New("a tagged key") // as a struct's keys
		}
		var key cbor.RawMessage
		if err := dec.Decode(&key); err != nil {
			return nil, err
		}
		var match bool
		switch key[0] >> 5 {
		case genrt.MajorText:
			var s string
			if err := cbor.Unmarshal(key, &s); err != nil {
				return nil, err
			}
			ks, ok := k.(string)
			match = ok && len(s) == len(ks) && strings.EqualFold(s, ks)
		case genrt.MajorUint, genrt.MajorNeg:
			var v int64
			if err := cbor.Unmarshal(key, &v); err != nil {
				return nil, err
			}
			ki, ok := k.(int64)
			match = ok && v == ki
		default:
			return nil, errors.New("a key of another type")
		}
		if match {
			var v cbor.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			return refCase(v, text)
		}
		if err := dec.Skip(); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("no case")
}

type (
	mCircle struct {
		Type string  `cbor:"$type"`
		R    float64 `cbor:"r"`
	}
	mRect struct {
		W     float64 `cbor:"w"`
		H     float64 `cbor:"h"`
		Label string  `cbor:"label,omitempty"`
		Type  string  `cbor:"$type"`
	}
	mPing struct {
		Kind int    `cbor:"0,keyasint"`
		Seq  uint64 `cbor:"1,keyasint"`
	}
	mPong struct {
		Kind    int    `cbor:"0,keyasint"`
		Seq     uint64 `cbor:"1,keyasint"`
		Payload []byte `cbor:"2,keyasint"`
	}
)

func refShape(data []byte) (cu.Shape, error) {
	raw, err := refRaw(data)
	if err != nil || raw[0] == 0xf6 || raw[0] == 0xf7 {
		return nil, err
	}
	c, err := refKey(raw, "$type", true)
	if err != nil {
		return nil, err
	}
	switch c.(string) {
	case "circle":
		var m mCircle
		if err := cbor.Unmarshal(raw, &m); err != nil || m.Type != "circle" {
			return nil, cmpOr(err, "wrong case")
		}
		return &cu.Circle{Type: m.Type, R: m.R}, nil
	case "rect":
		var m mRect
		if err := cbor.Unmarshal(raw, &m); err != nil || m.Type != "rect" {
			return nil, cmpOr(err, "wrong case")
		}
		return &cu.Rect{W: m.W, H: m.H, Label: m.Label, Type: m.Type}, nil
	}
	return nil, errors.New("no variant")
}

func refMsg(data []byte) (cu.Msg, error) {
	raw, err := refRaw(data)
	if err != nil || raw[0] == 0xf6 || raw[0] == 0xf7 {
		return nil, err
	}
	catchAll := func() (cu.Msg, error) {
		if err := runtime.Valid(data); err != nil {
			return nil, err
		}
		return cu.UnknownMsg(bytes.Clone(data)), nil
	}
	if raw[0]>>5 != genrt.MajorMap {
		return catchAll()
	}
	c, err := refKey(raw, int64(0), false)
	if err != nil {
		return nil, err
	}
	switch c.(int64) {
	case 1:
		var m mPing
		if err := cbor.Unmarshal(raw, &m); err != nil || m.Kind != 1 {
			return nil, cmpOr(err, "wrong case")
		}
		return &cu.Ping{Kind: m.Kind, Seq: m.Seq}, nil
	case 2:
		var m mPong
		if err := cbor.Unmarshal(raw, &m); err != nil || m.Kind != 2 {
			return nil, cmpOr(err, "wrong case")
		}
		return &cu.Pong{Kind: m.Kind, Seq: m.Seq, Payload: m.Payload}, nil
	}
	return catchAll()
}

func cmpOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}

func randBytes(r *rand.Rand) []byte {
	if r.IntN(8) == 0 {
		return nil
	}
	b := make([]byte, r.IntN(40))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func randText(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyzé$"
	rs := []rune(letters)
	n := r.IntN(30)
	out := make([]rune, n)
	for i := range out {
		out[i] = rs[r.IntN(len(rs))]
	}
	return string(out)
}

func randCert(r *rand.Rand) cu.Cert {
	switch r.IntN(4) {
	case 0:
		return &cu.StakeReg{Cred: randBytes(r)} // the case is written whatever Kind holds
	case 1:
		return &cu.StakeDereg{Kind: 1, Cred: randBytes(r)}
	case 2:
		return &cu.Deleg{Kind: 2, Cred: randBytes(r), Pool: randBytes(r)}
	}
	return &cu.PoolRetire{Kind: 3, Pool: randBytes(r), Epoch: r.Uint64() >> r.IntN(64)}
}

func randEvent(r *rand.Rand) cu.Event {
	switch r.IntN(3) {
	case 0:
		return &cu.Put{Op: "put", Key: randText(r), Value: int64(r.Uint64()) >> r.IntN(64)}
	case 1:
		return &cu.Del{Key: randText(r)}
	}
	b, _ := cbor.Marshal([]any{"ren", randText(r), r.IntN(100)})
	return cu.UnknownEvent(b)
}

func randShape(r *rand.Rand) cu.Shape {
	if r.IntN(2) == 0 {
		return &cu.Circle{Type: "circle", R: float64(r.IntN(1000)) / 8}
	}
	label := ""
	if r.IntN(2) == 0 {
		label = randText(r)
	}
	return &cu.Rect{W: float64(r.IntN(1000)) / 4, H: r.Float64(), Label: label}
}

func randMsg(r *rand.Rand) cu.Msg {
	switch r.IntN(3) {
	case 0:
		return &cu.Ping{Kind: 1, Seq: r.Uint64() >> r.IntN(64)}
	case 1:
		return &cu.Pong{Kind: 2, Seq: r.Uint64() >> r.IntN(64), Payload: randBytes(r)}
	}
	b, _ := cbor.Marshal(map[int]any{0: 7 + r.IntN(100), 1: randText(r)})
	return cu.UnknownMsg(b)
}

// contentCase is one union under test: its generated functions and its
// oracle.
type contentCase[U any] struct {
	name      string
	gen       func(*rand.Rand) U
	marshal   func(U) ([]byte, error)
	unmarshal func([]byte) (U, error)
	decode    func(*runtime.Decoder) (U, error)
	ref       func([]byte) (U, error)
	alone     func(U) ([]byte, error) // the variant's own MarshalCBOR
}

func alone[U any](x U) ([]byte, error) {
	if m, ok := any(x).(cbor.Marshaler); ok {
		return m.MarshalCBOR()
	}
	return nil, fmt.Errorf("%T is no Marshaler", x)
}

// withCase is x as the union decodes it: the field that holds the case
// holds it.
func withCase(x any) any {
	switch v := x.(type) {
	case *cu.StakeReg:
		c := *v
		c.Kind = 0
		return &c
	case *cu.Del:
		c := *v
		c.Op = "del"
		return &c
	case *cu.Rect:
		c := *v
		c.Type = "rect"
		return &c
	}
	return x
}

func sameValue(a, b any, marshal func(any) ([]byte, error)) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ea, err1 := marshal(a)
	eb, err2 := marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb)
}

func (c contentCase[U]) run(t *testing.T, n int, seed uint64) (compared, accepted, skipped int) {
	r := rand.New(rand.NewPCG(seed, 7))
	mar := func(x any) ([]byte, error) { u, _ := x.(U); return c.marshal(u) }
	for i := 0; i < n; i++ {
		x := c.gen(r)
		enc, err := c.marshal(x)
		if err != nil {
			t.Fatalf("%s: marshal %#v: %v", c.name, x, err)
		}
		own, err := c.alone(x)
		if err != nil || !bytes.Equal(own, enc) {
			t.Fatalf("%s: the union wrote %x, the variant %T alone %x (%v)", c.name, enc, x, own, err)
		}
		got, err := c.unmarshal(enc)
		if err != nil || !sameValue(any(got), withCase(any(x)), mar) {
			t.Fatalf("%s: round trip of %#v: %#v, %v", c.name, x, got, err)
		}
		inputs := [][]byte{enc}
		for range 4 {
			inputs = append(inputs, cbortest.Mutate(r, enc))
		}
		for _, in := range inputs {
			want, werr := c.ref(in)
			if errors.Is(werr, errDup) {
				skipped++
				continue
			}
			compared++
			got, gerr := c.unmarshal(in)
			sgot, serr := c.stream(in)
			switch {
			case (gerr == nil) != (werr == nil):
				t.Fatalf("%s: %x: generated %#v, %v; by hand %#v, %v", c.name, in, got, gerr, want, werr)
			case (serr == nil) != (gerr == nil):
				t.Fatalf("%s: %x: over a slice %v, over a one-byte reader %v", c.name, in, gerr, serr)
			case gerr != nil:
				var re *runtime.Error
				if !errors.As(gerr, &re) {
					t.Fatalf("%s: %x: %v (%T) is not a *runtime.Error", c.name, in, gerr, gerr)
				}
				continue
			}
			accepted++
			if !sameValue(any(got), any(want), mar) || !sameValue(any(sgot), any(want), mar) {
				t.Fatalf("%s: %x: generated %#v (stream %#v), by hand %#v", c.name, in, got, sgot, want)
			}
		}
	}
	return compared, accepted, skipped
}

func (c contentCase[U]) stream(in []byte) (U, error) {
	d := runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(in)))
	x, err := c.decode(d)
	if err == nil {
		if d.Offset() != int64(len(in)) {
			var zero U
			return zero, errors.New("trailing data")
		}
	}
	return x, err
}

func TestContentUnionsAgainstByHand(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	report := func(name string, c, a, s int) {
		t.Logf("%s: %d inputs compared (%d accepted by both), %d with a duplicate key skipped", name, c, a, s)
		if a == 0 || c-a == 0 {
			t.Errorf("%s: %d accepted of %d: the mutations do not reach both outcomes", name, a, c)
		}
	}
	{
		c, a, s := contentCase[cu.Cert]{"Cert", randCert, cu.MarshalCertCBOR, cu.UnmarshalCertCBOR, cu.DecodeCertCBOR, refCert, alone[cu.Cert]}.run(t, n, 1)
		report("Cert", c, a, s)
	}
	{
		c, a, s := contentCase[cu.Event]{"Event", randEvent, cu.MarshalEventCBOR, cu.UnmarshalEventCBOR, cu.DecodeEventCBOR, refEvent, alone[cu.Event]}.run(t, n, 2)
		report("Event", c, a, s)
	}
	{
		c, a, s := contentCase[cu.Shape]{"Shape", randShape, cu.MarshalShapeCBOR, cu.UnmarshalShapeCBOR, cu.DecodeShapeCBOR, refShape, alone[cu.Shape]}.run(t, n, 3)
		report("Shape", c, a, s)
	}
	{
		c, a, s := contentCase[cu.Msg]{"Msg", randMsg, cu.MarshalMsgCBOR, cu.UnmarshalMsgCBOR, cu.DecodeMsgCBOR, refMsg, alone[cu.Msg]}.run(t, n, 4)
		report("Msg", c, a, s)
	}
}

// bigMap is a map of n text keys, then key k with value v: the case at
// the end of a large map.
func bigMap(n int, k, v any) []byte {
	enc := genrt.AppendHead(nil, genrt.MajorMap, uint64(n+1))
	for i := range n {
		enc = genrt.AppendString(enc, fmt.Sprintf("k%06d", i))
		enc = genrt.AppendString(enc, "a value that is skipped, not decoded")
	}
	kb, _ := cbor.Marshal(k)
	vb, _ := cbor.Marshal(v)
	return append(append(enc, kb...), vb...)
}

func TestContentUnionsHostile(t *testing.T) {
	mustErr := func(name string, data []byte, is error, at int64, decode func([]byte) error, stream func(*runtime.Decoder) error) {
		t.Helper()
		for _, over := range []string{"slice", "stream"} {
			var err error
			if over == "slice" {
				err = decode(data)
			} else {
				err = stream(runtime.NewDecoder(iotest.OneByteReader(bytes.NewReader(data))))
			}
			var re *runtime.Error
			if !errors.As(err, &re) || !errors.Is(err, is) || at >= 0 && re.Offset != at {
				t.Errorf("%s over a %s: %v, want %v at offset %d", name, over, err, is, at)
			}
		}
	}
	shape := func(b []byte) error { _, err := cu.UnmarshalShapeCBOR(b); return err }
	shapeS := func(d *runtime.Decoder) error { _, err := cu.DecodeShapeCBOR(d); return err }
	cert := func(b []byte) error { _, err := cu.UnmarshalCertCBOR(b); return err }
	certS := func(d *runtime.Decoder) error { _, err := cu.DecodeCertCBOR(d); return err }
	msg := func(b []byte) error { _, err := cu.UnmarshalMsgCBOR(b); return err }
	msgS := func(d *runtime.Decoder) error { _, err := cu.DecodeMsgCBOR(d); return err }

	// The case at the end of a map of 20000 pairs: found, over a slice
	// and a stream, and the map decoded once (the unknown keys skipped).
	big := bigMap(20000, "$type", "circle")
	for _, over := range []string{"slice", "stream"} {
		var x cu.Shape
		var err error
		if over == "slice" {
			x, err = cu.UnmarshalShapeCBOR(big)
		} else {
			x, err = cu.DecodeShapeCBOR(runtime.NewDecoder(bytes.NewReader(big)))
		}
		if c, ok := x.(*cu.Circle); err != nil || !ok || c.Type != "circle" {
			t.Errorf("case at the end of a large map, over a %s: %#v, %v", over, x, err)
		}
	}
	mustErr("no case in a large map", bigMap(20000, "$typo", "circle"), runtime.ErrType, 0, shape, shapeS)
	mustErr("unknown case at the end of a large map", bigMap(2000, "$type", "hexagon"), runtime.ErrType, int64(len(bigMap(2000, "$type", "hexagon"))-8), shape, shapeS)
	mustErr("case of the wrong type", bigMap(3, "$type", 7), runtime.ErrType, -1, shape, shapeS)
	mustErr("integer key, text case", []byte{0xa1, 0x00, 0x61, 0x31}, runtime.ErrType, 2, msg, msgS)
	mustErr("map without key 0", []byte{0xa1, 0x01, 0x01}, runtime.ErrType, 0, msg, msgS)
	mustErr("map limit", bigMap(10, "$type", "circle"), runtime.ErrLimit, -1, func(b []byte) error {
		d := runtime.NewBytesDecoder(b)
		d.SetOptions(runtime.Options{MaxMapPairs: 5})
		_, err := cu.DecodeShapeCBOR(d)
		return err
	}, func(d *runtime.Decoder) error {
		d.SetOptions(runtime.Options{MaxMapPairs: 5})
		_, err := cu.DecodeShapeCBOR(d)
		return err
	})
	// An array of one element: the case, then nothing.
	mustErr("array of one element", []byte{0x81, 0x00}, runtime.ErrLength, -1, cert, certS)
	mustErr("empty array", []byte{0x80}, runtime.ErrLength, 0, cert, certS)
	mustErr("empty indefinite array", []byte{0x9f, 0xff}, runtime.ErrLength, 0, cert, certS)
	mustErr("text case", []byte{0x82, 0x61, 0x30, 0x40}, runtime.ErrType, 1, cert, certS)
	mustErr("null case", []byte{0x82, 0xf6, 0x40}, runtime.ErrType, 1, cert, certS)
	mustErr("tagged case", []byte{0x82, 0xc6, 0x00, 0x40}, runtime.ErrType, 1, cert, certS)
	mustErr("unknown case", []byte{0x82, 0x18, 0x63, 0x40}, runtime.ErrType, 1, cert, certS)
	mustErr("case beyond int64", []byte{0x82, 0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x40}, runtime.ErrRange, 1, cert, certS)
	mustErr("a map for Cert", []byte{0xa0}, runtime.ErrType, 0, cert, certS)
	if err := cert([]byte{0x82, 0x00, 0x40}); err != nil {
		t.Errorf("[0, h''] = %v", err)
	}
	// The variant alone refuses another variant's case.
	var reg cu.StakeReg
	if err := reg.UnmarshalCBOR([]byte{0x82, 0x01, 0x40}); !errors.Is(err, runtime.ErrType) {
		t.Errorf("StakeReg of [1, h'']: %v, want ErrType", err)
	}
	var c cu.Circle
	if err := c.UnmarshalCBOR([]byte("\xa1\x65$type\x64rect")); !errors.Is(err, runtime.ErrType) {
		t.Errorf("Circle of {\"$type\": \"rect\"}: %v, want ErrType", err)
	}

	// Damaged encodings: every prefix, forged heads.
	r := rand.New(rand.NewPCG(9, 9))
	var certs, shapes, msgs [][]byte
	for range 5 {
		b, _ := cu.MarshalCertCBOR(randCert(r))
		certs = append(certs, b)
		b, _ = cu.MarshalShapeCBOR(randShape(r))
		shapes = append(shapes, b)
		b, _ = cu.MarshalMsgCBOR(&cu.Pong{Seq: 9, Payload: []byte("x")})
		msgs = append(msgs, b)
	}
	cbortest.CheckDecoder(t, cbortest.Damaged(certs), cert, certS)
	cbortest.CheckDecoder(t, cbortest.Damaged(shapes), shape, shapeS)
	cbortest.CheckDecoder(t, cbortest.Damaged(msgs), msg, msgS)
}

// The benchmarks compare a union chosen by content with the same union
// written by hand over cbor.RawMessage, as a program without it does: the
// item read once into a RawMessage, the case read, the item decoded again.

func benchCerts() []byte {
	r := rand.New(rand.NewPCG(5, 5))
	var l cu.Ledger
	for range 200 {
		l.Certs = append(l.Certs, randCert(r))
	}
	b, _ := l.MarshalCBOR()
	return b
}

func byHandCerts(data []byte) ([]cu.Cert, error) {
	var raws []cbor.RawMessage
	var l struct {
		_     struct{} `cbor:",toarray"`
		Certs []cbor.RawMessage
		A, B  cbor.RawMessage
		C     cbor.RawMessage
	}
	if err := cbor.Unmarshal(data, &l); err != nil {
		return nil, err
	}
	raws = l.Certs
	out := make([]cu.Cert, len(raws))
	for i, raw := range raws {
		x, err := refCert(raw)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func BenchmarkContentUnion(b *testing.B) {
	data := benchCerts()
	want, err := byHandCerts(data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("generated", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var l cu.Ledger
			if err := l.UnmarshalCBOR(data); err != nil || len(l.Certs) != len(want) {
				b.Fatal(err)
			}
		}
	})
	b.Run("byhand-rawmessage", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := byHandCerts(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
