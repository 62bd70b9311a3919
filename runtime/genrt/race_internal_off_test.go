//go:build !race

package genrt

const raceEnabled = false
