package genrt_test

import (
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// TestCompatNames checks that each name kept for code generated before
// version 5 (compat.go) does what the name that replaced it does: the same
// results and errors, and the same position after it.
func TestCompatNames(t *testing.T) {
	hexIn := []byte{0xd9, 0xd9, 0xf7, 0x82, 0x01, 0x61, 0x61} // 55799([1, "a"])
	pair := func(old, new func(d *genrt.Decoder) (any, error), in []byte) {
		t.Helper()
		d1, d2 := genrt.NewBytesDecoder(in), genrt.NewBytesDecoder(in)
		v1, err1 := old(d1)
		v2, err2 := new(d2)
		if !reflect.DeepEqual(v1, v2) || !sameErr(err1, err2) || d1.Offset() != d2.Offset() {
			t.Errorf("on %x: old name = %v, %v at %d; new name = %v, %v at %d", in, v1, err1, d1.Offset(), v2, err2, d2.Offset())
		}
	}
	for _, in := range [][]byte{hexIn, hexIn[3:], {0xa0}, {0xc2, 0x01}, {}} {
		pair(func(d *genrt.Decoder) (any, error) { return d.NextIsArray(), nil },
			func(d *genrt.Decoder) (any, error) { return d.PeekIsArray(), nil }, in)
		pair(func(d *genrt.Decoder) (any, error) { return d.NextIsMap(), nil },
			func(d *genrt.Decoder) (any, error) { return d.PeekIsMap(), nil }, in)
		pair(func(d *genrt.Decoder) (any, error) { return d.ReadRaw() },
			func(d *genrt.Decoder) (any, error) { return d.ReadRawChecked() }, in)
		pair(func(d *genrt.Decoder) (any, error) { return d.ReadRawItem(make([]byte, 0, 16)) },
			func(d *genrt.Decoder) (any, error) { return d.ReadRawBytes(make([]byte, 0, 16)) }, in)
		pair(func(d *genrt.Decoder) (any, error) {
			k, _ := d.PeekKind()
			return nil, genrt.NoVariant(d, "U", k)
		}, func(d *genrt.Decoder) (any, error) {
			k, _ := d.PeekKind()
			return nil, d.NoVariant("U", k)
		}, in)
	}
	for _, strict := range []bool{false, true} {
		d1, d2 := genrt.NewBytesDecoder(hexIn), genrt.NewBytesDecoder(hexIn)
		d1.SetOptions(genrt.Options{Strict: strict})
		d2.SetOptions(genrt.Options{Strict: strict})
		if !sameErr(genrt.DuplicateField(d1, "F"), d2.DuplicateField("F")) || d1.Offset() != d2.Offset() {
			t.Errorf("strict %v: DuplicateField and Decoder.DuplicateField differ", strict)
		}
	}
	d := genrt.NewBytesDecoder(hexIn)
	if !sameErr(genrt.MethodError(4, io.ErrUnexpectedEOF), d.MethodError(4, io.ErrUnexpectedEOF)) ||
		!sameErr(genrt.NotAVariant("U", 1), genrt.NotAVariantToEncode("U", 1)) {
		t.Error("an old error constructor returns another error than its new name")
	}
	if !errors.Is(genrt.MethodError(4, io.ErrUnexpectedEOF), io.ErrUnexpectedEOF) {
		t.Error("MethodError does not wrap its method's error")
	}
	keys := []string{"id", "", "Name"}
	for _, k := range []string{"ID", "name", "x", ""} {
		if a, b := genrt.FoldKey([]byte(k), keys), genrt.FoldedField([]byte(k), keys); a != b {
			t.Errorf("FoldKey(%q) = %d, FoldedField = %d", k, a, b)
		}
	}
}

// sameErr reports whether a and b are both nil or have the same text and
// offset.
func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	var ea, eb *genrt.Error
	if errors.As(a, &ea) != errors.As(b, &eb) || ea != nil && (ea.Offset != eb.Offset || !errors.Is(a, eb.Err)) {
		return false
	}
	return a.Error() == b.Error()
}
