package harness

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	cbg "github.com/whyrusleeping/cbor-gen"
)

// TestPaired measures time as the ratio of the two sides taken side by
// side: for each type and each call (the go-ipld-cbor-style Decode, the
// reused DecodeReuse and the Encode into a reused buffer of
// BenchmarkCompat), PAIRED_ROUNDS rounds of a burst of calls of each
// side, the side that goes first alternating, each burst about 1 ms of
// wall clock. On a shared machine whose load comes and goes, both bursts
// of a round run under the same load, so the ratio of a round is
// steadier than either time. It prints the median ns per call of each
// side and the median, first and third quartile of the rounds' ratios
// (theirs over ours), and then the mean ns per call of each side over
// all its rounds and the ratio of the means. The medians leave out the
// rounds that the collector's pauses and page faults fall in (it runs
// every few ms, each burst is about 1 ms); the means count them, as a
// benchmark's ns/op does. PAIRED_TYPES, a comma-separated list of the
// benchmark's types, measures those alone. It asserts nothing.
func TestPaired(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("PAIRED_ROUNDS"))
	if rounds == 0 {
		t.Skip("PAIRED_ROUNDS not set")
	}
	only := os.Getenv("PAIRED_TYPES")
	for _, name := range benchTypes {
		if only != "" && !slices.Contains(strings.Split(only, ","), name) {
			continue
		}
		var p pair
		for _, q := range pairs {
			if q.name == name {
				p = q
			}
		}
		tv, ov, data := benchValue(&testing.B{}, p)
		for _, op := range []string{"Decode", "DecodeReuse", "Encode"} {
			runs := [2]func(n int) time.Duration{}
			for i, mk := range []func() any{p.theirs, p.ours} {
				if op == "Encode" {
					m := []any{tv, ov}[i].(cbg.CBORMarshaler)
					var buf bytes.Buffer
					runs[i] = func(n int) time.Duration {
						start := time.Now()
						for range n {
							buf.Reset()
							if err := m.MarshalCBOR(&buf); err != nil {
								t.Fatal(err)
							}
						}
						return time.Since(start)
					}
				} else if op == "Decode" {
					runs[i] = func(n int) time.Duration {
						start := time.Now()
						for range n {
							v := mk().(cbg.CBORUnmarshaler)
							if err := v.UnmarshalCBOR(bytes.NewReader(data)); err != nil {
								t.Fatal(err)
							}
						}
						return time.Since(start)
					}
				} else {
					v := mk().(cbg.CBORUnmarshaler)
					rd := bytes.NewReader(data)
					runs[i] = func(n int) time.Duration {
						start := time.Now()
						for range n {
							rd.Reset(data)
							if err := v.UnmarshalCBOR(rd); err != nil {
								t.Fatal(err)
							}
						}
						return time.Since(start)
					}
				}
			}
			// Calls per burst: about 1 ms of the slower side, timed after
			// a first burst of each (the first calls pay for what is
			// set up once).
			runs[0](16)
			runs[1](16)
			n := 1
			for runs[0](n) < time.Millisecond && n < 1<<20 {
				n *= 2
			}
			runs[1](n)
			var per [2][]float64
			var ratios []float64
			for r := range rounds {
				var d [2]time.Duration
				first := r % 2
				d[first] = runs[first](n)
				d[1-first] = runs[1-first](n)
				for i := range d {
					per[i] = append(per[i], float64(d[i].Nanoseconds())/float64(n))
				}
				ratios = append(ratios, float64(d[0])/float64(d[1]))
			}
			q := func(xs []float64, f float64) float64 {
				s := slices.Sorted(slices.Values(xs))
				return s[int(f*float64(len(s)-1))]
			}
			mean := func(xs []float64) float64 {
				sum := 0.0
				for _, x := range xs {
					sum += x
				}
				return sum / float64(len(xs))
			}
			fmt.Printf("paired %s %s: theirs %.0f ns, ours %.0f ns, theirs/ours %.2f (quartiles %.2f-%.2f, %d rounds of %d calls); means theirs %.0f ns, ours %.0f ns, theirs/ours %.2f\n",
				op, name, q(per[0], 0.5), q(per[1], 0.5), q(ratios, 0.5), q(ratios, 0.25), q(ratios, 0.75), rounds, n,
				mean(per[0]), mean(per[1]), mean(per[0])/mean(per[1]))
		}
	}
}
