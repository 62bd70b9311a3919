package schema

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The rules of the types that the generated code hands to fxamacker/cbor
// (model.Foreign: a struct of another package that cbor-gen does not
// generate, and the types within it). Such a type changes when the
// module that declares it is updated, and stored data holds it as
// fxamacker wrote it, so its record is a contract like the program's own
// types' (docs/schema.md, "Types of other packages"):
//
//   - its form may not change (a map, an array with toarray, a type with
//     its own MarshalCBOR or MarshalBinary);
//   - a map's field may not change its key, a key of the record may not
//     go, and a key may only go to a field that reads what is stored
//     under it; a new key is fine (stored maps lack it, and fxamacker
//     leaves the field zero);
//   - an array's fields may not move, and their number may not change
//     (fxamacker decodes a toarray struct only from an array of exactly
//     its fields); each must read what is stored at its position.
//
// A type that the record does not hold yet (new, or the record was
// written before foreign types were recorded) is recorded as it is.

// foreignUse is where the generated code meets a foreign type: the path
// from a generated type's field (Outer.O.X) and that field's position.
type foreignUse struct {
	path string
	pos  token.Position
}

// foreignRecords is the record of the foreign types of f.
func (c *schemaCheck) foreignRecords(f *model.File) map[string]*foreignRecord {
	out := map[string]*foreignRecord{}
	for _, fo := range f.Foreign {
		fr := &foreignRecord{name: fo.Name, form: fo.Form.String()}
		for _, fd := range fo.Fields {
			s := slotRecord{name: model.FieldID(fd), key: KeyToken(fd), kind: c.kind(fd.Type).Text}
			switch {
			case fd.OmitEmpty && fd.OmitZero:
				s.opts = "omitempty omitzero"
			case fd.OmitEmpty:
				s.opts = "omitempty"
			case fd.OmitZero:
				s.opts = "omitzero"
			}
			fr.fields = append(fr.fields, s)
		}
		out[fo.Name] = fr
	}
	return out
}

// kind is the wire kind of t, with the names of anonymous structs within
// foreign types.
func (c *schemaCheck) kind(t model.Type) *kind {
	return kindOf(t, c.qual, c.anon)
}

// foreignUses finds, for each foreign type of f, the first field of a
// generated type that reaches it (in the order of the types and their
// fields, then through the foreign types' fields), for messages.
func (c *schemaCheck) foreignUses(f *model.File, foreign map[string]*foreignRecord) map[string]foreignUse {
	uses := map[string]foreignUse{}
	byName := map[string]*model.Foreign{}
	for _, fo := range f.Foreign {
		byName[fo.Name] = fo
	}
	var queue []string
	var reach func(t model.Type, u foreignUse)
	reach = func(t model.Type, u foreignUse) {
		switch t := t.(type) {
		case model.Array:
			reach(t.Elem, foreignUse{u.path + "[]", u.pos})
		case model.Slice:
			reach(t.Elem, foreignUse{u.path + "[]", u.pos})
		case model.Map:
			reach(t.Key, foreignUse{u.path + "[key]", u.pos})
			reach(t.Elem, foreignUse{u.path + "[]", u.pos})
		case model.Pointer:
			reach(t.Elem, u)
		case model.Split:
			reach(t.Kind, u)
		case model.Dynamic:
			name := c.kind(t).Text
			if _, seen := uses[name]; !seen && foreign[name] != nil {
				uses[name] = u
				queue = append(queue, name)
			}
		}
	}
	for _, s := range f.Structs {
		if s.Value != nil {
			reach(s.Value, foreignUse{s.Name, s.Pos})
		}
		for _, fd := range s.Fields {
			reach(fd.Type, foreignUse{s.Name + "." + model.FieldID(fd), fd.Pos})
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if fo := byName[name]; fo != nil {
			for _, fd := range fo.Fields {
				reach(fd.Type, foreignUse{uses[name].path + "." + model.FieldID(fd), uses[name].pos})
			}
		}
	}
	return uses
}

// compareForeign checks the foreign types of f against their records in
// old, and puts them in cur, the record after this run.
func (c *schemaCheck) compareForeign(f *model.File, old, cur *Record) {
	c.anon = map[*types.Struct]string{}
	for _, fo := range f.Foreign {
		if st, ok := fo.Go.(*types.Struct); ok {
			c.anon[st] = fo.Name
		}
	}
	cur.foreign = c.foreignRecords(f)
	uses := c.foreignUses(f, cur.foreign)
	for _, name := range slices.Sorted(maps.Keys(cur.foreign)) {
		was, now := old.foreign[name], cur.foreign[name]
		if was == nil {
			continue
		}
		u := uses[name]
		if u.path == "" {
			u.path = name
		}
		ck := foreignCheck{c: c, name: name, use: u}
		switch {
		case was.form != now.form:
			ck.problem("", "%s is now %s, and was %s: stored data holds %s, which it would not decode to the same value",
				ck.what(), formText(now.form), formText(was.form), storedText(was.form))
		case now.form == "map":
			ck.keys(was, now)
		case now.form == "array":
			ck.slots(was, now)
		}
	}
}

// foreignCheck is the check of one foreign type.
type foreignCheck struct {
	c    *schemaCheck
	name string
	use  foreignUse
}

// what names the type at its use: "Outer.O (example.com/geo.Point)".
func (k foreignCheck) what() string {
	return fmt.Sprintf("%s (%s)", k.use.path, k.name)
}

// problem reports a break at the use of the type, with the advice.
func (k foreignCheck) problem(field, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = "field " + k.use.path + "." + field + " " + msg
	}
	k.c.problem(k.use.pos, "%s. Keep a version of %s that reads the stored data (pin the version of its module in go.mod; %s has the rules for types of other packages)",
		msg, k.name, SchemaDoc)
}

// keys checks a map-encoded struct: its fields are known by their keys.
func (k foreignCheck) keys(was, now *foreignRecord) {
	byKey, byName := map[string]slotRecord{}, map[string]slotRecord{}
	for _, r := range was.fields {
		byKey[r.key] = r
		byName[r.name] = r
	}
	keys, names := map[string]bool{}, map[string]bool{}
	for _, fd := range now.fields {
		keys[fd.key], names[fd.name] = true, true
		if r, ok := byName[fd.name]; ok && r.key != fd.key {
			k.problem(fd.name, "(in %s) changed its key from %s to %s: stored maps hold %s under %s, and fxamacker/cbor would decode them with %s left zero",
				k.name, r.key, fd.key, fd.name, r.key, fd.name)
			continue
		}
		r, ok := byKey[fd.key]
		if !ok || kindCompatible(parseKind(r.kind), parseKind(fd.kind)) {
			continue
		}
		held := "values"
		if r.name != fd.name {
			held = "the values of " + r.name
		}
		k.problem(fd.name, "(key %s of %s) changed from %s to %s: stored maps hold %s %s under %s, which %s field cannot decode to the same value",
			fd.key, k.name, r.kind, fd.kind, r.kind, held, fd.key, withArticle(fd.kind))
	}
	for _, r := range was.fields {
		if !keys[r.key] && !names[r.name] {
			k.problem(r.name, "(key %s) was removed from %s: stored maps hold its values under %s, which fxamacker/cbor would skip, losing them",
				r.key, k.name, r.key)
		}
	}
}

// slots checks a toarray struct: its fields are known by their positions.
func (k foreignCheck) slots(was, now *foreignRecord) {
	at := map[string]int{}
	for i, fd := range now.fields {
		at[fd.name] = i
	}
	for i, r := range was.fields {
		if j, ok := at[r.name]; ok && j != i {
			k.problem(r.name, "moved from position %d to %d in %s, which fxamacker/cbor encodes as an array (toarray): stored arrays hold %s at position %d, and would decode into %s",
				i, j, k.name, r.name, i, otherField(now, i))
			continue
		}
		if i >= len(now.fields) {
			continue
		}
		if !kindCompatible(parseKind(r.kind), parseKind(now.fields[i].kind)) {
			k.problem(now.fields[i].name, "(position %d of %s, an array) changed from %s to %s: stored arrays hold %s values there, which %s field cannot decode to the same value",
				i, k.name, r.kind, now.fields[i].kind, r.kind, withArticle(now.fields[i].kind))
		}
	}
	if len(was.fields) != len(now.fields) {
		k.problem("", "%s now has %d fields, and had %d: fxamacker/cbor decodes a struct with the toarray option only from an array of exactly its number of fields, so the stored arrays of %d elements would no longer decode",
			k.what(), len(now.fields), len(was.fields), len(was.fields))
	}
}

// otherField names the field at position i of fr, or says there is none.
func otherField(fr *foreignRecord, i int) string {
	if i < len(fr.fields) {
		return fr.fields[i].name
	}
	return "no field"
}

// formText says what a foreign type's form is.
func formText(form string) string {
	switch form {
	case "map":
		return "a struct that fxamacker/cbor encodes as a map"
	case "array":
		return "a struct that fxamacker/cbor encodes as an array (toarray)"
	case "cbor":
		return "a type with its own MarshalCBOR or UnmarshalCBOR"
	}
	return "a type with its own MarshalBinary or UnmarshalBinary"
}

// storedText says what stored data holds of a type of that form.
func storedText(form string) string {
	switch form {
	case "map":
		return "maps of its fields"
	case "array":
		return "arrays of its fields"
	case "cbor":
		return "what its MarshalCBOR wrote"
	}
	return "byte strings that its MarshalBinary wrote"
}

// usedForeign returns a foreign type of cur that a field of r (a record
// of version 1, which holds no foreign types) already used, or "": the
// type is recorded now, and was not checked.
func (r *Record) usedForeign(cur *Record) string {
	var found string
	var leaves func(k *kind)
	leaves = func(k *kind) {
		switch {
		case k.form == leafKind && cur.foreign[k.Text] != nil && (found == "" || k.Text < found):
			found = k.Text
		case k.key != nil:
			leaves(k.key)
		}
		if k.elem != nil {
			leaves(k.elem)
		}
	}
	for _, tr := range r.types {
		for _, s := range tr.slots {
			leaves(parseKind(s.kind))
		}
	}
	return found
}
