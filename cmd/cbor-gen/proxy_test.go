package main

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"strings"
	"testing"
)

// unpublished is the module path that the test modules take from this
// checkout with a replace directive.
const unpublished = "github.com/cborgen/cborgen"

// moduleProxy starts a module proxy for the go commands of a test and
// returns its URL, for GOPROXY. It answers "not found" for this module
// and the module paths under and above it, as a proxy answers for a
// module that was never published, and passes every other request to the
// first proxy of the environment's GOPROXY, checksum database requests
// included (the go command sends those through a proxy that supports
// them, and goes to GOSUMDB itself otherwise). So the test sees the same
// thing on every machine: whether the environment's proxy refuses the
// unpublished paths (some mirrors answer 403, which the go command takes
// as an error, not as "no such module") or knows a published version, the
// replace directive decides. A GOPROXY without a proxy (off, or direct
// only: a fetch from the module's own repository) leaves the go commands
// with the module cache, as GOPROXY=off does.
func moduleProxy(t *testing.T) string {
	t.Helper()
	upstream := firstProxy(goEnv(t, "GOPROXY"))
	var forward http.Handler
	if upstream != "" {
		u, err := url.Parse(upstream)
		if err != nil {
			t.Fatalf("GOPROXY %q: %v", upstream, err)
		}
		forward = &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) }}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, "/")
		module, _, _ := strings.Cut(path, "/@")
		if forward == nil || !strings.HasPrefix(path, "sumdb/") && (module == unpublished ||
			strings.HasPrefix(module, unpublished+"/") || strings.HasPrefix(unpublished, module+"/")) {
			// The go command asks for every prefix of a package path
			// (github.com/@v/list, github.com/cborgen/@v/list) to find
			// the module that holds it: those are not modules either.
			http.Error(w, "not found: "+r.URL.Path, http.StatusNotFound)
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// firstProxy returns the first proxy URL of a GOPROXY list, or "" when
// the list names none ("off", "direct").
func firstProxy(goproxy string) string {
	for _, p := range strings.FieldsFunc(goproxy, func(r rune) bool { return r == ',' || r == '|' }) {
		if p == "off" {
			return ""
		}
		if p != "direct" {
			return p
		}
	}
	return ""
}

func TestFirstProxy(t *testing.T) {
	for in, want := range map[string]string{
		"https://proxy.golang.org,direct": "https://proxy.golang.org",
		"direct":                          "",
		"off":                             "",
		"":                                "",
		"direct,https://a.example|https://b.example": "https://a.example",
		"https://a.example/go|off":                   "https://a.example/go",
	} {
		if got := firstProxy(in); got != want {
			t.Errorf("firstProxy(%q) = %q, want %q", in, got, want)
		}
	}
}

// goEnv returns the go command's value of the environment variable name.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
