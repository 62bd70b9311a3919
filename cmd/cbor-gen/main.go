// Cbor-gen generates reflection-free CBOR (RFC 8949) encoders and decoders
// for Go struct types.
//
// A module adds it as a tool dependency, once, which pins it to the same
// version as the runtime package the generated code imports:
//
//	go get -tool github.com/cborgen/cborgen/cmd/cbor-gen
//
// Given a package with
//
//	package shop
//
//	//go:generate go tool cbor-gen -type Order
//
//	type Order struct {
//		ID    uint64 `cbor:"id"`
//		Items []string
//	}
//
// running "go generate" (or "cbor-gen -type Order" in the package
// directory) writes cbor_gen.go beside it, with, for each type T,
//
//	func (v T) MarshalCBOR() ([]byte, error)
//	func (v *T) AppendCBOR(dst []byte) ([]byte, error)
//	func (v *T) UnmarshalCBOR(data []byte) error
//	func (v *T) DecodeCBOR(d *runtime.Decoder) error
//	func (v *T) SizeCBOR() int // an upper bound of the encoded size
//
// A value is written as a CBOR array of its exported fields in declaration
// order, byte for byte as fxamacker/cbor writes it with the toarray option
// and cbor.CoreDetEncOptions. The decoders also read the legacy format, a
// map keyed by field name as fxamacker/cbor writes a struct without
// toarray.
//
// Usage:
//
//	cbor-gen [flags] [package directory or pattern]
//
// The package defaults to ".", the directory go generate runs in. Flags:
//
//	-type T1,T2  the struct types to generate (default: every exported struct
//	             type without hand-written MarshalCBOR/UnmarshalCBOR)
//	-o FILE      output file (default cbor_gen.go in the package directory)
//	-check       compare the output and its schema record with the files on
//	             disk; print a diff and exit 1 if either is stale
//	-tags TAGS   comma-separated build tags for loading the package; the
//	             output carries the build constraints of its types' files
//	             (file names included: stat_linux.go), which must agree
//	-sort ORDER  map key order: bytewise (RFC 8949 core deterministic,
//	             the default), length (RFC 7049 canonical) or none
//	-time MODE   how time.Time is written, as fxamacker/cbor's time modes:
//	             unix (integer seconds, the default), unixmicro (float
//	             seconds), unixdynamic (integer when whole, else float),
//	             rfc3339, rfc3339nano or rfc3339nanoutc (text)
//	-timetag     write tag 1 (numbers) or 0 (text) before each time
//	-nilempty    write nil slices, maps and byte slices as empty ones
//	             (80, a0, 40), as fxamacker's NilContainerAsEmpty
//	-accept-break
//	             accept changes that would make stored data decode wrongly,
//	             and rewrite the schema record; run it once by hand, never
//	             from a //go:generate line (it cannot be combined with -check)
//	-version     print the version of cbor-gen and exit
//	-decode TYPE read CBOR (binary, or hex text) from standard input and
//	             print it in diagnostic notation (RFC 8949 §8), annotated
//	             from the schema record with slot names, keys and variants;
//	             exit 1 if TYPE's generated decoder would refuse it. With
//	             -hex the input must be hex, with -plain no annotations
//	-cddl        print the types of the schema record as CDDL (RFC 8610)
//
// With a pattern of several packages, as CI runs it,
//
//	go tool cbor-gen -check ./...
//
// checks every package the pattern matches that has a //go:generate line
// running cbor-gen, with that line's own arguments in the package's
// directory (a package with no such line but a cbor_gen.go that cbor-gen
// wrote, with the defaults), and reports every stale file; it takes no
// other flag than -tags.
//
// Beside the output, cbor-gen keeps the schema record cbor_gen.lock (the
// output's name with .lock): the array slot, legacy map key and wire kind
// of every field. Commit it. Every run, -check included, compares the types
// with it and refuses, with a file:line:col error, a field moved to another
// slot, a field removed (retire it with a "_ runtime.Reserved" field
// instead), a type change that cannot read the stored values, or a legacy
// key renamed. Fields added at the end are fine: arrays written before them
// decode with those fields zero. A type whose doc comment holds the line
// //cborgen:extensible also skips elements that a newer version added. The
// rules are in github.com/cborgen/cborgen/docs/schema.md. A refusal prints
// the command that accepts the change: the //go:generate line's arguments,
// with the -type list spelled out, plus -accept-break, in the package's
// directory. Without -type, -accept-break refuses to change the set of
// types the record holds. A run that finds no record says it starts one.
//
// The output's header names the version of cbor-gen that wrote it ("(devel)"
// for a build from a checkout), and the output refers to
// runtime.GenVersion, so that a generated file and a runtime that do not
// fit fail to compile with an error naming the one to update.
//
// Fields of interface type (any, or a named interface) are encoded and
// decoded by fxamacker/cbor with reflection, the slow path; cbor-gen prints
// a file:line:col: note for each, on standard error, and carries on. The
// supported field types and their encodings are listed in the README.
//
// A run whose inputs are those of an earlier run (the same cbor-gen, flags
// and environment, the same files in the package directory, dependencies
// whose compiled export data is the same) writes that run's output from
// the regeneration cache, in $CBORGEN_CACHE or cbor-gen in the user cache
// directory, without emitting, formatting or type-checking it again:
// go generate ./... and -check ./... over mostly unchanged packages cost
// about a go list each. CBORGEN_CACHE=off turns the cache off. An output
// and schema record that are already as they should be are not written
// again (their modification times stay).
//
// The exit status is 1 after any error; errors in the user's code read
// file:line:col: message.
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
	fs := flag.NewFlagSet("cbor-gen", flag.ContinueOnError) // usage errors exit 1, not 2
	var cfg generator.Config
	finish := generator.BindFlags(fs, &cfg)
	var rc generator.ReadConfig
	generator.BindReadFlags(fs, &rc)
	version := fs.Bool("version", false, "print the version of cbor-gen and exit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: cbor-gen [flags] [package directory or pattern]\n"+
			"  in a //go:generate line: go tool cbor-gen -type T1,T2\n"+
			"  in CI:                   go tool cbor-gen -check ./...\n")
		fs.PrintDefaults()
	}
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
		if err := generator.Read(rc, os.Stdin, os.Stdout); err != nil {
			fail(err)
		}
		return
	}
	cfg.Pattern = fs.Arg(0)
	cfg.Log = os.Stderr
	cfg.Command = generator.GenerateCommand()
	cfg.Cache = generator.DefaultCache()
	if err := generator.Generate(cfg); err != nil {
		fail(err)
	}
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
