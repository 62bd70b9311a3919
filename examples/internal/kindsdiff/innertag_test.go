package kindsdiff_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/testdata/golden/toarray"
	"github.com/cborgen/cborgen/testdata/golden/typetag"
)

// TestTagHookInnerTag pins what the guide says of a hook that moves from
// cbor.RawTag and Unmarshal(content) to //cborgen:tag N: the hook read
// 1001(4([1, 2])) (fxamacker reads through tag 4 into a struct), the
// tagged type refuses it (ErrTagNumber, as fxamacker's TagSet does), and
// the fix the guide names, a hook that keeps reading the tag itself and
// hands the content to a generated decoder of an untagged type, reads it.
func TestTagHookInnerTag(t *testing.T) {
	in := []byte{0xd9, 0x03, 0xe9, 0xc4, 0x82, 0x01, 0x02} // 1001(4([1, 2]))

	// The old hook, over fxamacker.
	var rt cbor.RawTag
	if err := cbor.Unmarshal(in, &rt); err != nil || rt.Number != 1001 {
		t.Fatalf("RawTag: %v, %d", err, rt.Number)
	}
	var old struct {
		_    struct{} `cbor:",toarray"`
		X, Y int64
	}
	if err := cbor.Unmarshal(rt.Content, &old); err != nil || old.X != 1 || old.Y != 2 {
		t.Fatalf("the RawTag hook: %+v, %v; want {1 2}", old, err)
	}

	// The type under //cborgen:tag 1001, and fxamacker's TagSet alike.
	var p typetag.Point
	if err := p.UnmarshalCBOR(in); !errors.Is(err, runtime.ErrTagNumber) {
		t.Fatalf("//cborgen:tag 1001 on %x: %v; want ErrTagNumber", in, err)
	}
	tags := cbor.NewTagSet()
	type point struct {
		_    struct{} `cbor:",toarray"`
		X, Y int64
	}
	if err := tags.Add(cbor.TagOptions{EncTag: cbor.EncTagRequired, DecTag: cbor.DecTagRequired}, reflect.TypeOf(point{}), 1001); err != nil {
		t.Fatal(err)
	}
	dm, err := cbor.DecOptions{}.DecModeWithTags(tags)
	if err != nil {
		t.Fatal(err)
	}
	var fp point
	if err := dm.Unmarshal(in, &fp); err == nil {
		t.Fatalf("fxamacker's TagSet read %x as %+v; the guide says it refuses it", in, fp)
	}

	// The fix: the hook keeps reading the tag; the content goes to a
	// generated decoder of an untagged type, which reads through tag 4.
	var q toarray.Point
	if err := q.UnmarshalCBOR(rt.Content); err != nil || q.X != 1 || q.Y != 2 {
		t.Fatalf("the content %x into an untagged generated type: %+v, %v; want {1 2}", rt.Content, q, err)
	}
}
