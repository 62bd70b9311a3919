// Package bench compares the code cbor-gen generates with its peers on the
// same values. It is a module of its own, so that programs using the
// generator never download the peers.
//
// Implementations (the impl key of every benchmark name):
//
//	generated      cbor-gen's methods on the workload types (workload/cbor_gen.go)
//	generated-unsorted
//	               the same with -sort=none (workload/unsorted), encoding only,
//	               for the shapes with maps: the work msgp does, which never sorts
//	handwritten    append and decode code written by hand against the runtime
//	               package, for Request and Profile only (handwritten/)
//	fxamacker      fxamacker/cbor v2.10.0 reflection, toarray + CoreDetEncOptions:
//	               the same bytes as generated (peers/fxarray)
//	fxamacker-map  fxamacker/cbor's default map encoding of a struct: the legacy
//	               format (peers/fxmap)
//	whyrusleeping  whyrusleeping/cbor-gen v0.3.1 tuple encoders, for the shapes
//	               it supports (peers/wrcbg)
//	msgp           tinylib/msgp v1.6.5, default (a map per struct; MessagePack)
//	msgp-tuple     tinylib/msgp v1.6.5 with //msgp:tuple (an array per struct)
//	mus            mus-go v0.7.2, the person record only (peers/mus): a
//	               serializer of the record written by hand from mus-go's
//	               field serializers, as its docs show (MUS format: varint
//	               lengths and integers, raw time and float); Decode copies
//	               the strings (ord.String), DecodeZeroCopy aliases them
//	               (its unsafe package); the time as Unix nanoseconds
//	gencode        the person record only (peers/gencode): hand-written in
//	               the style gencode generates, fixed-order binary with
//	               varints, a Size pass before Marshal and no checks on
//	               decode (short input panics); strings copied, the time as
//	               Unix nanoseconds
//
// Operations (the op key):
//
//	Encode        append the value to a buffer that has room (bytes.Buffer for
//	              peers whose API writes to an io.Writer)
//	Decode        decode the implementation's own bytes into a zero value
//	DecodeLegacy  generated only: decode fxamacker-map's bytes (the legacy
//	              format); compare with fxamacker-map's Decode
//	DecodeReader  decode one value per call from an endless io.Reader stream
//	Marshal       encode into a new slice (MarshalCBOR, cbor.Marshal, msgp's
//	              MarshalMsg(nil))
//	DecodeZeroCopy
//	              the person record (BenchmarkPersonText, BenchmarkPersonUnix),
//	              strings aliasing the input: generated runs runtime.Unmarshal
//	              with Options.ZeroCopy (its pooled decoder), mus its unsafe
//	              serializers
//	Total         the person record: Encode into a reused buffer, then
//	              Decode those bytes (the marshal+unmarshal total of the
//	              public Go serialization benchmark, alecthomas/
//	              go_serialization_benchmarks, whose SmallStruct has the
//	              record's shape)
//	TotalZeroCopy the same with DecodeZeroCopy (generated and mus)
//	MarshalUnmarshal
//	              the person record: Marshal into a new slice, then Decode
//	              those bytes (generated: MarshalCBOR and UnmarshalCBOR;
//	              msgp and msgp-tuple: MarshalMsg(nil) and UnmarshalMsg), the
//	              plain entries of the public benchmark
//
// The person record (workload/person: a 16-byte name, a time, a 10-byte
// phone number, an int, a bool, a float64) runs as its own benchmarks,
// BenchmarkPersonText (the time as RFC 3339 text with nanoseconds, -time
// rfc3339nano, against fxamacker with TimeRFC3339Nano) and
// BenchmarkPersonUnix (an integer of seconds, -time unix, against TimeUnix);
// msgp-tuple and msgp (its default map mode, the public benchmark's msgp
// entry) write their own binary time in both, mus and gencode the Unix
// nanoseconds in 8 bytes.
//
// The store document (BenchmarkStoreDocument, workload/storedoc: about
// 790 KB built from a seed in the shape of a real smart-contract store's
// record, testdata/cadence-composite-v3.cbor.gz: a contract's composite
// holding 869 more and 837 dictionaries, integer-keyed maps, most of them
// 25 names with short text values, 42,000 text values in all, nested
// through a union; TestStoreDocumentShape compares the two) runs, as
// doc=synthetic and on the record itself as doc=real, the generated union
// types (Decode, DecodeZeroCopy, Marshal, the root's own MarshalCBOR,
// Encode) against fxamacker/cbor reading the same bytes into any and
// writing that tree in its core deterministic mode (fxamacker-any: the
// same bytes), and the Skip, SkipReader and Valid rows on the same bytes.
// Each row starts after a collection. run.sh reports the two documents as
// the shapes StoreDocument and StoreDocumentReal.
//
// Skipping and validating whole documents (BenchmarkSkipCompositeLarge, the
// encoded CompositeLarge, and BenchmarkSkipDocument, workload.NewDocument:
// nested tagged maps with many text keys), generated = the runtime package:
//
//	Skip          Decoder.Skip over a slice; fxamacker: cbor.Wellformed
//	SkipReader    Decoder.Skip, one document after another from an endless
//	              io.Reader; fxamacker: Decoder.Skip
//	Valid         runtime.Valid (UTF-8, duplicate keys, tag content);
//	              fxamacker: cbor.Wellformed, which checks less
//
// Run everything, with benchstat and the table in RESULTS.md, by ./run.sh;
// a single shape by, for example,
//
//	go test -run '^$' -bench 'Request/' -benchmem
//
// Count the instructions of one call, as RESULTS.md's sections report
// them (steadier than time on a shared machine), with valgrind installed:
//
//	./icount.sh Request decode msgp-tuple
//	GOGC=100 ./icount.sh CompositeMedium legacy generated 20 120
//	./icount.sh PersonUnix zerocopy mus
//
// The tests check that every implementation round-trips every value, and
// that the generated bytes equal fxamacker/cbor's, so that the comparison
// is between equal work.
package bench
