package bench

import (
	"testing"

	"github.com/cborgen/cborgen/bench/internal/convert"
)

func BenchmarkRequest(b *testing.B)         { benchShape(b, "Request") }
func BenchmarkProfile(b *testing.B)         { benchShape(b, "Profile") }
func BenchmarkGraph(b *testing.B)           { benchShape(b, "Graph") }
func BenchmarkDrawing(b *testing.B)         { benchShape(b, "Drawing") }
func BenchmarkTables(b *testing.B)          { benchShape(b, "Tables") }
func BenchmarkCounters(b *testing.B)        { benchShape(b, "Counters") }
func BenchmarkCompositeSmall(b *testing.B)  { benchShape(b, "CompositeSmall") }
func BenchmarkCompositeMedium(b *testing.B) { benchShape(b, "CompositeMedium") }
func BenchmarkCompositeLarge(b *testing.B)  { benchShape(b, "CompositeLarge") }

// benchShape runs every operation of every codec of a shape, named
// Benchmark<Shape>/impl=<impl>/op=<op> so that benchstat can pivot on
// either key (-col /impl).
func benchShape(b *testing.B, name string) {
	s := getShape(name)
	held := convert.HeapObjects(s.value)
	for _, c := range s.codecs {
		enc, err := c.encode(nil)
		if err != nil {
			b.Fatalf("%s: %s: encode: %v", name, c.impl, err)
		}
		enc = append([]byte(nil), enc...)
		b.Run("impl="+c.impl, func(b *testing.B) {
			b.Run("op=Encode", func(b *testing.B) {
				buf := make([]byte, 0, 2*len(enc)+64)
				b.ReportAllocs()
				b.SetBytes(int64(len(enc)))
				for b.Loop() {
					if buf, err = c.encode(buf[:0]); err != nil {
						b.Fatal(err)
					}
				}
			})
			if c.decode == nil {
				return
			}
			b.Run("op=Decode", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(enc)))
				for b.Loop() {
					if err := c.decode(enc); err != nil {
						b.Fatal(err)
					}
				}
				if c.impl == implGenerated {
					// The objects the decoded value holds: the least any
					// decoder must allocate.
					b.ReportMetric(float64(held), "held-objects")
				}
			})
			if c.impl == implGenerated {
				b.Run("op=DecodeLegacy", func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(s.legacy)))
					for b.Loop() {
						if err := c.decode(s.legacy); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			if c.stream != nil {
				b.Run("op=DecodeReader", func(b *testing.B) {
					next := c.stream(&loop{data: enc})
					b.ReportAllocs()
					b.SetBytes(int64(len(enc)))
					for b.Loop() {
						if err := next(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			if c.marshal != nil {
				b.Run("op=Marshal", func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(enc)))
					for b.Loop() {
						if _, err := c.marshal(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
