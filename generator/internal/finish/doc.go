// Package finish turns the rendered source into the output: gofmt'd, and
// type-checked with the package, so that cbor-gen never writes code that
// does not compile. A large output is formatted and checked in parts at
// once, one per CPU; each fast path gives the same bytes and errors as
// its serial fallback, to which it turns whenever it cannot.
//
//	finish.go          Output, the stage's table of contents: parse, format
//	                   and check in parts, or each pass whole; typecheckOutput,
//	                   the check alone, in parts or whole
//	format.go          gofmt in parts: the bytes format.Source gives
//	typecheck.go       the whole type check of the package with its new
//	                   output
//	typecheck_parts.go that check in parts, and when it may be split
package finish
