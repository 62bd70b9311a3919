// Package generator turns Go struct types into reflection-free CBOR
// encoders and decoders. The cbor-gen command is a thin wrapper around
// Generate; the manual is the command's package documentation.
//
// # The map for maintainers
//
// The generator is one package per stage behind one I/O boundary. This
// package is the public API and the only code that reads and writes the
// output, the schema record and the log, and that reads //go:generate
// lines; the go command runs only in internal/load, and the cache
// directory is read and written only in internal/cache. The other
// stages take values and return values (the builder reads the package's
// test files only to explain a -type it does not find):
//
//	internal/model   the model (IR), the scalar table, the names of
//	                 generated code, positioned errors, the version
//	internal/load    every go/packages call: the package, type-checked, the
//	                 export data of its dependencies, the packages of -check
//	                 ./..., the files of other packages' //go:generate lines
//	internal/build   the builder: selection, the modeler, promotion,
//	                 directives, type facts, build constraints, pending
//	                 generation, map-format omit rules, union and embedding
//	                 checks. The model is complete when it returns.
//	internal/schema  the schema check (pure: record bytes and model in;
//	                 new record, Struct.Optional and breaks out), the
//	                 record format, the kind lattice
//	internal/emit    one file per generated method family, the shared
//	                 emitter helpers, the rendering in chunks
//	internal/compat  -compat whyrusleeping in place of build and emit: the
//	                 types modelled as whyrusleeping/cbor-gen models them,
//	                 their model for the schema check, the rendered source
//	internal/finish  gofmt and the type check of the output, in parts at
//	                 once, each fast path with its serial fallback
//	internal/cache   the regeneration cache: key, entry, store; bytes in,
//	                 bytes out
//
// Beside the pipeline, internal/diag reads stored data for -decode and
// -cddl: a schema description and bytes in, text out. Of the stages it
// imports only schema, whose reading of a kind's text it shares; this
// package hands it the record (decode.go).
//
// The rule: a stage imports the model and the stages before it in this
// list, never one after it, and none imports this package. Where an
// import the other way would close a cycle the compiler refuses it;
// stages_test.go refuses the rest. Each package's doc comment is its
// table of contents, file by file. (internal/testmod writes the modules
// some tests generate from; only tests import it.)
//
// Two places differ from a pipeline drawn as boxes, on purpose. The
// rendering in chunks and their join live in emit (chunks.go), not in
// finish: the chunks are jennifer files the emitters fill, and finish
// only sees bytes. And the fields every stored array holds
// (Struct.Optional) are set by the schema check, not the builder: only
// the record knows them.
//
// This package, file by file:
//
//	pipeline.go  Generate (inputs -> cache -> render -> report -> store ->
//	             write, or -check's diff), checkAll (-check ./...), Render
//	             (everything but the writing) and render, the pure part
//	             and the table of contents of a run: build -> schema ->
//	             emit -> finish
//	config.go    Config, and Settings: every setting that shapes the
//	             output, each a flag, in Args and in the cache key whole
//	             (settings_test.go holds them to it); LockPath,
//	             DefaultOutput, DefaultCache
//	command.go   the command line: BindFlags, Args, the command lines
//	             messages print, the runs of -check ./...'s //go:generate
//	             lines (directiveConfig)
//	gogenerate.go
//	             the one reader of //go:generate lines, as go generate
//	             reads them: for -check ./..., the command a message
//	             prints, the golden tests and pending generation
//	writepair.go the output and its schema record written as a pair,
//	             through temporary files
//	pending_lines.go
//	             what another package's //go:generate lines will generate,
//	             for the builder (build.Options.Pending)
//	embedcheck.go
//	             -check ./...'s look across packages: the structs of every
//	             package it matches, in any file, that embed a type
//	             another package's run generates (build.EmbeddersOf)
//	diff.go      the line diff -check reports
//	decode.go    -decode and -cddl: the schema record (and, where it is at
//	             hand, the package's source, parsed) read into
//	             internal/diag's terms; standard input and output
//	tests.go     -tests: whether the module requires fxamacker/cbor, for
//	             the generated tests (internal/emit/tests.go writes them)
//	version.go   Version
//
// What is generated: the types named with -type (struct types, and
// named basic, slice, array and map types: value types, Struct.Value), or
// by default every exported struct type of the package, and every
// exported value type declared with //cborgen:tag, except those with CBOR methods of
// their own and those fxamacker/cbor encodes through MarshalBinary (their
// own, or promoted from an embedded time.Time): generating those would
// change their encoding, so they are refused by name too. A type marked
// //cborgen:body keeps its own MarshalCBOR and UnmarshalCBOR (the hooks)
// and gets AppendCBORBody, DecodeCBORBody and SizeCBORBody for them to
// call, without the four usual methods; the types that hold it call the
// hooks (build/body.go, emit/body.go). The output
// carries the build constraints of its types' files (build/constraint.go),
// file names included (stat_linux.go); types under different constraints
// cannot share an output. A type holding a lock (sync.Mutex) gets a
// pointer receiver for MarshalCBOR, as go vet's copylocks requires.
//
// # What the generated code does
//
// For every struct type T the output declares
//
//	func (v T) MarshalCBOR() ([]byte, error)
//	func (v *T) AppendCBOR(dst []byte) ([]byte, error)
//	func (v *T) UnmarshalCBOR(data []byte) error
//	func (v *T) DecodeCBOR(d *runtime.Decoder) error
//	func (v *T) SizeCBOR() int
//
// and the unexported helpers cborDecodeFields (every field's decoder,
// once, for both formats), cborDecodeMap (the legacy format) and, for a
// type that has evolved, cborDecodeArray; for a //cborgen:raw type,
// DecodeCBOR wraps cborDecodeItem, the usual decoder, and keeps the bytes
// it read. SizeCBOR is an upper bound of the encoded size, so that
// MarshalCBOR allocates once; what has a fixed maximum is summed when the
// code is generated, lengths when it runs. A T is written as a CBOR array of its exported fields
// in declaration order (the current format), byte for byte as
// fxamacker/cbor v2 writes it with the toarray option and
// cbor.CoreDetEncOptions: nil pointers, slices and maps are null, map keys
// are sorted (bytewise by default; -sort picks length-first or none),
// floats take their shortest exact form (-float none: their Go width).
// Tags are honoured as fxamacker reads them: the cbor tag, else the json
// tag; "-" skips a field; omitempty does not drop a field from an array.
//
// DecodeCBOR also reads the legacy format (not for a struct with
// fxamacker's toarray option, which never had one, unless
// //cborgen:legacy; for none under -nolegacy), a map per struct as fxamacker
// writes a struct without toarray, keyed by the cbor tag name, else the
// json tag name, else the Go field name, or by an integer for keyasint
// fields. A field absent from the map keeps what it held, as in
// fxamacker (the value is decoded in place, never reset first); fields
// that are not encoded keep what they held too; unknown keys are
// skipped (a map-format struct with a runtime.Unknown field keeps them,
// an extensible one the elements past its fields, and the encoder writes
// them back: build/unknown.go, emit/unknown.go); a key that names a field seen before keeps the first value
// (Decoder.DuplicateField skips the later one; strict mode refuses it), as
// fxamacker's default does. A text key
// that matches no field exactly falls back, as in fxamacker, to the first
// field whose key equals it under case folding at the same length in bytes
// (genrt.FoldedField; keyasint fields take no part); such a match counts as
// that field for the duplicate check.
// Decoding the current format writes every field; a slice whose capacity
// holds the elements is decoded into its own array, each element in place
// (genrt.ReuseSlice, genrt.Grow), and a map keeps its entries and
// gains the decoded ones, as fxamacker decodes them.
//
// What makes the code fast: constant heads are byte literals; an array
// with the field count (the common case) is decoded field after field in
// cborDecodeFields, one jump to the first field and then one comparison
// per field (an indefinite-length array and the legacy map read one
// field per call of the same method); containers of a definite length
// are read without a call per element; a map with text or integer keys
// is visited once, in Go's order, each pair appended as it comes while a
// pooled recorder (runtime.StringPairs, or an IntegerPairs from
// GetIntPairs or GetUintPairs) notes its key and where it starts, and the
// recorder's Finish moves the encoded pairs into the order of their keys'
// encodings; bool keys go through
// runtime.MapSorter; a map value whose address the code takes lives in a
// local declared outside every loop, since the address of a loop variable
// passed to a recursive method would move it to the heap once per pair.
//
// Errors carry the Go path of the value being decoded: each field, index
// and key wraps the error on its way out with genrt.AtField, AtIndex and
// AtKey, and DecodeCBOR and UnmarshalCBOR name the root with AtRoot, so
// that a bad SKU reads "cbor: Order.Items[3].SKU: expected text string,
// found unsigned integer at offset 12". The error of a field type's own
// method (or of fxamacker/cbor on the slow path) keeps its text: the
// decoders wrap it with Decoder.MethodError, whose path and offset only
// Detail prints; a MarshalCBOR's output that is not one item is refused
// by genrt.AppendMarshaledBy with fxamacker/cbor's text, naming the
// type.
//
// # Types beyond the basic ones
//
// Embedded structs are flattened by fxamacker/cbor's promotion rules
// (those of encoding/json) in the builder (build/promote.go), so both
// decoders and the encoder see one flat list of fields; a field promoted
// through an embedded pointer is reached as v.Base.F, null when Base is
// nil. time.Time, big.Int, types with their own MarshalCBOR/UnmarshalCBOR
// (cbor.RawMessage among them) and types with MarshalBinary/UnmarshalBinary
// have model types of their own, and call the runtime (AppendTime,
// ReadTime, AppendBigInt, ReadBigInt, AppendMarshaledBy, ReadRawChecked) or their
// methods. Generic struct types get generic methods (func (v *Page[T])
// ...); a field whose type is a type parameter goes through the runtime's
// dynamic package, which picks generated methods or a basic type by a
// type switch when the code runs and falls back to fxamacker/cbor.
// An anonymous struct type gets a hidden named copy in the output
// (build/anon.go, cborAnon_T_F), a map-format type as fxamacker writes
// it, reached by converting the field's address. Interface fields always
// go to fxamacker/cbor (Dynamic): the slow path,
// reported as a note. Channels, functions, complex numbers, uintptr and
// unsafe.Pointer are refused with a file:line:col error naming the field.
// A struct type of the same package that a field uses must be generated
// too (add it to -type). One of another package is called through its
// generated methods when it has them or when its package's own
// //go:generate line generates it (build/pending.go: go generate ./... may reach
// that package later); any other (image.Point) goes through
// fxamacker/cbor, which writes it as a map, as it would without cbor-gen;
// the schema record keeps its shape as fxamacker encodes it, and refuses
// a new version of it that stored data would not survive
// (build/foreign.go, schema/schema_foreign.go).
//
// Every field's decoder is emitted once, in cborDecodeFields, which both
// formats call, so that generated code grows with the fields and not
// with the paths that read them.
package generator
