//go:build !race

package cbgcompat

const raceEnabled = false
