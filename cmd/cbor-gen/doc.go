// Cbor-gen generates reflection-free CBOR (RFC 8949) encoders and decoders
// for Go types. This is its manual; the formats, the directives and the
// supported types are in the user's guide,
// https://github.com/cborgen/cborgen/blob/main/docs/guide.md.
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
// running "go generate" (or "go tool cbor-gen -type Order" in the package
// directory) writes cbor_gen.go beside it, with, for each type T,
//
//	func (v T) MarshalCBOR() ([]byte, error)
//	func (v *T) AppendCBOR(dst []byte) ([]byte, error)
//	func (v *T) UnmarshalCBOR(data []byte) error
//	func (v *T) DecodeCBOR(d *runtime.Decoder) error
//	func (v *T) SizeCBOR() int // an upper bound of the encoded size
//
// A struct is written as a CBOR array of its exported fields in
// declaration order, byte for byte as fxamacker/cbor writes it with the
// toarray option and cbor.CoreDetEncOptions. The decoders also read the
// legacy format, a map keyed by field name as fxamacker/cbor writes a
// struct without toarray; a struct that has fxamacker's toarray option
// was always an array and reads arrays only, unless //cborgen:legacy.
// A struct with keyasint fields, which fxamacker/cbor writes as a map,
// must say which it is: //cborgen:map (the map, fxamacker's bytes) or
// //cborgen:array (an array all the same); without either it is refused,
// so that its wire format never changes unnoticed.
//
// When fxamacker/cbor calls UnmarshalCBOR it passes no options: the
// decoder's limits are the runtime's defaults, which a program sets once
// at start-up with runtime.SetDefaultOptions.
//
// # Usage
//
//	cbor-gen [flags] [package directory or pattern]
//
// The package defaults to ".", the directory go generate runs in. The
// flags:
//
//	-type T1,T2  the types to generate (default: every exported struct type
//	             of the package, and every exported type marked
//	             //cborgen:tag or implementing a //cborgen:union, except
//	             those with CBOR methods or a MarshalBinary of their own,
//	             unless marked //cborgen:body)
//	-o FILE      output file (default cbor_gen.go in the package directory)
//	-check       generate in memory and compare the output and its schema
//	             record with the files on disk; print a diff and exit 1 if
//	             either is stale
//	-tags TAGS   comma-separated build tags for loading the package; the
//	             output carries the build constraints of its types' files
//	             (file names included: stat_linux.go), which must agree
//	-sort ORDER  map key order: bytewise (RFC 8949 core deterministic, the
//	             default), length (RFC 7049 canonical, fxamacker's
//	             SortLengthFirst) or none (not deterministic)
//	-time MODE   how time.Time is written, as fxamacker/cbor's time modes:
//	             unix (integer seconds, the default), unixmicro (float
//	             seconds), unixdynamic (integer when whole, else float),
//	             rfc3339, rfc3339nano or rfc3339nanoutc (text)
//	-timetag     write tag 1 (numbers) or 0 (text) before each non-zero
//	             time.Time
//	-nilempty    write nil slices, maps and byte slices as empty ones
//	             (80, a0, 40) instead of null, as fxamacker's
//	             NilContainerAsEmpty
//	-float FORM  how floats are written: shortest (the default: float16,
//	             float32 or float64, whichever keeps the value, as
//	             CoreDetEncOptions) or none (every float at its Go width,
//	             float32 in 5 bytes and float64 in 9, as fxamacker's
//	             ShortestFloatNone, its default)
//	-nolegacy    give no type the legacy map decoder, as //cborgen:nolegacy
//	             on each (types marked toarray have none unless
//	             //cborgen:legacy)
//	-small       write smaller, slower code, for programs with many types:
//	             the runtime's reads and writes are called instead of put
//	             in line at every field, and each struct is read in one
//	             loop over a table of its keys (both formats). The bytes,
//	             the checks and the API are the default code's; it
//	             compiles in about half the time and memory, and decodes
//	             and encodes more slowly (docs/guide.md, "Smaller code")
//	-tests       also write the output's _test.go (cbor_gen_test.go): for
//	             each type, a round trip on random values, the bytes
//	             fxamacker/cbor writes for the type's mirror (when the
//	             module requires fxamacker/cbor), a fuzz target seeded with
//	             random values and encoding and decoding benchmarks; the
//	             values come from fixed seeds. -check checks it too. The
//	             regeneration cache does not keep such runs
//	-compat whyrusleeping
//	             the API (MarshalCBOR(io.Writer), UnmarshalCBOR(io.Reader))
//	             and the bytes of whyrusleeping/cbor-gen v0.3.x for the
//	             types of the run: its tuple format, or its map format for
//	             types marked //cborgen:map; see docs/guide.md, "Coming from
//	             whyrusleeping/cbor-gen"
//	-max-array   with -compat whyrusleeping, the most elements of a slice
//	             (its Gen.MaxArrayLength; 0 or absent: 8192)
//	-max-bytes   with -compat whyrusleeping, the longest byte string
//	             (Gen.MaxByteLength; 0 or absent: 2 MiB)
//	-max-string  with -compat whyrusleeping, the longest text string
//	             (Gen.MaxStringLength; 0 or absent: 8192)
//	-accept-break
//	             accept changes that would make stored data decode wrongly,
//	             and rewrite the schema record; run it once by hand, never
//	             from a //go:generate line (it cannot be combined with -check)
//	-q           print no notes (fields encoded with reflection, types left
//	             out); notes print only when a written file changes. On a
//	             terminal, a run whose loading takes more than two seconds
//	             (a cold build cache) says what it is loading; -q silences
//	             that too
//	-version     print the version of cbor-gen and exit
//	-decode TYPE read CBOR (binary, or hex text) from standard input and
//	             print it in diagnostic notation (RFC 8949 §8), annotated
//	             from the schema record with slot names, keys and variants;
//	             exit 1 where TYPE's generated decoder would refuse it
//	-hex         with -decode: the input must be hex text
//	-plain       with -decode: plain diagnostic notation, no annotations
//	-cddl        print the types of the schema record as CDDL (RFC 8610)
//
// -decode and -cddl read only the schema record (cbor_gen.lock, or the
// record beside -o FILE) in the package directory, and the package's
// source files where they are at hand (parsed, not compiled), so a
// directory whose code does not compile, or that holds only the record,
// still works.
//
// -h or -help prints this list in short.
//
// # Checking in CI
//
// With a pattern of several packages, as CI runs it,
//
//	go tool cbor-gen -check ./...
//
// checks every package the pattern matches that has a //go:generate line
// running cbor-gen, with that line's own arguments in the package's
// directory, as go generate would run it (a package with no such line but
// a cbor_gen.go that cbor-gen wrote is checked with the defaults; another
// generator's cbor_gen.go is left alone), and reports every stale file. It
// then takes no other flag than -tags.
//
// # The schema record
//
// Beside the output, cbor-gen keeps the schema record cbor_gen.lock (the
// output's name with .lock): the array slot, legacy map key and wire kind
// of every field. Commit it, and review changes to it as API changes. Every
// run, -check included, compares the types with it and refuses, with a
// file:line:col error, a field moved to another slot, a field removed
// (retire it with a "_ runtime.Reserved" field instead), a type change that
// cannot read the stored values, or a legacy key renamed. Fields added at
// the end are fine: arrays written before them decode with those fields
// zero. A type whose doc comment holds the line //cborgen:extensible also
// skips elements that a newer version added. The rules are in
// https://github.com/cborgen/cborgen/blob/main/docs/schema.md.
//
// A refusal prints the command that accepts the change: the //go:generate
// line's arguments, with the -type list spelled out, plus -accept-break, in
// the package's directory. Without -type, -accept-break refuses to change
// the set of types the record holds. A run that finds no record says that
// it starts one.
//
// # Output
//
// The output is gofmt'd, starts with "// Code generated by cbor-gen. DO NOT
// EDIT." and is reproducible byte for byte. Its header names the version of
// cbor-gen that wrote it ("(devel)" for a build from a checkout or a
// directory replace), and it holds a guard on genrt.GenVersion, so that a
// generated file and a runtime that do not fit fail to compile with an
// error naming the one to update. The package is type-checked with the new
// output before anything is written: code that would not compile is an
// error, never a file on disk. Regeneration works when the previous output
// no longer compiles (the loader leaves it out), and before the first
// generation of a package whose own code calls the generated methods
// (r.MarshalCBOR(), var _ cbor.Marshaler = Record{}): the type errors that
// only the missing methods cause are tolerated, every other one stops the
// run. Dependencies are read from export data (the build cache), not
// type-checked from source.
//
// Fields that fxamacker/cbor encodes with reflection (interfaces, struct
// types of other packages that cbor-gen does not generate) take that slow
// path; cbor-gen prints a file:line:col: note for each, on standard error,
// and carries on.
//
// # The regeneration cache
//
// A run whose inputs are those of an earlier run (the same cbor-gen, flags
// and environment, the same files in the package directory, dependencies
// whose compiled export data is the same) writes that run's output from the
// regeneration cache, in $CBORGEN_CACHE or cbor-gen in the user cache
// directory, without emitting, formatting or type-checking it again: go
// generate ./... and -check ./... over mostly unchanged packages cost about
// a go list each. The cache keeps the last four results of each output and
// forgets those unused for 30 days; CBORGEN_CACHE=off turns it off. An
// output and schema record that are already as they should be are not
// written again (their modification times stay).
//
// # Exit status and errors
//
// The exit status is 0 on success and 1 after any error. Errors in the
// user's code read file:line:col: message, as the go command prints compile
// errors; other errors read cbor-gen: message. They say what to do: an
// unsupported field type suggests leaving the field out with cbor:"-", a
// -type name that matches nothing lists the close ones, a directory outside
// a Go module says so, and a refused schema change prints the command that
// accepts it.
package main
