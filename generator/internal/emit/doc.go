// Package emit writes the generated methods of a model with jennifer:
// each emitter is one type switch over the model's types, and reads
// nothing but the model.
//
//	render.go        File, the stage's table of contents: every type's
//	                 methods in order (addStruct), the union functions, the
//	                 header, the imports and the version guard
//	chunks.go        a large output rendered in chunks at once and joined:
//	                 the same bytes as one file, or one file after all
//	names.go         the rendered source's references to the package's own
//	                 types, renamed where a local of generated code would
//	                 collide with them
//	emitter.go       the emitter and the helpers every method family uses
//	marshal.go       MarshalCBOR
//	append.go        AppendCBOR (where a Go value becomes bytes)
//	size.go          SizeCBOR, the bound MarshalCBOR allocates
//	optional.go      the element count of a //cborgen:optional type's
//	                 array, which AppendCBOR and SizeCBOR share
//	unmarshal.go     UnmarshalCBOR
//	decode.go        DecodeCBOR, the array decoder and the per-field
//	                 decoder (cborDecodeFields)
//	decode_value.go  the decoding of one value by its model type (where
//	                 bytes become a Go value)
//	mapkey.go        the keys of Go maps, appended and decoded
//	legacy.go        the legacy map decoder
//	raw.go           DecodeCBOR of a //cborgen:raw type: the usual decoder,
//	                 wrapped in runtime's RawStart and RawBytes
//	map.go           AppendCBOR and the decoder of //cborgen:map types
//	evolve.go        the array decoder of a type that has grown, or that
//	                 skips newer elements
//	unknown.go       a struct's genrt.Unknown field: the unknown keys
//	                 and trailing elements kept by its decoders, written
//	                 back by its encoder
//	union.go         the dispatcher functions of each //cborgen:union
//	content.go       unions chosen by content (first, key K): the case
//	                 written and checked in its field, cborDecodeAfterFirst,
//	                 and their dispatchers
//	tests.go         the tests of -tests (cbor_gen_test.go): round trips,
//	                 fxamacker/cbor's bytes, fuzz targets, benchmarks
//	body.go          the names of a //cborgen:body type's methods
//	                 (AppendCBORBody...), which its own hooks call
package emit
