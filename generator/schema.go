package generator

import (
	"fmt"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

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

	old := newRecord()
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
			old = newRecord()
		}
	}

	rec := newRecord()
	for _, s := range f.Structs {
		rec.types[s.Name] = c.compare(s, old.types[s.Name])
	}
	for _, u := range f.Unions {
		ur := &unionRecord{name: u.Name}
		for _, v := range u.Variants {
			ur.variants = append(ur.variants, v.Struct.Name)
		}
		sort.Strings(ur.variants)
		rec.unions[u.Name] = ur
	}
	c.compareUnions(old, rec)
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

// compareUnions refuses a union that lost a variant, or that is no longer
// generated: stored data holds values of every variant the record names,
// and they would no longer decode. Adding a variant is fine.
func (c *schemaCheck) compareUnions(old, cur *record) {
	for _, name := range slices.Sorted(maps.Keys(old.unions)) {
		ou := old.unions[name]
		pos := token.Position{Filename: c.lockPath, Line: ou.line, Column: 1}
		nu := cur.unions[name]
		if nu == nil {
			c.problem(pos, "union %s is in the schema record but no longer generated: stored data holds its values. Keep its //cborgen:union directive", name)
			continue
		}
		for _, v := range ou.variants {
			if !slices.Contains(nu.variants, v) {
				c.problem(pos, "union %s lost its variant %s: stored values of %s would no longer decode. Keep %s generated and implementing %s", name, v, v, v, name)
			}
		}
	}
}
