package genrt

import (
	"encoding/hex"
	"math"
	"testing"
)

// TestReadOr holds the Or forms of the Read methods to their plain forms:
// the same value and error on every other item, the old value on a null or
// undefined (also behind tags but 0-3) outside strict mode, the plain
// form's zero there, and the plain form's refusal under Strict.
func TestReadOr(t *testing.T) {
	type read struct {
		name  string
		plain func(d *Decoder) (any, error)
		or    func(d *Decoder) (any, error) // with a non-zero old value
		old   any
	}
	reads := []read{
		{"Bool", func(d *Decoder) (any, error) { return d.ReadBool() }, func(d *Decoder) (any, error) { return d.ReadBoolOr(true) }, true},
		{"Uint64", func(d *Decoder) (any, error) { return d.ReadUint64() }, func(d *Decoder) (any, error) { return d.ReadUint64Or(7) }, uint64(7)},
		{"Uint32", func(d *Decoder) (any, error) { return d.ReadUint32() }, func(d *Decoder) (any, error) { return d.ReadUint32Or(7) }, uint32(7)},
		{"Uint16", func(d *Decoder) (any, error) { return d.ReadUint16() }, func(d *Decoder) (any, error) { return d.ReadUint16Or(7) }, uint16(7)},
		{"Uint8", func(d *Decoder) (any, error) { return d.ReadUint8() }, func(d *Decoder) (any, error) { return d.ReadUint8Or(7) }, uint8(7)},
		{"Uint", func(d *Decoder) (any, error) { return d.ReadUint() }, func(d *Decoder) (any, error) { return d.ReadUintOr(7) }, uint(7)},
		{"Int64", func(d *Decoder) (any, error) { return d.ReadInt64() }, func(d *Decoder) (any, error) { return d.ReadInt64Or(-7) }, int64(-7)},
		{"Int32", func(d *Decoder) (any, error) { return d.ReadInt32() }, func(d *Decoder) (any, error) { return d.ReadInt32Or(-7) }, int32(-7)},
		{"Int16", func(d *Decoder) (any, error) { return d.ReadInt16() }, func(d *Decoder) (any, error) { return d.ReadInt16Or(-7) }, int16(-7)},
		{"Int8", func(d *Decoder) (any, error) { return d.ReadInt8() }, func(d *Decoder) (any, error) { return d.ReadInt8Or(-7) }, int8(-7)},
		{"Int", func(d *Decoder) (any, error) { return d.ReadInt() }, func(d *Decoder) (any, error) { return d.ReadIntOr(-7) }, int(-7)},
		{"Float64", func(d *Decoder) (any, error) { return d.ReadFloat64() }, func(d *Decoder) (any, error) { return d.ReadFloat64Or(2.5) }, 2.5},
		{"Float32", func(d *Decoder) (any, error) { return d.ReadFloat32() }, func(d *Decoder) (any, error) { return d.ReadFloat32Or(2.5) }, float32(2.5)},
		{"String", func(d *Decoder) (any, error) { return d.ReadString() }, func(d *Decoder) (any, error) { return d.ReadStringOr("old") }, "old"},
	}
	nulls := map[string]bool{"f6": true, "f7": true, "c6f6": true, "d9fffff7": true, "d818c6f6": true}
	items := []string{
		"f6", "f7", "c6f6", "d9fffff7", "d818c6f6", // nulls the Or forms keep
		"c1f6", // tag 1 around null: not kept
		"f5", "f4", "00", "17", "1818", "190100", "1a00010000", "1b0000000100000000", "1bffffffffffffffff",
		"20", "3818", "397fff", "3b7fffffffffffffff", "c24101", "c34100",
		"f93c00", "fa3fc00000", "fb400921fb54442d18", "f90000", "e0", "f820",
		"60", "6161", "780141", "7f6161ff", "62c328", "40", "80", "a0", "ff", "1c", "",
	}
	for _, strict := range []bool{false, true} {
		for _, r := range reads {
			for _, item := range items {
				in, err := hex.DecodeString(item)
				if err != nil {
					t.Fatal(err)
				}
				dp, do := NewBytesDecoder(in), NewBytesDecoder(in)
				dp.SetOptions(Options{Strict: strict})
				do.SetOptions(Options{Strict: strict})
				pv, perr := r.plain(dp)
				ov, oerr := r.or(do)
				kept := !strict && nulls[item]
				switch {
				case kept:
					if oerr != nil || ov != r.old || do.Offset() != int64(len(in)) {
						t.Errorf("strict=%v Read%sOr(%x) = %v, %v at %d; want the old %v, all read", strict, r.name, in, ov, oerr, do.Offset(), r.old)
					}
					if perr != nil || !isZero(pv) {
						t.Errorf("strict=%v Read%s(%x) = %v, %v; want the zero value", strict, r.name, in, pv, perr)
					}
				case (perr == nil) != (oerr == nil) || perr != nil && perr.Error() != oerr.Error():
					t.Errorf("strict=%v %s(%x): plain %v, Or %v", strict, r.name, in, perr, oerr)
				case perr == nil && !sameValue(pv, ov):
					t.Errorf("strict=%v %s(%x): plain %v, Or %v", strict, r.name, in, pv, ov)
				case dp.Offset() != do.Offset():
					t.Errorf("strict=%v %s(%x): plain read to %d, Or to %d", strict, r.name, in, dp.Offset(), do.Offset())
				}
				if strict && nulls[item] && oerr == nil {
					t.Errorf("strict Read%sOr(%x) accepted a null: %v", r.name, in, ov)
				}
			}
		}
	}
}

func isZero(v any) bool {
	switch v := v.(type) {
	case bool:
		return !v
	case string:
		return v == ""
	case float64:
		return v == 0
	case float32:
		return v == 0
	}
	return v == zeroOf(v)
}

func zeroOf(v any) any {
	switch v.(type) {
	case uint64:
		return uint64(0)
	case uint32:
		return uint32(0)
	case uint16:
		return uint16(0)
	case uint8:
		return uint8(0)
	case uint:
		return uint(0)
	case int64:
		return int64(0)
	case int32:
		return int32(0)
	case int16:
		return int16(0)
	case int8:
		return int8(0)
	case int:
		return int(0)
	}
	return nil
}

func sameValue(a, b any) bool {
	if f, ok := a.(float64); ok && math.IsNaN(f) {
		g, ok := b.(float64)
		return ok && math.IsNaN(g)
	}
	return a == b
}
