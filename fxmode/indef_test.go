package fxmode_test

import (
	"bytes"
	"testing"

	"github.com/cborgen/cborgen/fxmode"
	"github.com/cborgen/cborgen/runtime/genrt"
	"github.com/cborgen/cborgen/testdata/golden/union"
	"github.com/fxamacker/cbor/v2"
)

// TestIndefiniteCatchAll: a union's catch-all that holds indefinite
// lengths is refused through a wrapped mode that forbids them
// (CoreDetEncOptions), as the unwrapped mode refuses it, and written as it
// is under one that allows them; under every process setting of
// runtime.EncOptions.IndefLength (IndefLengthForbidden refuses it
// everywhere), through Marshal and MarshalToBuffer.
func TestIndefiniteCatchAll(t *testing.T) {
	defer genrt.SetDefaultEncOptions(genrt.EncOptions{})
	coreDet, err := cbor.CoreDetEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	dflt, err := cbor.EncOptions{}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	indef := &union.Document{Ext: []union.Extension{union.Unknown{0x9f, 0x01, 0xff}}}
	definite := &union.Document{Ext: []union.Extension{union.Unknown{0x81, 0x01}}}
	for _, set := range []genrt.IndefLengthMode{genrt.IndefLengthDefault, genrt.IndefLengthAllowed, genrt.IndefLengthForbidden} {
		genrt.SetDefaultEncOptions(genrt.EncOptions{IndefLength: set})
		for name, em := range map[string]cbor.EncMode{"CoreDet": coreDet, "EncOptions{}": dflt} {
			for _, v := range []*union.Document{indef, definite} {
				want, wantErr := em.Marshal(v)
				wrapped := fxmode.EncMode(em)
				got, err := wrapped.Marshal(v)
				if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
					t.Errorf("IndefLength %d, %s, %x: Marshal %x, %v; unwrapped %x, %v", set, name, v.Ext[0], got, err, want, wantErr)
				}
				if (err == nil) != (v == definite || set != genrt.IndefLengthForbidden && name != "CoreDet") {
					t.Errorf("IndefLength %d, %s, %x: %v", set, name, v.Ext[0], err)
				}
				var buf bytes.Buffer
				buf.WriteByte(0xf6)
				err = wrapped.(cbor.UserBufferEncMode).MarshalToBuffer(v, &buf)
				if (err == nil) != (wantErr == nil) || (err == nil && !bytes.Equal(buf.Bytes()[1:], want)) {
					t.Errorf("IndefLength %d, %s, %x: MarshalToBuffer %x, %v; unwrapped %x, %v", set, name, v.Ext[0], buf.Bytes(), err, want, wantErr)
				}
			}
		}
	}
}
