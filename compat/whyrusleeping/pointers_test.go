package whyrusleeping

import (
	"bytes"
	"math/big"
	"reflect"
	"testing"

	addr "github.com/filecoin-project/go-address"
	fbig "github.com/filecoin-project/go-state-types/big"
	cid "github.com/ipfs/go-cid"

	"github.com/cborgen/cborgen/compat/whyrusleeping/ours"
	"github.com/cborgen/cborgen/compat/whyrusleeping/theirs"
)

// TestPointersOfTheirOwn: pointer fields to go-state-types' big.Int,
// addresses and CIDs, whose values the generated code takes from the
// decoder's blocks, get new values on every decode, as theirs do (a
// decode into a value that holds them leaves the old ones to whoever
// kept them); a value set through one pointer leaves every other, of
// that decode and of later ones, alone.
func TestPointersOfTheirOwn(t *testing.T) {
	c, err := cid.Decode("bafyreigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")
	if err != nil {
		t.Fatal(err)
	}
	from, err := addr.NewIDAddress(1234)
	if err != nil {
		t.Fatal(err)
	}
	power := fbig.NewInt(-77)
	tv := theirs.Filecoin{
		Amount:   fbig.NewInt(5),
		Power:    &power,
		PAmounts: []*fbig.Int{{Int: big.NewInt(1)}, nil, {Int: big.NewInt(3)}},
		To:       from,
		From:     &from,
	}
	var in bytes.Buffer
	if err := tv.MarshalCBOR(&in); err != nil {
		t.Fatal(err)
	}
	ts := theirs.Simple{Cid: c, PCid: &c}
	var sin bytes.Buffer
	if err := ts.MarshalCBOR(&sin); err != nil {
		t.Fatal(err)
	}

	var ov ours.Filecoin
	var os ours.Simple
	var kept []ours.Filecoin
	var keptCids []*cid.Cid
	for range 300 { // past the largest blocks
		if err := ov.UnmarshalCBOR(bytes.NewReader(in.Bytes())); err != nil {
			t.Fatal(err)
		}
		if err := os.UnmarshalCBOR(bytes.NewReader(sin.Bytes())); err != nil {
			t.Fatal(err)
		}
		var tw theirs.Filecoin
		if err := tw.UnmarshalCBOR(bytes.NewReader(in.Bytes())); err != nil {
			t.Fatal(err)
		}
		if !equal(reflect.ValueOf(&ov).Elem(), reflect.ValueOf(&tw).Elem()) {
			t.Fatalf("ours %+v, theirs %+v", ov, tw)
		}
		if os.PCid == nil || *os.PCid != c || os.PCid == &os.Cid {
			t.Fatalf("PCid %v", os.PCid)
		}
		if len(kept) > 0 {
			last := kept[len(kept)-1]
			if ov.Power == last.Power || ov.From == last.From || ov.PAmounts[0] == last.PAmounts[0] || os.PCid == keptCids[len(keptCids)-1] {
				t.Fatal("a pointer of the last decode given again")
			}
		}
		kept = append(kept, ov)
		keptCids = append(keptCids, os.PCid)
	}
	// Through the first decode's pointers: every other value stays.
	*kept[0].Power = fbig.NewInt(9)
	kept[0].PAmounts[0].Int = big.NewInt(10)
	*kept[0].From = addr.Undef
	*keptCids[0] = cid.Undef
	for i, v := range kept[1:] {
		if v.Power.Int64() != -77 || v.PAmounts[0].Int64() != 1 || v.PAmounts[2].Int64() != 3 || *v.From != from || *keptCids[i+1] != c {
			t.Fatalf("decode %d: %v %v %v %v %v after the first's were set", i+1, v.Power, v.PAmounts[0], v.PAmounts[2], v.From, keptCids[i+1])
		}
	}
}
