package generator

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSaySlow: a step slower than progressAfter is named once on the
// log, a fast one not at all, and -q says nothing.
func TestSaySlow(t *testing.T) {
	defer func(d time.Duration) { progressAfter = d }(progressAfter)
	progressAfter = 0
	var log bytes.Buffer
	errStep := errors.New("step")
	if err := saySlow(Config{Progress: &log}, "loading x", func() error { time.Sleep(300 * time.Millisecond); return errStep }); err != errStep {
		t.Fatalf("err %v", err)
	}
	if got := log.String(); got != "cbor-gen: loading x...\n" {
		t.Fatalf("slow step: log %q", got)
	}
	log.Reset()
	progressAfter = time.Hour
	if err := saySlow(Config{Progress: &log}, "loading x", func() error { return nil }); err != nil || log.Len() != 0 {
		t.Fatalf("fast step: %v, log %q", err, log.String())
	}
	progressAfter = 0
	if err := saySlow(Config{Progress: &log, Quiet: true}, "loading x", func() error { time.Sleep(10 * time.Millisecond); return nil }); err != nil || strings.Contains(log.String(), "loading") {
		t.Fatalf("quiet: %v, log %q", err, log.String())
	}
}
