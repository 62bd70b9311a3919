package genrt

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// TestKeyFold compares equalFold with fxamacker/cbor's rule, strings.EqualFold
// on keys of the same length, for keys re-cased at random from names
// with ASCII and non-ASCII letters.
func TestKeyFold(t *testing.T) {
	cases := []struct {
		key, name string
		want      bool
	}{
		{"id", "id", true},
		{"ID", "id", true},
		{"Id", "iD", true},
		{"id", "ie", false},
		{"id", "idx", false},
		{"\u212a", "k", false}, // Kelvin sign: folds to k, but three bytes
		{"\u212a", "K", false},
		{"\u212aey", "\u212aEY", true},
		{"stra\u00dfe", "STRA\u00dfE", true},
		{"\u00c9t\u00e9", "\u00e9T\u00c9", true},
		{"\u03a3", "\u03c2", true}, // capital sigma, final sigma
		{"@", "`", false},
		{"[", "{", false},
		{"", "", true},
		{"\xff", "\xff", true},
	}
	for _, tc := range cases {
		if got := equalFold([]byte(tc.key), tc.name); got != tc.want {
			t.Errorf("equalFold(%q, %q) = %v, want %v", tc.key, tc.name, got, tc.want)
		}
	}

	r := rand.New(rand.NewPCG(1, 2))
	letters := []rune("aAbBkKsSzZ\u212a\u017f\u00e9\u00c9\u03c3\u03a3\u03c2\u0131\u0130iI_0-\u00df\u1e9e")
	for range 20000 {
		name := make([]rune, r.IntN(6))
		for i := range name {
			name[i] = letters[r.IntN(len(letters))]
		}
		key := make([]rune, len(name))
		for i, c := range name {
			key[i] = c
			for range r.IntN(4) {
				key[i] = unicode.SimpleFold(key[i])
			}
			if r.IntN(20) == 0 {
				key[i] = letters[r.IntN(len(letters))]
			}
		}
		k, n := string(key), string(name)
		want := len(k) == len(n) && strings.EqualFold(k, n)
		if got := equalFold([]byte(k), n); got != want {
			t.Fatalf("equalFold(%q, %q) = %v, want %v", k, n, got, want)
		}
	}

	key := []byte("Some_Longer_Field_Name_Over_32_Bytes\u00c9")
	if n := testing.AllocsPerRun(100, func() { equalFold(key, "some_longer_field_name_over_32_bytes\u00e9") }); n != 0 {
		t.Errorf("equalFold allocates %v times", n)
	}
}
