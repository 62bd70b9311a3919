//go:build race

package bench

// raceEnabled: under the race detector sync.Pool drops items on purpose,
// so allocation counts of pooled code mean nothing.
const raceEnabled = true
