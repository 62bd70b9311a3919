package compat

import (
	"bytes"
	"fmt"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// Render returns the source of f, before gofmt: for every type its
// MarshalCBOR(io.Writer), UnmarshalCBOR(io.Reader), AppendCBOR([]byte),
// UnmarshalCBORBytes([]byte) and DecodeCBORCompat(*cbgcompat.Decoder).
func Render(f *File, version string) ([]byte, error) {
	g := &gen{f: f}
	for _, t := range f.Types {
		g.typeCode(t)
	}
	var head bytes.Buffer
	fmt.Fprintf(&head, "// %s\n// %s, -compat %s\n\n", model.GeneratedHeader, version, Mode)
	if f.Build != "" {
		fmt.Fprintf(&head, "%s\n\n", f.Build)
	}
	fmt.Fprintf(&head, "package %s\n\nimport (\n", f.Package)
	paths := make([]string, 0, len(f.imports))
	for p := range f.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		name := f.imports[p]
		if name == lastElem(p) {
			fmt.Fprintf(&head, "\t%q\n", p)
		} else {
			fmt.Fprintf(&head, "\t%s %q\n", name, p)
		}
	}
	head.WriteString(")\n\n")
	rt := f.imports[CompatPath]
	fmt.Fprintf(&head, "// The generated code and the runtime must fit: a compile error here names the one to update.\nconst (\n\t_ = %[1]s.UpgradeCborgenRuntime(%[1]s.GenVersion - %[2]d)\n\t_ = %[1]s.RegenerateWithNewerCborgen(%[2]d - %[1]s.MinGenVersion)\n)\n\n", rt, genVersion)
	out := append(head.Bytes(), g.out.Bytes()...)
	return append(out, f.helpers...), nil
}

// genVersion is the version of cbgcompat the output is for: 2 reads
// scalar fields with the Decoder's Uint64, Uint8, Int64 and Bool, and
// writes and reads go-state-types' big.Int and go-address's Address
// itself (AppendFilInt, FilInt, AppendAddress, AddressBytes); 3 makes
// CIDs and addresses from their bytes (NewStringValues); 4 reads and
// writes indigo's LexBlob and LexLink in place (Decoder.MoveTo,
// CheckInPlace, NewCidTexts, CastVia, LegacyCidDecoder); 5 appends
// into a bytes.Buffer's free space (Room) and tests a tuple's one-byte
// head in line (Decoder.Head); 6 takes the values of pointer fields to
// go-state-types' big.Int, CIDs and addresses from the Decoder's blocks
// (FilIntPtr, StringValues.MakePtr).
const genVersion = 6

func lastElem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

type gen struct {
	f   *File
	out bytes.Buffer
	tmp int
	// The file's StringValues of CIDs and addresses (cidReader,
	// addressReader) and its readers of pointer fields to them
	// (ptrReader).
	cidValues, addrValues string
	cidPtr, addrPtr       string
}

func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.out, format, args...)
	g.out.WriteByte('\n')
}

// imp is the name the output imports path by.
func (g *gen) imp(path, name string) string {
	if n, ok := g.f.imports[path]; ok {
		return n
	}
	alias := name
	for g.f.taken[alias] || g.usedName(alias) {
		alias = "cbg" + alias
	}
	g.f.imports[path] = alias
	return alias
}

func (g *gen) usedName(n string) bool {
	for _, v := range g.f.imports {
		if v == n {
			return true
		}
	}
	return false
}

func (g *gen) rt() string { return g.imp(CompatPath, "cbgcompat") }

// typ is the Go spelling of t in the output.
func (g *gen) typ(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == g.f.pkg {
			return ""
		}
		return g.imp(p.Path(), p.Name())
	})
}

func (g *gen) local(base string) string {
	g.tmp++
	return base + strconv.Itoa(g.tmp)
}

func (g *gen) typeCode(t *typeInfo) {
	rt := g.rt()
	io := g.imp("io", "io")
	n := t.Name
	g.p("// MarshalCBOR writes the CBOR encoding of t to w, as whyrusleeping/cbor-gen's")
	g.p("// generated code does (cbg.CBORMarshaler); a nil t writes null.")
	g.p("func (t *%s) MarshalCBOR(w %s.Writer) error {", n, io)
	g.p("var err error")
	g.p("if cw, ok := w.(*%s.Writer); ok {", rt)
	g.p("cw.Buf, err = t.AppendCBORCompat(cw, cw.Buf)")
	g.p("return err")
	g.p("}")
	if t.ownWriter {
		// Nothing below writes through a Writer: append into the
		// free space of the caller's bytes.Buffer, as it would grow.
		g.p("if bb, room := %s.Room(w); bb != nil {", rt)
		g.p("if room, err = t.AppendCBORCompat(nil, room); err == nil {")
		g.p("_, err = bb.Write(room)")
		g.p("}")
		g.p("return err")
		g.p("}")
	}
	g.p("cw := %s.GetWriter()", rt)
	g.p("if cw.Buf, err = t.AppendCBORCompat(cw, cw.Buf); err != nil {")
	g.p("cw.Put()")
	g.p("return err")
	g.p("}")
	g.p("return cw.Flush(w)")
	g.p("}")
	g.p("")
	g.p("// UnmarshalCBOR reads one item from r into t (cbg.CBORUnmarshaler): io.EOF")
	g.p("// when r has no byte, io.ErrUnexpectedEOF when the item is cut short.")
	g.p("func (t *%s) UnmarshalCBOR(r %s.Reader) error {", n, io)
	g.p("d, owned := %s.NewDecoder(r)", rt)
	g.p("start := d.Pos()")
	g.p("return d.End(owned, start, t.DecodeCBORCompat(d))")
	g.p("}")
	g.p("")
	g.p("// UnmarshalCBORBytes decodes data, exactly one item, into t.")
	g.p("func (t *%s) UnmarshalCBORBytes(data []byte) error {", n)
	g.p("d := %s.NewBytesDecoder(data)", rt)
	g.p("return d.Done(t.DecodeCBORCompat(d))")
	g.p("}")
	g.p("")
	g.p("// AppendCBOR appends the CBOR encoding of t to b.")
	g.p("func (t *%s) AppendCBOR(b []byte) ([]byte, error) {", n)
	if t.ownWriter {
		g.p("return t.AppendCBORCompat(nil, b)")
	} else {
		g.p("w := %s.Wrap()", rt)
		g.p("b, err := t.AppendCBORCompat(w, b)")
		g.p("w.Unwrap()")
		g.p("return b, err")
	}
	g.p("}")
	g.p("")
	if t.ownWriter {
		g.p("// AppendCBORCompat appends the CBOR encoding of t to b; w is not used (no")
		g.p("// field, however deep, is written by a MarshalCBOR of its own) and may be")
		g.p("// nil. What the generated code of the types holding a %s calls.", n)
	} else {
		g.p("// AppendCBORCompat appends the CBOR encoding of t to b; the fields' own")
		g.p("// MarshalCBOR write through w. What the generated code of the types")
		g.p("// holding a %s calls.", n)
	}
	g.p("func (t *%s) AppendCBORCompat(w *%s.Writer, b []byte) ([]byte, error) {", n, rt)
	g.p("if t == nil {")
	g.p("return append(b, 0xf6), nil")
	g.p("}")
	switch {
	case t.Transparent:
		g.enc(g.target(t, t.Fields[0]), t.Fields[0].v, t.Fields[0], 0)
	case t.Map:
		g.encMap(t)
	default:
		g.p("b = append(b, %s)", headLit(4, uint64(len(t.Fields))))
		for _, fd := range t.Fields {
			g.p("// t.%s", fd.Name)
			g.enc("t."+fd.Name, fd.v, fd, 0)
		}
	}
	g.p("return b, nil")
	g.p("}")
	g.p("")
	g.p("// DecodeCBORCompat reads one item from d into t: what UnmarshalCBOR and")
	g.p("// the generated code of the types holding a %s call.", n)
	g.p("func (t *%s) DecodeCBORCompat(d *%s.Decoder) error {", n, rt)
	if _, basic := t.named.Underlying().(*types.Basic); basic {
		g.p("var zero %s", n)
		g.p("*t = zero")
	} else {
		// T{}, as whyrusleeping/cbor-gen resets: a transparent slice
		// type decodes an empty array as an empty slice, not nil.
		g.p("*t = %s{}", n)
	}
	switch {
	case t.Transparent:
		g.dec(g.target(t, t.Fields[0]), t.Fields[0].v, t.Fields[0], 0)
	case t.Map:
		g.decMap(t)
	default:
		g.decTuple(t)
	}
	g.p("return nil")
	g.p("}")
	g.p("")
}

func (g *gen) target(t *typeInfo, fd *field) string {
	if fd.Name == "" {
		return "(*t)"
	}
	return "t." + fd.Name
}

// headLit is the head of major type maj with argument n as byte
// literals.
func headLit(maj byte, n uint64) string {
	var h []byte
	switch {
	case n < 24:
		h = []byte{maj<<5 | byte(n)}
	case n <= 0xff:
		h = []byte{maj<<5 | 24, byte(n)}
	case n <= 0xffff:
		h = []byte{maj<<5 | 25, byte(n >> 8), byte(n)}
	default:
		h = []byte{maj<<5 | 26, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
	}
	parts := make([]string, len(h))
	for i, c := range h {
		parts[i] = fmt.Sprintf("0x%02x", c)
	}
	return strings.Join(parts, ", ")
}

func (g *gen) errorf(format string, args ...string) string {
	return fmt.Sprintf("%s.Errorf(%s)", g.imp("fmt", "fmt"), strings.Join(append([]string{strconv.Quote(format)}, args...), ", "))
}

func (g *gen) errNew(msg string) string {
	return fmt.Sprintf("%s.New(%s)", g.imp("errors", "errors"), strconv.Quote(msg))
}

func (g *gen) maxLen(fd *field, def int) int {
	if fd != nil && fd.MaxLen > 0 {
		return fd.MaxLen
	}
	return def
}

// enc appends the encoding of x, a value of v, to b.
func (g *gen) enc(x string, v *value, fd *field, depth int) {
	rt := g.rt()
	name := x
	null := func() string { return "b = append(b, 0xf6)" }
	switch v.kind {
	case kString:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
			g.p("if len(*%s) > %d {", x, g.maxLen(fd, g.f.maxStr))
			g.p("return b, %s", g.errNew("Value in field "+name+" was too long"))
			g.p("}")
			g.p("b = %s.AppendString(b, string(*%s))", rt, x)
			g.p("}")
			return
		}
		if fd != nil && fd.Const != nil {
			g.p("b = %s.AppendString(b, %s)", rt, strconv.Quote(*fd.Const))
			return
		}
		g.p("if len(%s) > %d {", x, g.maxLen(fd, g.f.maxStr))
		g.p("return b, %s", g.errNew("Value in field "+name+" was too long"))
		g.p("}")
		g.p("b = %s.AppendString(b, string(%s))", rt, x)
	case kUint64, kUint8:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
			g.p("b = %s.AppendHeader(b, %s.MajUnsignedInt, uint64(*%s))", rt, rt, x)
			g.p("}")
			return
		}
		g.p("b = %s.AppendHeader(b, %s.MajUnsignedInt, uint64(%s))", rt, rt, x)
	case kInt64:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
			g.p("b = %s.AppendInt64(b, int64(*%s))", rt, x)
			g.p("}")
			return
		}
		g.p("b = %s.AppendInt64(b, int64(%s))", rt, x)
	case kBool:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
			g.p("b = %s.AppendBool(b, bool(*%s))", rt, x)
			g.p("}")
			return
		}
		g.p("b = %s.AppendBool(b, bool(%s))", rt, x)
	case kCid:
		c := x
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
			c = "(*" + x + ")"
		}
		g.p("{")
		g.p("var err error")
		g.p("if b, err = %s.AppendCid(b, %s.KeyString()); err != nil {", rt, c)
		g.p("return b, %s", g.errorf("failed to write cid field "+name+": %w", "err"))
		g.p("}")
		g.p("}")
		if v.pointer {
			g.p("}")
		}
	case kBigInt:
		g.p("if %s != nil && %s.Sign() < 0 {", x, x)
		g.p("return b, %s", g.errNew("Value in field "+name+" was a negative big-integer (not supported)"))
		g.p("}")
		g.p("b = append(b, 0xc2)")
		g.p("if %s == nil {", x)
		g.p("b = append(b, 0x40)")
		g.p("} else {")
		n := g.local("n")
		g.p("%s := (%s.BitLen() + 7) / 8", n, x)
		g.p("b = %s.AppendHeader(b, %s.MajByteString, uint64(%s))", rt, rt, n)
		g.p("b = append(b, make([]byte, %s)...)", n)
		g.p("%s.FillBytes(b[len(b)-%s:])", x, n)
		g.p("}")
	case kDeferred:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
		}
		g.p("if %s.Raw == nil {", x)
		g.p("return b, %s", g.errNew("cannot marshal Deferred with nil value for Raw (will not unmarshal)"))
		g.p("}")
		g.p("b = append(b, %s.Raw...)", x)
		if v.pointer {
			g.p("}")
		}
	case kFilInt:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
		}
		g.p("{")
		g.p("var err error")
		g.p("if b, err = %s.AppendFilInt(b, %s.Int); err != nil {", rt, x)
		g.p("return b, err")
		g.p("}")
		g.p("}")
		if v.pointer {
			g.p("}")
		}
	case kAddress:
		if v.pointer {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
		}
		g.p("{")
		g.p("var err error")
		g.p("if b, err = %s.AppendAddress(b, %s.Bytes()); err != nil {", rt, x)
		g.p("return b, err")
		g.p("}")
		g.p("}")
		if v.pointer {
			g.p("}")
		}
	case kStruct:
		if v.lexBlob || v.lexLink {
			g.encLexBlob(x, v)
			return
		}
		g.p("{")
		g.p("var err error")
		if g.f.fastCalls(v.typ) {
			g.p("if b, err = %s.AppendCBORCompat(w, b); err != nil {", x)
			g.p("return b, err")
			g.p("}")
		} else {
			g.p("w.Buf = b")
			g.p("if err = %s.MarshalCBOR(w); err != nil {", x)
			g.p("return b, err")
			g.p("}")
			g.p("b = w.Buf")
		}
		g.p("}")
	case kSlice, kArray:
		if v.elem.kind == kUint8 && !v.elem.pointer {
			g.p("if len(%s) > %d {", x, g.maxLen(fd, g.f.maxBytes))
			g.p("return b, %s", g.errNew("Byte array in field "+name+" was too long"))
			g.p("}")
			pn := fd != nil && fd.PreserveNil && v.kind == kSlice
			if pn {
				g.p("if %s == nil {", x)
				g.p("%s", null())
				g.p("} else {")
			}
			g.p("b = %s.AppendBytes(b, %s[:])", rt, x)
			if pn {
				g.p("}")
			}
			return
		}
		g.p("if len(%s) > %d {", x, g.maxLen(fd, g.f.maxArray))
		g.p("return b, %s", g.errNew("Slice value in field "+name+" was too long"))
		g.p("}")
		pn := fd != nil && fd.PreserveNil
		if pn {
			g.p("if %s == nil {", x)
			g.p("%s", null())
			g.p("} else {")
		}
		g.p("b = %s.AppendHeader(b, %s.MajArray, uint64(len(%s)))", rt, rt, x)
		i := loopVar(depth)
		g.p("for %s := range %s {", i, x)
		g.enc(x+"["+i+"]", v.elem, nil, depth+1)
		g.p("}")
		if pn {
			g.p("}")
		}
	case kMap:
		g.p("if len(%s) > 4096 {", x)
		g.p("return b, %s", g.errNew("cannot marshal "+name+" map too large"))
		g.p("}")
		g.p("b = %s.AppendHeader(b, %s.MajMap, uint64(len(%s)))", rt, rt, x)
		keys, k, mv := g.local("keys"), g.local("k"), g.local("v")
		g.p("%s := make([]string, 0, len(%s))", keys, x)
		g.p("for %s := range %s {", k, x)
		g.p("%s = append(%s, string(%s))", keys, keys, k)
		g.p("}")
		g.p("%s.Strings(%s)", g.imp("sort", "sort"), keys)
		mt := v.typ.Underlying().(*types.Map)
		g.p("for _, %s := range %s {", k, keys)
		g.p("%s := %s[%s(%s)]", mv, x, g.typ(mt.Key()), k)
		g.enc(k, &value{kind: kString, typ: types.Typ[types.String]}, nil, depth+1)
		g.enc(mv, v.elem, nil, depth+1)
		g.p("}")
	}
}

func loopVar(depth int) string {
	return string(rune('i' + depth))
}

// encMap writes a map-format struct: the pairs in length-first order of
// their keys, the head counting those written.
func (g *gen) encMap(t *typeInfo) {
	rt := g.rt()
	omits := false
	for _, fd := range t.Fields {
		omits = omits || fd.OmitEmpty
	}
	if !omits {
		g.p("b = append(b, %s)", headLit(5, uint64(len(t.Fields))))
	} else {
		g.p("n := %d", len(t.Fields))
		for _, fd := range t.Fields {
			if fd.OmitEmpty {
				g.p("if t.%s == %s {", fd.Name, emptyVal(fd))
				g.p("n--")
				g.p("}")
			}
		}
		g.p("b = %s.AppendHeader(b, %s.MajMap, uint64(n))", rt, rt)
	}
	for _, fd := range t.Fields {
		g.p("// t.%s", fd.Name)
		if fd.OmitEmpty {
			g.p("if t.%s != %s {", fd.Name, emptyVal(fd))
		}
		var key []byte
		for _, s := range strings.Split(headLit(3, uint64(len(fd.Key))), ", ") {
			c, _ := strconv.ParseUint(s, 0, 8)
			key = append(key, byte(c))
		}
		key = append(key, fd.Key...)
		g.p("b = append(b, %s...)", strconv.Quote(string(key)))
		g.enc("t."+fd.Name, fd.v, fd, 0)
		if fd.OmitEmpty {
			g.p("}")
		}
	}
}

func emptyVal(fd *field) string {
	if fd.v.pointer || fd.v.kind == kSlice {
		return "nil"
	}
	return `""`
}

// decTuple reads a tuple struct: an array of exactly its fields, or of
// its mandatory ones and some of the optional suffix.
func (g *gen) decTuple(t *typeInfo) {
	rt := g.rt()
	n := len(t.Fields)
	// A tuple of a fixed count under 24 starts with one byte: tested
	// in line, the general read of a head (its errors) when it is not.
	short := t.Mandatory == n && n < 24
	if short {
		g.p("if !d.Head(%s) {", headLit(4, uint64(n)))
	}
	g.p("maj, extra, err := d.ReadHeader()")
	g.p("if err != nil {")
	g.p("return err")
	g.p("}")
	g.p("if maj != %s.MajArray {", rt)
	g.p("return %s", g.errNew("cbor input should be of type array"))
	g.p("}")
	if t.Mandatory == n {
		g.p("if extra != %d {", n)
		g.p("return %s", g.errNew("cbor input had wrong number of fields"))
		g.p("}")
		if short {
			g.p("}")
		}
	} else {
		g.p("if extra > %d {", n)
		g.p("return %s", g.errorf(fmt.Sprintf("cbor input has too many fields %%d > %d", n), "extra"))
		g.p("}")
		g.p("if extra < %d {", t.Mandatory)
		g.p("return %s", g.errorf(fmt.Sprintf("cbor input has too few fields %%d < %d", t.Mandatory), "extra"))
		g.p("}")
	}
	for i, fd := range t.Fields {
		g.p("// t.%s", fd.Name)
		if fd.Optional {
			g.p("if extra < %d {", i+1)
			g.p("return nil")
			g.p("}")
		}
		g.dec("t."+fd.Name, fd.v, fd, 0)
	}
}

// decMap reads a map-format struct: pairs in any order, a key it does
// not know skipped as ScanForLinks skips it, a repeated key read again.
func (g *gen) decMap(t *typeInfo) {
	rt := g.rt()
	g.p("maj, extra, err := d.ReadHeader()")
	g.p("if err != nil {")
	g.p("return err")
	g.p("}")
	g.p("if maj != %s.MajMap {", rt)
	g.p("return %s", g.errNew("cbor input should be of type map"))
	g.p("}")
	g.p("if extra > %s.MaxMapStruct {", rt)
	g.p("return %s", g.errorf(t.Name+": map struct too large (%d)", "extra"))
	g.p("}")
	g.p("for n := extra; n > 0; n-- {")
	g.p("key, err := d.ReadKey(%d)", g.f.maxStr)
	g.p("if err != nil {")
	g.p("return err")
	g.p("}")
	g.p("switch string(key) {")
	for _, fd := range t.Fields {
		g.p("case %s:", strconv.Quote(fd.Key))
		g.dec("t."+fd.Name, fd.v, fd, 0)
	}
	g.p("default:")
	g.p("if err := d.Skip(); err != nil {")
	g.p("return err")
	g.p("}")
	g.p("}")
	g.p("}")
}

// nullCheck opens the block of a pointer's value: null leaves it nil.
func (g *gen) nullCheck() {
	g.p("if null, err := d.Null(); err != nil {")
	g.p("return err")
	g.p("} else if !null {")
}

// dec reads into x, a value of v, from d.
func (g *gen) dec(x string, v *value, fd *field, depth int) {
	rt := g.rt()
	T := func() string { return g.typ(v.typ) } // imports only what the code names
	g.p("{")
	defer g.p("}")
	switch v.kind {
	case kString:
		if fd != nil && fd.Const != nil && !v.pointer {
			g.scalar(x, v, fmt.Sprintf("d.ReadConst(%d, %s)", g.f.maxStr, strconv.Quote(*fd.Const)))
		} else {
			g.scalar(x, v, fmt.Sprintf("d.ReadString(%d)", g.f.maxStr))
		}
	case kUint64:
		g.scalar(x, v, "d.Uint64()")
	case kUint8:
		g.scalar(x, v, "d.Uint8()")
	case kInt64:
		g.scalar(x, v, "d.Int64()")
	case kBool:
		g.scalar(x, v, "d.Bool()")
	case kFilInt:
		if v.pointer {
			g.nullCheck()
		}
		if v.pointer {
			// A box of the Decoder's block, converted: the type is a
			// struct of a *big.Int alone, as cbgcompat.FilIntBox is.
			g.p("bp, err := d.FilIntPtr()")
			g.p("if err != nil {")
			g.p("return err")
			g.p("}")
			g.p("%s = (*%s)(bp)", x, T())
			g.p("}")
		} else {
			g.p("bi, err := d.FilInt()")
			g.p("if err != nil {")
			g.p("return err")
			g.p("}")
			g.p("%s.Int = bi", x)
		}
	case kAddress:
		if v.pointer {
			g.nullCheck()
		}
		if v.pointer {
			g.p("ap, err := %s(d)", g.ptrReader(v.typ, false))
			g.p("if err != nil {")
			g.p("return err")
			g.p("}")
			g.p("%s = ap", x)
			g.p("}")
		} else {
			g.p("av, err := %s(d)", g.addressReader(v.typ))
			g.p("if err != nil {")
			g.p("return err")
			g.p("}")
			g.p("%s = av", x)
		}
	case kCid:
		if v.pointer {
			g.nullCheck()
		}
		if v.pointer {
			g.p("cp, err := %s(d)", g.ptrReader(v.typ, true))
			g.p("if err != nil {")
			g.p("return %s", g.errorf("failed to read cid field "+x+": %w", "err"))
			g.p("}")
			g.p("%s = cp", x)
			g.p("}")
		} else {
			g.p("cv, err := %s(d)", g.cidReader())
			g.p("if err != nil {")
			g.p("return %s", g.errorf("failed to read cid field "+x+": %w", "err"))
			g.p("}")
			g.p("%s = cv", x)
		}
	case kBigInt:
		big := g.imp("math/big", "big")
		g.header()
		g.p("if maj != %s.MajTag || extra != 2 {", rt)
		g.p("return %s", g.errNew("big ints should be cbor bignums"))
		g.p("}")
		g.p("maj, extra, err = d.ReadHeader()")
		g.p("if err != nil {")
		g.p("return err")
		g.p("}")
		g.p("if maj != %s.MajByteString {", rt)
		g.p("return %s", g.errNew("big ints should be tagged cbor byte strings"))
		g.p("}")
		g.p("if extra > 256 {")
		g.p("return %s", g.errNew(x+": cbor bignum was too large"))
		g.p("}")
		g.p("if extra > 0 {")
		g.p("bv, err := d.View(extra)")
		g.p("if err != nil {")
		g.p("return err")
		g.p("}")
		g.p("%s = new(%s.Int).SetBytes(bv)", x, big)
		g.p("} else {")
		g.p("%s = %s.NewInt(0)", x, big)
		g.p("}")
	case kDeferred:
		g.p("raw, err := d.Deferred()")
		g.p("if err != nil {")
		g.p("return %s", g.errorf("failed to read deferred field: %w", "err"))
		g.p("}")
		if v.pointer {
			g.p("%s = &%s{Raw: raw}", x, T())
		} else {
			g.p("%s.Raw = raw", x)
		}
	case kStruct:
		if v.label {
			g.decLabel(x, v)
			return
		}
		if v.pointer {
			g.nullCheck()
			g.p("%s = new(%s)", x, T())
		}
		if v.lexBlob || v.lexLink {
			g.p("if err := %s(d, %s); err != nil {", g.lexBlobRead(v), addr(x, v))
		} else if g.f.fastCalls(v.typ) {
			g.p("if err := %s.DecodeCBORCompat(d); err != nil {", x)
		} else {
			g.p("if err := %s.UnmarshalCBOR(d); err != nil {", x)
		}
		g.p("return err")
		g.p("}")
		if v.pointer {
			g.p("}")
		}
	case kSlice, kArray:
		g.decList(x, v, fd, depth)
	case kMap:
		g.header()
		g.p("if maj != %s.MajMap {", rt)
		g.p("return %s", g.errNew("expected a map (major type 5)"))
		g.p("}")
		g.p("if extra > 4096 {")
		g.p("return %s", g.errNew(x+": map too large"))
		g.p("}")
		g.p("%s = make(%s, extra)", x, T())
		mt := v.typ.Underlying().(*types.Map)
		i := loopVar(depth)
		g.p("for %s, l := 0, int(extra); %s < l; %s++ {", i, i, i)
		g.p("k, err := d.ReadString(%d)", g.f.maxStr)
		g.p("if err != nil {")
		g.p("return err")
		g.p("}")
		et := mt.Elem()
		g.p("var mv %s", g.typ(et))
		g.dec("mv", v.elem, nil, depth+1)
		g.p("%s[%s(k)] = mv", x, g.typ(mt.Key()))
		g.p("}")
	}
}

// decLabel reads x, a go-state-types DealLabel of the file's own
// package (isDealLabel): a text string of valid UTF-8 or a byte string
// with a short head is read into the label's fields as its
// UnmarshalCBOR reads it (new bytes, never nil; notString for bytes),
// anything else by UnmarshalCBOR itself, which reads and refuses as it
// always does.
func (g *gen) decLabel(x string, v *value) {
	g.p("if lb, text, ok := d.TextOrBytes(255); ok {")
	g.p("%s = %s{bs: lb, notString: !text}", x, g.typ(v.typ))
	g.p("} else if err := %s.UnmarshalCBOR(d); err != nil {", x)
	g.p("return err")
	g.p("}")
}

// scalar reads x, a value of v, with call, a read of the Decoder that
// returns the value and an error: a pointer is left nil by null, and
// set to a new value otherwise.
func (g *gen) scalar(x string, v *value, call string) {
	if v.pointer {
		g.nullCheck()
	}
	g.p("sv, err := %s", call)
	g.p("if err != nil {")
	g.p("return err")
	g.p("}")
	if v.pointer {
		g.p("pv := %s(sv)", g.typ(v.typ))
		g.p("%s = &pv", x)
		g.p("}")
	} else {
		g.p("%s = %s(sv)", x, g.typ(v.typ))
	}
}

// addressReader is the name of the file's function that reads a
// go-address Address as its UnmarshalCBOR does, written once per file:
// an address that cbgcompat.CheckAddress takes is made from its bytes
// (cbgcompat.StringValues), everything else goes to NewFromBytes, which
// gives the error.
func (g *gen) addressReader(t types.Type) string {
	if g.f.addrHelper == "" {
		name := g.helper("cbgReadAddress")
		values := g.helper("cbgAddresses")
		g.f.taken[name], g.f.taken[values] = true, true
		g.f.addrHelper, g.addrValues = name, values
		rt := g.rt()
		pkg := g.imp(addressPath, "address")
		T := g.typ(t)
		var h bytes.Buffer
		fmt.Fprintf(&h, "// %s reads an Address as go-address's UnmarshalCBOR does.\n", name)
		fmt.Fprintf(&h, "func %s(d *%s.Decoder) (%s, error) {\n", name, rt, T)
		fmt.Fprintf(&h, "ab, err := d.AddressBytes()\nif err != nil {\nreturn %s.Undef, err\n}\n", pkg)
		fmt.Fprintf(&h, "if a, ok := %s.Make(d, ab); ok {\nreturn a, nil\n}\n", values)
		fmt.Fprintf(&h, "a, err := %s.NewFromBytes(ab)\nif err != nil {\nreturn %s.Undef, err\n}\n", pkg, pkg)
		fmt.Fprintf(&h, "if a == %s.Undef {\nreturn a, %s.ErrEmptyAddress\n}\nreturn a, nil\n}\n\n", pkg, rt)
		fmt.Fprintf(&h, "// %s makes the Addresses that %s.CheckAddress takes from their\n", values, rt)
		fmt.Fprintf(&h, "// bytes, where go-address's Address is laid out as a string (checked once).\n")
		fmt.Fprintf(&h, "var %s = %s.NewStringValues(%s.NewFromBytes, nil, %s.CheckAddress, %s.AddressProbes)\n\n", values, rt, pkg, rt, rt)
		g.f.helpers = append(g.f.helpers, h.Bytes()...)
	}
	return g.f.addrHelper
}

// cidReader is the name of the file's function that reads a go-cid Cid
// as whyrusleeping/cbor-gen's ReadCid does, written once per file: a CID
// that cbgcompat.CheckCid takes is made from its bytes
// (cbgcompat.StringValues), everything else goes to cid.Cast, which
// gives the error.
func (g *gen) cidReader() string {
	if g.f.cidHelper == "" {
		name := g.helper("cbgReadCid")
		values := g.helper("cbgCids")
		g.f.taken[name], g.f.taken[values] = true, true
		g.f.cidHelper, g.cidValues = name, values
		rt := g.rt()
		pkg := g.imp(cidPath, "cid")
		var h bytes.Buffer
		fmt.Fprintf(&h, "// %s reads a CID as whyrusleeping/cbor-gen's ReadCid does.\n", name)
		fmt.Fprintf(&h, "func %s(d *%s.Decoder) (%s.Cid, error) {\n", name, rt, pkg)
		fmt.Fprintf(&h, "cb, err := d.CidBytes()\nif err != nil {\nreturn %s.Undef, err\n}\n", pkg)
		fmt.Fprintf(&h, "if c, ok := %s.Make(d, cb); ok {\nreturn c, nil\n}\n", values)
		fmt.Fprintf(&h, "return %s.Cast(cb)\n}\n\n", pkg)
		fmt.Fprintf(&h, "// %s makes the CIDs that %s.CheckCid takes from their bytes,\n", values, rt)
		fmt.Fprintf(&h, "// where go-cid's Cid is laid out as a string (checked once).\n")
		fmt.Fprintf(&h, "var %s = %s.NewStringValues(%s.Cast, %s.Cid.KeyString, %s.ValidCid, %s.CidProbes)\n\n", values, rt, pkg, pkg, rt, rt)
		g.f.helpers = append(g.f.helpers, h.Bytes()...)
	}
	return g.f.cidHelper
}

// ptrReader is the name of the file's function that reads a CID (cid)
// or an address (t, a go-address Address) for a field that points to
// one, written once per file: as cidReader's or addressReader's
// function reads it, the value one of the Decoder's block
// (StringValues.MakePtr) where it is made from its bytes, else a new
// one, as whyrusleeping/cbor-gen's code gives a new value for every
// pointer it reads.
func (g *gen) ptrReader(t types.Type, cid bool) string {
	if cid && g.cidPtr != "" {
		return g.cidPtr
	}
	if !cid && g.addrPtr != "" {
		return g.addrPtr
	}
	rt := g.rt()
	var name, read, values, T, bytesCall, what string
	if cid {
		read, values = g.cidReader(), g.cidValues
		name = g.helper("cbgReadCidPtr")
		g.cidPtr = name
		T = g.imp(cidPath, "cid") + ".Cid"
		bytesCall, what = "d.CidBytes()", "a CID"
	} else {
		read, values = g.addressReader(t), g.addrValues
		name = g.helper("cbgReadAddressPtr")
		g.addrPtr = name
		T = g.typ(t)
		bytesCall, what = "d.AddressBytes()", "an Address"
	}
	g.f.taken[name] = true
	var h bytes.Buffer
	fmt.Fprintf(&h, "// %s reads %s as %s does, for a field that points to one.\n", name, what, read)
	fmt.Fprintf(&h, "func %s(d *%s.Decoder) (*%s, error) {\n", name, rt, T)
	if cid {
		// cidReader's function, but for the value it returns.
		fmt.Fprintf(&h, "cb, err := %s\nif err != nil {\nreturn nil, err\n}\n", bytesCall)
		fmt.Fprintf(&h, "if p, ok := %s.MakePtr(d, cb); ok {\nreturn p, nil\n}\n", values)
		fmt.Fprintf(&h, "c, err := %s.Cast(cb)\nif err != nil {\nreturn nil, err\n}\nreturn &c, nil\n}\n\n", g.imp(cidPath, "cid"))
	} else {
		pkg := g.imp(addressPath, "address")
		fmt.Fprintf(&h, "ab, err := %s\nif err != nil {\nreturn nil, err\n}\n", bytesCall)
		fmt.Fprintf(&h, "if p, ok := %s.MakePtr(d, ab); ok {\nreturn p, nil\n}\n", values)
		fmt.Fprintf(&h, "a, err := %s.NewFromBytes(ab)\nif err != nil {\nreturn nil, err\n}\n", pkg)
		fmt.Fprintf(&h, "if a == %s.Undef {\nreturn nil, %s.ErrEmptyAddress\n}\nreturn &a, nil\n}\n\n", pkg, rt)
	}
	g.f.helpers = append(g.f.helpers, h.Bytes()...)
	return name
}

// helper is a name for a function of the file, not taken by the
// package.
func (g *gen) helper(base string) string {
	name := base
	for g.f.taken[name] {
		name = "_" + name
	}
	return name
}

func (g *gen) header() {
	g.p("maj, extra, err := d.ReadHeader()")
	g.p("if err != nil {")
	g.p("return err")
	g.p("}")
	g.p("_, _ = maj, extra")
}

// decList reads a slice or an array: a byte string for bytes.
func (g *gen) decList(x string, v *value, fd *field, depth int) {
	rt := g.rt()
	T := func() string { return g.typ(v.typ) }
	pn := fd != nil && fd.PreserveNil && v.kind == kSlice
	if pn {
		g.nullCheck()
	}
	g.header()
	bytesForm := v.elem.kind == kUint8 && !v.elem.pointer
	if bytesForm {
		g.p("if extra > %d {", g.maxLen(fd, g.f.maxBytes))
		g.p("return %s", g.errorf(x+": byte array too large (%d)", "extra"))
		g.p("}")
		g.p("if maj != %s.MajByteString {", rt)
		g.p("return %s", g.errNew("expected byte array"))
		g.p("}")
	} else {
		g.p("if extra > %d {", g.maxLen(fd, g.f.maxArray))
		g.p("return %s", g.errorf(x+": array too large (%d)", "extra"))
		g.p("}")
		g.p("if maj != %s.MajArray {", rt)
		g.p("return %s", g.errNew("expected cbor array"))
		g.p("}")
	}
	if v.kind == kArray {
		g.p("if extra != %d {", v.length)
		g.p("return %s", g.errNew(fmt.Sprintf("expected array to have %d elements", v.length)))
		g.p("}")
		g.p("%s = %s{}", x, T())
	} else {
		// Every element takes at least a byte: a count the input cannot
		// hold is refused before the allocation.
		g.p("if err := d.Avail(extra); err != nil {")
		g.p("return err")
		g.p("}")
		if pn {
			g.p("%s = make(%s, extra)", x, T())
		} else {
			g.p("if extra > 0 {")
			g.p("%s = make(%s, extra)", x, T())
			g.p("}")
		}
	}
	if bytesForm {
		g.p("if err := d.ReadFull(%s[:]); err != nil {", x)
		g.p("return err")
		g.p("}")
	} else {
		i := loopVar(depth)
		g.p("for %s := 0; %s < int(extra); %s++ {", i, i, i)
		g.dec(x+"["+i+"]", v.elem, nil, depth+1)
		g.p("}")
	}
	if pn {
		g.p("}")
	}
}
