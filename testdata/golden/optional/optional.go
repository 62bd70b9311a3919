// Package optional is a golden case: arrays whose trailing fields are
// left out when zero (//cborgen:optional N), as COSE structures and
// versioned records are written.
package optional

// Key is written as [kty, kid] or [kty, kid, alg] or [kty, kid, alg, key]:
// the fields from slot 2 on end the array early when zero.
//
//cborgen:optional 2
type Key struct {
	Kty int64
	Kid []byte
	Alg int64
	Key []byte
}

// Party is one of the parties of a KDF context: every field optional.
//
//cborgen:optional 0
type Party struct {
	Identity *string
	Nonce    []byte
	Other    map[string]uint32
}

// Point is a comparable struct, zero when both coordinates are.
type Point struct {
	X, Y int32
}

// Record is a versioned record under a tag of its own: its version is
// always there, the rest only when set. //cborgen:required may say the
// same count.
//
//cborgen:optional 1
//cborgen:required 1
//cborgen:tag 1200
type Record struct {
	Version uint16
	Name    string
	Flag    bool
	Ratio   float64
	At      Point
	Parties []Party
	Next    *Record
}
