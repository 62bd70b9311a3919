package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
	"golang.org/x/tools/go/packages"
)

// The go command's own errors: a go.mod that does not parse, one that
// needs updating, a missing go.sum entry, a -mod mode that refuses, a
// $GOFLAGS the go command does not take. go/packages runs go list and
// hands those on in two ways that hide the go command's words: as an
// error of its own wording ("err: exit status 1: stderr: go: ..."), or,
// when the load reads export data, not at all (it keeps go list's empty
// output and drops its standard error), so that the load finds no
// package. goLoad gives the go command's message instead, as the go
// command prints it.

// goLoad is packages.Load with the go command's errors in its own words.
func goLoad(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, goCommandError(err)
	}
	if len(pkgs) == 0 {
		if err := goListError(cfg, patterns); err != nil {
			return nil, err
		}
	}
	return pkgs, nil
}

// goWrapped matches the error go/packages makes of a go command that
// failed: the exit status, then the command's standard error.
var goWrapped = regexp.MustCompile(`(?s)^err: exit status \d+: stderr: (.*)$`)

// goCommandError returns err with the go command's standard error as its
// message when it is a go command failure that go/packages wrapped.
func goCommandError(err error) error {
	m := goWrapped.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	if msg := goStderr(m[1]); msg != "" {
		return &goCommandErr{Msg: msg}
	}
	return err
}

// goCommandErr is an error of the go command that loading a package
// ran (go list), in the go command's words.
type goCommandErr struct {
	Msg string // the go command's standard error, without its progress lines
}

func (e *goCommandErr) Error() string { return e.Msg }

// goListError runs go list as the load of cfg and patterns did, for the
// error the load did not report; nil when go list succeeds.
func goListError(cfg *packages.Config, patterns []string) error {
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, cfg.BuildFlags...)
	args = append(append(args, "--"), patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err == nil || !errors.As(err, &exit) {
		return nil
	}
	if msg := goStderr(stderr.String()); msg != "" {
		return &goCommandErr{Msg: msg}
	}
	return nil
}

// goStderr is the go command's standard error without the lines that
// report progress (go: downloading ...), trimmed.
func goStderr(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "go: downloading ") || strings.HasPrefix(line, "go: finding ") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// SupportError is the error of a runtime package that the generated code
// imports and the load could not provide, in the go command's words: a
// module that does not require this one, or a go.sum entry missing for
// one of the runtime's dependencies. The load reports the latter only as
// the type errors it causes (go/packages did not list the dependency), so
// the go command is asked again, in dir with flags, for its own words.
func SupportError(p *packages.Package, dir string, flags []string) error {
	var msgs []string
	listed := false
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError {
			listed = true
		}
	}
	for _, e := range p.Errors {
		if listed && e.Kind == packages.TypeError {
			continue
		}
		msg := e.Msg
		if e.Pos != "" && e.Pos != "-" {
			msg = model.RelPath(e.Pos) + ": " + msg
		}
		msgs = append(msgs, msg)
	}
	if !listed {
		// go list without -e exits 1 with the errors of the package and
		// its dependencies.
		args := append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, flags...)
		cmd := exec.Command("go", append(append(args, "--"), p.ID)...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if msg := goStderr(stderr.String()); msg != "" {
				msgs = []string{msg}
			}
		}
	}
	text := strings.Join(msgs, "\n")
	err := fmt.Sprintf("the generated code imports %s, which the go command cannot load:\n%s", p.ID, text)
	if len(msgs) == 0 {
		err = fmt.Sprintf("the generated code imports %s, which this module does not provide", p.ID)
	}
	if len(msgs) == 0 || strings.Contains(text, "no required module provides package") || strings.Contains(text, "but not required") {
		err += "\nrun go get -tool " + model.ModulePath + "/cmd/cbor-gen (or go get " + model.ModulePath + ") and generate again"
	}
	return errors.New(err)
}

// importListed reports whether the type error msg of package p is the
// type checker's "could not import P" for an import whose own errors hold
// the go command's report (a missing go.sum entry for P, no module
// providing P), which the visit of p's imports reports: the go command's
// error says why, the type checker's only that it failed.
func importListed(msg string, p *packages.Package) bool {
	rest, ok := strings.CutPrefix(msg, "could not import ")
	if !ok {
		return false
	}
	path, _, _ := strings.Cut(rest, " ")
	imp := p.Imports[path]
	if imp == nil {
		return false
	}
	for _, e := range imp.Errors {
		if e.Kind == packages.ListError {
			return true
		}
	}
	return false
}

// coldDeps is how many dependencies the build cache must lack for
// BuildCacheCold: a few compile in about the time a load from source
// takes.
const coldDeps = 4

// BuildCacheCold reports whether the build cache lacks the compiled form
// (and so the export data) of at least coldDeps of the packages that the
// package in dir and the runtime packages depend on, as the go command
// with buildFlags finds them. It asks the go command whether each is
// stale, which hashes their inputs but compiles nothing (0.1-1 s). A
// failure of the go command says false: the load that follows reports
// it.
func BuildCacheCold(ctx context.Context, dir string, buildFlags []string) bool {
	if ctx == nil {
		ctx = context.Background()
	}
	args := append([]string{"list", "-e", "-deps", "-f", "{{if and .DepOnly .Stale}}stale{{end}}"}, buildFlags...)
	args = append(append(args, "--", "."), model.SupportPaths...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return false
	}
	return bytes.Count(out, []byte("stale")) >= coldDeps
}
