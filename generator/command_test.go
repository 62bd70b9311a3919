package generator

import (
	"reflect"
	"testing"
)

func TestGenerateLines(t *testing.T) {
	t.Setenv("GOFILE", "shop.go")
	for _, tc := range []struct {
		line      string
		cmd, args []string // nil cmd: not a cbor-gen line
	}{
		{"//go:generate go tool cbor-gen -type A,B", []string{"go", "tool", "cbor-gen"}, []string{"-type", "A,B"}},
		{"//go:generate go tool github.com/cborgen/cborgen/cmd/cbor-gen", []string{"go", "tool", "github.com/cborgen/cborgen/cmd/cbor-gen"}, []string{}},
		{"//go:generate go run -mod=mod github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0 -sort=none .",
			[]string{"go", "run", "-mod=mod", "github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.0"}, []string{"-sort=none", "."}},
		{`//go:generate cbor-gen -tags "a b" -o $GOFILE.cbor.go`, []string{"cbor-gen"}, []string{"-tags", "a b", "-o", "shop.go.cbor.go"}},
		{"//go:generate go run ./gen", nil, nil},
		{"//go:generate stringer -type Kind", nil, nil},
		{"//go:generate go tool stringer", nil, nil},
		{"// go:generate go tool cbor-gen", nil, nil},
	} {
		words, ok := generateWords(tc.line)
		cmd, args, isGen := splitInvocation(words)
		switch {
		case tc.cmd == nil && ok && isGen:
			t.Errorf("%q taken for a cbor-gen line", tc.line)
		case tc.cmd != nil && (!isGen || !reflect.DeepEqual(cmd, tc.cmd) || !reflect.DeepEqual(args, tc.args)):
			t.Errorf("%q: command %q, args %q; want %q, %q", tc.line, cmd, args, tc.cmd, tc.args)
		}
	}
}

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
