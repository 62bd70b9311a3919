// Package required is a golden case: types whose first version already
// has optional trailing fields (//cborgen:required N).
package required

// Version is a one- or two-element array, as an attestation token's
// version is: [major] or [major, minor].
//
//cborgen:required 1
type Version struct {
	Major uint8
	Minor uint8
}

// Token holds a Version and fields that may all be missing but the first
// two; a tagged type may have a required count too.
//
//cborgen:required 2
//cborgen:tag 1100
type Token struct {
	Issuer  string
	Version Version
	Nonce   []byte
	Claims  map[string]int64
}
