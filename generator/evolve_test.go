package generator_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime/genrt"
	v1 "github.com/cborgen/cborgen/testdata/golden/evolve_v1"
	v2 "github.com/cborgen/cborgen/testdata/golden/evolve_v2"
)

// The evolve_v1 and evolve_v2 golden cases are two releases of one
// package. Version 2 retires Record.Coupon (its slot is reserved), widens
// Record.Count and Event.Kind, and appends fields; Record opts in to
// skipping the elements of newer versions, Event does not.

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEvolveOldDataNewCode(t *testing.T) {
	coupon := "c"
	old, err := v1.Record{ID: 7, Name: "a", Coupon: &coupon, Count: -5}.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	// [7, "a", "c", -5]
	if want := mustHex(t, "84 07 6161 6163 24"); !bytes.Equal(old, want) {
		t.Fatalf("version 1 wrote %x, want %x", old, want)
	}

	// A value that already holds data: the fields the old array lacks
	// must come out zero, as if decoded into a new value.
	got := v2.Record{Tags: []string{"stale"}, Score: 9}
	if err := got.UnmarshalCBOR(old); err != nil {
		t.Fatalf("version 2 cannot read version 1's %x: %v", old, err)
	}
	if want := (v2.Record{ID: 7, Name: "a", Count: -5}); !equalRecord(got, want) {
		t.Errorf("version 2 read %+v, want %+v", got, want)
	}

	// The same through a stream, with an indefinite-length array and the
	// next item right behind it.
	stream := append(mustHex(t, "9f 07 6161 f6 24 ff"), old...)
	d := genrt.NewDecoder(bytes.NewReader(stream))
	for i := range 2 {
		var r v2.Record
		if err := r.DecodeCBOR(d); err != nil {
			t.Fatalf("item %d of the stream: %v", i, err)
		}
		if r.ID != 7 || r.Count != -5 || r.Tags != nil {
			t.Errorf("item %d of the stream: %+v", i, r)
		}
	}

	// Event, not extensible, also reads its shorter old arrays.
	oldEvent, _ := v1.Event{At: 1, Kind: 200}.MarshalCBOR()
	var ev v2.Event
	if err := ev.UnmarshalCBOR(oldEvent); err != nil || ev != (v2.Event{At: 1, Kind: 200}) {
		t.Errorf("version 2 read version 1's event %x as %+v, %v", oldEvent, ev, err)
	}

	// A legacy map of version 1 still decodes: the retired key is skipped
	// like any unknown key.
	legacy, err := cbor.Marshal(map[string]any{"id": 7, "name": "a", "coupon": "c", "count": -5})
	if err != nil {
		t.Fatal(err)
	}
	var fromMap v2.Record
	if err := fromMap.UnmarshalCBOR(legacy); err != nil || !equalRecord(fromMap, v2.Record{ID: 7, Name: "a", Count: -5}) {
		t.Errorf("version 2 read the legacy map %x as %+v, %v", legacy, fromMap, err)
	}
}

func TestEvolveNewDataOldCode(t *testing.T) {
	newer := v2.Record{ID: 7, Name: "a", Count: 9, Tags: []string{"x"}, Score: 1.5}
	b, err := newer.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	// [7, "a", null (reserved), 9, ["x"], 1.5]
	if want := mustHex(t, "86 07 6161 f6 09 81 6178 f93e00"); !bytes.Equal(b, want) {
		t.Fatalf("version 2 wrote %x, want %x", b, want)
	}
	var back v2.Record
	if err := back.UnmarshalCBOR(b); err != nil || !equalRecord(back, newer) {
		t.Fatalf("version 2 round trip: %+v, %v", back, err)
	}

	// Record is extensible: version 1 skips what version 2 appended and
	// reads the null of the reserved slot as a nil Coupon.
	coupon := "stale"
	got := v1.Record{Coupon: &coupon}
	if err := got.UnmarshalCBOR(b); err != nil {
		t.Fatalf("version 1 cannot read version 2's %x: %v", b, err)
	}
	if got != (v1.Record{ID: 7, Name: "a", Count: 9}) {
		t.Errorf("version 1 read %+v", got)
	}

	// Over a stream, the skipped elements are consumed and the next item
	// follows.
	d := genrt.NewDecoder(bytes.NewReader(append(append([]byte{}, b...), b...)))
	for i := range 2 {
		var r v1.Record
		if err := r.DecodeCBOR(d); err != nil || r.ID != 7 {
			t.Fatalf("item %d of the stream: %+v, %v", i, r, err)
		}
	}

	// A widened value that does not fit the old type is an error, not a
	// wrong value.
	big, _ := v2.Record{Count: 1 << 40}.MarshalCBOR()
	if err := new(v1.Record).UnmarshalCBOR(big); !errors.Is(err, genrt.ErrRange) {
		t.Errorf("version 1 reading a Count beyond int32: %v, want ErrRange", err)
	}

	// Event did not opt in: version 1 refuses the longer array.
	eb, _ := v2.Event{At: 1, Kind: 2, Source: "s"}.MarshalCBOR()
	err = new(v1.Event).UnmarshalCBOR(eb)
	if !errors.Is(err, genrt.ErrLength) {
		t.Errorf("version 1 reading version 2's event %x: %v, want ErrLength", eb, err)
	}
}

func TestEvolveLengths(t *testing.T) {
	for _, tc := range []struct {
		name string
		into interface{ UnmarshalCBOR([]byte) error }
		data string
		want string // "" for success, else a part of the error
	}{
		{"record too short", new(v2.Record), "83 07 6161 f6", "expected array of at least 4 elements, found 3"},
		{"record too short, indefinite", new(v2.Record), "9f 07 6161 f6 ff", "expected array of at least 4 elements, found 3"},
		{"record with everything", new(v2.Record), "86 07 6161 f6 09 80 00", ""},
		{"record with one appended", new(v2.Record), "85 07 6161 f6 09 80", ""},
		{"record from the future", new(v2.Record), "88 07 6161 f6 09 80 00 a0 f6", ""},
		{"record from the future, indefinite", new(v2.Record), "9f 07 6161 f6 09 80 00 a0 f6 ff", ""},
		{"future element malformed", new(v2.Record), "87 07 6161 f6 09 80 00 ff", "break outside an indefinite-length item"},
		{"event too long", new(v2.Event), "84 01 02 6173 00", "expected array of 2 to 3 elements, found 4"},
		{"event too long, indefinite", new(v2.Event), "9f 01 02 6173 00 ff", "expected array of 2 to 3 elements, found 4"}, // counted
		{"event too short", new(v2.Event), "81 01", "expected array of 2 to 3 elements, found 1"},
		{"old event exact", new(v1.Event), "82 01 02", ""},
		{"old record too short", new(v1.Record), "83 07 6161 f6", "expected array of at least 4 elements, found 3"},
		{"one field, too long", new(v1.Framed), "82 01 02", "expected array of 1 element, found 2"},
		{"one field, too long, indefinite", new(v1.Framed), "9f 01 02 ff", "expected array of 1 element, found 2"},
		{"framed too long", new(v2.Framed), "84 01 f6 f6 00", "expected array of 1 to 3 elements, found 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.into.UnmarshalCBOR(mustHex(t, tc.data))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%s: %v", tc.data, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s: error %v, want %q", tc.data, err, tc.want)
			}
		})
	}
}

func equalRecord(a, b v2.Record) bool {
	if a.ID != b.ID || a.Name != b.Name || a.Count != b.Count || a.Score != b.Score || len(a.Tags) != len(b.Tags) || (a.Tags == nil) != (b.Tags == nil) {
		return false
	}
	for i := range a.Tags {
		if a.Tags[i] != b.Tags[i] {
			return false
		}
	}
	return true
}

// Every proper prefix of an encoding is an error, never a panic or a
// value, for both versions; random bytes never panic.
func TestEvolveHostile(t *testing.T) {
	full, _ := v2.Record{ID: 7, Name: "a", Count: 9, Tags: []string{"x", "y"}, Score: 1.5}.MarshalCBOR()
	decoders := []interface{ UnmarshalCBOR([]byte) error }{new(v1.Record), new(v2.Record), new(v1.Event), new(v2.Event)}
	for n := 1; n < len(full); n++ { // (empty input is io.EOF, as in cbor.Unmarshal)
		for _, d := range decoders[:2] {
			var e *genrt.Error
			if err := d.UnmarshalCBOR(full[:n]); !errors.As(err, &e) {
				t.Errorf("%T of the prefix %x: %v, want a *runtime.Error", d, full[:n], err)
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if r.IntN(2) == 0 && len(b) > 0 {
			b[0] = 0x80 | byte(r.IntN(10)) // an array of a plausible length
		}
		for _, d := range decoders {
			_ = d.UnmarshalCBOR(b)
		}
	}
}

// TestEvolveEmbeddedPointer reads version 1's Framed, an array that ends
// before the fields version 2 promotes through its embedded *Meta: a nil
// Meta must stay nil (zeroing v.Note through it would panic), and a value
// whose Meta holds data keeps its Meta, decoded in place: the missing
// fields promoted through it are zero.
func TestEvolveEmbeddedPointer(t *testing.T) {
	old, err := v1.Framed{ID: 3}.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var got v2.Framed
	if err := got.UnmarshalCBOR(old); err != nil || got.ID != 3 || got.Meta != nil {
		t.Fatalf("version 2 read version 1's %x as %+v, %v; want ID 3 and a nil Meta", old, got, err)
	}
	full := v2.Framed{ID: 4, Meta: &v2.Meta{Note: "n", Rev: []int{1}}}
	if err := full.UnmarshalCBOR(old); err != nil || full.ID != 3 || full.Meta == nil || full.Meta.Note != "" || full.Meta.Rev != nil {
		t.Fatalf("version 2 read version 1's %x into a value with a Meta as %+v (Meta %+v), %v", old, full, full.Meta, err)
	}
	// Version 2's own arrays still carry Meta's fields.
	cur, err := v2.Framed{ID: 5, Meta: &v2.Meta{Note: "m"}}.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	var back v2.Framed
	if err := back.UnmarshalCBOR(cur); err != nil || back.ID != 5 || back.Meta == nil || back.Note != "m" {
		t.Fatalf("version 2 read its own %x as %+v, %v", cur, back, err)
	}
}
