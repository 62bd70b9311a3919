// Package model is what the generator knows of the code it generates,
// and depends on no other package of the generator: every stage reads
// it, none is read by it.
//
//	ir.go         the model (IR): File, Struct, Field and one Type per wire
//	              shape; FieldID, the name of a field in the record and in
//	              messages; ClassesOf, the untagged items a union variant
//	              is written as
//	foreign.go    Foreign, the shape of a type the generated code hands to
//	              fxamacker/cbor, as it encodes it, for the schema record
//	scalars.go    the table of the scalar types: how the runtime reads and
//	              writes each, how large it can be, its wire kind
//	options.go    the settings as the stages read them: KeyOrder (-sort)
//	              and TimeOptions (-time, -timetag)
//	generated.go  the names in generated code: import paths, the helper
//	              methods, the header, the union functions, DefaultOutput
//	parts.go      MaxParts, the most goroutines one output is worked on by
//	poserror.go   file:line:col errors, sorted and joined; RelPath; the
//	              numbered listing of a source that does not compile
//	version.go    Version, the module version the generated header names
package model
