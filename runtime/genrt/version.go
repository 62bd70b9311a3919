package genrt

// The version guard. Every file cbor-gen writes starts with
//
//	const (
//		_ = genrt.UpgradeCborgenRuntime(genrt.GenVersion - 9)
//		_ = genrt.RegenerateWithNewerCborgen(9 - genrt.MinGenVersion)
//	)
//
// where 9 is the GenVersion of the cbor-gen that wrote it (this
// runtime's GenVersion, for a file this version of cbor-gen wrote; files
// of versions 2-8 name package runtime, which keeps these names). A negative
// constant overflows the unsigned guard types, so when a file and the
// runtime do not fit, the build fails on that line and the compiler's
// message names the side to update:
//
//	./cbor_gen.go:10:36: constant -1 overflows genrt.UpgradeCborgenRuntime
//
// says the runtime is older than the generated code (go get
// github.com/cborgen/cborgen@ the version that wrote the file), and
//
//	./cbor_gen.go:11:41: constant -1 overflows genrt.RegenerateWithNewerCborgen
//
// says the generated code is older than any this runtime still supports
// (run go generate with the cbor-gen of the runtime's version). The Go tool
// directive (go get -tool github.com/cborgen/cborgen/cmd/cbor-gen) pins
// the command and the runtime to one module version, so neither happens to
// a module that generates its own code; it happens when a dependency's
// generated files meet another version of the runtime. A runtime older
// than version 9 has no package genrt, and the go command says the module
// "does not contain package github.com/cborgen/cborgen/runtime/genrt"; one
// from before the guard fails a file of version 8 or older with
// "undefined: genrt.UpgradeCborgenRuntime". Both say the same.

const (
	// GenVersion is the version of the generated code that this runtime
	// is made for. It grows when generated code starts calling something
	// that older runtimes do not have; cbor-gen writes it into every file.
	//
	// 2: one AtRoot(err, name, extent) in place of AtRoot and AtType;
	// sorted maps through the pair recorders (StringPairs, IntPairs,
	// UintPairs); AppendBytesOrNull and ReuseSlice.
	// 3: NewScalar and NewString for the pointees of pointer fields;
	// TryByteArray.
	// 4: ReuseCleared and Grow for slices of structs and arrays;
	// NextIsMap, TryMapHead and ReadKeyParts; AppendTextHead.
	// 5: the names of compat.go replaced (PeekIsArray, FoldedField, the
	// Decoder's error methods...); KeepNull, ReadNil, ArrayExtra,
	// ArrayShort and ReadBytesUnmarshal; BoxString and BoxScalar;
	// AppendMarshaledBy; GetBuffer.
	// 6: Decoder.Finish at the end of UnmarshalCBOR; ReadStructHead,
	// ReadStructMapHead and NullKept for a struct's head; TryKind in the
	// union dispatcher; StringPairs.AddKey, KeyAt and Order, PairValues
	// and ReleasePairs for maps sorted before their pairs are encoded.
	// 7: TryText, short text before the union dispatcher's switch.
	// 8: UnknownKeys, UnknownKey, RepeatedField and Decoder.FoldedField in
	// the decoders of struct maps, NewMapDups and RepeatedKey in those of
	// Go maps: the options DupMapKey, ExtraReturnErrors and
	// FieldNameMatching (code of version 7 does not honour them).
	// 9: generated code calls this package, genrt, where it called
	// package runtime, and names runtime's Decoder (an alias) in the
	// signatures of its methods; runtime keeps the names code of versions
	// 2-8 calls, deprecated (runtime/generated.go).
	// Also in 9: what code generated with -small calls: Decoder.NextStructField
	// with StructKeys, StructFields and IntKey, MaxStructFields, and the
	// writers kept out of line (AppendUintCall, AppendIntCall,
	// AppendStringCall, AppendBytesCall, AppendFloat32Call,
	// AppendArrayHeadCall, AppendMapHeadCall, SizeStringCall).
	GenVersion = 9

	// MinGenVersion is the oldest version of generated code this runtime
	// still runs. It grows only when the runtime drops something that
	// older generated code calls.
	//
	// 2: AtType and the two-argument AtRoot are gone. The names that
	// version 5 replaced stay as wrappers (compat.go), so it stays 2.
	MinGenVersion = 2
)

// UpgradeCborgenRuntime is the type of the version guard that fails when
// a generated file is newer than this runtime (GenVersion). For generated
// code only.
type UpgradeCborgenRuntime uint

// RegenerateWithNewerCborgen is the type of the version guard that fails
// when a generated file is older than this runtime still runs
// (MinGenVersion). For generated code only.
type RegenerateWithNewerCborgen uint
