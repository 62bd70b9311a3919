package schema

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The schema check compares the model with the schema record of the
// previous run (record.go) and refuses what would make stored data decode
// wrongly; docs/schema.md has the rules. It is pure: the record comes in
// as bytes and goes out as bytes, and the pipeline reads and writes the
// file, and decides whether a break is accepted (-accept-break).
//
// Each rule is a function of its own. A type's contract depends on its
// format: the tag is the contract of every format (compareTag); in the
// array format a field is known by its slot (compareSlots, and the slot
// rules in schema_array.go). A format whose contract is the key gets a
// compare function of its own beside compareSlots, picked by the type's
// format in compareStruct.

// Result is the outcome of the schema check.
type Result struct {
	Record []byte // the record as it must be on disk after this run
	// Required is, for each generated struct, how many leading fields
	// every stored array holds: the fields after them were appended
	// later (Struct.Optional).
	Required map[string]int
	// Unreadable is why the old record does not parse; the new record
	// is then written from the types alone.
	Unreadable error
	// Breaks are the changes that would make stored data decode
	// wrongly, each at its position; nil when there are none. Accepted
	// are the same without their advice, for a run that accepts them.
	Breaks, Accepted error
	// Notes are what the run says beside the output: the types it
	// records that an older record did not hold.
	Notes []string
}

// Check compares the model f with old, the record of the previous run
// (nil when there is none), for the output file out, and completes the
// model with what the record decides: the fields every stored array
// holds (Struct.Optional counts those after them).
func Check(f *model.File, out string, old []byte) *Result {
	c := &schemaCheck{lockPath: LockPath(out), qual: qualifier(f.Path)}
	res := &Result{Required: map[string]int{}}
	prev := newRecord()
	if old != nil {
		var err error
		if prev, err = ParseRecord(c.lockPath, old); err != nil {
			res.Unreadable = err
			prev = newRecord()
		}
	}

	rec := newRecord()
	for _, s := range f.Structs {
		rec.types[s.Name] = c.compareStruct(s, prev.types[s.Name])
	}
	for _, u := range f.Unions {
		rec.unions[u.Name] = unionRecordOf(u)
	}
	c.compareUnions(prev, rec)
	c.compareGone(prev, rec)
	c.compareForeign(f, prev, rec) // schema_foreign.go
	if old != nil && prev.version != valueVersion {
		if name := unrecordedValue(prev, rec); name != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: note: recording the kinds of named types of other kinds than struct (such as %s: its underlying type's); the record, written by an older cbor-gen, did not hold them, so this run could not check them. Review them in the record's diff (%s)",
				model.RelPath(c.lockPath), name, SchemaDoc))
		}
	}
	if prev.version == schemaVersion {
		if name := prev.usedForeign(rec); name != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: note: recording the shapes of the types of other packages that the generated code hands to fxamacker/cbor, such as %s; the record, written by an older cbor-gen, did not hold them, so this run could not check them. Review them in the record's diff (%s)",
				model.RelPath(c.lockPath), name, SchemaDoc))
		}
	}

	if len(c.problems) > 0 {
		res.Breaks = model.JoinPosErrors(c.problems)
		res.Accepted = model.JoinPosErrors(withoutAdvice(c.problems))
	}
	for name, tr := range rec.types {
		res.Required[name] = tr.required
	}
	for _, s := range f.Structs {
		s.Optional = len(s.Fields) - res.Required[s.Name]
	}
	res.Record = formatRecord(rec, filepath.Base(out))
	return res
}

// unrecordedValue returns the first value type (by name) that cur
// records with its kind and prev, a record of an older version, holds
// without it; "" if none.
func unrecordedValue(prev, cur *Record) string {
	for _, name := range cur.TypeNames() {
		if tr := prev.types[name]; tr != nil && tr.value == "" && cur.types[name].value != "" {
			return name
		}
	}
	return ""
}

// schemaCheck collects the problems of one run's types against their
// record.
type schemaCheck struct {
	lockPath string
	qual     types.Qualifier // writes the package of a named type in a wire kind
	problems []error         // changes that would make stored data decode wrongly
	// anon names the anonymous structs within foreign types, whose
	// names are their kinds (model.Foreign.Name).
	anon map[*types.Struct]string
}

func (c *schemaCheck) problem(pos token.Position, format string, args ...any) {
	c.problems = append(c.problems, &model.PosError{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// recordPos is a position in the record.
func (c *schemaCheck) recordPos(line int) token.Position {
	return token.Position{Filename: c.lockPath, Line: line, Column: 1}
}

// qualifier writes the package of a named type as types.RelativeTo the
// package of path does: nothing for that package, else its path.
func qualifier(path string) types.Qualifier {
	return func(p *types.Package) string {
		if p.Path() == path {
			return ""
		}
		return p.Path()
	}
}

// compareStruct checks s against its record tr (nil for a type new to the
// record) and returns the record after this run.
func (c *schemaCheck) compareStruct(s *model.Struct, tr *typeRecord) *typeRecord {
	next := &typeRecord{name: s.Name, mapFormat: s.MapFormat, required: len(s.Fields), tag: TagToken(s), noLegacy: s.NoLegacy && s.Value == nil, body: s.Body, unknown: s.Unknown}
	if s.Case != nil {
		next.caseTok = s.Case.Token()
	}
	if s.HasRequired {
		next.required = s.Required // //cborgen:required: the trailing fields are optional from the start
	}
	next.optional = -1
	if s.HasOptionalFrom {
		next.optional = s.OptionalFrom // //cborgen:optional: writers leave zero fields out from there on
	}
	kinds := make([]*kind, len(s.Fields))
	for i, fd := range s.Fields {
		kinds[i] = KindOf(fd.Type, c.qual)
		next.slots = append(next.slots, slotOf(fd, kinds[i]))
	}
	var value *kind
	if s.Value != nil {
		value = KindOf(s.Value, c.qual)
		next.value = value.Text
	}
	if tr == nil {
		return next
	}
	if !c.compareValue(s, tr, value) {
		return next
	}
	c.compareTag(s, tr.tag, next.tag)
	c.compareCase(s, tr.caseTok, next.caseTok)
	switch {
	case tr.mapFormat != s.MapFormat:
		c.formatChanged(s, tr)
	case s.MapFormat:
		c.problems = append(c.problems, compareKeys(s, tr, next, kinds)...) // schema_map.go
	default:
		next.required = min(tr.required, next.required)
		c.compareOptional(s, tr, next)
		c.problems = append(c.problems, compareSlots(c.lockPath, s, tr, next, kinds)...) // schema_array.go
	}
	return next
}

// compareValue refuses a value type (s.Value) whose underlying type's
// wire kind cannot read every value stored under the recorded one, and a
// change between a value type and a struct: stored data holds the one
// form, which the other does not decode. cur is the kind of s.Value (nil
// for a struct). A record written before value lines were kept has
// none: the kind is recorded from this run on. It reports whether the
// rest of the comparison applies (false after a change of form).
func (c *schemaCheck) compareValue(s *model.Struct, tr *typeRecord, cur *kind) bool {
	switch {
	case tr.value != "" && cur == nil:
		c.problem(s.Pos, "type %s was a named %s (stored values are %s items) and is now a struct, whose decoder reads an array of its fields: stored values would no longer decode. Keep the type's kind, or declare a new type", s.Name, tr.value, tr.value)
		return false
	case cur != nil && (len(tr.slots) > 0 || tr.mapFormat):
		c.problem(s.Pos, "type %s was a struct (stored values are its fields) and is now a named %s: stored values would no longer decode. Keep the struct, or declare a new type", s.Name, cur.Text)
		return false
	case tr.value != "" && !kindCompatible(parseKind(tr.value), cur):
		c.problem(s.Pos, "type %s changed from %s to %s: stored data holds %s values, which %s cannot decode to the same value. Keep a compatible type ("+SchemaDoc+" lists them) or declare a new type", s.Name, tr.value, cur.Text, tr.value, withArticle(cur.Text))
	}
	return true
}

// compareOptional refuses a //cborgen:optional count that went up, or
// went away: values written under the recorded count may end after it,
// and the count is the format's promise to its readers (other programs,
// -decode, -cddl) that the slots before it are always there. Lowering it
// (or adding the directive) is compatible: readers of the old count read
// what they read before, and the required count follows it down.
func (c *schemaCheck) compareOptional(s *model.Struct, tr, next *typeRecord) {
	switch {
	case tr.optional < 0 || next.optional >= 0 && next.optional <= tr.optional:
	case next.optional < 0:
		c.problem(s.Pos, "type %s lost //cborgen:optional %d: values stored since then may end after slot %d, and readers of the format rely on that count. Keep //cborgen:optional %d (or a lower count)", s.Name, tr.optional, tr.optional, tr.optional)
	default:
		c.problem(s.Pos, "type %s raised //cborgen:optional from %d to %d: values stored under %d may end after slot %d, which the new count says always holds a field, and readers of the format rely on that count. Keep //cborgen:optional %d (or a lower count)", s.Name, tr.optional, next.optional, tr.optional, tr.optional, tr.optional)
	}
}

// formatChanged refuses a type that changed between the array format and
// the map format (//cborgen:map): stored values of the old format would
// no longer decode.
func (c *schemaCheck) formatChanged(s *model.Struct, tr *typeRecord) {
	if tr.mapFormat {
		c.problem(s.Pos, "type %s is no longer //cborgen:map: stored values are maps, and an array type reads its legacy map form by Go field name, not by the recorded keys and kinds. Keep //cborgen:map", s.Name)
		return
	}
	c.problem(s.Pos, "type %s is now //cborgen:map: stored values are arrays, which a map type does not decode. Keep the array format, or declare a new type for the map format", s.Name)
}

// compareCase refuses a change of the //cborgen:case of a variant of a
// union chosen by content: stored values carry the recorded case, and
// would decode as another variant, or not at all. Adding a case (a type
// that becomes a variant) is fine.
func (c *schemaCheck) compareCase(s *model.Struct, old, cur string) {
	switch {
	case old == cur || old == "":
	case cur == "":
		c.problem(s.Pos, "type %s lost its //cborgen:case %s: stored values carry it and would no longer decode as %s. Keep //cborgen:case %s", s.Name, old, s.Name, old)
	default:
		c.problem(s.Pos, "type %s changed its //cborgen:case from %s to %s: stored values carry %s and would decode as another variant, or not at all. Keep //cborgen:case %s", s.Name, old, cur, old, old)
	}
}

// compareTag refuses a change of the tag a type is written under that
// stored data would not survive: stored values carry the recorded tag (or
// none), so the tag may not change number, disappear, or appear as
// required. Adding an optional tag, or making a required one optional,
// reads the stored values still.
func (c *schemaCheck) compareTag(s *model.Struct, old, cur string) {
	oldN, curN := strings.TrimSuffix(old, "?"), strings.TrimSuffix(cur, "?")
	pos := s.Pos
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

// compareUnions refuses a union that lost a variant, or that is no longer
// generated: stored data holds values of every variant the record names,
// and they would no longer decode. Adding a variant is fine.
func (c *schemaCheck) compareUnions(old, cur *Record) {
	for _, name := range slices.Sorted(maps.Keys(old.unions)) {
		ou := old.unions[name]
		pos := c.recordPos(ou.line)
		nu := cur.unions[name]
		if nu == nil {
			c.problem(pos, "union %s is in the schema record but no longer generated: stored data holds its values. Keep its //cborgen:union directive", name)
			continue
		}
		if ou.by != nu.by {
			c.problem(pos, "union %s changed what picks its variant from %s to %s: stored values would decode as other variants, or not at all. Keep its //cborgen:union directive", name, byText(ou.by), byText(nu.by))
		}
		for _, v := range ou.variants {
			if !slices.Contains(nu.variants, v) {
				c.problem(pos, "union %s lost its variant %s: stored values of %s would no longer decode. Keep %s generated and implementing %s", name, v, v, v, name)
			}
		}
	}
}

// unionBy is what picks a union's variant as the record writes it: "",
// "first" or "key K".
func unionBy(u *model.UnionType) string {
	switch u.By {
	case model.UnionByFirst:
		return "first"
	case model.UnionByKey:
		return "key " + u.Key.Token()
	}
	return ""
}

// compareGone refuses a type that is in the record but no longer
// generated.
func (c *schemaCheck) compareGone(old, cur *Record) {
	var gone []string
	for name := range old.types {
		if cur.types[name] == nil {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		c.problem(c.recordPos(old.types[name].line), "type %s is in the schema record but no longer generated: a type of that name generated again later would read its stored data by the old slots. Generate it (add it to -type), or drop it from the record once with the -accept-break command below", name)
	}
}

// byText names what picks a union's variant, for messages.
func byText(by string) string {
	if by == "" {
		return "the tag or the type of the item"
	}
	return "//cborgen:union " + by
}

// unionRecordOf is the record of the union u: its variants by name.
func unionRecordOf(u *model.UnionType) *unionRecord {
	ur := &unionRecord{name: u.Name, by: unionBy(u)}
	for _, v := range u.Variants {
		ur.variants = append(ur.variants, v.Struct.Name)
	}
	sort.Strings(ur.variants)
	return ur
}
