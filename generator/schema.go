package generator

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
// keyasint) and its wire kind (see wireKind); a reserved slot keeps what
// it held before, for the reader and for the legacy-key check.

// schemaVersion is the format version on the first line of a record.
const schemaVersion = "cbor-gen schema 1"

// LockPath returns the path of the schema record of the output file out:
// out with ".go" replaced by ".lock".
func LockPath(out string) string {
	return strings.TrimSuffix(out, ".go") + ".lock"
}

// isReservedType reports whether t is runtime.Reserved.
func isReservedType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == reservedName && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == runtimePath
}

// reservedField returns the model of field i of st when it is a
// runtime.Reserved field (exported or not, blank or named), and ok false
// for every other field. A reserved field tagged "-" is skipped: fd nil,
// ok true.
func reservedField(st *types.Struct, i int) (fd *Field, ok bool) {
	f := st.Field(i)
	if !isReservedType(f.Type()) {
		return nil, false
	}
	if _, on := parseTag(st.Tag(i)); !on {
		return nil, true
	}
	return &Field{Name: f.Name(), Type: Reserved{Go: f.Type()}}, true
}

// record is a parsed schema record.
type record struct {
	types map[string]*typeRecord
}

// typeRecord is the record of one type.
type typeRecord struct {
	name     string
	required int
	tag      string // "" or the tag every value is written under: "132", or "132?" when optional on decode
	slots    []slotRecord
	line     int // of the type line, for messages
}

// slotRecord is one slot: the field that holds it, or a reservation.
type slotRecord struct {
	reserved bool
	name     string // field name; for a reserved slot, the field it held ("" if none)
	key      string // legacy key token: a quoted string or an integer
	kind     string // wire kind
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

// keyToken is the legacy key of f as the record writes it.
func keyToken(f *Field) string {
	if f.KeyAsInt {
		return strconv.FormatInt(f.KeyInt, 10)
	}
	return strconv.Quote(f.Key)
}

// fieldID names a field in the record and in messages: its Go name, after
// the embedded structs it is promoted through (Audit.Version), since two
// promoted fields may share a Go name.
func fieldID(f *Field) string {
	if len(f.Via) == 0 {
		return f.Name
	}
	var b strings.Builder
	for _, e := range f.Via {
		b.WriteString(e.Name)
		b.WriteByte('.')
	}
	b.WriteString(f.Name)
	return b.String()
}

// slotOf is the record line of field f.
func slotOf(f *Field, pkg *types.Package) slotRecord {
	if f.isReserved() {
		return slotRecord{reserved: true}
	}
	return slotRecord{name: fieldID(f), key: keyToken(f), kind: wireKind(f.Type, pkg)}
}

// wireKind names what a field is on the wire, in Go syntax over the wire
// scalars: named types are replaced by what they are written as (a
// "type Kind uint8" field is uint8), and a nested generated type by its
// name. Compatible kinds are those kindCompatible accepts.
func wireKind(t Type, pkg *types.Package) string {
	switch t := t.(type) {
	case Bool:
		return "bool"
	case Int:
		name := "int"
		if !t.Signed {
			name = "uint"
		}
		if t.Bits != 0 {
			name += strconv.Itoa(t.Bits)
		}
		return name
	case Float:
		return "float" + strconv.Itoa(t.Bits)
	case String:
		return "string"
	case Bytes:
		return "[]byte"
	case ByteArray:
		return "[" + strconv.FormatInt(t.N, 10) + "]byte"
	case Array:
		return "[" + strconv.FormatInt(t.N, 10) + "]" + wireKind(t.Elem, pkg)
	case Slice:
		return "[]" + wireKind(t.Elem, pkg)
	case Map:
		return "map[" + wireKind(t.Key, pkg) + "]" + wireKind(t.Elem, pkg)
	case Pointer:
		return "*" + wireKind(t.Elem, pkg)
	case Reserved:
		return "reserved"
	}
	// A nested generated type, or any kind written as fxamacker writes
	// it (time.Time, big.Int, ...): the Go type names the encoding, and
	// only the same type is compatible.
	if gt := t.goType(); gt != nil {
		return strings.ReplaceAll(types.TypeString(gt, types.RelativeTo(pkg)), " ", "")
	}
	return strings.ReplaceAll(fmt.Sprintf("%T", t), " ", "")
}

// intKind is an integer wire kind: its sign and width. int and uint count
// as 64 bits.
type intKind struct {
	signed bool
	bits   int
}

var intKinds = map[string]intKind{
	"int8": {true, 8}, "int16": {true, 16}, "int32": {true, 32}, "int64": {true, 64}, "int": {true, 64},
	"uint8": {false, 8}, "uint16": {false, 16}, "uint32": {false, 32}, "uint64": {false, 64}, "uint": {false, 64},
}

// holds reports whether every value of o fits in k.
func (k intKind) holds(o intKind) bool {
	switch {
	case k.signed == o.signed:
		return k.bits >= o.bits
	case k.signed:
		return k.bits > o.bits
	}
	return false // unsigned cannot hold negative values
}

// kindCompatible reports whether a field of wire kind new decodes every
// value stored under wire kind old to the same value. It is the lattice in
// docs/schema.md: integers widen (an unsigned one into a wider signed
// one), integers of up to 16 bits become float32 and of up to 32 bits
// float64, float32 becomes float64, [N]T becomes []T, T becomes *T, and
// containers are compatible when their elements are.
func kindCompatible(old, new string) bool {
	if old == new {
		return true
	}
	if rest, ok := strings.CutPrefix(new, "*"); ok {
		return kindCompatible(strings.TrimPrefix(old, "*"), rest)
	}
	if strings.HasPrefix(old, "*") {
		return false // a null in stored data has nowhere to go
	}
	if o, ok := intKinds[old]; ok {
		if n, ok := intKinds[new]; ok {
			return n.holds(o)
		}
		switch new {
		case "float32":
			return o.bits <= 16 // exact within float32's 24-bit significand
		case "float64":
			return o.bits <= 32 // exact within float64's 53-bit significand
		}
		return false
	}
	if old == "float32" && new == "float64" {
		return true
	}
	if oe, on, ok := splitList(old); ok {
		ne, nn, ok := splitList(new)
		if !ok || (nn >= 0 && nn != on) {
			return false // a slice may have any length; an array only its own
		}
		if oe == "byte" || ne == "byte" {
			return oe == ne // a byte string is not an array of integers
		}
		return kindCompatible(oe, ne)
	}
	if ok, ov, isMap := splitMap(old); isMap {
		nk, nv, isMap := splitMap(new)
		return isMap && kindCompatible(ok, nk) && kindCompatible(ov, nv)
	}
	return false
}

// splitList splits "[]T" into T and -1, and "[N]T" into T and N.
func splitList(k string) (elem string, n int64, ok bool) {
	if rest, ok := strings.CutPrefix(k, "[]"); ok {
		return rest, -1, true
	}
	if !strings.HasPrefix(k, "[") {
		return "", 0, false
	}
	end := strings.IndexByte(k, ']')
	if end < 0 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(k[1:end], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return k[end+1:], n, true
}

// splitMap splits "map[K]V" into K and V.
func splitMap(k string) (key, elem string, ok bool) {
	rest, ok := strings.CutPrefix(k, "map[")
	if !ok {
		return "", "", false
	}
	depth := 1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return rest[:i], rest[i+1:], true
			}
		}
	}
	return "", "", false
}

// parseRecord reads a schema record. Errors name the line and column.
func parseRecord(path string, data []byte) (*record, error) {
	rec := &record{types: map[string]*typeRecord{}}
	var errs []error
	fail := func(line, col int, format string, args ...any) {
		errs = append(errs, &posError{
			pos: token.Position{Filename: path, Line: line, Column: col},
			msg: fmt.Sprintf(format, args...),
		})
	}
	sawVersion := false
	for i, text := range strings.Split(string(data), "\n") {
		line := i + 1
		text = strings.TrimRight(text, " \t\r")
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if !sawVersion {
			if text != schemaVersion {
				fail(line, 1, "not a cbor-gen schema record: want %q first, found %q", schemaVersion, text)
				break
			}
			sawVersion = true
			continue
		}
		toks, cols, err := tokenize(text)
		if err != nil {
			fail(line, cols[len(cols)-1], "%v", err)
			continue
		}
		if toks[0] == "type" {
			if len(toks) < 3 || len(toks) > 4 || !strings.HasPrefix(toks[2], "required=") ||
				(len(toks) == 4 && !strings.HasPrefix(toks[3], "tag=")) {
				fail(line, 1, "want \"type NAME required=N\" or \"type NAME required=N tag=T\"")
				continue
			}
			tag := ""
			if len(toks) == 4 {
				tag = strings.TrimPrefix(toks[3], "tag=")
				if _, err := strconv.ParseUint(strings.TrimSuffix(tag, "?"), 10, 64); err != nil {
					fail(line, cols[3], "bad tag %q", toks[3])
					continue
				}
			}
			n, err := strconv.Atoi(strings.TrimPrefix(toks[2], "required="))
			if err != nil || n < 0 {
				fail(line, cols[2], "bad required count %q", toks[2])
				continue
			}
			if rec.types[toks[1]] != nil {
				fail(line, cols[1], "type %s is recorded twice", toks[1])
				continue
			}
			rec.types[toks[1]] = &typeRecord{name: toks[1], required: n, tag: tag, line: line}
			continue
		}
		tr := rec.types[toks[0]]
		if tr == nil {
			fail(line, 1, "slot of %s before its type line", toks[0])
			continue
		}
		if len(toks) < 3 {
			fail(line, 1, "want \"TYPE SLOT FIELD KEY KIND\" or \"TYPE SLOT reserved\"")
			continue
		}
		slot, err := strconv.Atoi(toks[1])
		if err != nil || slot != len(tr.slots) {
			fail(line, cols[1], "slot %s of %s out of order: want %d", toks[1], tr.name, len(tr.slots))
			continue
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
			fail(line, 1, "want \"TYPE SLOT FIELD KEY KIND\" or \"TYPE SLOT reserved [was FIELD KEY KIND]\"")
			continue
		}
		if s.key != "" && !validKeyToken(s.key) {
			fail(line, 1, "bad legacy key %s: want a quoted string or an integer", s.key)
			continue
		}
		tr.slots = append(tr.slots, s)
	}
	if !sawVersion && len(errs) == 0 {
		fail(1, 1, "not a cbor-gen schema record: %q is missing", schemaVersion)
	}
	for _, tr := range rec.types {
		if tr.required > len(tr.slots) {
			fail(tr.line, 1, "type %s: required=%d but only %d slots", tr.name, tr.required, len(tr.slots))
		}
	}
	if len(errs) > 0 {
		return nil, joinPosErrors(errs)
	}
	return rec, nil
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
func formatRecord(rec *record, goFile string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The schema record of %s: the array slot of every field of every\n", goFile)
	b.WriteString("# generated type. cbor-gen compares the types with it on every run and\n")
	b.WriteString("# refuses changes that would make stored data decode wrongly; run it once\n")
	b.WriteString("# with -accept-break to rewrite it on purpose. Commit this file and review\n")
	b.WriteString("# changes to it like API changes. Format and rules:\n")
	b.WriteString("# " + schemaDoc + "\n\n")
	b.WriteString(schemaVersion + "\n")
	names := make([]string, 0, len(rec.types))
	for name := range rec.types {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		tr := rec.types[name]
		if tr.tag != "" {
			fmt.Fprintf(&b, "\ntype %s required=%d tag=%s\n", tr.name, tr.required, tr.tag)
		} else {
			fmt.Fprintf(&b, "\ntype %s required=%d\n", tr.name, tr.required)
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
	return b.Bytes()
}

// schemaCheck is the comparison of one run's types with their record.
type schemaCheck struct {
	l        *loaded
	lockPath string
	problems []error // changes that would make stored data decode wrongly
	errs     []error // mistakes in the source (unknown directives)
}

// applySchema compares the model with the schema record beside the
// output, completes the model with what the record says (Struct.Optional)
// and what the types' directives say (Struct.Extensible), and returns the
// record as it must be on disk after this run. A change that would make
// stored data decode wrongly is an error, unless cfg.AcceptBreak is set:
// then it is written to cfg.Log and the record follows the types.
func applySchema(l *loaded, f *File, cfg Config) ([]byte, error) {
	c := &schemaCheck{l: l, lockPath: LockPath(l.outPath)}
	for _, s := range f.Structs {
		c.directives(s)
	}
	if len(c.errs) > 0 {
		return nil, joinPosErrors(c.errs)
	}

	old := &record{types: map[string]*typeRecord{}}
	data, err := os.ReadFile(c.lockPath)
	switch {
	case os.IsNotExist(err):
		// The first run: the record starts here.
	case err != nil:
		return nil, err
	default:
		if old, err = parseRecord(c.lockPath, data); err != nil {
			if !cfg.AcceptBreak {
				return nil, fmt.Errorf("%v\n(fix the schema record, or write it anew once with\n\t%s\n)", err, acceptBreakCommand(cfg, f))
			}
			logf(cfg.Log, "-accept-break: the schema record does not parse and is written anew:\n%v\n", err)
			old = &record{types: map[string]*typeRecord{}}
		}
	}

	rec := &record{types: map[string]*typeRecord{}}
	for _, s := range f.Structs {
		rec.types[s.Name] = c.compare(s, old.types[s.Name])
	}
	var gone []string
	for name := range old.types {
		if rec.types[name] == nil {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		c.problems = append(c.problems, &posError{
			pos: token.Position{Filename: c.lockPath, Line: old.types[name].line, Column: 1},
			msg: fmt.Sprintf("type %s is in the schema record but no longer generated: a type of that name generated again later would read its stored data by the old slots. Generate it (add it to -type), or drop it from the record once with -accept-break (the command is below)", name),
		})
	}

	if len(c.problems) > 0 {
		err := joinPosErrors(c.problems)
		if !cfg.AcceptBreak {
			return nil, fmt.Errorf("%v\ncbor-gen: these changes would make existing data decode wrongly (see %s and %s); undo them, or if no stored data must survive them, rewrite the record once with\n\t%s", err, relPath(c.lockPath), schemaDoc, acceptBreakCommand(cfg, f))
		}
		logf(cfg.Log, "-accept-break: accepting changes that make existing data decode wrongly; %s is rewritten:\n%v\n", relPath(c.lockPath), err)
	}
	for _, s := range f.Structs {
		s.Optional = len(s.Fields) - rec.types[s.Name].required
	}
	return formatRecord(rec, filepath.Base(l.outPath)), nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// compare checks the fields of s against their record tr (nil for a type
// new to the record) and returns the record after this run.
func (c *schemaCheck) compare(s *Struct, tr *typeRecord) *typeRecord {
	pkg := c.l.pkg.Types
	next := &typeRecord{name: s.Name, required: len(s.Fields), tag: tagToken(s)}
	for _, fd := range s.Fields {
		next.slots = append(next.slots, slotOf(fd, pkg))
	}
	if tr == nil {
		return next
	}
	c.compareTag(s, tr.tag, next.tag)
	next.required = min(tr.required, len(s.Fields))

	recorded := map[string]int{} // field name -> slot, for fields that hold a slot
	for i, r := range tr.slots {
		if !r.reserved {
			recorded[r.name] = i
		}
	}
	current := map[string]int{}
	for i, fd := range s.Fields {
		if !fd.isReserved() {
			current[fieldID(fd)] = i
		}
	}
	// renamed reports whether slot i holds a field renamed in Go: neither
	// the old name nor the new one is anywhere else.
	renamed := func(i int) bool {
		if i >= len(s.Fields) || i >= len(tr.slots) || s.Fields[i].isReserved() || tr.slots[i].reserved {
			return false
		}
		_, newRecorded := recorded[fieldID(s.Fields[i])]
		_, oldCurrent := current[tr.slots[i].name]
		return !newRecorded && !oldCurrent
	}
	retiredKeys := map[string]string{} // legacy key of a retired field -> its name
	for i, r := range tr.slots {
		retiring := i < len(s.Fields) && s.Fields[i].isReserved()
		if (r.reserved || retiring) && r.name != "" {
			retiredKeys[r.key] = r.name
		}
	}

	for i, fd := range s.Fields {
		if fd.isReserved() {
			if i < len(tr.slots) {
				// Retiring a field, or keeping a reservation: remember
				// what the slot held.
				was := tr.slots[i]
				was.reserved = true
				next.slots[i] = was
			}
			continue
		}
		at := c.fieldPos(s, fd)
		name := fieldID(fd)
		if j, ok := recorded[name]; ok && j != i {
			holds := "no field: it was appended after the record"
			if i < len(tr.slots) {
				holds = tr.slots[i].describe()
			}
			if i < len(tr.slots) && !tr.slots[i].reserved {
				c.problem(at, "field %[1]s.%[2]s moved from slot %[3]d to slot %[4]d, where stored data holds %[1]s.%[5]s: existing data would decode the values of %[5]s into %[2]s. Keep the recorded order (%[6]s) and add new fields at the end",
					s.Name, name, j, i, tr.slots[i].name, relPath(c.lockPath))
			} else {
				c.problem(at, "field %s.%s moved from slot %d to slot %d, which holds %s: existing data would decode other values into %s. Keep the recorded order (%s)",
					s.Name, name, j, i, holds, name, relPath(c.lockPath))
			}
			continue
		}
		if i >= len(tr.slots) {
			// Appended: older data lacks it and it decodes as zero.
			if old, ok := retiredKeys[keyToken(fd)]; ok {
				c.problem(at, "field %s.%s uses the legacy key %s of the retired field %s: legacy maps hold the values of %s under that key and would decode them into %s. Give it another key",
					s.Name, name, keyToken(fd), old, old, name)
			}
			continue
		}
		r := tr.slots[i]
		switch {
		case r.reserved:
			c.problem(at, "field %s.%s takes slot %d, which is reserved%s: stored data may still hold the retired values there. Keep the runtime.Reserved field and add new fields at the end",
				s.Name, name, i, wasText(r))
			continue
		case r.name != name && !renamed(i):
			c.problem(at, "field %s.%s is new at slot %d, where stored data holds %s.%s: existing data would decode the values of %s into %s. Add new fields at the end",
				s.Name, name, i, s.Name, r.name, r.name, name)
			continue
		}
		// The same field (or the same slot under a new Go name): the
		// kind must still read what is stored, and legacy maps must
		// still find it.
		if kind := next.slots[i].kind; !kindCompatible(r.kind, kind) {
			c.problem(at, "field %s.%s changed from %s to %s: stored data holds %s values in slot %d, which a %s field cannot decode to the same value. Keep a compatible type ("+schemaDoc+" lists them) or add a new field at the end",
				s.Name, name, r.kind, kind, r.kind, i, kind)
		}
		if key := keyToken(fd); key != r.key {
			c.problem(at, "field %s.%s: legacy map key changed from %s to %s: maps written before the array format hold %s under %s and would decode with %s left zero. Keep the key with the tag %s",
				s.Name, name, r.key, key, name, r.key, name, tagFor(r.key))
		}
	}

	for j, r := range tr.slots {
		if r.reserved {
			if j >= len(s.Fields) {
				c.problem(c.typePos(s.Name), "type %s lost slot %d, which is reserved%s: stored data holds values there, and a field added later would decode them. Keep the runtime.Reserved field",
					s.Name, j, wasText(r))
			}
			continue
		}
		if _, ok := current[r.name]; ok || renamed(j) || (j < len(s.Fields) && s.Fields[j].isReserved()) {
			continue
		}
		at := c.typePos(s.Name)
		if j < len(s.Fields) {
			at = c.fieldPos(s, s.Fields[j])
		}
		later := "and the fields after it would each decode their neighbour's values"
		if j == len(tr.slots)-1 {
			later = "and a field added later would decode its values"
		}
		c.problem(at, "field %s.%s (slot %d) was removed: stored data still holds its values in slot %d, %s. Keep the slot: put a field \"_ runtime.Reserved\" where %s was",
			s.Name, r.name, j, j, later, r.name)
	}
	return next
}

func wasText(r slotRecord) string {
	if r.name == "" {
		return ""
	}
	return " (it held " + r.name + ")"
}

// tagFor is the struct tag that gives a field the legacy key token k.
func tagFor(k string) string {
	if s, err := strconv.Unquote(k); err == nil {
		return "`cbor:\"" + s + "\"`"
	}
	return "`cbor:\"" + k + ",keyasint\"`"
}

func (c *schemaCheck) problem(pos token.Position, format string, args ...any) {
	c.problems = append(c.problems, &posError{pos: pos, msg: fmt.Sprintf(format, args...)})
}

// typeName finds the type object of a generated struct.
func (c *schemaCheck) typeName(name string) *types.TypeName {
	tn, _ := c.l.pkg.Types.Scope().Lookup(name).(*types.TypeName)
	return tn
}

func (c *schemaCheck) typePos(name string) token.Position {
	if tn := c.typeName(name); tn != nil {
		return c.l.pkg.Fset.Position(tn.Pos())
	}
	return token.Position{Filename: c.lockPath}
}

// fieldPos is the position of field f of s, following the embedded
// structs it is promoted through, or of s when it cannot be found.
func (c *schemaCheck) fieldPos(s *Struct, f *Field) token.Position {
	tn := c.typeName(s.Name)
	if tn == nil || f.isReserved() {
		return c.typePos(s.Name)
	}
	t := tn.Type()
	path := append(append([]string{}, embedNames(f)...), f.Name)
	for k, name := range path {
		st, ok := t.Underlying().(*types.Struct)
		if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
			st, ok = p.Elem().Underlying().(*types.Struct)
		}
		if !ok {
			break
		}
		found := false
		for i := 0; i < st.NumFields(); i++ {
			if fv := st.Field(i); fv.Name() == name {
				if k == len(path)-1 && fv.Pos().IsValid() {
					return c.l.pkg.Fset.Position(fv.Pos())
				}
				t, found = fv.Type(), true
				break
			}
		}
		if !found {
			break
		}
	}
	return c.typePos(s.Name)
}

func embedNames(f *Field) []string {
	names := make([]string, len(f.Via))
	for i, e := range f.Via {
		names[i] = e.Name
	}
	return names
}

// tagToken is the tag of s as the record writes it: the number, with ? when
// decoding accepts the untagged item too.
func tagToken(s *Struct) string {
	if !s.HasTag {
		return ""
	}
	t := strconv.FormatUint(s.Tag, 10)
	if s.TagOptional {
		t += "?"
	}
	return t
}

// compareTag refuses a change of the tag a type is written under that
// stored data would not survive: stored values carry the recorded tag (or
// none), so the tag may not change number, disappear, or appear as
// required. Adding an optional tag, or making a required one optional,
// reads the stored values still.
func (c *schemaCheck) compareTag(s *Struct, old, cur string) {
	oldN, curN := strings.TrimSuffix(old, "?"), strings.TrimSuffix(cur, "?")
	pos := c.typePos(s.Name)
	switch {
	case old == cur || (oldN == curN && strings.HasSuffix(cur, "?")):
	case old == "" && strings.HasSuffix(cur, "?"):
	case old == "":
		c.problem(pos, "type %s now requires tag %s, but stored values have no tag: they would no longer decode. Write //cborgen:tag %s optional", s.Name, curN, curN)
	case cur == "":
		c.problem(pos, "type %s lost its tag %s: stored values carry it, and fxamacker/cbor writers still write it. Keep //cborgen:tag %s", s.Name, oldN, oldN)
	case oldN != curN:
		c.problem(pos, "type %s changed its tag from %s to %s: stored values carry tag %s and would no longer decode. Keep //cborgen:tag %s", s.Name, oldN, curN, oldN, oldN)
	default: // the same number, optional before and required now
		c.problem(pos, "type %s now requires tag %s, but it was optional: stored values without it would no longer decode. Keep //cborgen:tag %s optional", s.Name, curN, curN)
	}
}
