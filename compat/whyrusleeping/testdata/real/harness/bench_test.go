package harness

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	tmarket "github.com/filecoin-project/go-state-types/builtin/v16/market"
	cbg "github.com/whyrusleeping/cbor-gen"
)

var benchTypes = []string{"miner.SectorOnChainInfo", "market.DealProposal", "power.Claim", "verifreg.Allocation", "miner.PowerPair", "bsky.FeedPost", "bsky.ActorProfile", "atproto.RepoStrongRef"}

// benchValue is a value of p that both encode, all pointers set where
// the fill sets them, the same one every run; a deal proposal's label is
// a CID's text.
func benchValue(b *testing.B, p pair) (theirs, ours any, data []byte) {
	r := rand.New(rand.NewPCG(42, 42))
	for range 10000 {
		tv := p.theirs()
		fill(r, reflect.ValueOf(tv).Elem(), 0)
		if dp, ok := tv.(*tmarket.DealProposal); ok {
			// A deal's label as clients write it: the text of the
			// payload's CID.
			dp.Label, _ = tmarket.NewLabelFromString("bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")
		}
		var buf bytes.Buffer
		if err := tv.(cbg.CBORMarshaler).MarshalCBOR(&buf); err != nil || buf.Len() < 40 {
			continue
		}
		ov := p.ours()
		convert(reflect.ValueOf(ov).Elem(), reflect.ValueOf(tv).Elem())
		return tv, ov, buf.Bytes()
	}
	b.Fatalf("%s: no value", p.name)
	return nil, nil, nil
}

var (
	callSink   cbg.CBORUnmarshaler
	readerSink *bytes.Reader
)

func BenchmarkCompat(b *testing.B) {
	for _, name := range benchTypes {
		var p pair
		for _, q := range pairs {
			if q.name == name {
				p = q
			}
		}
		tv, ov, data := benchValue(b, p)
		// What every decode below pays before UnmarshalCBOR: the new
		// value and the bytes.Reader, as go-ipld-cbor's callers make them.
		b.Run("Call/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v := p.ours().(cbg.CBORUnmarshaler)
				callSink, readerSink = v, bytes.NewReader(data)
			}
		})
		for _, side := range []struct {
			name string
			v    any
			mk   func() any
		}{{"theirs", tv, p.theirs}, {"ours", ov, p.ours}} {
			b.Run("Encode/"+name+"/"+side.name, func(b *testing.B) {
				var buf bytes.Buffer
				m := side.v.(cbg.CBORMarshaler)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					buf.Reset()
					if err := m.MarshalCBOR(&buf); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("Decode/"+name+"/"+side.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					v := side.mk().(cbg.CBORUnmarshaler)
					if err := v.UnmarshalCBOR(bytes.NewReader(data)); err != nil {
						b.Fatal(err)
					}
				}
			})
			// The decode's own speed: one value and one reader,
			// reused, without the two allocations of the call.
			b.Run("DecodeReuse/"+name+"/"+side.name, func(b *testing.B) {
				v := side.mk().(cbg.CBORUnmarshaler)
				rd := bytes.NewReader(data)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					rd.Reset(data)
					if err := v.UnmarshalCBOR(rd); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
