package generator

import (
	"bytes"
	"strings"
	"testing"
)

// TestDecodeContentUnion: -decode picks the variant of a union chosen by
// content as the generated dispatcher does, by the first element or by
// the value of its key, and says why an item has none; -cddl names the
// cases.
func TestDecodeContentUnion(t *testing.T) {
	dir := "../testdata/golden/contentunion"
	for _, tc := range []struct {
		typ, hex string
		want     []string
		refused  bool
	}{
		{"Cert", "8200 41aa", []string{"StakeReg (Cert variant, current format)", "0: Kind", "1: Cred"}, false},
		{"Cert", "8202 41aa", []string{"Deleg (Cert variant, current format): expected array of 3 elements, found 2"}, true},
		{"Cert", "8209 41aa", []string{"no variant of Cert for case 9"}, true},
		{"Cert", "80", []string{"Cert: an empty array has no first element to name its variant"}, true},
		{"Cert", "82 f6 41aa", []string{"Cert: its first element holds null, not an integer or text case"}, true},
		{"Shape", "a2 65 2474797065 66 636972636c65 61 72 f93c00", []string{"Circle (Shape variant, map)", "Type", "R"}, false},
		{"Shape", "a1 61 72 f93c00", []string{`Shape: the map has no key "$type" to name its variant`}, true},
		{"Shape", "a1 65 2474797065 66 737175617265", []string{`no variant of Shape for case "square"`}, true},
	} {
		var out bytes.Buffer
		err := Read(ReadConfig{Decode: tc.typ, Hex: true, Dir: dir}, strings.NewReader(strings.ReplaceAll(tc.hex, " ", "")), &out)
		if (err != nil) != tc.refused {
			t.Errorf("%s %s: error %v, want refused %v\n%s", tc.typ, tc.hex, err, tc.refused, out.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s %s: output lacks %q:\n%s", tc.typ, tc.hex, w, out.String())
			}
		}
	}
	var out bytes.Buffer
	if err := Read(ReadConfig{CDDL: true, Dir: dir}, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"; Cert is a union chosen by content: the first element of the array names the variant (Deleg 2, PoolRetire 3, StakeDereg 1, StakeReg 0).",
		`; Shape is a union chosen by content: the value of key "$type" names the variant (Circle "circle", Rect "rect").`,
	} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("-cddl lacks %q:\n%s", w, out.String())
		}
	}
}
