// Package build is the builder: it selects the types of a loaded package
// to generate and translates them from go/types into the model. The
// model is complete when Model returns (the settings stamped, the omit
// rules of map-format fields decided, unions and embeddings checked):
// the emitters read it and ask go/types nothing but how to print a type.
//
//	select.go      Model, the stage's table of contents; which types to
//	               generate (-type, or the default selection)
//	modeler.go     the translation of one type and its fields into the
//	               model; every unsupported field is a file:line:col error
//	promote.go     which fields are on the wire: struct tags read as
//	               fxamacker/cbor reads them, runtime.Reserved slots, the
//	               fields promoted from embedded structs
//	directives.go  the table of directives (directiveTable: each form
//	               and the kinds of type it is for), and the //cborgen:
//	               lines of a generated type's doc comment
//	directivecheck.go
//	               every //cborgen: line of the package's files (and of
//	               its test files and other build configurations) checked
//	               against the table: misspelt, spaced or misplaced lines
//	               are refused
//	typefacts.go   what go/types says of a named type: its methods, a
//	               lock, its kind, how its zero value is written
//	hints.go       the names a misspelt -type may have meant
//	typechoice.go  the refusal of a -type with nothing to generate, or
//	               declared only in a test file
//	constraint.go  the build constraints the output carries
//	pending.go     the types another package's //go:generate line will
//	               generate, which a field may use before they exist
//	mapformat.go   the tests that leave a field out of a //cborgen:map
//	               type's map (omitempty, omitzero), as fxamacker decides
//	optional.go    //cborgen:optional: the zero test of each optional
//	               field (fxamacker's omitzero); //cborgen:raw: the field
//	               that keeps a value's bytes
//	emptystruct.go fxamacker's omitempty test of a type it encodes by
//	               reflection: a struct of another package, field by field
//	unions.go      the refusal of union variants that cannot be told apart;
//	               the arguments of //cborgen:union (first, key K) and the
//	               checks of the variants of a union chosen by content,
//	               which find the field that holds each one's case
//	embed.go       the refusal of a struct that would take over the
//	               MarshalCBOR of a generated type it embeds
//	embedfiles.go  the same refusal in the files the type check does not
//	               see (test files, other build configurations), read
//	               for their syntax; EmbeddersOf, for -check ./... over
//	               the packages of a module
//	anon.go        the hidden named copies of anonymous struct types
//	foreign.go     the shapes of the types the generated code hands to
//	               fxamacker/cbor, as it encodes them, for the schema record
//	unknown.go     the struct's runtime.Unknown field, and the refusal of
//	               one where nothing unknown can come
//	body.go        //cborgen:body: the hooks a body type must have, what
//	               cannot go with the directive, and how its holders call
//	               the hooks
package build
