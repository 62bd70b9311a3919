package compat

import (
	"bytes"
	"fmt"
	"go/types"
)

// indigo's lex/util.LexBlob is a blob of atproto records (a profile's
// avatar and banner, the images and videos of posts' embeds) with
// hand-written MarshalCBOR and UnmarshalCBOR. Its UnmarshalCBOR reads
// the item through an io.TeeReader into a bytes.Buffer while it decodes
// the item's "$type" into a CborChecker, then decodes the bytes it kept
// again: as a BlobSchema when the type is "blob" (a negative size
// refused), else as a LegacyBlob, whose CID's text it decodes with
// cid.Decode (the size is then -1). Its MarshalCBOR writes a LegacyBlob
// (the CID's text) for a size below 0, else a BlobSchema of type
// "blob". The three are types of the same package, whose generated code
// (regenerated in this mode) has DecodeCBORCompat and AppendCBORCompat.
//
// For a field of that type the generated code takes those steps itself,
// over the bytes where the Decoder holds them: the CborChecker decoded
// with DecodeCBORCompat, the Decoder moved back to the item's start
// (MoveTo), the item decoded again as the blob it names, and the same
// rules. Whatever that does not take (every input LexBlob refuses, and
// a legacy CID text that cbgcompat.CidTexts does not read) goes back to
// the item's start and to LexBlob's own UnmarshalCBOR, which gives its
// error or its value. The writes go to the companions' AppendCBORCompat.
// A legacy blob's CID text is read and written by cbgcompat.CidTexts: a
// version 0 CID's base58btc text ("Qm...") and the base32 text of the
// others ("b...", as go-cid's String writes it), checked once against
// LexLink's String and LexBlob's UnmarshalCBOR. All of it only behind a
// check made once, when the generated package is initialized
// (cbgcompat.CheckInPlace on cbgcompat.LexBlobProbes): where LexBlob's
// methods and the in-place code disagree on a probe, a future LexBlob
// with other rules, every value goes through LexBlob's methods.
//
// The generated code names nothing of go-cid: the package it is
// generated for may not import go-cid itself (indigo's api/bsky does
// not), and then sees go-cid only through lex/util. LexLinks are made
// from their bytes with cbgcompat.StringValues, checked against
// LexLink's own UnmarshalCBOR (cbgcompat.CastVia).

// lexBlobHelpers names the file's functions for LexBlob fields.
type lexBlobHelpers struct {
	read, app string
	// the in-place steps, and the variable that says whether they are
	// taken (the check made once)
	inPlace, appInPlace, ok string
}

// writeRead writes h.read: the in-place read where the check held,
// falling back to T's UnmarshalCBOR from the item's start.
func (h *lexBlobHelpers) writeRead(w func(string, ...any), rt, T string) {
	w("// %s reads a %s as its UnmarshalCBOR does:", h.read, T)
	w("// in place (%s) where the check made once", h.inPlace)
	w("// found the two the same; else, and for every item the in-place read")
	w("// does not take, through UnmarshalCBOR, which gives the error.")
	w("func %s(d *%s.Decoder, v *%s) error {", h.read, rt, T)
	w("if %s {", h.ok)
	w("start := d.Pos()")
	w("if %s(d, v) {", h.inPlace)
	w("return nil")
	w("}")
	w("d.MoveTo(start)")
	w("}")
	w("return v.UnmarshalCBOR(d)")
	w("}")
	w("")
}

// writeAppend writes h.app: the in-place append where the check held,
// else T's MarshalCBOR into the buffer.
func (h *lexBlobHelpers) writeAppend(w func(string, ...any), rt, T string) {
	w("// %s appends v as its MarshalCBOR writes it: in place", h.app)
	w("// (%s) where the check made once found the two the same.", h.appInPlace)
	w("func %s(w *%s.Writer, b []byte, v *%s) ([]byte, error) {", h.app, rt, T)
	w("if %s {", h.ok)
	w("return %s(w, b, v)", h.appInPlace)
	w("}")
	w("w.Buf = b")
	w("err := v.MarshalCBOR(w)")
	w("return w.Buf, err")
	w("}")
	w("")
}

// writeCheck writes h.ok, the check made once against T's methods on
// the runtime's probes (cbgcompat's LexBlobProbes or LexLinkProbes).
func (h *lexBlobHelpers) writeCheck(w func(string, ...any), rt, T, probes string) {
	w("// %s reports whether %s is read and written in place:", h.ok, T)
	w("// the in-place steps and its own methods agree on every probe (checked")
	w("// once).")
	w("var %s = %s.CheckInPlace(%s.%s, (*%s).UnmarshalCBOR, %s, (*%s).MarshalCBOR, %s)", h.ok, rt, rt, probes, T, h.inPlace, T, h.appInPlace)
	w("")
}

// lexBlobShape is what isLexBlob found: the companion types.
type lexBlobShape struct {
	checker, schema, legacy, link types.Type
}

// isLexBlob: n is indigo's lex/util LexBlob, not generated in this run,
// with MarshalCBOR and UnmarshalCBOR of its own, the fields Ref LexLink,
// MimeType string and Size int64; its package has LexLink (a defined
// type of go-cid's Cid, isCidType, with String), CborChecker {Type
// string}, BlobSchema {LexiconTypeID string; Ref LexLink; MimeType
// string; Size int64} and LegacyBlob {Cid string; MimeType string}, the
// last three with the methods generated in this mode.
func (f *File) isLexBlob(n *types.Named) bool {
	return f.lexBlobShape(n) != nil
}

func (f *File) lexBlobShape(n *types.Named) *lexBlobShape {
	obj := n.Obj()
	if obj.Pkg() == nil || obj.Name() != "LexBlob" || n.TypeParams().Len() != 0 || f.inRun[obj] || !hasCBORMethods(n) {
		return nil
	}
	pkg := obj.Pkg()
	named := func(name string) *types.Named {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			return nil
		}
		t, _ := tn.Type().(*types.Named)
		return t
	}
	link, checker, schema, legacy := named("LexLink"), named("CborChecker"), named("BlobSchema"), named("LegacyBlob")
	if link == nil || checker == nil || schema == nil || legacy == nil {
		return nil
	}
	if !isCidType(link) {
		return nil
	}
	if m, _, _ := types.LookupFieldOrMethod(link, false, pkg, "String"); m == nil {
		return nil
	} else if fn, ok := m.(*types.Func); !ok || !sigIs(fn.Type(), nil, types.Typ[types.String]) {
		return nil
	}
	str, i64 := types.Typ[types.String], types.Typ[types.Int64]
	if !fieldsAre(n, "Ref", link, "MimeType", str, "Size", i64) ||
		!fieldsAre(checker, "Type", str) ||
		!fieldsAre(schema, "LexiconTypeID", str, "Ref", link, "MimeType", str, "Size", i64) ||
		!fieldsAre(legacy, "Cid", str, "MimeType", str) {
		return nil
	}
	if !f.fastCalls(checker) || !f.fastCalls(schema) || !f.fastCalls(legacy) {
		return nil
	}
	return &lexBlobShape{checker: checker, schema: schema, legacy: legacy, link: link}
}

// isCidType: n is a defined type of go-cid's Cid: a struct of one
// field, go-cid's unexported str, a string. Only the field is looked at,
// not go-cid's scope: a package that does not import go-cid itself sees
// go-cid only as far as the types it uses need (when its dependencies
// are read from export data), and the generated code for it names
// nothing of go-cid.
func isCidType(n *types.Named) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok || st.NumFields() != 1 {
		return false
	}
	fd := st.Field(0)
	return fd.Name() == "str" && fd.Pkg() != nil && fd.Pkg().Path() == cidPath && !fd.Embedded() &&
		types.Identical(fd.Type(), types.Typ[types.String])
}

// isLexLink: n is indigo's lex/util LexLink, a defined type of go-cid's
// Cid (isCidType) with MarshalCBOR and UnmarshalCBOR of its own, not
// generated in this run. Its UnmarshalCBOR reads a CID with
// whyrusleeping/cbor-gen's ReadCid and its MarshalCBOR writes one with
// WriteCid (refusing an undefined CID): for a field of that type the
// generated code reads the CID as it reads a Cid field (Decoder.CidBytes,
// made from its bytes with cbgcompat.StringValues) and writes it with
// cbgcompat.AppendCid, behind a check made once (cbgcompat.CheckInPlace
// on cbgcompat.LexLinkProbes); an item that read does not take, and an
// undefined CID, go to LexLink's methods, which give the error or the
// value.
func (f *File) isLexLink(n *types.Named) bool {
	obj := n.Obj()
	if obj.Pkg() == nil || obj.Name() != "LexLink" || n.TypeParams().Len() != 0 || f.inRun[obj] || !hasCBORMethods(n) {
		return false
	}
	return isCidType(n)
}

// sigIs: t is a function of params returning (res, error), or res alone
// when res is a string (a String method).
func sigIs(t types.Type, params []types.Type, res types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok || sig.Recv() == nil && sig.TypeParams().Len() != 0 || sig.Variadic() || sig.Params().Len() != len(params) {
		return false
	}
	for i, p := range params {
		if !types.Identical(sig.Params().At(i).Type(), p) {
			return false
		}
	}
	if len(params) == 0 {
		return sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), res)
	}
	return sig.Results().Len() == 2 && types.Identical(sig.Results().At(0).Type(), res) &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// fieldsAre: n is a struct of exactly the fields given as name, type
// pairs, in that order.
func fieldsAre(n *types.Named, pairs ...any) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok || st.NumFields() != len(pairs)/2 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		fd := st.Field(i)
		if fd.Embedded() || fd.Name() != pairs[2*i].(string) || !types.Identical(fd.Type(), pairs[2*i+1].(types.Type)) {
			return false
		}
	}
	return true
}

// addr is the expression of a pointer to x, a value of v: x itself for
// a pointer.
func addr(x string, v *value) string {
	if v.pointer {
		return x
	}
	return "&" + x
}

// lexBlobRead is the name of the file's function that reads a LexBlob
// or a LexLink.
func (g *gen) lexBlobRead(v *value) string {
	if v.lexLink {
		return g.lexLinkNames(v).read
	}
	return g.lexBlobNames(v).read
}

// encLexBlob appends x, a LexBlob (isLexBlob) or a LexLink (isLexLink),
// as its MarshalCBOR writes it.
func (g *gen) encLexBlob(x string, v *value) {
	var h *lexBlobHelpers
	if v.lexLink {
		h = g.lexLinkNames(v)
	} else {
		h = g.lexBlobNames(v)
	}
	g.p("{")
	g.p("nb, err := %s(w, b, %s)", h.app, addr(x, v))
	g.p("if err != nil {")
	g.p("return b, err")
	g.p("}")
	g.p("b = nb")
	g.p("}")
}

// takeHelper is a new name for one of the file's helpers, taken.
func (g *gen) takeHelper(base string) string {
	n := g.helper(base)
	g.f.taken[n] = true
	return n
}

// lexHelpers names the file's functions for kind (LexBlob, LexLink):
// cbgReadKIND, cbgAppendKIND, their in-place steps and the check cbgKINDs.
func (g *gen) lexHelpers(kind string) *lexBlobHelpers {
	h := &lexBlobHelpers{read: g.takeHelper("cbgRead" + kind), app: g.takeHelper("cbgAppend" + kind)}
	h.inPlace, h.appInPlace = g.takeHelper("cbgRead"+kind+"InPlace"), g.takeHelper("cbgAppend"+kind+"InPlace")
	h.ok = g.takeHelper("cbg" + kind + "s")
	return h
}

// lexBlobNames writes the file's functions for v's LexBlob type once
// (each lex/util-like package the file's types use has its own): the
// read and the append that the fields call, which take the in-place
// steps when the check made once at initialization held and call
// LexBlob's methods otherwise, the in-place steps themselves, and the
// check.
func (g *gen) lexBlobNames(v *value) *lexBlobHelpers {
	n := types.Unalias(v.typ).(*types.Named)
	if h := g.f.lexBlob[n.Obj()]; h != nil {
		return h
	}
	h := g.lexHelpers("LexBlob")
	inPlace, appInPlace := h.inPlace, h.appInPlace
	texts := g.takeHelper("cbgCidTexts")
	if g.f.lexBlob == nil {
		g.f.lexBlob = map[*types.TypeName]*lexBlobHelpers{}
	}
	g.f.lexBlob[n.Obj()] = h
	shape := g.f.lexBlobShape(n)
	rt, values := g.rt(), g.lexLinkValues(shape.link)
	T, checker, schema, legacy, link := g.typ(v.typ), g.typ(shape.checker), g.typ(shape.schema), g.typ(shape.legacy), g.typ(shape.link)
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	h.writeRead(w, rt, T)
	w("// %s takes the steps of %s's", inPlace, T)
	w("// UnmarshalCBOR over the bytes where d holds them: the item's \"$type\"")
	w("// read into a %s, then the item read again as a", checker)
	w("// %s (\"blob\"; a size below 0 refused) or a", schema)
	w("// %s (its CID's text decoded, the size -1). It reports", legacy)
	w("// false where those steps refuse the item, and true, with v set and d")
	w("// past the item, where they take it.")
	w("func %s(d *%s.Decoder, v *%s) bool {", inPlace, rt, T)
	w("start := d.Pos()")
	w("var tc %s", checker)
	w("if tc.DecodeCBORCompat(d) != nil {")
	w("return false")
	w("}")
	w("// UnmarshalCBOR decodes the bytes the check read, and nothing after them.")
	w("end := d.Pos()")
	w("d.MoveTo(start)")
	w("if tc.Type == \"blob\" {")
	w("var bs %s", schema)
	w("if bs.DecodeCBORCompat(d) != nil || d.Pos() > end || bs.Size < 0 {")
	w("return false")
	w("}")
	w("d.MoveTo(end)")
	w("*v = %s{Ref: bs.Ref, MimeType: bs.MimeType, Size: bs.Size}", T)
	w("return true")
	w("}")
	w("var lb %s", legacy)
	w("if lb.DecodeCBORCompat(d) != nil || d.Pos() > end {")
	w("return false")
	w("}")
	w("c, ok := %s.Read(d, lb.Cid)", texts)
	w("if !ok {")
	w("return false // UnmarshalCBOR decodes the other texts")
	w("}")
	w("d.MoveTo(end)")
	w("*v = %s{Ref: c, MimeType: lb.MimeType, Size: -1}", T)
	w("return true")
	w("}")
	w("")
	h.writeAppend(w, rt, T)
	w("// %s writes what %s's MarshalCBOR", appInPlace, T)
	w("// writes, with the generated code of %s (a size below", legacy)
	w("// 0: the CID's text) and %s.", schema)
	w("func %s(w *%s.Writer, b []byte, v *%s) ([]byte, error) {", appInPlace, rt, T)
	w("if v == nil {")
	w("return append(b, %s.Null), nil", rt)
	w("}")
	w("if v.Size < 0 {")
	w("lb := %s{Cid: %s.String(v.Ref), MimeType: v.MimeType}", legacy, texts)
	w("return lb.AppendCBORCompat(w, b)")
	w("}")
	w("bs := %s{LexiconTypeID: \"blob\", Ref: v.Ref, MimeType: v.MimeType, Size: v.Size}", schema)
	w("return bs.AppendCBORCompat(w, b)")
	w("}")
	w("")
	h.writeCheck(w, rt, T, "LexBlobProbes")
	w("// %s writes and reads the text of CIDs as %s's String and", texts, link)
	w("// %s's UnmarshalCBOR do (go-cid's String and Decode), a", T)
	w("// version 0 CID's and the base32 text of the others without go-cid's")
	w("// general base conversion (checked once).")
	w("var %s = %s.NewCidTexts(%s.LegacyCidDecoder((*%s).UnmarshalCBOR, func(b *%s) %s { return b.Ref }), %s.String, %s)",
		texts, rt, rt, T, T, link, link, values)
	w("")
	g.f.helpers = append(g.f.helpers, b.Bytes()...)
	return h
}

// lexLinkNames writes the file's functions for v's LexLink type once,
// as lexBlobNames does for LexBlob.
func (g *gen) lexLinkNames(v *value) *lexBlobHelpers {
	obj := types.Unalias(v.typ).(*types.Named).Obj()
	if h := g.f.lexLink[obj]; h != nil {
		return h
	}
	h := g.lexHelpers("LexLink")
	inPlace, appInPlace := h.inPlace, h.appInPlace
	if g.f.lexLink == nil {
		g.f.lexLink = map[*types.TypeName]*lexBlobHelpers{}
	}
	g.f.lexLink[obj] = h
	rt, T := g.rt(), g.typ(v.typ)
	values := g.lexLinkValues(v.typ)
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	h.writeRead(w, rt, T)
	w("// %s reads the CID as %s's UnmarshalCBOR", inPlace, T)
	w("// reads it (whyrusleeping/cbor-gen's ReadCid), and reports whether it took")
	w("// the item.")
	w("func %s(d *%s.Decoder, v *%s) bool {", inPlace, rt, T)
	w("cb, err := d.CidBytes()")
	w("if err != nil {")
	w("return false")
	w("}")
	w("c, ok := %s.Make(d, cb)", values)
	w("if !ok {")
	w("return false // UnmarshalCBOR reads the others")
	w("}")
	w("*v = c")
	w("return true")
	w("}")
	w("")
	h.writeAppend(w, rt, T)
	w("// %s writes what %s's MarshalCBOR writes", appInPlace, T)
	w("// (whyrusleeping/cbor-gen's WriteCid); an undefined CID goes to")
	w("// MarshalCBOR, which refuses it.")
	w("func %s(w *%s.Writer, b []byte, v *%s) ([]byte, error) {", appInPlace, rt, T)
	w("if v == nil {")
	w("return append(b, %s.Null), nil", rt)
	w("}")
	w("if k, ok := %s.Key(*v); ok && k != \"\" {", values)
	w("return %s.AppendCid(b, k)", rt)
	w("}")
	w("w.Buf = b")
	w("err := v.MarshalCBOR(w)")
	w("return w.Buf, err")
	w("}")
	w("")
	h.writeCheck(w, rt, T, "LexLinkProbes")
	g.f.helpers = append(g.f.helpers, b.Bytes()...)
	return h
}

// lexLinkValues is the name of the file's StringValues of t, indigo's
// LexLink (isCidType), written once: LexLinks made from the bytes of
// CIDs that cbgcompat.CheckCid takes, with LexLink's UnmarshalCBOR as the
// constructor they are checked against (cbgcompat.CastVia).
func (g *gen) lexLinkValues(t types.Type) string {
	obj := types.Unalias(t).(*types.Named).Obj()
	if name := g.f.lexLinkValues[obj]; name != "" {
		return name
	}
	name := g.takeHelper("cbgLexLinkValues")
	if g.f.lexLinkValues == nil {
		g.f.lexLinkValues = map[*types.TypeName]string{}
	}
	g.f.lexLinkValues[obj] = name
	rt, T := g.rt(), g.typ(t)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s makes %ss from the bytes of the CIDs that\n", name, T)
	fmt.Fprintf(&b, "// %s.CheckCid takes, where %s is laid out as a string (checked\n", rt, T)
	fmt.Fprintf(&b, "// once against its UnmarshalCBOR).\n")
	fmt.Fprintf(&b, "var %s = %s.NewStringValues(%s.CastVia((*%s).UnmarshalCBOR), nil, %s.ValidCid, %s.CidProbes)\n\n", name, rt, rt, T, rt, rt)
	g.f.helpers = append(g.f.helpers, b.Bytes()...)
	return name
}
