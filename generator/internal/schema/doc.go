// Package schema is the schema check: the model against the record of
// the previous run (cbor_gen.lock beside the output), which finds the
// changes that would make stored data decode wrongly. It is pure: the
// old record's bytes and the model in; the new record, the fields every
// stored array holds (Struct.Optional) and the breaks out.
//
//	schema.go        Check, the stage's table of contents, and the union
//	                 and vanished-type rules
//	schema_array.go  the rules of the array format, where a field is known
//	                 by its slot
//	schema_map.go    the rules of //cborgen:map types, known by their keys
//	schema_foreign.go the rules of the types of other packages that the
//	                 generated code hands to fxamacker/cbor, as it
//	                 encodes them (model.Foreign)
//	record.go        the record's format: parse, write, LockPath
//	kinds.go         wire kinds parsed into a small tree, and which kind
//	                 can read which (the lattice the rules compare by)
//	schemaadvice.go  a refusal's advice, cut off for what -accept-break
//	                 accepts
//
// docs/schema.md has the rules for users.
package schema
