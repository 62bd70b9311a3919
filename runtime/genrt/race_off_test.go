//go:build !race

package genrt_test

const raceEnabled = false
