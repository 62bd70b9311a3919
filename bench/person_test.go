package bench

import (
	"bytes"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/bench/peers/fxarray"
	"github.com/cborgen/cborgen/bench/peers/gencode"
	"github.com/cborgen/cborgen/bench/peers/msgpmap"
	"github.com/cborgen/cborgen/bench/peers/msgptuple"
	"github.com/cborgen/cborgen/bench/peers/mus"
	"github.com/cborgen/cborgen/bench/workload/person"
	"github.com/cborgen/cborgen/bench/workload/person/unixtime"
	"github.com/cborgen/cborgen/runtime"
)

// The person record (workload/person): two short strings, a time and three
// numbers, with the time as RFC 3339 text with nanoseconds
// (BenchmarkPersonText) or as an integer of seconds (BenchmarkPersonUnix).
// fxamacker/cbor runs toarray with the same time mode; msgp-tuple writes
// its own binary time in both, mus and gencode the Unix nanoseconds (as in
// the public Go serialization benchmark whose SmallStruct has the record's
// shape).

// personCase is one implementation of one time form.
type personCase struct {
	impl     string
	encode   func(dst []byte) ([]byte, error)
	decode   func(data []byte) error
	zeroCopy func(data []byte) error // strings aliasing data: generated (runtime.Unmarshal with ZeroCopy), mus (unsafe)
	marshal  func() ([]byte, error)  // into a new slice: MarshalCBOR, msgp's MarshalMsg(nil); nil for the others
	equal    func() bool             // the last decoded value equals the original
}

var zeroCopy = runtime.Options{ZeroCopy: true}

// fxPersonMode is CoreDetEncOptions with the time mode tm.
func fxPersonMode(tm cbor.TimeMode) cbor.UserBufferEncMode {
	o := cbor.CoreDetEncOptions()
	o.Time = tm
	m, err := o.UserBufferEncMode()
	if err != nil {
		panic(err)
	}
	return m
}

func samePerson(name, phone string, birth time.Time, siblings int, spouse bool, money float64, p *person.Person) bool {
	return name == p.Name && phone == p.Phone && birth.Equal(p.BirthDay) && siblings == p.Siblings &&
		spouse == p.Spouse && money == p.Money
}

func personCases(form string) []personCase {
	var v person.Person
	var gen personCase
	switch form {
	case "text":
		v = *person.New()
		in, out := person.New(), new(person.Person)
		gen = personCase{impl: implGenerated, encode: in.AppendCBOR, marshal: in.MarshalCBOR,
			decode:   func(data []byte) error { *out = person.Person{}; return out.UnmarshalCBOR(data) },
			zeroCopy: func(data []byte) error { *out = person.Person{}; return runtime.Unmarshal(data, out, zeroCopy) },
			equal:    func() bool { return samePerson(v.Name, v.Phone, v.BirthDay, v.Siblings, v.Spouse, v.Money, out) }}
	default:
		u := unixtime.New()
		v = person.Person(*u)
		out := new(unixtime.Person)
		gen = personCase{impl: implGenerated, encode: u.AppendCBOR, marshal: u.MarshalCBOR,
			decode:   func(data []byte) error { *out = unixtime.Person{}; return out.UnmarshalCBOR(data) },
			zeroCopy: func(data []byte) error { *out = unixtime.Person{}; return runtime.Unmarshal(data, out, zeroCopy) },
			equal: func() bool {
				return samePerson(v.Name, v.Phone, v.BirthDay, v.Siblings, v.Spouse, v.Money, (*person.Person)(out))
			}}
	}
	mode := fxPersonMode(cbor.TimeRFC3339Nano)
	if form != "text" {
		mode = fxPersonMode(cbor.TimeUnix)
	}
	fin := fxarray.Person{Name: v.Name, BirthDay: v.BirthDay, Phone: v.Phone, Siblings: v.Siblings, Spouse: v.Spouse, Money: v.Money}
	fout := new(fxarray.Person)
	var fbuf bytes.Buffer
	fx := personCase{impl: implFxamacker,
		encode: func([]byte) ([]byte, error) {
			fbuf.Reset()
			err := mode.MarshalToBuffer(&fin, &fbuf)
			return fbuf.Bytes(), err
		},
		decode: func(data []byte) error { *fout = fxarray.Person{}; return fxarray.DecMode.Unmarshal(data, fout) },
		equal: func() bool {
			return samePerson(v.Name, v.Phone, v.BirthDay, v.Siblings, v.Spouse, v.Money, &person.Person{
				Name: fout.Name, BirthDay: fout.BirthDay, Phone: fout.Phone, Siblings: fout.Siblings, Spouse: fout.Spouse, Money: fout.Money})
		}}
	min := msgptuple.Person(v)
	mout := new(msgptuple.Person)
	mp := personCase{impl: implMsgpTuple, encode: min.MarshalMsg,
		marshal: func() ([]byte, error) { return min.MarshalMsg(nil) },
		decode:  func(data []byte) error { *mout = msgptuple.Person{}; _, err := mout.UnmarshalMsg(data); return err },
		equal: func() bool {
			return samePerson(v.Name, v.Phone, v.BirthDay, v.Siblings, v.Spouse, v.Money, (*person.Person)(mout))
		}}
	return []personCase{gen, fx, msgpMapCase(v), mp, musCase(v), gencodeCase(v)}
}

// msgpMapCase is msgp in its default mode, a map of field names: the
// plain msgp entry of the public benchmark (MarshalMsg(nil), UnmarshalMsg).
func msgpMapCase(v person.Person) personCase {
	in, out := msgpmap.Person(v), new(msgpmap.Person)
	return personCase{impl: implMsgp, encode: in.MarshalMsg,
		marshal: func() ([]byte, error) { return in.MarshalMsg(nil) },
		decode:  func(data []byte) error { *out = msgpmap.Person{}; _, err := out.UnmarshalMsg(data); return err },
		equal: func() bool {
			return samePerson(v.Name, v.Phone, v.BirthDay, v.Siblings, v.Spouse, v.Money, (*person.Person)(out))
		}}
}

// musCase is mus-go: its unsafe serializers write, its ordinary ones read
// (Decode) or its unsafe ones (DecodeZeroCopy).
func musCase(v person.Person) personCase {
	in, out := mus.Person(v), new(mus.Person)
	return personCase{impl: implMus,
		encode: func(dst []byte) ([]byte, error) { return mus.AppendMUS(dst, &in), nil },
		decode: func(data []byte) (err error) {
			*out, _, err = mus.PersonMUS.Unmarshal(data)
			return err
		},
		zeroCopy: func(data []byte) (err error) {
			*out, _, err = mus.PersonUnsafeMUS.Unmarshal(data)
			return err
		},
		equal: func() bool {
			return samePerson(v.Name, v.Phone, v.BirthDay, v.Siblings, v.Spouse, v.Money, (*person.Person)(out))
		}}
}

// gencodeCase is the gencode-style code: Marshal reuses the buffer,
// Unmarshal copies the strings.
func gencodeCase(v person.Person) personCase {
	in := gencode.Person{Name: v.Name, BirthDay: v.BirthDay, Phone: v.Phone, Siblings: int64(v.Siblings), Spouse: v.Spouse, Money: v.Money}
	out := new(gencode.Person)
	return personCase{impl: implGencode, encode: in.Marshal,
		decode: func(data []byte) error { _, err := out.Unmarshal(data); return err },
		equal: func() bool {
			return samePerson(v.Name, v.Phone, v.BirthDay, int(out.Siblings), v.Spouse, v.Money, &person.Person{
				Name: out.Name, BirthDay: out.BirthDay, Phone: out.Phone, Siblings: v.Siblings, Spouse: out.Spouse, Money: out.Money})
		}}
}

// TestPerson checks that the generated bytes are fxamacker's, in both time
// forms, and that every implementation, and the generated code in
// zero-copy mode, decodes its own bytes back to the record.
func TestPerson(t *testing.T) {
	for _, form := range []string{"text", "unix"} {
		cases := personCases(form)
		var gen []byte
		for _, c := range cases {
			b, err := c.encode(nil)
			if err != nil {
				t.Fatalf("%s %s: encode: %v", form, c.impl, err)
			}
			b = bytes.Clone(b)
			if c.impl == implGenerated {
				gen = b
			}
			if c.impl == implFxamacker && !bytes.Equal(b, gen) {
				t.Errorf("%s: generated and fxamacker bytes differ:\n%x\n%x", form, gen, b)
			}
			if err := c.decode(b); err != nil || !c.equal() {
				t.Errorf("%s %s: decode: %v, or the value differs", form, c.impl, err)
			}
			if c.zeroCopy == nil {
				continue
			}
			if err := c.zeroCopy(b); err != nil || !c.equal() {
				t.Errorf("%s %s: zero-copy decode: %v, or the value differs", form, c.impl, err)
			}
			if n := testing.AllocsPerRun(100, func() { _ = c.zeroCopy(b) }); n != 0 && !raceEnabled {
				t.Errorf("%s %s: zero-copy decode allocates %v times", form, c.impl, n)
			}
		}
	}
}

func BenchmarkPersonText(b *testing.B) { benchPerson(b, "text") }
func BenchmarkPersonUnix(b *testing.B) { benchPerson(b, "unix") }

func benchPerson(b *testing.B, form string) {
	for _, c := range personCases(form) {
		enc, err := c.encode(nil)
		if err != nil {
			b.Fatal(err)
		}
		enc = bytes.Clone(enc)
		b.Run("impl="+c.impl, func(b *testing.B) {
			b.Run("op=Encode", func(b *testing.B) {
				buf := make([]byte, 0, 2*len(enc)+64)
				b.ReportAllocs()
				for b.Loop() {
					if buf, err = c.encode(buf[:0]); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("op=Decode", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.decode(enc); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("op=Total", func(b *testing.B) { benchTotal(b, c.encode, c.decode, len(enc)) })
			if c.marshal != nil {
				b.Run("op=MarshalUnmarshal", func(b *testing.B) { benchPair(b, c.marshal, c.decode) })
			}
			if c.zeroCopy == nil {
				return
			}
			b.Run("op=DecodeZeroCopy", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.zeroCopy(enc); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("op=TotalZeroCopy", func(b *testing.B) { benchTotal(b, c.encode, c.zeroCopy, len(enc)) })
		})
	}
}

// benchPair is one marshal into a new slice and one unmarshal of it per
// operation: the plain entries of the public benchmark (generated:
// MarshalCBOR, UnmarshalCBOR; msgp: MarshalMsg(nil), UnmarshalMsg).
func benchPair(b *testing.B, marshal func() ([]byte, error), decode func([]byte) error) {
	b.ReportAllocs()
	for b.Loop() {
		data, err := marshal()
		if err != nil {
			b.Fatal(err)
		}
		if err = decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchTotal is one marshal and one unmarshal per operation, the total of
// the public benchmark: encode into a reused buffer, decode those bytes.
func benchTotal(b *testing.B, encode func([]byte) ([]byte, error), decode func([]byte) error, size int) {
	buf := make([]byte, 0, 2*size+64)
	var err error
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = encode(buf[:0]); err != nil {
			b.Fatal(err)
		}
		if err = decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}
