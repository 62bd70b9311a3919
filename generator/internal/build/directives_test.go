package build

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDirectivesDocumented keeps the guide's table of directives and
// directiveTable the same: every form is in the table, and every row of
// the table names a directive that the builder knows.
func TestDirectivesDocumented(t *testing.T) {
	guide, err := os.ReadFile("../../../docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(guide), "\n## Directives\n")
	section, _, _ = strings.Cut(section, "\n## ")
	for _, d := range directiveTable {
		if !strings.Contains(section, "`//cborgen:"+d.usage+"`") {
			t.Errorf("the guide's table of directives lacks `//cborgen:%s`", d.usage)
		}
	}
	rows := regexp.MustCompile("(?m)^\\| `//cborgen:([^`]*)`").FindAllStringSubmatch(section, -1)
	if len(rows) == 0 {
		t.Fatal("no rows in the guide's table of directives")
	}
	for _, row := range rows {
		words := strings.Fields(row[1])
		ok := false
		for _, d := range directiveForms(words[0]) {
			ok = ok || d.usage == row[1]
		}
		if !ok {
			t.Errorf("the guide's table of directives has //cborgen:%s, which the builder does not know", row[1])
		}
	}
}

// TestMatchUsage: the forms of directiveTable and the lines they take.
func TestMatchUsage(t *testing.T) {
	for _, tc := range []struct {
		usage, line string
		want        bool
	}{
		{"union", "union", true},
		{"union", "union first", false},
		{"tag N", "tag 5", true},
		{"tag N", "tag", false},
		{"tag N", "tag 5 optional", false},
		{"tag N optional", "tag 5 optional", true},
		{"tag N optional", "tag 5 maybe", false},
		{"case V", "case 1", true},
		{"case V", "case 1 2", false},
		{"case V...", "case \"a b\"", true}, // V... takes the rest of the line
		{"case V...", "case", false},
		{"union key K", "union key 1", true},
		{"union key K", "union first", false},
	} {
		if got := matchUsage(strings.Fields(tc.usage), strings.Fields(tc.line)); got != tc.want {
			t.Errorf("%q against %q: %t, want %t", tc.line, tc.usage, got, tc.want)
		}
	}
}
