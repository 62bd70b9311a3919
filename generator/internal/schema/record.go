package schema

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The schema record. In the array format a field's slot is its identity,
// so the slots of every generated type are a contract with all the data
// ever written. Each run keeps a record of them in a text file beside the
// output (cbor_gen.lock for cbor_gen.go), compares the types with it and
// refuses any change that would make stored data decode wrongly. The
// rules, and why the record is a separate file, are in docs/schema.md;
// the format is
//
//	cbor-gen schema 1
//
//	type Order required=3
//	Order 0 ID "id" uint64
//	Order 1 Items "items" []Item
//	Order 2 reserved was Coupon "coupon" string
//	Order 3 Total "total" *int64
//
// "required=3" says that every array of an Order ever written has at
// least 3 elements: the slots from 3 on were appended later, so data
// written before them ends early and those fields decode as zero. A slot
// line names the field, its legacy map key (quoted text, or an integer for
// keyasint) and its wire kind (kinds.go); a reserved slot keeps what
// it held before, for the reader and for the legacy-key check.
//
// A map-format type (//cborgen:map) is known by its keys, not its slots:
//
//	type Header map
//	Header key Alg 1 int64
//	Header key retired Counter 7 *Signature
//
// lists its fields in field order, then the keys of removed fields,
// which stored maps may still hold: a new field under such a key must be
// able to read their values.
//
// A named type of another kind (type Points []Point, type ID uint64) is
// known by the wire kind of its underlying type, in format version 3:
//
//	type Points required=0
//	Points value []Point
//
// A type of another package that the generated code hands to
// fxamacker/cbor (model.Foreign), and each type within it, is recorded
// as fxamacker encodes it, in format version 2 (schema_foreign.go):
//
//	foreign example.com/geo.Point map
//	example.com/geo.Point key X "x" int32 omitempty
//	example.com/geo.Point key Y "y" int32
//	foreign example.com/geo.Pair array
//	example.com/geo.Pair 0 A "A" int
//	foreign example.com/geo.Code cbor
//
// A map is keyed as a //cborgen:map type (with omitempty and omitzero
// noted); an array (toarray) lists its fields by position; cbor and
// binary say that the type encodes itself (MarshalCBOR, MarshalBinary).

// SchemaDoc names the rules of the schema record where every user can
// find them: by module path, not by a path in their own repository.
const SchemaDoc = model.ModulePath + "/docs/schema.md"

// schemaVersion is the format version on the first line of a record
// without foreign types or value lines; foreignVersion that of one with
// foreign types; valueVersion that of one with a value line. All are read:
// version 1 is version 2 without foreign types, and version 2 is version 3
// without value lines, so a record an older cbor-gen wrote reads as
// before, and one without the newer lines stays readable by it.
const (
	schemaVersion  = "cbor-gen schema 1"
	foreignVersion = "cbor-gen schema 2"
	valueVersion   = "cbor-gen schema 3"
)

// LockPath returns the path of the schema record of the output file out:
// out with ".go" replaced by ".lock".
func LockPath(out string) string {
	return strings.TrimSuffix(out, ".go") + ".lock"
}

// Record is a parsed schema record.
type Record struct {
	types   map[string]*typeRecord
	unions  map[string]*unionRecord
	foreign map[string]*foreignRecord // by the type's name (model.Foreign.Name)
	version string                    // the first line, as read
}

func newRecord() *Record {
	return &Record{types: map[string]*typeRecord{}, unions: map[string]*unionRecord{}, foreign: map[string]*foreignRecord{}}
}

// foreignRecord is the record of a type that fxamacker/cbor encodes
// (model.Foreign): its form, and for a struct its fields.
type foreignRecord struct {
	name   string
	form   string // model.ForeignForm's text: map, array, cbor, binary
	fields []slotRecord
	line   int
}

// unionRecord is the record of one //cborgen:union: the types of its
// variants, whose values stored data may hold.
type unionRecord struct {
	name     string
	by       string   // "", "first" or "key K": what picks the variant (by=first, by=key K)
	variants []string // sorted
	line     int
}

// typeRecord is the record of one type.
type typeRecord struct {
	name string
	// mapFormat: a //cborgen:map type, whose contract is its keys: slots
	// lists its fields in field order, and reserved ones are retired keys.
	mapFormat bool
	required  int
	tag       string // "" or the tag every value is written under: "132", or "132?" when optional on decode
	// noLegacy: the type has no legacy map decoder (//cborgen:nolegacy,
	// fxamacker's toarray option, or -nolegacy): noted for the reader.
	noLegacy bool
	// optional is N of //cborgen:optional N (-1 without it): writers
	// leave out the zero fields from slot N on at the end of the array.
	optional int
	// body: a //cborgen:body type, whose own methods call the generated
	// codec that the slots describe: noted for the reader.
	body bool
	// caseTok is the //cborgen:case of a variant of a union chosen by
	// content, as a token ("" without one): "case 0", "case \"circle\"".
	caseTok string
	// unknown: the name of the type's runtime.Unknown field, which keeps
	// the keys (of a map type) or trailing elements (of an extensible
	// array type) that the type does not know, and writes them back;
	// noted for the reader, not guarded (adding or removing it changes
	// no byte of what older versions wrote, or read).
	unknown string
	// value is the wire kind of the underlying type of a named type of
	// another kind than struct (model.Struct.Value), as text; "" for a
	// struct, and for a value type recorded before version 3.
	value string
	slots []slotRecord
	line  int // of the type line, for messages
}

// slotRecord is one slot: the field that holds it, or a reservation.
type slotRecord struct {
	reserved bool
	name     string // field name; for a reserved slot, the field it held ("" if none)
	key      string // legacy key token: a quoted string or an integer
	kind     string // wire kind, as text (parseKind reads it)
	opts     string // a field of a foreign map: "omitempty", "omitzero", both (space-separated) or ""
}

func (s slotRecord) describe() string {
	if s.reserved {
		if s.name == "" {
			return "a reserved slot"
		}
		return "the reserved slot of " + s.name
	}
	return s.name
}

// KeyToken is the legacy key of f as the record writes it.
func KeyToken(f *model.Field) string {
	if f.KeyAsInt {
		return strconv.FormatInt(f.KeyInt, 10)
	}
	return strconv.Quote(f.Key)
}

// slotOf is the record line of field f, of wire kind k.
func slotOf(f *model.Field, k *kind) slotRecord {
	if f.IsReserved() {
		return slotRecord{reserved: true}
	}
	return slotRecord{name: model.FieldID(f), key: KeyToken(f), kind: k.Text}
}

// ParseRecord reads a schema record. Errors name the line and column.
func ParseRecord(path string, data []byte) (*Record, error) {
	p := &recordParser{path: path, rec: newRecord()}
	sawVersion := false
	for i, text := range strings.Split(string(data), "\n") {
		p.line = i + 1
		text = strings.TrimRight(text, " \t\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if !sawVersion {
			if text != schemaVersion && text != foreignVersion && text != valueVersion {
				p.fail(1, "not a cbor-gen schema record: want %q (or %q, %q) first, found %q", valueVersion, foreignVersion, schemaVersion, text)
				break
			}
			p.rec.version = text
			sawVersion = true
			continue
		}
		toks, cols, err := tokenize(text)
		if err != nil {
			p.fail(cols[len(cols)-1], "%v", err)
			continue
		}
		switch {
		case toks[0] == "union":
			p.unionLine(toks)
		case toks[0] == "type":
			p.typeLine(toks, cols)
		case toks[0] == "foreign" && !p.slotOfTypeForeign(toks):
			p.foreignLine(toks, cols)
		case p.rec.types[toks[0]] == nil && p.rec.foreign[toks[0]] != nil:
			p.foreignFieldLine(p.rec.foreign[toks[0]], toks, cols)
		case p.rec.types[toks[0]] == nil:
			p.fail(1, "slot of %s before its type line", toks[0])
		case len(toks) >= 2 && toks[1] == "value":
			p.valueLine(p.rec.types[toks[0]], toks, cols)
		case p.rec.types[toks[0]].mapFormat:
			p.keyLine(p.rec.types[toks[0]], toks)
		default:
			p.slotLine(p.rec.types[toks[0]], toks, cols)
		}
	}
	if !sawVersion && len(p.errs) == 0 {
		p.line = 1
		p.fail(1, "not a cbor-gen schema record: %q is missing", schemaVersion)
	}
	for _, tr := range p.rec.types {
		if tr.mapFormat {
			tr.required = len(tr.slots)
			continue
		}
		if tr.required > len(tr.slots) {
			p.line = tr.line
			p.fail(1, "type %s: required=%d but only %d slots", tr.name, tr.required, len(tr.slots))
		}
	}
	if len(p.errs) > 0 {
		return nil, model.JoinPosErrors(p.errs)
	}
	return p.rec, nil
}

// recordParser reads a record line by line.
type recordParser struct {
	path string
	line int
	rec  *Record
	errs []error
}

func (p *recordParser) fail(col int, format string, args ...any) {
	p.errs = append(p.errs, &model.PosError{
		Pos: token.Position{Filename: p.path, Line: p.line, Column: col},
		Msg: fmt.Sprintf(format, args...),
	})
}

// unionLine reads "union NAME [by=first | by=key K] VARIANT...".
func (p *recordParser) unionLine(toks []string) {
	if len(toks) < 2 {
		p.fail(1, "want \"union NAME [by=first | by=key K] VARIANT...\"")
		return
	}
	ur := &unionRecord{name: toks[1], variants: toks[2:], line: p.line}
	if len(ur.variants) > 0 {
		switch ur.variants[0] {
		case "by=first":
			ur.by, ur.variants = "first", ur.variants[1:]
		case "by=key":
			if len(ur.variants) < 2 || !validKeyToken(ur.variants[1]) {
				p.fail(1, "want \"union NAME by=key K VARIANT...\", K an integer or a quoted text")
				return
			}
			ur.by, ur.variants = "key "+ur.variants[1], ur.variants[2:]
		}
	}
	p.rec.unions[toks[1]] = ur
}

// typeLine reads "type NAME required=N" or "type NAME map", then
// optionally "optional=N" (not after map), "tag=T", "nolegacy", "body",
// "unknown=F" and "case V", in that order.
func (p *recordParser) typeLine(toks []string, cols []int) {
	want := "want \"type NAME required=N\" or \"type NAME map\", then optionally \"optional=N\", \"tag=T\", \"nolegacy\", \"body\", \"unknown=F\" and \"case V\", in that order"
	caseTok := ""
	if n := len(toks); n >= 5 && toks[n-2] == "case" {
		if !validKeyToken(toks[n-1]) {
			p.fail(cols[n-1], "bad case %s: want an integer or a quoted text", toks[n-1])
			return
		}
		caseTok, toks, cols = toks[n-1], toks[:n-2], cols[:n-2]
	}
	if len(toks) < 3 || len(toks) > 8 || (!strings.HasPrefix(toks[2], "required=") && toks[2] != "map") {
		p.fail(1, "%s", want)
		return
	}
	isMap := toks[2] == "map"
	tag, optional, noLegacy, body, unknown := "", -1, false, false, ""
	next := 0 // the first of optional=, tag=, nolegacy, body that may come
	for i, tok := range toks[3:] {
		at := 0
		switch {
		case strings.HasPrefix(tok, "optional=") && !isMap:
			n, err := strconv.Atoi(strings.TrimPrefix(tok, "optional="))
			if err != nil || n < 0 {
				p.fail(cols[3+i], "bad optional count %q", tok)
				return
			}
			optional, at = n, 0
		case strings.HasPrefix(tok, "tag="):
			tag, at = strings.TrimPrefix(tok, "tag="), 1
			if _, err := strconv.ParseUint(strings.TrimSuffix(tag, "?"), 10, 64); err != nil {
				p.fail(cols[3+i], "bad tag %q", tok)
				return
			}
		case tok == "nolegacy":
			noLegacy, at = true, 2
		case tok == "body":
			body, at = true, 3
		case strings.HasPrefix(tok, "unknown=") && token.IsIdentifier(strings.TrimPrefix(tok, "unknown=")):
			unknown, at = strings.TrimPrefix(tok, "unknown="), 4
		default:
			at = -1
		}
		if at < 0 {
			p.fail(cols[3+i], "%s", want)
			return
		}
		if at < next { // the token before it came too early
			p.fail(cols[2+i], "%s", want)
			return
		}
		next = at + 1
	}
	n := 0
	if !isMap {
		var err error
		n, err = strconv.Atoi(strings.TrimPrefix(toks[2], "required="))
		if err != nil || n < 0 {
			p.fail(cols[2], "bad required count %q", toks[2])
			return
		}
	}
	if p.rec.types[toks[1]] != nil {
		p.fail(cols[1], "type %s is recorded twice", toks[1])
		return
	}
	p.rec.types[toks[1]] = &typeRecord{name: toks[1], mapFormat: isMap, required: n, optional: optional, tag: tag, noLegacy: noLegacy, body: body, unknown: unknown, caseTok: caseTok, line: p.line}
}

// slotOfTypeForeign reports whether toks is a slot or key line of a
// generated type named foreign, not the line that starts a foreign type.
func (p *recordParser) slotOfTypeForeign(toks []string) bool {
	if p.rec.types["foreign"] == nil || len(toks) < 2 {
		return false
	}
	_, err := strconv.Atoi(toks[1])
	return err == nil || toks[1] == "key" || toks[1] == "value"
}

// valueLine reads the kind of a value type: "TYPE value KIND".
func (p *recordParser) valueLine(tr *typeRecord, toks []string, cols []int) {
	switch {
	case len(toks) != 3:
		p.fail(1, "want \"TYPE value KIND\" for a value type")
	case tr.mapFormat || len(tr.slots) > 0 || tr.value != "":
		p.fail(cols[1], "type %s has slots or keys, or a value line already: a value line is the whole of a value type", tr.name)
	default:
		tr.value = toks[2]
	}
}

// foreignLine reads "foreign NAME FORM".
func (p *recordParser) foreignLine(toks []string, cols []int) {
	if len(toks) != 3 {
		p.fail(1, "want \"foreign NAME FORM\"")
		return
	}
	switch toks[2] {
	case "map", "array", "cbor", "binary":
	default:
		p.fail(cols[2], "bad form %q of foreign type %s: want map, array, cbor or binary", toks[2], toks[1])
		return
	}
	if p.rec.foreign[toks[1]] != nil || p.rec.types[toks[1]] != nil {
		p.fail(cols[1], "type %s is recorded twice", toks[1])
		return
	}
	p.rec.foreign[toks[1]] = &foreignRecord{name: toks[1], form: toks[2], line: p.line}
}

// foreignFieldLine reads a field of a foreign type: "NAME key FIELD KEY
// KIND [omitempty] [omitzero]" for a map, "NAME SLOT FIELD KEY KIND" for
// an array.
func (p *recordParser) foreignFieldLine(fr *foreignRecord, toks []string, cols []int) {
	switch fr.form {
	case "map":
		if len(toks) < 5 || toks[1] != "key" {
			p.fail(1, "want \"TYPE key FIELD KEY KIND [omitempty] [omitzero]\" for a foreign map type")
			return
		}
		for i, o := range toks[5:] {
			if o != "omitempty" && o != "omitzero" {
				p.fail(cols[5+i], "want omitempty or omitzero, found %q", o)
				return
			}
		}
	case "array":
		if len(toks) != 5 {
			p.fail(1, "want \"TYPE SLOT FIELD KEY KIND\" for a foreign array type")
			return
		}
		if slot, err := strconv.Atoi(toks[1]); err != nil || slot != len(fr.fields) {
			p.fail(cols[1], "slot %s of %s out of order: want %d", toks[1], fr.name, len(fr.fields))
			return
		}
	default:
		p.fail(1, "foreign type %s is recorded as %s: it has no fields", fr.name, fr.form)
		return
	}
	if !validKeyToken(toks[3]) {
		p.fail(cols[3], "bad key %s: want a quoted string or an integer", toks[3])
		return
	}
	fr.fields = append(fr.fields, slotRecord{name: toks[2], key: toks[3], kind: toks[4], opts: strings.Join(toks[5:], " ")})
}

// keyLine reads a key of a map type: "TYPE key FIELD KEY KIND", or
// "TYPE key retired FIELD KEY KIND" for a removed field's.
func (p *recordParser) keyLine(tr *typeRecord, toks []string) {
	var k slotRecord
	switch {
	case len(toks) == 5 && toks[1] == "key" && toks[2] != "retired":
		k = slotRecord{name: toks[2], key: toks[3], kind: toks[4]}
	case len(toks) == 6 && toks[1] == "key" && toks[2] == "retired":
		k = slotRecord{reserved: true, name: toks[3], key: toks[4], kind: toks[5]}
	default:
		p.fail(1, "want \"TYPE key FIELD KEY KIND\" or \"TYPE key retired FIELD KEY KIND\" for a map type")
		return
	}
	if !validKeyToken(k.key) {
		p.fail(1, "bad map key %s: want a quoted string or an integer", k.key)
		return
	}
	tr.slots = append(tr.slots, k)
}

// slotLine reads a slot of an array type: "TYPE SLOT FIELD KEY KIND",
// or "TYPE SLOT reserved [was FIELD KEY KIND]".
func (p *recordParser) slotLine(tr *typeRecord, toks []string, cols []int) {
	if len(toks) < 3 {
		p.fail(1, "want \"TYPE SLOT FIELD KEY KIND\" or \"TYPE SLOT reserved\"")
		return
	}
	slot, err := strconv.Atoi(toks[1])
	if err != nil || slot != len(tr.slots) {
		p.fail(cols[1], "slot %s of %s out of order: want %d", toks[1], tr.name, len(tr.slots))
		return
	}
	var s slotRecord
	switch {
	case toks[2] == "reserved" && len(toks) == 3:
		s = slotRecord{reserved: true}
	case toks[2] == "reserved" && len(toks) == 7 && toks[3] == "was":
		s = slotRecord{reserved: true, name: toks[4], key: toks[5], kind: toks[6]}
	case toks[2] != "reserved" && len(toks) == 5:
		s = slotRecord{name: toks[2], key: toks[3], kind: toks[4]}
	default:
		p.fail(1, "want \"TYPE SLOT FIELD KEY KIND\" or \"TYPE SLOT reserved [was FIELD KEY KIND]\"")
		return
	}
	if s.key != "" && !validKeyToken(s.key) {
		p.fail(1, "bad legacy key %s: want a quoted string or an integer", s.key)
		return
	}
	tr.slots = append(tr.slots, s)
}

// tokenize splits a record line at spaces; a token that starts with a
// double quote is a Go string literal and may hold spaces. cols are the
// 1-based columns of the tokens, and of the error.
func tokenize(s string) (toks []string, cols []int, err error) {
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		cols = append(cols, i+1)
		if s[i] == '"' {
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return nil, cols, fmt.Errorf("bad quoted key: %v", err)
			}
			toks = append(toks, q)
			i += len(q)
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		toks = append(toks, s[i:j])
		i = j
	}
	if len(toks) == 0 {
		cols = append(cols, 1)
		return nil, cols, errors.New("empty line")
	}
	return toks, cols, nil
}

func validKeyToken(k string) bool {
	if strings.HasPrefix(k, `"`) {
		_, err := strconv.Unquote(k)
		return err == nil
	}
	_, err := strconv.ParseInt(k, 10, 64)
	return err == nil
}

// formatRecord writes a record: a header that says what the file is,
// then the types by name, each with its slots in order. goFile is the
// base name of the generated file it belongs to.
func formatRecord(rec *Record, goFile string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The schema record of %s: the array slot of every field of every\n", goFile)
	b.WriteString("# generated type. cbor-gen compares the types with it on every run and\n")
	b.WriteString("# refuses changes that would make stored data decode wrongly; run it once\n")
	b.WriteString("# with -accept-break to rewrite it on purpose. Commit this file and review\n")
	b.WriteString("# changes to it like API changes. Format and rules:\n")
	b.WriteString("# " + SchemaDoc + "\n\n")
	switch {
	case rec.hasValues():
		b.WriteString(valueVersion + "\n")
	case len(rec.foreign) > 0:
		b.WriteString(foreignVersion + "\n")
	default:
		b.WriteString(schemaVersion + "\n")
	}
	for _, name := range slices.Sorted(maps.Keys(rec.types)) {
		tr := rec.types[name]
		contract := fmt.Sprintf("required=%d", tr.required)
		if tr.mapFormat {
			contract = "map"
		}
		if tr.optional >= 0 {
			contract += fmt.Sprintf(" optional=%d", tr.optional)
		}
		if tr.tag != "" {
			contract += " tag=" + tr.tag
		}
		if tr.noLegacy {
			contract += " nolegacy"
		}
		if tr.body {
			contract += " body"
		}
		if tr.unknown != "" {
			contract += " unknown=" + tr.unknown
		}
		if tr.caseTok != "" {
			contract += " case " + tr.caseTok
		}
		fmt.Fprintf(&b, "\ntype %s %s\n", tr.name, contract)
		if tr.value != "" {
			fmt.Fprintf(&b, "%s value %s\n", tr.name, tr.value)
		}
		if tr.mapFormat {
			for _, s := range tr.slots {
				if s.reserved {
					fmt.Fprintf(&b, "%s key retired %s %s %s\n", tr.name, s.name, s.key, s.kind)
				} else {
					fmt.Fprintf(&b, "%s key %s %s %s\n", tr.name, s.name, s.key, s.kind)
				}
			}
			continue
		}
		for i, s := range tr.slots {
			switch {
			case s.reserved && s.name == "":
				fmt.Fprintf(&b, "%s %d reserved\n", tr.name, i)
			case s.reserved:
				fmt.Fprintf(&b, "%s %d reserved was %s %s %s\n", tr.name, i, s.name, s.key, s.kind)
			default:
				fmt.Fprintf(&b, "%s %d %s %s %s\n", tr.name, i, s.name, s.key, s.kind)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rec.unions)) {
		ur := rec.unions[name]
		words := ur.variants
		switch {
		case ur.by == "first":
			words = append([]string{"by=first"}, words...)
		case strings.HasPrefix(ur.by, "key "):
			words = append([]string{"by=key", strings.TrimPrefix(ur.by, "key ")}, words...)
		}
		fmt.Fprintf(&b, "\nunion %s %s\n", name, strings.Join(words, " "))
	}
	for _, name := range slices.Sorted(maps.Keys(rec.foreign)) {
		fr := rec.foreign[name]
		fmt.Fprintf(&b, "\nforeign %s %s\n", name, fr.form)
		for i, s := range fr.fields {
			at := "key"
			if fr.form == "array" {
				at = strconv.Itoa(i)
			}
			line := strings.Join([]string{name, at, s.name, s.key, s.kind}, " ")
			if s.opts != "" {
				line += " " + s.opts
			}
			b.WriteString(line + "\n")
		}
	}
	return b.Bytes()
}

// hasValues reports whether a type of r has a value line (version 3).
func (r *Record) hasValues() bool {
	for _, tr := range r.types {
		if tr.value != "" {
			return true
		}
	}
	return false
}

// TagToken is the tag of s as the record writes it: the number, with ? when
// decoding accepts the untagged item too.
func TagToken(s *model.Struct) string {
	if !s.HasTag {
		return ""
	}
	t := strconv.FormatUint(s.Tag, 10)
	if s.TagOptional {
		t += "?"
	}
	return t
}

// TypeNames returns the names of the types in the record, sorted.
func (r *Record) TypeNames() []string {
	names := make([]string, 0, len(r.types))
	for name := range r.types {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
