package schema

import (
	"fmt"
	"go/token"
	"strconv"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The rules of the array format, where a field is known by its slot: a
// field may not move (moved), take a slot that stored data fills with
// other values (slotTaken), change to a kind that cannot read the stored
// values (retyped), or change its legacy map key (rekeyed); a new field
// may not take a retired field's legacy key (retiredKey); a slot may not
// disappear (removed, lostReservation).

// slotView is a type's fields beside the slots of its record, as the
// slot rules see them, and the problems they find.
type slotView struct {
	lockPath string // the record's path, for messages
	problems []error
	s        *model.Struct
	tr       *typeRecord
	kinds    []*kind        // of each field of s
	recorded map[string]int // field name -> recorded slot, for fields that hold a slot
	current  map[string]int // field name -> slot now, for fields that are not reserved
	// retiredKeys maps the legacy key of a retired field (reserved in
	// the record, or being retired now) to its name.
	retiredKeys map[string]string
}

func newSlotView(lockPath string, s *model.Struct, tr *typeRecord, kinds []*kind) *slotView {
	v := &slotView{lockPath: lockPath, s: s, tr: tr, kinds: kinds,
		recorded: map[string]int{}, current: map[string]int{}, retiredKeys: map[string]string{}}
	for i, r := range tr.slots {
		if !r.reserved {
			v.recorded[r.name] = i
		}
	}
	for i, fd := range s.Fields {
		if !fd.IsReserved() {
			v.current[model.FieldID(fd)] = i
		}
	}
	for i, r := range tr.slots {
		retiring := i < len(s.Fields) && s.Fields[i].IsReserved()
		if (r.reserved || retiring) && r.name != "" {
			v.retiredKeys[r.key] = r.name
		}
	}
	return v
}

// renamed reports whether slot i holds a field renamed in Go: neither the
// old name nor the new one is anywhere else.
func (v *slotView) renamed(i int) bool {
	if i >= len(v.s.Fields) || i >= len(v.tr.slots) || v.s.Fields[i].IsReserved() || v.tr.slots[i].reserved {
		return false
	}
	_, newRecorded := v.recorded[model.FieldID(v.s.Fields[i])]
	_, oldCurrent := v.current[v.tr.slots[i].name]
	return !newRecorded && !oldCurrent
}

func (v *slotView) problem(pos token.Position, format string, args ...any) {
	v.problems = append(v.problems, &model.PosError{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// compareSlots checks the fields of s, of wire kinds kinds, against the
// slots of its record tr, and completes next, the record after this run.
// It returns the problems it finds, in the order of the fields and then
// of the recorded slots.
func compareSlots(lockPath string, s *model.Struct, tr, next *typeRecord, kinds []*kind) []error {
	keepReservations(s, tr, next)
	v := newSlotView(lockPath, s, tr, kinds)
	if v.embeddedGrew() {
		return v.problems
	}
	for i, fd := range s.Fields {
		if fd.IsReserved() {
			continue
		}
		if v.moved(i) || v.retiredKey(i) || v.slotTaken(i) {
			continue
		}
		// The same field (or the same slot under a new Go name): the
		// kind must still read what is stored, and legacy maps must
		// still find it.
		v.retyped(i)
		v.rekeyed(i)
	}
	for j := range tr.slots {
		if !v.lostReservation(j) {
			v.removed(j)
		}
	}
	return v.problems
}

// embeddedGrew refuses, with one error for the cause, a field that is new
// in an embedded struct and so takes a slot in the middle of s's array:
// every later field of s moves, and listing each would hide that the
// change was made in another type (an embedded struct's fields are s's
// slots too, which nothing in the source of s shows). It reports whether
// it found one.
func (v *slotView) embeddedGrew() bool {
	s, tr := v.s, v.tr
	for i, fd := range s.Fields {
		if i >= len(tr.slots) {
			return false
		}
		if len(fd.Via) == 0 || fd.IsReserved() {
			continue
		}
		name := model.FieldID(fd)
		if _, ok := v.recorded[name]; ok {
			continue
		}
		if _, ok := v.current[tr.slots[i].name]; !ok {
			continue // the slot's field is gone: a rename or a removal, checked field by field
		}
		embed := fd.Via[0].Name
		after := len(tr.slots) - i
		v.problem(fd.Pos, "field %[1]s.%[2]s, new in the embedded struct %[3]s, takes slot %[4]d in the middle of %[1]s's array, "+
			"where stored data holds %[1]s.%[5]s: an embedded struct's fields are slots of every struct that embeds it, "+
			"so the %[6]d fields of %[1]s from slot %[4]d on would move and stored data would decode into the wrong fields. "+
			"Add the field at the end of %[1]s instead; for a struct that will grow, embed it as a named field in new types "+
			"(%[3]s %[3]s: a nested array, which grows at its own end); or, when no data is stored yet, accept the break "+
			"(-accept-break, %[7]s)",
			s.Name, name, embed, i, tr.slots[i].name, after, SchemaDoc)
		return true
	}
	return false
}

// keepReservations makes a reserved field's slot remember what it held:
// a field retired now, or the field a reservation already remembers.
func keepReservations(s *model.Struct, tr, next *typeRecord) {
	for i, fd := range s.Fields {
		if fd.IsReserved() && i < len(tr.slots) {
			was := tr.slots[i]
			was.reserved = true
			next.slots[i] = was
		}
	}
}

// moved refuses field i when the record has it at another slot.
func (v *slotView) moved(i int) bool {
	s, tr, fd := v.s, v.tr, v.s.Fields[i]
	name := model.FieldID(fd)
	j, ok := v.recorded[name]
	if !ok || j == i {
		return false
	}
	if i < len(tr.slots) && !tr.slots[i].reserved {
		v.problem(fd.Pos, "field %[1]s.%[2]s moved from slot %[3]d to slot %[4]d, where stored data holds %[1]s.%[5]s: existing data would decode the values of %[5]s into %[2]s. Keep the recorded order (%[6]s) and add new fields at the end",
			s.Name, name, j, i, tr.slots[i].name, model.RelPath(v.lockPath))
		return true
	}
	holds := "no field: it was appended after the record"
	if i < len(tr.slots) {
		holds = tr.slots[i].describe()
	}
	v.problem(fd.Pos, "field %s.%s moved from slot %d to slot %d, which holds %s: existing data would decode other values into %s. Keep the recorded order (%s)",
		s.Name, name, j, i, holds, name, model.RelPath(v.lockPath))
	return true
}

// retiredKey checks field i when it was appended after the record (older
// data lacks it, and it decodes as zero): it may not take the legacy key
// of a retired field. It reports whether field i was appended.
func (v *slotView) retiredKey(i int) bool {
	if i < len(v.tr.slots) {
		return false
	}
	fd := v.s.Fields[i]
	if old, ok := v.retiredKeys[KeyToken(fd)]; ok {
		name := model.FieldID(fd)
		v.problem(fd.Pos, "field %s.%s uses the legacy key %s of the retired field %s: legacy maps hold the values of %s under that key and would decode them into %s. Give it another key",
			v.s.Name, name, KeyToken(fd), old, old, name)
	}
	return true
}

// slotTaken refuses field i when its slot holds other values in stored
// data: those of a retired field, or of another field.
func (v *slotView) slotTaken(i int) bool {
	s, fd, r := v.s, v.s.Fields[i], v.tr.slots[i]
	name := model.FieldID(fd)
	switch {
	case r.reserved:
		v.problem(fd.Pos, "field %s.%s takes slot %d, which is reserved%s: stored data may still hold the retired values there. Keep the runtime.Reserved field and add new fields at the end",
			s.Name, name, i, wasText(r))
		return true
	case r.name != name && !v.renamed(i):
		v.problem(fd.Pos, "field %s.%s is new at slot %d, where stored data holds %s.%s: existing data would decode the values of %s into %s. Add new fields at the end",
			s.Name, name, i, s.Name, r.name, r.name, name)
		return true
	}
	return false
}

// retyped refuses field i when its wire kind cannot read every value
// stored under the recorded one.
func (v *slotView) retyped(i int) {
	r, cur := v.tr.slots[i], v.kinds[i]
	if kindCompatible(parseKind(r.kind), cur) {
		return
	}
	fd := v.s.Fields[i]
	v.problem(fd.Pos, "field %s.%s changed from %s to %s: stored data holds %s values in slot %d, which %s field cannot decode to the same value. Keep a compatible type ("+SchemaDoc+" lists them) or add a new field at the end",
		v.s.Name, model.FieldID(fd), r.kind, cur.Text, r.kind, i, withArticle(cur.Text))
}

// rekeyed refuses field i when its legacy map key changed: maps written
// before the array format hold its values under the recorded key.
func (v *slotView) rekeyed(i int) {
	r, fd := v.tr.slots[i], v.s.Fields[i]
	if key := KeyToken(fd); key != r.key {
		name := model.FieldID(fd)
		v.problem(fd.Pos, "field %s.%s: legacy map key changed from %s to %s: maps written before the array format hold %s under %s and would decode with %s left zero. Keep the key with the tag %s",
			v.s.Name, name, r.key, key, name, r.key, name, tagFor(r.key, fd))
	}
}

// lostReservation refuses a reserved slot j past the last field: stored
// data holds values there. It reports whether slot j is reserved.
func (v *slotView) lostReservation(j int) bool {
	r := v.tr.slots[j]
	if !r.reserved {
		return false
	}
	if j >= len(v.s.Fields) {
		v.problem(v.s.Pos, "type %s lost slot %d, which is reserved%s: stored data holds values there, and a field added later would decode them. Keep the runtime.Reserved field",
			v.s.Name, j, wasText(r))
	}
	return true
}

// removed refuses the loss of the field recorded at slot j: no field
// holds it now, under its name or renamed, nor a reservation.
func (v *slotView) removed(j int) {
	s, r := v.s, v.tr.slots[j]
	if _, ok := v.current[r.name]; ok || v.renamed(j) || (j < len(s.Fields) && s.Fields[j].IsReserved()) {
		return
	}
	at := s.Pos
	if j < len(s.Fields) {
		at = s.Fields[j].Pos
	}
	later := "and the fields after it would each decode their neighbour's values"
	if j == len(v.tr.slots)-1 {
		later = "and a field added later would decode its values"
	}
	v.problem(at, "field %s.%s (slot %d) was removed: stored data still holds its values in slot %d, %s. Keep the slot: put a field \"_ runtime.Reserved\" where %s was",
		s.Name, r.name, j, j, later, r.name)
}

func wasText(r slotRecord) string {
	if r.name == "" {
		return ""
	}
	return " (it held " + r.name + ")"
}

// tagFor is the struct tag that gives field fd the legacy key token k and
// keeps the options of its tag now (omitempty, omitzero): a cbor tag
// replaces a json tag whole, so advice without them would drop them.
func tagFor(k string, fd *model.Field) string {
	name, opts := k, ""
	if s, err := strconv.Unquote(k); err == nil {
		name = s
	} else {
		opts += ",keyasint"
	}
	if fd.OmitEmpty {
		opts += ",omitempty"
	}
	if fd.OmitZero {
		opts += ",omitzero"
	}
	return "`cbor:\"" + name + opts + "\"`"
}
