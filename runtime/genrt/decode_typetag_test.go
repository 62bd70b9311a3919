package genrt_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/fxamacker/cbor/v2"
)

// fxTagged is a type in fxamacker's TagSet under tag 3011, the oracle of
// ReadTypeTag: its content is an array of integers.
type fxTagged []uint64

func fxTagMode(t *testing.T, dec cbor.DecTagMode) cbor.DecMode {
	t.Helper()
	set := cbor.NewTagSet()
	if err := set.Add(cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: dec}, reflect.TypeOf(fxTagged(nil)), 3011); err != nil {
		t.Fatal(err)
	}
	dm, err := cbor.DecOptions{}.DecModeWithTags(set)
	if err != nil {
		t.Fatal(err)
	}
	return dm
}

// readTagged reads what a generated decoder of a //cborgen:tag 3011 type
// reads: the type's tag, then an array of integers.
func readTagged(d *genrt.Decoder, optional bool) ([]uint64, error) {
	if err := d.ReadTypeTag(3011, optional); err != nil {
		return nil, err
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return nil, err
	}
	out := []uint64{}
	for i := 0; i != n; i++ {
		if n < 0 {
			if more, err := d.NextElem(n, i); err != nil || !more {
				if err != nil {
					return nil, err
				}
				break
			}
		}
		x, err := d.ReadUint64()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	d.Leave()
	return out, nil
}

// TestReadTypeTag: the tags in front of a tagged type's content, after any
// leading 55799, must be the type's tag alone, as fxamacker's TagSet has
// them (DecTagRequired and DecTagOptional): another tag after it, 55799
// included, is ErrTagNumber.
func TestReadTypeTag(t *testing.T) {
	cases := []struct {
		hex                string
		required, optional error // nil: accepted
	}{
		{"d90bc3 8101", nil, nil},
		{"d9d9f7 d90bc3 8101", nil, nil},
		{"d9d9f7 d9d9f7 d90bc3 8101", nil, nil},
		{"d90bc3 d864 8101", genrt.ErrTagNumber, genrt.ErrTagNumber},
		{"d90bc3 d9d9f7 8101", genrt.ErrTagNumber, genrt.ErrTagNumber},
		{"d90bc3 d90bc3 8101", genrt.ErrTagNumber, genrt.ErrTagNumber},
		{"d9d9f7 d90bc3 c6 8101", genrt.ErrTagNumber, genrt.ErrTagNumber},
		{"d864 8101", genrt.ErrTagNumber, genrt.ErrTagNumber},
		{"d864 d90bc3 8101", genrt.ErrTagNumber, genrt.ErrTagNumber},
		{"8101", genrt.ErrTagNumber, nil},
		{"d9d9f7 8101", genrt.ErrTagNumber, nil},
	}
	for _, optional := range []bool{false, true} {
		dm := fxTagMode(t, map[bool]cbor.DecTagMode{false: cbor.DecTagRequired, true: cbor.DecTagOptional}[optional])
		for _, c := range cases {
			want := c.required
			if optional {
				want = c.optional
			}
			data := mustHex(c.hex)
			var fx fxTagged
			fxErr := dm.Unmarshal(data, &fx)
			if (fxErr == nil) != (want == nil) {
				t.Errorf("optional %v, %s: fxamacker says %v, the table %v", optional, c.hex, fxErr, want)
			}
			for _, k := range decoderKinds {
				got, err := readTagged(k.new(data), optional)
				if want == nil && (err != nil || !reflect.DeepEqual(got, []uint64(fx))) {
					t.Errorf("optional %v, %s ReadTypeTag(%s) = %v, %v; fxamacker %v", optional, k.name, c.hex, got, err, fx)
				}
				if want != nil && !errors.Is(err, want) {
					t.Errorf("optional %v, %s ReadTypeTag(%s) = %v, %v; want %v (fxamacker: %v)", optional, k.name, c.hex, got, err, want, fxErr)
				}
			}
		}
	}
}

// TestReadTypeTagShort: the fast path of tags in one or two bytes reads
// what the general loop reads, in both decoders and in strict mode, by
// fxamacker's TagSet; a head in a longer form than it needs goes the
// general way.
func TestReadTypeTagShort(t *testing.T) {
	for _, tag := range []uint64{6, 100} {
		set := cbor.NewTagSet()
		if err := set.Add(cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagRequired}, reflect.TypeOf(fxTagged(nil)), tag); err != nil {
			t.Fatal(err)
		}
		dm, err := cbor.DecOptions{}.DecModeWithTags(set)
		if err != nil {
			t.Fatal(err)
		}
		head := map[uint64]string{6: "c6", 100: "d864"}[tag]
		other := map[uint64]string{6: "d864", 100: "c6"}[tag]
		for _, hex := range []string{
			head + " 8101", head + " 820102", head + " 80",
			head + " " + head + " 8101", head + " " + other + " 8101", head + " d9d9f7 8101",
			"d9d9f7 " + head + " 8101", other + " 8101", "8101", head + " 81", head,
			map[uint64]string{6: "d806 8101", 100: "d90064 8101"}[tag],
		} {
			data := mustHex(hex)
			var fx fxTagged
			fxErr := dm.Unmarshal(data, &fx)
			for _, k := range decoderKinds {
				got, err := readTagged3(k.new(data), tag)
				if (err == nil) != (fxErr == nil) || err == nil && !reflect.DeepEqual(got, []uint64(fx)) {
					t.Errorf("tag %d, %s, %s: %v, %v; fxamacker %v, %v", tag, k.name, hex, got, err, fx, fxErr)
				}
			}
		}
	}
}

// readTagged3 is readTagged for a type under the given tag.
func readTagged3(d *genrt.Decoder, tag uint64) ([]uint64, error) {
	if err := d.ReadTypeTag(tag, false); err != nil {
		return nil, err
	}
	var out []uint64
	n, err := d.ReadArrayHead()
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		x, err := d.ReadUint64()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	d.Leave()
	if out == nil {
		out = []uint64{}
	}
	return out, nil
}
