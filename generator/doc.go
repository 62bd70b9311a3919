// Package generator turns Go struct types into reflection-free CBOR
// encoders and decoders. The cbor-gen command is a thin wrapper around
// Generate; the manual is the command's package documentation.
//
// # The pipeline
//
// pipeline.go holds the table of contents: Generate and Render run one
// configuration (config.go: Config and the -sort and -time settings)
// through these stages, each in its own files:
//
//	load.go    go/packages loads and type-checks the package, with its
//	           dependencies from export data. The previous output file
//	           is parsed as a bare package clause (Config.ParseFile), so
//	           a stale or broken generated file never blocks its own
//	           regeneration; type errors that only the missing generated
//	           methods cause (a package calling its own MarshalCBOR, or
//	           another package's that go generate reaches later) are
//	           tolerated, every other error stops the run.
//	ir.go      The model: a small, closed description of what to
//	           generate. A Struct has Fields, and each field has one Type
//	           per wire shape (Bool, Int, Float, String, Bytes, ByteArray,
//	           Array, Slice, Map, Pointer, StructRef, Time, BigInt,
//	           Marshaler, BinaryMarshaler, Split, Dynamic, TypeParam,
//	           Union, Reserved).
//	           It depends on nothing else in the package.
//	select.go  Which types to generate (-type, or the default selection),
//	model.go   and their translation from go/types into the model. Every
//	           unsupported field is reported with its file:line:col.
//	promote.go Which fields are on the wire: struct tags read as
//	           fxamacker/cbor reads them, runtime.Reserved slots, and the
//	           fields promoted from embedded structs.
//	           typefacts.go (what go/types says of a named type: its
//	           methods, a lock, its kind), constraint.go (build
//	           constraints of the output) and pending.go (types another
//	           package will generate) serve them.
//	directives.go
//	           The //cborgen: lines of a type's doc comment, read into
//	           the model by the builder.
//	schema.go  The model is compared with the schema record beside the
//	           output (cbor_gen.lock: the slot, legacy key and wire kind of
//	           every field), and a change that would make stored data
//	           decode wrongly is found. The check is pure: the old
//	           record's bytes in; the new record, the fields every stored
//	           array holds (Struct.Optional) and the breaks out. Each rule
//	           is a function: schema_array.go holds those of the array
//	           format, where a field is known by its slot, schema_map.go
//	           those of //cborgen:map types, known by their keys. record.go
//	           reads and writes the record's format, kinds.go parses wire
//	           kinds into a small tree and says which can read which.
//	           docs/schema.md has the rules.
//	mapformat.go
//	           For each field of a //cborgen:map type, the tests that
//	           leave it out of the map (omitempty, omitzero), decided
//	           once from its type as fxamacker/cbor decides them.
//	emit_union.go
//	           The dispatcher of each //cborgen:union interface, and
//	           checkUnions, which refuses variants that cannot be told
//	           apart.
//	embed.go   A struct that is not generated but embeds a generated type
//	           would take over its MarshalCBOR: refused.
//	emit_*.go  One emitter per generated method writes it with jennifer:
//	           emit_marshal.go   MarshalCBOR
//	           emit_append.go    AppendCBOR (where a Go value becomes bytes)
//	           emit_size.go      SizeCBOR, the bound MarshalCBOR allocates
//	           emit_unmarshal.go UnmarshalCBOR
//	           emit_decode.go    DecodeCBOR, the array decoder and the
//	                             per-field decoder
//	           emit_value.go     the decoding of one value by its model
//	                             type (where bytes become a Go value)
//	           emit_legacy.go    the legacy map decoder (and the decoder
//	                             of //cborgen:map types)
//	           emit_map.go       AppendCBOR of //cborgen:map types
//	           emit_evolve.go    the array decoder of a type that has
//	                             grown, or that skips newer elements
//	           Each emitter is one type switch over the model.
//	names.go   The rendered source refers to the package's own types
//	           through a stand-in import, so that a local of the generated
//	           code that a user type would collide with (a type named
//	           field, err or v) is renamed; imports take an alias where
//	           the package declares their name.
//	format.go  gofmt of the rendered source, in parts at once: the bytes
//	           format.Source gives.
//	typecheck.go
//	           The package is type-checked with the new output before
//	           anything is written: cbor-gen never writes code that does
//	           not compile (typecheck_parts.go: a large output in parts,
//	           one per CPU).
//	pipeline.go
//	           Reads the schema record for the check, refuses the breaks
//	           it finds or (-accept-break) logs them, and writes the
//	           source with the new record, or with
//	           Config.Check compares both with the files on disk and
//	           reports a diff (diff.go); -check ./... runs Generate once
//	           per //go:generate line (checkAll).
//	cache.go   The regeneration cache (Config.Cache): a run whose
//	           inputs (the generator, the settings, the package's files,
//	           the dependencies' export data) are an earlier run's takes
//	           that run's output and record, after a go list and no type
//	           check; pipeline.go asks it first and stores into it last.
//
// The rule for the files: a stage may use the definitions of the stages
// before it, never those after (the model depends on nothing; the
// builder on the model; the schema check and the emitters on the model;
// the pipeline on all). generated.go (the import paths, method names and
// header of generated code), poserror.go (positioned errors), version.go
// and command.go (the command line: flags, //go:generate lines, the
// commands that messages print) are shared; command.go never runs the
// pipeline. Only the pipeline sees the whole Config: each stage is
// handed the settings it reads (load the package pattern, output and
// build tags; the builder the -type list and the tags). The emitters
// still ask go/types a few questions; they move as the model grows the
// facts the emitters need.
//
// What is generated: the types named with -type (struct types, and
// named basic, slice, array and map types: value types, Struct.Value), or
// by default every exported struct type of the package, and every
// exported value type declared with //cborgen:tag, except those with CBOR methods of
// their own and those fxamacker/cbor encodes through MarshalBinary (their
// own, or promoted from an embedded time.Time): generating those would
// change their encoding, so they are refused by name too. The output
// carries the build constraints of its types' files (constraint.go),
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
// type that has evolved, cborDecodeArray. SizeCBOR is an upper bound of the encoded size, so that
// MarshalCBOR allocates once; what has a fixed maximum is summed when the
// code is generated, lengths when it runs. A T is written as a CBOR array of its exported fields
// in declaration order (the current format), byte for byte as
// fxamacker/cbor v2 writes it with the toarray option and
// cbor.CoreDetEncOptions: nil pointers, slices and maps are null, map keys
// are sorted (bytewise by default; -sort picks length-first or none).
// Tags are honoured as fxamacker reads them: the cbor tag, else the json
// tag; "-" skips a field; omitempty does not drop a field from an array.
//
// DecodeCBOR also reads the legacy format, a map per struct as fxamacker
// writes a struct without toarray, keyed by the cbor tag name, else the
// json tag name, else the Go field name, or by an integer for keyasint
// fields. A field absent from the map is left at its zero value (set to
// zero after the map, or, for a struct with an embedded pointer or a field
// fxamacker or a type's own method decodes, by resetting the whole value
// first); fields that are not encoded keep what they held; unknown keys are
// skipped; a key that names a field seen before is an error. A text key
// that matches no field exactly falls back, as in fxamacker, to the first
// field whose key equals it under case folding at the same length in bytes
// (runtime.KeyFold; keyasint fields take no part); such a match counts as
// that field for the duplicate check.
// Decoding the current format writes every field and reuses the capacity
// of slices already in the value; maps are always made anew.
//
// What makes the code fast: constant heads are byte literals; an array
// with the field count (the common case) is decoded field after field in
// cborDecodeFields, one jump to the first field and then one comparison
// per field (an indefinite-length array and the legacy map read one
// field per call of the same method); containers of a definite length
// are read without a call per element; a map with text or integer keys
// is visited once, in Go's order, each pair appended as it comes while a
// pooled recorder (runtime.StringPairs, IntPairs, UintPairs) notes its key
// and where it starts, and the recorder's Finish moves the encoded pairs
// into the order of their keys' encodings; bool keys go through
// runtime.MapSorter; a map value whose address the code takes lives in a
// local declared outside every loop, since the address of a loop variable
// passed to a recursive method would move it to the heap once per pair.
//
// Errors carry the Go path of the value being decoded: each field, index
// and key wraps the error on its way out with runtime.AtField, AtIndex and
// AtKey, and DecodeCBOR and UnmarshalCBOR name the root with AtRoot, so
// that a bad SKU reads "cbor: Order.Items[3].SKU: expected text string,
// found unsigned integer at offset 12".
//
// # Types beyond the basic ones
//
// Embedded structs are flattened by fxamacker/cbor's promotion rules
// (those of encoding/json) in the modeler (promote.go), so both
// decoders and the encoder see one flat list of fields; a field promoted
// through an embedded pointer is reached as v.Base.F, null when Base is
// nil. time.Time, big.Int, types with their own MarshalCBOR/UnmarshalCBOR
// (cbor.RawMessage among them) and types with MarshalBinary/UnmarshalBinary
// have model types of their own, and call the runtime (AppendTime,
// ReadTime, AppendBigInt, ReadBigInt, AppendMarshaled, ReadRaw) or their
// methods. Generic struct types get generic methods (func (v *Page[T])
// ...); a field whose type is a type parameter goes through the runtime's
// dynamic package, which picks generated methods or a basic type by a
// type switch when the code runs and falls back to fxamacker/cbor.
// Interface fields always go to fxamacker/cbor (Dynamic): the slow path,
// reported as a note. Channels, functions, complex numbers, uintptr and
// unsafe.Pointer are refused with a file:line:col error naming the field.
// A struct type of the same package that a field uses must be generated
// too (add it to -type). One of another package is called through its
// generated methods when it has them or when its package's own
// //go:generate line generates it (pending.go: go generate ./... may reach
// that package later); any other (image.Point) goes through
// fxamacker/cbor, which writes it as a map, as it would without cbor-gen.
//
// Every field's decoder is emitted once, in cborDecodeFields, which both
// formats call, so that generated code grows with the fields and not
// with the paths that read them.
package generator
