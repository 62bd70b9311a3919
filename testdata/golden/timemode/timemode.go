// Package timemode is generated with -time rfc3339nano -timetag: times
// are tagged RFC 3339 text with nanoseconds, also inside interface
// fields and type parameters.
package timemode

//go:generate go tool cbor-gen -time=rfc3339nano -timetag

import "time"

type Event struct {
	At    time.Time
	Until *time.Time
	Log   []time.Time
	Any   any
	Box   Box[time.Time]
}

type Box[T any] struct {
	V T
}
