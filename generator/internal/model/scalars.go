package model

import (
	"go/types"
	"strconv"
)

// Scalar is everything the stages know of one scalar type (a Bool, Int,
// Float or String of the model), in one place: how the runtime reads and
// writes it, how large it can be, and its name in the schema record.
//
//	type         read          try         append         kind/wide          max             size  wire
//	bool         ReadBool      TryBool     AppendBool     bool/bool                          1     bool
//	int32        ReadInt32     TryUint+Neg AppendInt      int32/int64        math.MaxInt32   5     int32
//	uint         ReadUint      TryUint     AppendUint     uint/uint64        math.MaxUint    9     uint
//	float32      ReadFloat32   TryFloat32  AppendFloat32  float32/float32                    5     float32
//	string       ReadString    TryString   AppendString   string/string                      -     string
type Scalar struct {
	Read   string          // the Decoder method that reads it
	Try    string          // the Decoder's in-line fast path; integers: TryUint, and TryNeg when signed
	Append string          // the runtime function that appends it
	Kind   types.BasicKind // the Go type read returns
	Wide   types.BasicKind // the Go type append takes: integers widen to int64 or uint64
	Max    string          // integers: the name of the largest value in package math
	size   int             // the longest encoding; 0 for a string, whose length varies
	Wire   string          // the wire kind in the schema record
}

// ScalarOf returns the table row of a scalar type; ok is false for every
// other type.
func ScalarOf(t Type) (s Scalar, ok bool) {
	switch t := t.(type) {
	case Bool:
		return Scalar{"ReadBool", "TryBool", "AppendBool", types.Bool, types.Bool, "", 1, "bool"}, true
	case Int:
		name, kinds := "uint", [...]types.BasicKind{types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64}
		wide, app := types.Uint64, "AppendUint"
		if t.Signed {
			name, kinds = "int", [...]types.BasicKind{types.Int, types.Int8, types.Int16, types.Int32, types.Int64}
			wide, app = types.Int64, "AppendInt"
		}
		bits, size, kind := "", 9, kinds[0]
		if t.Bits != 0 {
			bits, size = strconv.Itoa(t.Bits), 1+t.Bits/8
			if t.Bits == 64 {
				size = 9
			}
			kind = kinds[map[int]int{8: 1, 16: 2, 32: 3, 64: 4}[t.Bits]]
		}
		max := "MaxUint" + bits
		if t.Signed {
			max = "MaxInt" + bits
		}
		read := "Read" + map[bool]string{true: "Int", false: "Uint"}[t.Signed] + bits
		return Scalar{read, "TryUint", app, kind, wide, max, size, name + bits}, true
	case Float:
		if t.Bits == 32 {
			return Scalar{"ReadFloat32", "TryFloat32", "AppendFloat32", types.Float32, types.Float32, "", 5, "float32"}, true
		}
		return Scalar{"ReadFloat64", "TryFloat64", "AppendFloat64", types.Float64, types.Float64, "", 9, "float64"}, true
	case String:
		return Scalar{"ReadString", "TryString", "AppendString", types.String, types.String, "", 0, "string"}, true
	}
	return Scalar{}, false
}

// IsScalar reports whether t is a Bool, Int, Float or String.
func IsScalar(t Type) bool {
	_, ok := ScalarOf(t)
	return ok
}
