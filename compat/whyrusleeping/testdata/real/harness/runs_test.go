//go:build unix

package harness

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	cbg "github.com/whyrusleeping/cbor-gen"
)

// TestRuns shows what a run of BenchmarkCompat's go-ipld-cbor-style
// Decode pays besides the calls: RUNS_N runs of 0.2 s of RUNS_SIDE's
// (theirs or ours) calls on RUNS_TYPE, each in a goroutine of its own
// after runtime.GC, as b.Run starts a benchmark, and for each its ns per
// call, the collections, the minor page faults and involuntary context
// switches of the process, and the time the world was stopped. Where
// the runs' times spread, these say by what. It asserts nothing.
func TestRuns(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("RUNS_N"))
	if runs == 0 {
		t.Skip("RUNS_N not set")
	}
	name, side := os.Getenv("RUNS_TYPE"), os.Getenv("RUNS_SIDE")
	var p pair
	for _, q := range pairs {
		if q.name == name {
			p = q
		}
	}
	if p.name == "" {
		t.Fatalf("RUNS_TYPE %q: no such type", name)
	}
	_, _, data := benchValue(&testing.B{}, p)
	mk := p.theirs
	if side == "ours" {
		mk = p.ours
	}
	for range runs {
		done := make(chan string)
		go func() {
			runtime.GC()
			var ms0, ms1 runtime.MemStats
			var ru0, ru1 syscall.Rusage
			runtime.ReadMemStats(&ms0)
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			start := time.Now()
			n := 0
			for time.Since(start) < 200*time.Millisecond {
				for range 1000 {
					v := mk().(cbg.CBORUnmarshaler)
					if err := v.UnmarshalCBOR(bytes.NewReader(data)); err != nil {
						done <- err.Error()
						return
					}
				}
				n += 1000
			}
			el := time.Since(start)
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
			runtime.ReadMemStats(&ms1)
			k := float64(n) / 1000
			done <- fmt.Sprintf("runs %s %s: %.1f ns/call, %.3f collections, %.2f minor faults, %.2f involuntary switches per 1,000 calls; world stopped %.2f ms",
				name, side, float64(el.Nanoseconds())/float64(n), float64(ms1.NumGC-ms0.NumGC)/k,
				float64(ru1.Minflt-ru0.Minflt)/k, float64(ru1.Nivcsw-ru0.Nivcsw)/k, float64(ms1.PauseTotalNs-ms0.PauseTotalNs)/1e6)
		}()
		fmt.Println(<-done)
	}
}
