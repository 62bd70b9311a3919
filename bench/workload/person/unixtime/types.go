// Package unixtime holds the record of package person generated with
// the default -time unix: the time is an integer of seconds.
package unixtime

import "time"

//go:generate go tool cbor-gen -type Person

// Person is person.Person, its time written as an integer.
type Person struct {
	Name     string
	BirthDay time.Time
	Phone    string
	Siblings int
	Spouse   bool
	Money    float64
}

// New returns the record of person.New in whole seconds (an integer time
// has no fraction), in UTC, as it decodes.
func New() *Person {
	return &Person{
		Name:     "Alice Wonderland",
		BirthDay: time.Date(1987, 6, 15, 6, 30, 12, 0, time.UTC),
		Phone:    "5551234567",
		Siblings: 2,
		Spouse:   true,
		Money:    1234.56,
	}
}
