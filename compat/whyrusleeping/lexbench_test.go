package whyrusleeping

import (
	"bytes"
	"testing"

	cid "github.com/ipfs/go-cid"
	mh "github.com/multiformats/go-multihash"
	cbg "github.com/whyrusleeping/cbor-gen"

	"github.com/cborgen/cborgen/compat/whyrusleeping/lexother"
	"github.com/cborgen/cborgen/compat/whyrusleeping/lexours"
	"github.com/cborgen/cborgen/compat/whyrusleeping/lextheirs"
	"github.com/cborgen/cborgen/compat/whyrusleeping/lexutil"
)

// BenchmarkLex writes and reads a profile with a blob (a version 1 CID)
// and a legacy blob (a version 0 CID's text), through MarshalCBOR and
// UnmarshalCBOR over a *bytes.Reader: ours (lexutil's blobs in place),
// theirs (LexBlob's methods), and each with lexother's blobs (whose
// methods both call).
func BenchmarkLex(b *testing.B) {
	sum := func(s string, v1 bool) cid.Cid {
		h, err := mh.Sum([]byte(s), mh.SHA2_256, -1)
		if err != nil {
			b.Fatal(err)
		}
		if v1 {
			return cid.NewCidV1(cid.Raw, h)
		}
		return cid.NewCidV0(h)
	}
	avatar, banner := sum("avatar", true), sum("banner", false)
	name := "Alice"
	cases := []struct {
		name  string
		value cbg.CBORMarshaler
		new   func() cbg.CBORUnmarshaler
	}{
		{"Profile/ours", &lexours.Profile{
			Avatar:      &lexutil.LexBlob{Ref: lexutil.LexLink(avatar), MimeType: "image/jpeg", Size: 81234},
			Banner:      &lexutil.LexBlob{Ref: lexutil.LexLink(banner), MimeType: "image/png", Size: -1},
			DisplayName: &name,
		}, func() cbg.CBORUnmarshaler { return new(lexours.Profile) }},
		{"Profile/theirs", &lextheirs.Profile{
			Avatar:      &lexutil.LexBlob{Ref: lexutil.LexLink(avatar), MimeType: "image/jpeg", Size: 81234},
			Banner:      &lexutil.LexBlob{Ref: lexutil.LexLink(banner), MimeType: "image/png", Size: -1},
			DisplayName: &name,
		}, func() cbg.CBORUnmarshaler { return new(lextheirs.Profile) }},
		{"OtherProfile/ours", &lexours.OtherProfile{
			Avatar: &lexother.LexBlob{Ref: lexother.LexLink(avatar), MimeType: "image/jpeg", Size: 81234},
			Banner: lexother.LexBlob{Ref: lexother.LexLink(banner), MimeType: "image/png", Size: -1},
		}, func() cbg.CBORUnmarshaler { return new(lexours.OtherProfile) }},
		{"OtherProfile/theirs", &lextheirs.OtherProfile{
			Avatar: &lexother.LexBlob{Ref: lexother.LexLink(avatar), MimeType: "image/jpeg", Size: 81234},
			Banner: lexother.LexBlob{Ref: lexother.LexLink(banner), MimeType: "image/png", Size: -1},
		}, func() cbg.CBORUnmarshaler { return new(lextheirs.OtherProfile) }},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		if err := c.value.MarshalCBOR(&buf); err != nil {
			b.Fatal(err)
		}
		data := bytes.Clone(buf.Bytes())
		b.Run(c.name+"/encode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := c.value.MarshalCBOR(&buf); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/decode", func(b *testing.B) {
			b.ReportAllocs()
			r := bytes.NewReader(data)
			for b.Loop() {
				r.Reset(data)
				if err := c.new().UnmarshalCBOR(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
