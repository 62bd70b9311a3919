package diag

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestTruncatedPrintsWhatWasRead checks that input cut short prints the
// notation up to where it ends, and nothing for the item whose head is
// missing or cut: no value that the input does not hold.
func TestTruncatedPrintsWhatWasRead(t *testing.T) {
	cases := []struct{ hex, plain string }{
		{"83 6141 03", `["A", 3`},
		{"82 01", `[1`},
		{"83 01 1901", `[1`},     // the third element's head is cut
		{"a1 01", `{1`},          // a key without its value
		{"a2 01 02", `{1: 2`},    // a pair without the second
		{"c1", `1(`},             // a tag without its content
		{"9f 01", `[_ 1`},        // an indefinite array without its break
		{"81 9f 1c", `[[_ `},     // reserved additional information
		{"5f 41 00", `(_ h'00'`}, // an indefinite byte string without its break
	}
	for _, c := range cases {
		data, err := hex.DecodeString(strings.ReplaceAll(c.hex, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Decode(testSchema(), "Order", data, Options{Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Err == nil {
			t.Errorf("%s: no error", c.hex)
		}
		if got := strings.TrimSuffix(string(res.Text), "\n"); got != c.plain {
			t.Errorf("%s: plain %q, want %q", c.hex, got, c.plain)
		}
	}
	// An item without even its head prints nothing.
	for _, h := range []string{"1c", "19", "1901"} {
		data, _ := hex.DecodeString(h)
		res, err := Decode(testSchema(), "Order", data, Options{Plain: true})
		if err != nil || res.Err == nil || strings.TrimSpace(string(res.Text)) != "" {
			t.Errorf("%s: %q, %v, %v; want no text and an error", h, res.Text, res.Err, err)
		}
	}
}
