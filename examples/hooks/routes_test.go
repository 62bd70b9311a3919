package hooks_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/body"
)

// routes returns a Routes value with n elements of the same random
// values in the slice of each route that routes names.
func routes(n int, plain, direct, buffered bool) *body.Routes {
	var r body.Routes
	f := mirror.Filler{Rand: newRand(5)}
	for range n {
		var p body.Plain
		f.Fill(&p)
		if plain {
			r.Plain = append(r.Plain, p)
		}
		if direct {
			r.Direct = append(r.Direct, body.Direct(p))
		}
		if buffered {
			r.Buffered = append(r.Buffered, body.Buffered(p))
		}
	}
	return &r
}

// TestRoutesAgree: the three ways of reaching a nested value write the
// same bytes for the same values, and read them back.
func TestRoutesAgree(t *testing.T) {
	var enc [3][]byte
	for i, r := range []*body.Routes{routes(50, true, false, false), routes(50, false, true, false), routes(50, false, false, true)} {
		b, err := r.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		var back body.Routes
		if err := back.UnmarshalCBOR(b); err != nil {
			t.Fatal(err)
		}
		if d := mirror.Diff(*r, back); d != "" {
			t.Fatalf("route %d: Routes%s", i, d)
		}
		enc[i] = b
	}
	// Each encoding is the array head, the one slice, and two nulls in
	// the other slots: the same slice bytes in each.
	strip := func(b []byte, i int) []byte {
		b = b[1:]
		if i > 0 {
			b = b[i:] // the nulls before
		}
		return b[:len(b)-(2-i)]
	}
	if !bytes.Equal(strip(enc[0], 0), strip(enc[1], 1)) || !bytes.Equal(strip(enc[0], 0), strip(enc[2], 2)) {
		t.Errorf("the routes write different bytes:\n%x\n%x\n%x", enc[0], enc[1], enc[2])
	}
}

// BenchmarkRoutes measures what a nested value costs on each way of
// reaching it: Plain, generated whole; Direct, a body type whose hooks
// include AppendCBOR and DecodeCBOR (a call more per value); Buffered, a
// body type with only MarshalCBOR and UnmarshalCBOR (a buffer per value
// on encoding, and the item's bytes read twice on decoding: once to find
// them, once to decode them). 64 elements per operation; see
// docs/guide.md for the figures.
func BenchmarkRoutes(b *testing.B) {
	for _, bc := range []struct {
		name string
		r    *body.Routes
	}{
		{"Plain", routes(64, true, false, false)},
		{"Direct", routes(64, false, true, false)},
		{"Buffered", routes(64, false, false, true)},
	} {
		data, err := bc.r.MarshalCBOR()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name+"/Encode", func(b *testing.B) {
			buf := make([]byte, 0, 2*len(data))
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.r.AppendCBOR(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/Decode", func(b *testing.B) {
			var v body.Routes
			d := runtime.NewBytesDecoder(nil)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d.Reset(data)
				if err := v.DecodeCBOR(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 27)) }

// TestValueBody: a named integer can be a body type; its hook runs where
// it is held, on every map value, and its body is the integer as
// fxamacker writes it.
func TestValueBody(t *testing.T) {
	s := body.Scores{Best: 100, ByName: map[string]body.Percent{"a": 0, "b": 23, "c": 24, "d": 100}}
	data, err := s.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	want, err := fxEnc.Marshal([]any{uint8(100), map[string]uint8{"a": 0, "b": 23, "c": 24, "d": 100}})
	if err != nil || !bytes.Equal(data, want) {
		t.Fatalf("Scores %x, want %x (%v)", data, want, err)
	}
	var back body.Scores
	if err := back.UnmarshalCBOR(data); err != nil || mirror.Diff(s, back) != "" {
		t.Fatalf("read back %+v, %v", back, err)
	}
	s.ByName["c"] = 101
	if data, err = s.MarshalCBOR(); err != nil {
		t.Fatal(err)
	}
	err = back.UnmarshalCBOR(data)
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || err.Error() != "body: 101 percent" || !strings.HasPrefix(rerr.Detail(), `cbor: Scores.ByName["c"]: body: 101 percent`) {
		t.Errorf("a Percent of 101 nested: %v", err)
	}
}

// TestGenericBody: a generic body type's hooks run for each instance
// where it is held: a value read back is the value written, and an
// unsigned one is refused by the hook, at its path.
func TestGenericBody(t *testing.T) {
	l := body.Ledger{Entries: []body.Signed[string]{{Value: "a", Sig: []byte{1}}}, Last: &body.Signed[body.Plain]{Value: body.Plain{A: -1, B: "b"}, Sig: []byte{2}}}
	data, err := l.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var back body.Ledger
	if err := back.UnmarshalCBOR(data); err != nil || mirror.Diff(l, back) != "" {
		t.Fatalf("read back %+v, %v", back, err)
	}
	l.Last.Sig = nil
	if data, err = l.MarshalCBOR(); err != nil {
		t.Fatal(err)
	}
	err = back.UnmarshalCBOR(data)
	if rerr := (*runtime.Error)(nil); !errors.As(err, &rerr) || !strings.HasPrefix(rerr.Detail(), "cbor: Ledger.Last: body: unsigned value") {
		t.Errorf("an unsigned Last: %v", err)
	}
}

// TestHolderCallsHooks: the golden Holder reaches Versioned (small enough
// that generated code would write a generated type of its shape in line)
// and Hashed through their hooks in every position: versions written as
// 0 are defaulted, and every Hashed keeps its item's bytes.
func TestHolderCallsHooks(t *testing.T) {
	h := body.Holder{
		V: body.Versioned{Name: "v"}, Vs: []body.Versioned{{}}, Vm: map[string]body.Versioned{"k": {}}, Vp: &body.Versioned{},
		H: body.Hashed{A: 1}, Hs: []body.Hashed{{A: 2}}, Hm: map[int]body.Hashed{3: {A: 3}}, Hp: &body.Hashed{A: 4},
	}
	data, err := h.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var back body.Holder
	if err := back.UnmarshalCBOR(data); err != nil {
		t.Fatal(err)
	}
	for _, v := range []body.Versioned{back.V, back.Vs[0], back.Vm["k"], *back.Vp} {
		if v.Version != 1 {
			t.Errorf("a nested Versioned read back with version %d", v.Version)
		}
	}
	for _, x := range []body.Hashed{back.H, back.Hs[0], back.Hm[3], *back.Hp} {
		want, _ := body.Hashed{A: x.A}.MarshalCBOR()
		if !bytes.Equal(x.Raw, want) || !bytes.Contains(data, want) {
			t.Errorf("a nested Hashed kept %x, want %x", x.Raw, want)
		}
	}
}
