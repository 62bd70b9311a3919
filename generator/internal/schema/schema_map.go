package schema

import (
	"fmt"
	"go/token"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The rules of the map format (//cborgen:map), where a field is known by
// its key: a field may not change its key (rekeyedMap), and a key that
// stored maps hold may only go to a field that can read what is stored
// under it (retypedKey), be it the same field, a renamed one, or a new
// field taking the key of a removed one. Adding and removing fields is
// fine: stored maps lack the new keys, whose fields decode as zero, and
// their removed keys are skipped. The keys of removed fields stay in the
// record as retired, so that a field added later under one of them is
// checked against what stored maps hold there.

// compareKeys checks the fields of the map-format type s, of wire kinds
// kinds, against its record tr, and completes next, the record after this
// run, with the retired keys. It returns the problems it finds.
func compareKeys(s *model.Struct, tr, next *typeRecord, kinds []*kind) []error {
	var problems []error
	problem := func(pos token.Position, format string, args ...any) {
		problems = append(problems, &model.PosError{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	}
	byKey, byName := map[string]slotRecord{}, map[string]slotRecord{}
	for _, r := range tr.slots {
		byKey[r.key] = r
		if !r.reserved {
			byName[r.name] = r
		}
	}
	now := map[string]bool{}
	for i, fd := range s.Fields {
		name, key := model.FieldID(fd), KeyToken(fd)
		now[key] = true
		if r, ok := byName[name]; ok && r.key != key {
			problem(fd.Pos, "field %s.%s: map key changed from %s to %s: stored maps hold %s under %s and would decode with %s left zero. Keep the key with the tag %s",
				s.Name, name, r.key, key, name, r.key, name, tagFor(r.key, fd))
			continue
		}
		r, ok := byKey[key]
		if !ok || kindCompatible(parseKind(r.kind), kinds[i]) {
			continue
		}
		held := "they hold"
		if r.reserved {
			held = "the removed field " + r.name + " left there"
		} else if r.name != name {
			held = r.name + "'s values"
		}
		problem(fd.Pos, "field %s.%s (key %s) changed from %s to %s: stored maps hold %s values under %s (%s), which %s field cannot decode to the same value. Keep a compatible type ("+SchemaDoc+" lists them) or use a new key",
			s.Name, name, key, r.kind, kinds[i].Text, r.kind, key, held, withArticle(kinds[i].Text))
	}
	for _, r := range tr.slots {
		if !now[r.key] {
			r.reserved = true
			next.slots = append(next.slots, r)
		}
	}
	return problems
}
