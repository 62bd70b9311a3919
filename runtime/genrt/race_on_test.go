//go:build race

package genrt_test

// raceEnabled: under the race detector sync.Pool drops items on purpose,
// so pooled objects are allocated again and allocation counts mean nothing.
const raceEnabled = true
