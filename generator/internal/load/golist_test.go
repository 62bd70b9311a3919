package load

import (
	"errors"
	"testing"
)

func TestGoCommandError(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"err: exit status 1: stderr: go: downloading golang.org/x/mod v0.33.0\ngo: errors parsing go.mod:\ngo.mod:4: usage: require module/path v1.2.3\n",
			"go: errors parsing go.mod:\ngo.mod:4: usage: require module/path v1.2.3"},
		{"err: exit status 1: stderr: go: parsing $GOFLAGS: unknown flag -x\n", "go: parsing $GOFLAGS: unknown flag -x"},
		{"couldn't run 'go': context canceled", "couldn't run 'go': context canceled"},
		{"err: exit status 1: stderr: ", "err: exit status 1: stderr: "}, // nothing better to say
	} {
		if got := goCommandError(errors.New(tc.in)).Error(); got != tc.want {
			t.Errorf("goCommandError(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
