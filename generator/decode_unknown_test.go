package generator

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeUnknown: -decode and -cddl on types with a runtime.Unknown
// field (testdata/golden/unknown), from the record alone and with the
// source: kept items are labelled with the field and checked as
// runtime.Valid checks them, as the generated decoders check them.
func TestDecodeUnknown(t *testing.T) {
	dir := filepath.Join("..", "testdata", "golden", "unknown")
	for _, c := range []struct {
		typ, in string
		want    []string // in the notation
		refused string   // "" when the decoder takes it
	}{
		// {"text": "", "zz": [1], "zz": 2}
		{"Post", "a3647465787460627a7a8101627a7a02", []string{`"text": ""`, "/ unknown key, kept in Extra /", "/ unknown key given twice, skipped /"}, ""},
		// {"a": h'c328' as text}: invalid UTF-8 inside a kept value
		{"Post", "a2616162c328647465787460", []string{"kept in Extra"}, "not valid UTF-8"},
		// {"a": {1: 1, 1: 2}}: a duplicate key inside a kept value
		{"Post", "a26161a2010101026474657874 60", []string{"kept in Extra"}, "map key appears twice"},
		// tag 61 {1: "i", 9: null}
		{"Claims", "d83da2016169 09f6", []string{"/ Issuer /", "/ unknown key, kept in rest /"}, ""},
		// [1, 2, [], "new", {}]
		{"Event", "85010280636e6577a0", []string{"3: kept in More (written by a newer version)", "4: kept in More"}, ""},
		{"Event", "84010280 62c328", []string{"3: kept in More"}, "not valid UTF-8"},
	} {
		var out bytes.Buffer
		err := Read(ReadConfig{Decode: c.typ, Dir: dir}, strings.NewReader(strings.ReplaceAll(c.in, " ", "")), &out)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s %s: %v\n%s", c.typ, c.in, err, out.String())
		case c.refused != "" && (!errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s %s: error %v, want %q", c.typ, c.in, err, c.refused)
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s %s: no %q in\n%s", c.typ, c.in, w, out.String())
			}
		}
	}

	var out bytes.Buffer
	if err := Read(ReadConfig{CDDL: true, Dir: dir}, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"; Post: a map of its keys (//cborgen:map); unknown keys are kept in Extra and written back.",
		"* tstr => any,  ; other keys, kept in Extra\n  * int => any,",
		"* any,  ; elements of newer versions, kept in More and written back",
		"* any,  ; elements of newer versions, kept in Extra and written back", // Key, optional and extensible
	} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("-cddl: no %q in\n%s", w, out.String())
		}
	}
}
