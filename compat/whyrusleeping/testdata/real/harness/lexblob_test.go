package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/runtime/cbgcompat"
	cid "github.com/ipfs/go-cid"

	tatproto "github.com/bluesky-social/indigo/api/atproto"
	tbsky "github.com/bluesky-social/indigo/api/bsky"
	oatproto "ours.test/indigo/api/atproto"
	obsky "ours.test/indigo/api/bsky"
	olexutil "ours.test/indigo/lex/util"
)

// TestHandPicked: the blobs of the in-place LexBlob check
// (cbgcompat.LexBlobProbes: both kinds, both CID versions, "$type"s
// not "blob", negative sizes, CIDs that do not decode, cut short, ...)
// as a profile's avatar, alone and beside a banner: both sides take and
// refuse the same, with the same values; and where ours refuses, its
// error is the one LexBlob's own UnmarshalCBOR gives for the blob.
func TestHandPicked(t *testing.T) {
	p := pair{"bsky.ActorProfile", func() any { return new(tbsky.ActorProfile) }, func() any { return new(obsky.ActorProfile) }}
	banner := cbgcompat.LexBlobProbes[0]
	took, left := 0, 0
	for i, blob := range cbgcompat.LexBlobProbes {
		for j, data := range [][]byte{
			append(append([]byte{0xa1, 0x66}, "avatar"...), blob...),
			append(append(append(append([]byte{0xa2, 0x66}, "avatar"...), blob...), append([]byte{0x66}, "banner"...)...), banner...),
		} {
			what := fmt.Sprintf("probe %d, form %d", i, j)
			if checkDecode(t, p, data, what) {
				took++
				continue
			}
			left++
			var want error
			if len(blob) > 0 {
				want = new(olexutil.LexBlob).UnmarshalCBOR(bytes.NewReader(blob))
			}
			got := new(obsky.ActorProfile).UnmarshalCBOR(bytes.NewReader(data))
			if want != nil && !errors.Is(want, io.EOF) && !errors.Is(want, io.ErrUnexpectedEOF) && (got == nil || got.Error() != want.Error()) {
				t.Errorf("%s: %x: error %v, LexBlob's own %v", what, data, got, want)
			}
		}
	}
	t.Logf("profiles taken by both %d, refused by both %d", took, left)
	if took == 0 || left == 0 {
		t.Fatal("the table tests one side only")
	}
}

// TestHandPickedLinks: the CIDs of the in-place LexLink check
// (cbgcompat.LexLinkProbes: both versions, another tag, no tag, no
// leading 0, no CID, too long, heads too long, null, cut short) as a
// repo operation's CID and as a blob's ref in a profile: both sides
// take and refuse the same, with the same values; where ours refuses
// a repo operation, its error is the one LexLink's own UnmarshalCBOR
// gives.
func TestHandPickedLinks(t *testing.T) {
	op := pair{"atproto.SyncSubscribeRepos_RepoOp", func() any { return new(tatproto.SyncSubscribeRepos_RepoOp) }, func() any { return new(oatproto.SyncSubscribeRepos_RepoOp) }}
	profile := pair{"bsky.ActorProfile", func() any { return new(tbsky.ActorProfile) }, func() any { return new(obsky.ActorProfile) }}
	text := func(s string) []byte { return cbgcompat.AppendString(nil, s) }
	took, left := 0, 0
	for i, link := range cbgcompat.LexLinkProbes {
		opData := append(append(append([]byte{0xa3}, text("cid")...), link...), append(append(text("path"), text("a/b")...), append(text("action"), text("create")...)...)...)
		blob := append(append(append([]byte{0xa4}, text("$type")...), text("blob")...), text("ref")...)
		blob = append(append(blob, link...), append(append(text("mimeType"), text("image/png")...), append(text("size"), 0x07)...)...)
		profileData := append(append([]byte{0xa1}, text("avatar")...), blob...)
		for _, c := range []struct {
			p    pair
			data []byte
		}{{op, opData}, {profile, profileData}} {
			what := fmt.Sprintf("probe %d in %s", i, c.p.name)
			if checkDecode(t, c.p, c.data, what) {
				took++
				continue
			}
			left++
			if c.p.name != op.name || len(link) == 0 {
				continue
			}
			want := new(olexutil.LexLink).UnmarshalCBOR(bytes.NewReader(link))
			got := new(oatproto.SyncSubscribeRepos_RepoOp).UnmarshalCBOR(bytes.NewReader(c.data))
			if want != nil && !errors.Is(want, io.EOF) && !errors.Is(want, io.ErrUnexpectedEOF) && (got == nil || got.Error() != want.Error()) {
				t.Errorf("%s: %x: error %v, LexLink's own %v", what, c.data, got, want)
			}
		}
	}
	t.Logf("taken by both %d, refused by both %d", took, left)
	if took == 0 || left == 0 {
		t.Fatal("the table tests one side only")
	}
}

// TestCidTexts: the text of CIDs as cbgcompat.CidTexts writes and reads
// it is go-cid's, on random CIDs of both versions (each read back) and
// on their texts with a character changed, cut or added, or in upper
// case; and its check holds with go-cid.
func TestCidTexts(t *testing.T) {
	values := cbgcompat.NewStringValues(cid.Cast, cid.Cid.KeyString, cbgcompat.ValidCid, cbgcompat.CidProbes)
	c := cbgcompat.NewCidTexts(cid.Decode, cid.Cid.String, values)
	if !c.OK() {
		t.Fatal("the check of NewCidTexts failed with go-cid")
	}
	r := rand.New(rand.NewPCG(7, 8))
	d := cbgcompat.NewBytesDecoder(nil)
	defer d.Release(nil)
	const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl"
	for i := range rounds() {
		v := randomCid(r)
		s := v.String()
		if got := c.String(v); got != s {
			t.Fatalf("CID %d: %s, go-cid %s", i, got, s)
		}
		if got, ok := c.Read(d, s); !ok || got != v {
			t.Fatalf("CID %d: %s read %v %v", i, s, got, ok)
		}
		texts := []string{strings.ToUpper(s), s[:len(s)-1], s + "1", s + "a"}
		for range 3 {
			at := r.IntN(len(s))
			texts = append(texts, s[:at]+string(alphabet[r.IntN(len(alphabet))])+s[at+1:])
		}
		for _, m := range texts {
			want, err := cid.Decode(m)
			got, ok := c.Read(d, m)
			if ok && (err != nil || got != want) || !ok && err == nil && want.Version() == 0 && len(m) == 46 {
				t.Fatalf("%q: read %v %v, go-cid %v %v", m, got, ok, want, err)
			}
		}
	}
	if s := c.String(cid.Undef); s != cid.Undef.String() {
		t.Fatalf("cid.Undef: %q, go-cid %q", s, cid.Undef.String())
	}
}

// TestLexBlobValues: random LexBlobs (either kind, every field as the
// fill makes it) as a profile's avatar written by ours are the bytes
// theirs writes, or both refuse them (a blob's undefined CID), and both
// read them back to the same value.
func TestLexBlobValues(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	p := pair{"bsky.ActorProfile", func() any { return new(tbsky.ActorProfile) }, func() any { return new(obsky.ActorProfile) }}
	legacy, blobs := 0, 0
	for i := range rounds() {
		tv := new(tbsky.ActorProfile)
		fill(r, reflect.ValueOf(&tv.Avatar).Elem(), 0)
		if tv.Avatar == nil {
			continue
		}
		if tv.Avatar.Size < 0 {
			legacy++
		} else {
			blobs++
		}
		ov := new(obsky.ActorProfile)
		convert(reflect.ValueOf(ov).Elem(), reflect.ValueOf(tv).Elem())
		var tb, ob bytes.Buffer
		terr, oerr := tv.MarshalCBOR(&tb), ov.MarshalCBOR(&ob)
		if (terr == nil) != (oerr == nil) || terr == nil && !bytes.Equal(tb.Bytes(), ob.Bytes()) || oerr != nil && ob.Len() != 0 {
			t.Fatalf("value %d: theirs %x %v, ours %x %v", i, tb.Bytes(), terr, ob.Bytes(), oerr)
		}
		if terr == nil {
			checkDecode(t, p, tb.Bytes(), fmt.Sprintf("value %d", i))
		}
	}
	t.Logf("%d legacy blobs, %d blobs", legacy, blobs)
}
