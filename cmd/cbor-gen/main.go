package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/cborgen/cborgen/generator"
)

func main() {
	// A run is short and its heap small (about 100 MB for 200 types):
	// collecting a quarter as often makes a regeneration about 20%
	// faster for some 70 MB more, as the Go compiler trades too. GOGC in
	// the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	log.SetFlags(0)
	log.SetPrefix("cbor-gen: ")
	var cfg generator.Config
	fs, finish, version, rc := newFlagSet(&cfg)
	if err := fs.Parse(os.Args[1:]); err == flag.ErrHelp {
		os.Exit(0)
	} else if err != nil {
		os.Exit(1) // the flag package has printed the error and the usage
	}
	if *version {
		fmt.Println("cbor-gen", generator.Version())
		return
	}
	if fs.NArg() > 1 {
		log.Fatal("at most one package directory or pattern, got ", strings.Join(fs.Args(), " "))
	}
	finish()
	if rc.Active() { // -decode, -cddl: read the schema record, not the package
		rc.Dir, rc.Output = fs.Arg(0), cfg.Output
		if err := generator.Read(*rc, os.Stdin, os.Stdout); err != nil {
			fail(err)
		}
		return
	}
	cfg.Pattern = fs.Arg(0)
	cfg.Log = os.Stderr
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		cfg.Progress = os.Stderr // a terminal: say what a slow load is doing
	}
	cfg.Invocation = generator.GoGenerateInvocation()
	cfg.Cache = generator.DefaultCache()
	if err := generator.Generate(cfg); err != nil {
		fail(err)
	}
}

// newFlagSet returns the command's flags, bound to cfg (the package doc,
// doc.go, lists them, and a test keeps the two equal): finish completes cfg
// after parsing, and version is -version.
func newFlagSet(cfg *generator.Config) (fs *flag.FlagSet, finish func(), version *bool, rc *generator.ReadConfig) {
	fs = flag.NewFlagSet("cbor-gen", flag.ContinueOnError) // usage errors exit 1, not 2
	finish = generator.BindFlags(fs, cfg)
	rc = new(generator.ReadConfig)
	generator.BindReadFlags(fs, rc)
	version = fs.Bool("version", false, "print the version of cbor-gen and exit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: cbor-gen [flags] [package directory or pattern]\n"+
			"  in a //go:generate line: go tool cbor-gen -type T1,T2\n"+
			"  in CI:                   go tool cbor-gen -check ./...\n")
		fs.PrintDefaults()
	}
	return fs, finish, version, rc
}

// position matches an error that starts with the file:line:col of the
// user's code that caused it.
var position = regexp.MustCompile(`^[^\s:]+:\d+:\d+: `)

// fail prints err and exits 1. Errors in the user's code start with their
// position, every line of them alike, as the go command prints them (and
// as editors jump to them); any other error gets the "cbor-gen: " prefix.
func fail(err error) {
	if msg := err.Error(); position.MatchString(msg) {
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(1)
	}
	log.Fatal(err)
}
