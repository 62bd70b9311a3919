package generator

import (
	"reflect"
	"testing"
)

func TestConfigArgs(t *testing.T) {
	cfg := Config{Settings: Settings{Types: []string{"A", "B"}, Output: "x y.go", Tags: []string{"t"}, Sort: "none", Time: "rfc3339", TimeTag: true}, Pattern: "./p", Check: true, AcceptBreak: true}
	want := []string{"-type", "A,B", "-o", "x y.go", "-tags", "t", "-sort=none", "-time=rfc3339", "-timetag", "./p"}
	if got := cfg.Args(); !reflect.DeepEqual(got, want) {
		t.Errorf("Args() = %q, want %q", got, want)
	}
	if got := (Config{Settings: Settings{Sort: "bytewise", Time: "unix"}, Pattern: "."}).Args(); len(got) != 0 {
		t.Errorf("the defaults give %q, want nothing", got)
	}
	for in, want := range map[string]string{"a-b/c.go": "a-b/c.go", "x y": "'x y'", "it's": `'it'\''s'`, "": "''"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
