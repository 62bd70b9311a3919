package genrt

// The encoders that code generated with -small calls: each is the function
// of the same name without "Call", kept out of line. The default code has
// those in line at every field (each is close to the compiler's budget
// for inlining), which is most of its compile time and binary size;
// -small code calls these instead, one call per value, for programs with
// many types where that weight matters more than the time of the call.
// The bytes are the same. For generated code only.

// AppendUintCall is AppendUint, not inlined.
//
//go:noinline
func AppendUintCall(dst []byte, v uint64) []byte { return AppendUint(dst, v) }

// AppendIntCall is AppendInt, not inlined.
//
//go:noinline
func AppendIntCall(dst []byte, v int64) []byte { return AppendInt(dst, v) }

// AppendStringCall is AppendString (the head and the text), not inlined.
//
//go:noinline
func AppendStringCall(dst []byte, s string) []byte { return AppendString(dst, s) }

// AppendBytesCall is AppendBytes, not inlined.
//
//go:noinline
func AppendBytesCall(dst []byte, b []byte) []byte { return AppendBytes(dst, b) }

// AppendFloat32Call is AppendFloat32, not inlined.
//
//go:noinline
func AppendFloat32Call(dst []byte, f float32) []byte { return AppendFloat32(dst, f) }

// AppendArrayHeadCall is AppendArrayHead, not inlined.
//
//go:noinline
func AppendArrayHeadCall(dst []byte, n int) []byte { return AppendArrayHead(dst, n) }

// AppendMapHeadCall is AppendMapHead, not inlined.
//
//go:noinline
func AppendMapHeadCall(dst []byte, n int) []byte { return AppendMapHead(dst, n) }

// SizeStringCall is the length of the encoding of a text or byte string
// of n bytes: its head and n, not inlined.
//
//go:noinline
func SizeStringCall(n int) int { return SizeHead(uint64(n)) + n }
