// Package person holds a small record of strings, a time and numbers,
// the commonest shape of a record in an application, generated with
// -time rfc3339nano: the time is RFC 3339 text with nanoseconds. Package
// unixtime has the same record with the time as an integer.
package person

import "time"

//go:generate go tool cbor-gen -time rfc3339nano -type Person

// Person is a record of a person: two short strings, a time, and numbers.
type Person struct {
	Name     string
	BirthDay time.Time
	Phone    string
	Siblings int
	Spouse   bool
	Money    float64
}

// New returns the record the benchmarks use: a 16-byte name, a 10-byte
// phone number, and a birthday with nanoseconds in a zone two hours east
// of UTC.
func New() *Person {
	return &Person{
		Name:     "Alice Wonderland",
		BirthDay: time.Date(1987, 6, 15, 8, 30, 12, 123456789, time.FixedZone("", 2*60*60)),
		Phone:    "5551234567",
		Siblings: 2,
		Spouse:   true,
		Money:    1234.56,
	}
}
