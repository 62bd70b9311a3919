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
// generated and fxamacker-map), encode or zerocopy (the person record);
// BENCH_AB_ROUNDS (default 2000) rounds of BENCH_AB_CALLS calls each
// (default: about 20µs of work). SHAPE StoreDocument takes OP decode,
// zerocopy, marshal, encode, valid or skip (fxamacker-any: Wellformed
// for both) and IMPLS generated and fxamacker-any; OP valid, skip or
// skipreader (generated's Decoder.Skip over a stream; fxamacker's
// Wellformed for all three) with any other SHAPE the skip benchmarks know
// (Document, RealRecord, or a shape's encoding) compares the same calls
// on that document; with
// BENCH_AB_GC set, each round starts with a collection (then take rounds
// of one call: BENCH_AB_ROUNDS=100 BENCH_AB_CALLS=1).
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
		c, legacy := repeatCodec(t, name, impl, op == "zerocopy")
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
		default:
			t.Fatalf("BENCH_AB_OP %q: want decode, legacy, encode or zerocopy", op)
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
