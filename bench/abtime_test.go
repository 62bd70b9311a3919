package bench

import (
	"fmt"
	"os"
	gort "runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAB times one operation of several codecs of a shape in short
// alternating rounds and prints, per codec, the lowest, the tenth
// percentile and the median time per call over the rounds. On a machine
// whose neighbours take its cores at random, a long benchmark's mean
// mixes their load into every figure; the low percentiles of many short
// interleaved rounds show each codec's own cost, and the median what a
// loaded machine sees. It does nothing unless BENCH_AB_SHAPE is set:
//
//	BENCH_AB_SHAPE=Request BENCH_AB_OP=decode \
//	BENCH_AB_IMPLS=generated,msgp-tuple go test -run '^TestAB$' -v
//
// SHAPE and IMPLS are as TestRepeat's (PersonText and PersonUnix
// included); OP is decode, legacy (fxamacker's map encoding: IMPLS
// generated and fxamacker-map), encode, zerocopy (the person record),
// total (encode into a reused buffer, then decode those bytes),
// totalzerocopy (the same with the zero-copy decode) or marshal (the
// person record: a marshal into a new slice, then an unmarshal of it;
// marshalonly: the marshal alone);
// BENCH_AB_ROUNDS (default 2000) rounds of BENCH_AB_CALLS calls each
// (default: about 20µs of work). SHAPE StoreDocument takes OP decode,
// zerocopy, marshal, encode, valid or skip (fxamacker-any: Wellformed
// for both) and IMPLS generated and fxamacker-any; OP valid, skip or
// skipreader (generated's Decoder.Skip over a stream; fxamacker's
// Wellformed for all three) with any other SHAPE the skip benchmarks know
// (Document, RealRecord, or a shape's encoding) compares the same calls
// on that document; with
// BENCH_AB_GC set, each round starts with a collection (then take rounds
// of one call: BENCH_AB_ROUNDS=100 BENCH_AB_CALLS=1). With BENCH_AB_OUT
// set to a file, it also appends to that file, in the benchmark format
// benchstat reads, the tenth percentile of each tenth of the rounds, per
// codec (BenchmarkAB/shape=S/op=O/impl=I): ten samples whose intervals
// benchstat works out (benchstat -col /impl FILE).
func TestAB(t *testing.T) {
	name := os.Getenv("BENCH_AB_SHAPE")
	if name == "" {
		t.Skip("BENCH_AB_SHAPE is not set")
	}
	op := os.Getenv("BENCH_AB_OP")
	rounds := envInt(t, "BENCH_AB_ROUNDS", 2000)
	var runs []func()
	impls := strings.Split(os.Getenv("BENCH_AB_IMPLS"), ",")
	for _, impl := range impls {
		if name == "StoreDocument" || op == "valid" || op == "skip" || op == "skipreader" {
			var f func() error
			if name == "StoreDocument" {
				f = storeDocumentOp(t, op, impl)
			} else {
				f = skipOp(t, name, op, impl)
			}
			runs = append(runs, func() {
				if err := f(); err != nil {
					t.Fatal(err)
				}
			})
			continue
		}
		c, legacy := repeatCodec(t, name, impl, op == "zerocopy" || op == "totalzerocopy")
		data, err := c.encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		data = append([]byte(nil), data...)
		if op == "legacy" {
			data = legacy // fxamacker's map encoding, which every codec decodes
		}
		switch op {
		case "decode", "zerocopy", "legacy":
			runs = append(runs, func() {
				if err := c.decode(data); err != nil {
					t.Fatal(err)
				}
			})
		case "encode":
			buf := make([]byte, 0, 2*len(data))
			runs = append(runs, func() {
				if buf, err = c.encode(buf[:0]); err != nil {
					t.Fatal(err)
				}
			})
		case "total", "totalzerocopy":
			buf := make([]byte, 0, 2*len(data))
			runs = append(runs, func() {
				if buf, err = c.encode(buf[:0]); err != nil {
					t.Fatal(err)
				}
				if err = c.decode(buf); err != nil {
					t.Fatal(err)
				}
			})
		case "marshal", "marshalonly":
			if c.marshal == nil {
				t.Fatalf("%s codec %q has no marshal into a new slice", name, impl)
			}
			only := op == "marshalonly"
			runs = append(runs, func() {
				b, err := c.marshal()
				if err != nil {
					t.Fatal(err)
				}
				if only {
					return
				}
				if err = c.decode(b); err != nil {
					t.Fatal(err)
				}
			})
		default:
			t.Fatalf("BENCH_AB_OP %q: want decode, legacy, encode, zerocopy, total, totalzerocopy, marshal or marshalonly", op)
		}
	}
	calls := envInt(t, "BENCH_AB_CALLS", 0)
	if calls == 0 {
		start := time.Now()
		for range 1000 {
			runs[0]()
		}
		calls = max(1, int(20*time.Microsecond*1000/time.Since(start)))
	}
	collect := os.Getenv("BENCH_AB_GC") != ""
	times := make([][]float64, len(runs))
	for r := range rounds {
		for k := range runs {
			i := (k + r) % len(runs) // each codec first in turn
			if collect {
				gort.GC()
			}
			start := time.Now()
			for range calls {
				runs[i]()
			}
			times[i] = append(times[i], float64(time.Since(start).Nanoseconds())/float64(calls))
		}
	}
	if out := os.Getenv("BENCH_AB_OUT"); out != "" {
		writeABSamples(t, out, name, op, impls, times)
	}
	var base float64
	for i, impl := range impls {
		ts := times[i]
		slices.Sort(ts)
		p10, p50 := ts[len(ts)/10], ts[len(ts)/2]
		if i == 0 {
			base = p10
		}
		fmt.Printf("%s %s %-14s min %8.1f ns  p10 %8.1f ns  p50 %8.1f ns  p10/first %.3f\n",
			name, op, impl, ts[0], p10, p50, p10/base)
	}
}

func envInt(t *testing.T, key string, def int) int {
	s := os.Getenv(key)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return n
}

// writeABSamples appends TestAB's samples to the file out: for each codec,
// the tenth percentile of each tenth of the rounds, in order, as lines of
// the benchmark format.
func writeABSamples(t *testing.T, out, name, op string, impls []string, times [][]float64) {
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const parts = 10
	for i, impl := range impls {
		ts := times[i]
		for k := range parts {
			part := slices.Clone(ts[k*len(ts)/parts : (k+1)*len(ts)/parts])
			if len(part) == 0 {
				continue
			}
			slices.Sort(part)
			fmt.Fprintf(f, "BenchmarkAB/shape=%s/op=%s/impl=%s 1 %.2f ns/op\n", name, op, impl, part[len(part)/10])
		}
	}
}
