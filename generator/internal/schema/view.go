package schema

import "sort"

// RecordedType is a read-only view of one type of a record, for the
// readers of stored data (-decode, -cddl) that work from the record alone.
type RecordedType struct {
	Name      string
	MapFormat bool   // a //cborgen:map type: its slots are its keys, in field order
	Required  int    // the elements every stored array holds
	Optional  int    // N of //cborgen:optional N: writers leave zero fields out from slot N on; -1 without it
	Tag       string // "" or the tag number, "132", or "132?" when optional on decode
	NoLegacy  bool   // no legacy map decoder: a map is refused
	Body      bool   // //cborgen:body: the type's own methods call the codec the slots describe
	Unknown   string // the runtime.Unknown field that keeps unknown keys or trailing elements ("" if none)
	Case      string // the //cborgen:case of a variant of a union chosen by content: a quoted text or an integer ("" if none)
	Value     string // the wire kind of a value type's underlying type ("" for a struct, or when not recorded)
	Slots     []RecordedSlot
}

// RecordedSlot is one slot of a RecordedType.
type RecordedSlot struct {
	Reserved bool
	Name     string // the field; for a reserved slot, the field it held ("" if none)
	Key      string // the legacy key token: a quoted string or an integer ("" if none)
	Kind     string // the wire kind, as the record writes it
}

// Types returns the recorded types, sorted by name.
func (r *Record) Types() []RecordedType {
	out := make([]RecordedType, 0, len(r.types))
	for _, name := range r.TypeNames() {
		tr := r.types[name]
		t := RecordedType{Name: name, MapFormat: tr.mapFormat, Required: tr.required, Optional: tr.optional, Tag: tr.tag, NoLegacy: tr.noLegacy, Body: tr.body, Unknown: tr.unknown, Case: tr.caseTok, Value: tr.value}
		for _, s := range tr.slots {
			t.Slots = append(t.Slots, RecordedSlot{Reserved: s.reserved, Name: s.name, Key: s.key, Kind: s.kind})
		}
		out = append(out, t)
	}
	return out
}

// Unions returns each recorded union's variants, sorted.
func (r *Record) Unions() map[string][]string {
	out := make(map[string][]string, len(r.unions))
	for name, u := range r.unions {
		vs := append([]string(nil), u.variants...)
		sort.Strings(vs)
		out[name] = vs
	}
	return out
}

// UnionsBy returns what picks the variant of each recorded union chosen
// by content: "first" (its first element) or "key K" (the value of key
// K, a quoted text or an integer); unions told apart by tag or type are
// not in it.
func (r *Record) UnionsBy() map[string]string {
	out := map[string]string{}
	for name, u := range r.unions {
		if u.by != "" {
			out[name] = u.by
		}
	}
	return out
}
