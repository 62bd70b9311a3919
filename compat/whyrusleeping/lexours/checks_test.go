package lexours

import "testing"

// TestChecks: the checks the generated code made once, when the package
// was initialized, held for lexutil's LexBlob, LexLink and CID texts,
// so their fields are read and written in place, and failed for
// lexother's LexBlob (another "$type"), whose fields go through its
// methods; lexother's LexLink keeps lex/util's rules and is in place.
// (The test of the package whyrusleeping shows the same by the calls of
// the methods.)
func TestChecks(t *testing.T) {
	for _, c := range []struct {
		what      string
		got, want bool
	}{
		{"lexutil.LexBlob", cbgLexBlobs, true},
		{"lexutil.LexLink", cbgLexLinks, true},
		{"lexutil's CID texts", cbgCidTexts.OK(), true},
		{"lexother.LexBlob", _cbgLexBlobs, false},
		{"lexother.LexLink", _cbgLexLinks, true},
		{"lexother's CID texts", _cbgCidTexts.OK(), true},
	} {
		if c.got != c.want {
			t.Errorf("%s in place: %v, want %v", c.what, c.got, c.want)
		}
	}
}
