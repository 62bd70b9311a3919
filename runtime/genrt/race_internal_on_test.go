//go:build race

package genrt

// raceEnabled: under the race detector sync.Pool drops items on purpose,
// so tests that count allocations of pooled objects skip.
const raceEnabled = true
