package bench

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/bench/peers/fxarray"
	"github.com/cborgen/cborgen/bench/workload"
	"github.com/cborgen/cborgen/fxmode"
	"github.com/cborgen/cborgen/runtime"
)

// BenchmarkFxMode measures a program's own calls through its fxamacker
// modes wrapped by fxmode (path=fxmode) against calling the generated
// methods directly (path=direct: v.MarshalCBOR(), v.UnmarshalCBOR(b)),
// the unwrapped modes (path=fxamacker-api: em.Marshal(&v) and
// dm.Unmarshal(b, &v), which find the generated methods), and
// fxamacker's package functions (path=cbor: cbor.Marshal(&v),
// cbor.Unmarshal(b, &v)), on every shape. The modes are
// CoreDetEncOptions and the default DecOptions (fxarray's). Each decode
// goes into one value reset to zero, on every path alike.
func BenchmarkFxMode(b *testing.B) {
	fxBench(b, "Request", workload.NewRequest())
	fxBench(b, "Profile", workload.NewProfile())
	for _, name := range []string{"Graph", "Drawing", "Tables", "Counters"} {
		switch v := getShape(name).value.(type) {
		case *workload.Graph:
			fxBench(b, name, v)
		case *workload.Drawing:
			fxBench(b, name, v)
		case *workload.Tables:
			fxBench(b, name, v)
		case *workload.Counters:
			fxBench(b, name, v)
		}
	}
	fxBench(b, "CompositeSmall", workload.NewComposite(workload.CompositeSmall))
	fxBench(b, "CompositeMedium", workload.NewComposite(workload.CompositeMedium))
	fxBench(b, "CompositeLarge", workload.NewComposite(workload.CompositeLarge))
}

// generatedPtr is *T for a generated T.
type generatedPtr[T any] interface {
	*T
	MarshalCBOR() ([]byte, error)
	UnmarshalCBOR([]byte) error
	DecodeCBOR(*runtime.Decoder) error
}

var (
	fxEm = fxmode.EncMode(fxarray.EncMode)
	fxDm = fxmode.DecMode(fxarray.DecMode)
)

func fxBench[T any, P generatedPtr[T]](b *testing.B, name string, v P) {
	data, err := v.MarshalCBOR()
	if err != nil {
		b.Fatal(err)
	}
	em, dm := fxarray.EncMode, fxarray.DecMode
	out := P(new(T))
	for _, c := range []struct {
		op, path string
		run      func() error
	}{
		{"Marshal", "direct", func() error { _, err := v.MarshalCBOR(); return err }},
		{"Marshal", "fxmode", func() error { _, err := fxEm.Marshal(v); return err }},
		{"Marshal", "fxamacker-api", func() error { _, err := em.Marshal(v); return err }},
		{"Marshal", "cbor", func() error { _, err := cbor.Marshal(v); return err }},
		{"Unmarshal", "direct", func() error { *out = *new(T); return out.UnmarshalCBOR(data) }},
		{"Unmarshal", "fxmode", func() error { *out = *new(T); return fxDm.Unmarshal(data, out) }},
		{"Unmarshal", "fxamacker-api", func() error { *out = *new(T); return dm.Unmarshal(data, out) }},
		{"Unmarshal", "cbor", func() error { *out = *new(T); return cbor.Unmarshal(data, out) }},
	} {
		b.Run(name+"/op="+c.op+"/path="+c.path, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestFxModeRepeat runs one operation of BenchmarkFxMode N times, for
// counting its instructions under callgrind as icount.sh does (the count
// of N2 calls minus that of N1, over N2 - N1). It does nothing unless
// FXMODE_REPEAT is set to SHAPE/OP/PATH (Request, Profile or
// CompositeSmall; Marshal or Unmarshal; direct, fxmode or fxamacker-api):
//
//	FXMODE_REPEAT=Request/Unmarshal/fxmode FXMODE_N=2000 go test -run '^TestFxModeRepeat$'
func TestFxModeRepeat(t *testing.T) {
	spec := os.Getenv("FXMODE_REPEAT")
	if spec == "" {
		t.Skip("FXMODE_REPEAT is not set")
	}
	n, err := strconv.Atoi(os.Getenv("FXMODE_N"))
	if err != nil {
		t.Fatalf("FXMODE_N: %v", err)
	}
	shape, rest, _ := strings.Cut(spec, "/")
	switch shape {
	case "Request":
		fxRepeat(t, workload.NewRequest(), rest, n)
	case "Profile":
		fxRepeat(t, workload.NewProfile(), rest, n)
	case "CompositeSmall":
		fxRepeat(t, workload.NewComposite(workload.CompositeSmall), rest, n)
	default:
		t.Fatalf("FXMODE_REPEAT %q: no shape %q", spec, shape)
	}
}

func fxRepeat[T any, P generatedPtr[T]](t *testing.T, v P, opPath string, n int) {
	data, err := v.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	em, dm := fxarray.EncMode, fxarray.DecMode
	out := P(new(T))
	var run func() error
	switch opPath {
	case "Marshal/direct":
		run = func() error { _, err := v.MarshalCBOR(); return err }
	case "Marshal/fxmode":
		run = func() error { _, err := fxEm.Marshal(v); return err }
	case "Marshal/fxamacker-api":
		run = func() error { _, err := em.Marshal(v); return err }
	case "Unmarshal/direct":
		run = func() error { *out = *new(T); return out.UnmarshalCBOR(data) }
	case "Unmarshal/fxmode":
		run = func() error { *out = *new(T); return fxDm.Unmarshal(data, out) }
	case "Unmarshal/fxamacker-api":
		run = func() error { *out = *new(T); return dm.Unmarshal(data, out) }
	default:
		t.Fatalf("no operation %q", opPath)
	}
	for range n {
		if err := run(); err != nil {
			t.Fatal(err)
		}
	}
}
