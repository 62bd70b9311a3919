package bench

import (
	"testing"

	"github.com/cborgen/cborgen/bench/internal/convert"
	"github.com/cborgen/cborgen/bench/peers/fxarray"
	"github.com/cborgen/cborgen/bench/workload"
)

// BenchmarkThroughFxamacker measures what a program pays for calling the
// generated code through fxamacker/cbor's API (cbor.Marshal(&v) and
// cbor.Unmarshal(data, &v) find the generated MarshalCBOR and
// UnmarshalCBOR) rather than directly, beside fxamacker's own reflection
// on the same value (README, "Using the generated code from
// fxamacker/cbor").
func BenchmarkThroughFxamacker(b *testing.B) {
	req, prof := workload.NewRequest(), workload.NewProfile()
	fxReq, fxProf := convert.To[fxarray.Request](req), convert.To[fxarray.Profile](prof)
	reqBytes, _ := req.MarshalCBOR()
	profBytes, _ := prof.MarshalCBOR()
	em, dm := fxarray.EncMode, fxarray.DecMode

	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"Request/op=Marshal/path=direct", func() error { _, err := req.MarshalCBOR(); return err }},
		{"Request/op=Marshal/path=fxamacker-api", func() error { _, err := em.Marshal(req); return err }},
		{"Request/op=Marshal/path=fxamacker-reflection", func() error { _, err := em.Marshal(fxReq); return err }},
		{"Request/op=Unmarshal/path=direct", func() error { var v workload.Request; return v.UnmarshalCBOR(reqBytes) }},
		{"Request/op=Unmarshal/path=fxamacker-api", func() error { var v workload.Request; return dm.Unmarshal(reqBytes, &v) }},
		{"Request/op=Unmarshal/path=fxamacker-reflection", func() error { var v fxarray.Request; return dm.Unmarshal(reqBytes, &v) }},
		{"Profile/op=Marshal/path=direct", func() error { _, err := prof.MarshalCBOR(); return err }},
		{"Profile/op=Marshal/path=fxamacker-api", func() error { _, err := em.Marshal(prof); return err }},
		{"Profile/op=Marshal/path=fxamacker-reflection", func() error { _, err := em.Marshal(fxProf); return err }},
		{"Profile/op=Unmarshal/path=direct", func() error { var v workload.Profile; return v.UnmarshalCBOR(profBytes) }},
		{"Profile/op=Unmarshal/path=fxamacker-api", func() error { var v workload.Profile; return dm.Unmarshal(profBytes, &v) }},
		{"Profile/op=Unmarshal/path=fxamacker-reflection", func() error { var v fxarray.Profile; return dm.Unmarshal(profBytes, &v) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
