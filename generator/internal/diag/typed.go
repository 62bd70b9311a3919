package diag

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// typed annotates n as a value of the recorded type t: its tag, then its
// array, legacy map or (for a //cborgen:map type) map.
func (w *walker) typed(n *node, t *Type, at where) []line {
	if !t.HasTag {
		return w.body(n, t, at, "")
	}
	if n.major == majTag && len(n.kids) > 0 {
		switch n.arg {
		case 55799:
			return wrapTag(n, w.typed(n.kids[0], t, at))
		case t.Tag:
			// The type's tag alone: another tag after it (55799 too) is
			// refused, as fxamacker's TagSet refuses it.
			if kid := n.kids[0]; kid.major == majTag && len(kid.kids) > 0 {
				return wrapTag(n, w.body(kid, t, at, w.bad(n, at, "expected tag %d, found tag %d then tag %d", t.Tag, t.Tag, kid.arg)))
			}
			return wrapTag(n, w.body(n.kids[0], t, at, ""))
		}
		return wrapTag(n, w.body(n.kids[0], t, at, w.bad(n, at, "expected tag %d, found tag %d", t.Tag, n.arg)))
	}
	if t.TagOptional || n.partial || at.nullable(n) && (t.opaque() || nilable(t.Value)) {
		return w.body(n, t, at, "") // null: a nil named map or slice, written untagged
	}
	return w.body(n, t, at, w.bad(n, at, "expected tag %d, found %s", t.Tag, n.what()))
}

// variant is the position of the union's variant t: Value(Node).
func (at where) variant(t *Type) where {
	at.path += "(" + t.Name + ")"
	return at
}

// nilable reports whether the wire kind text is written as null when nil.
func nilable(text string) bool {
	if text == "" {
		return false
	}
	k := parseKind(text)
	return k.form == pointerKind || k.form == mapKind || k.form == listKind && k.n < 0
}

// named is name, or "" when the label already says it: the field has the
// name of its type.
func (at where) named(name string) string {
	if at.label == name || strings.HasSuffix(at.label, ": "+name) {
		return ""
	}
	return name
}

// info is what the head comment of a value of t says, after its label:
// the type's name (unless the label's field has that name) and format.
func (at where) info(t *Type, format string) string {
	name := at.named(t.Name)
	var details []string
	if at.via != "" {
		details = append(details, at.via+" variant")
	}
	if format != "" {
		details = append(details, format)
	}
	if t.Body {
		details = append(details, "read by its own methods")
	}
	if len(details) == 0 {
		return name
	}
	if name == "" {
		return "(" + strings.Join(details, ", ") + ")"
	}
	return name + " (" + strings.Join(details, ", ") + ")"
}

// body annotates the content of a value of t (past its tag); problem is a
// problem already found with its tag.
func (w *walker) body(n *node, t *Type, at where, problem string) []line {
	if n.major == majTag && len(n.kids) > 0 {
		// Past the type's own tag, any other is skipped (tags 0 to 3
		// must still hold their type of item).
		if msg := w.tagContent(n, at); msg != "" {
			problem = join(problem, msg)
		}
		return wrapTag(n, w.body(n.kids[0], t, at, problem))
	}
	if t.Value != "" {
		// A named type of another kind, known from the source: its
		// content is a value of the kind it is (type Dict map[string]Value).
		lines := w.value(n, parseKind(t.Value), at.at("", at.path))
		lines[0].comment = join(at.label, at.info(t, ""), problem, lines[0].comment)
		return lines
	}
	if t.opaque() {
		// A named type of another kind (type Dict map[string]Value): the
		// record holds no more than its name and tag, so its content is
		// shown as it is.
		return w.generic(n, at, join(at.info(t, ""), problem))
	}
	switch {
	case t.Map && n.major == majMap:
		return w.keyed(n, t, at, at.info(t, "map"), problem)
	case t.Map:
		return one(n, join(at.label, at.info(t, "map"), problem, w.bad(n, at, "expected map, found %s", n.what())))
	case n.major == majArray:
		return w.slots(n, t, at, problem)
	case n.major == majMap && t.NoLegacy:
		return one(n, join(at.label, at.info(t, ""), problem, w.bad(n, at, "expected array, found map (%s has no legacy map form)", t.Name)))
	case n.major == majMap:
		return w.keyed(n, t, at, at.info(t, "legacy map"), problem)
	}
	return one(n, join(at.label, at.info(t, ""), problem, w.bad(n, at, "expected array or map, found %s", n.what())))
}

// slots annotates the array n of t, element by element.
func (w *walker) slots(n *node, t *Type, at where, problem string) []line {
	head := join(at.label, at.info(t, "current format"), problem)
	if got := len(n.kids); !n.partial && (got < t.Required || got > len(t.Slots)) {
		want := fmt.Sprintf("%d", len(t.Slots))
		if t.Required < len(t.Slots) {
			want = fmt.Sprintf("%d to %d", t.Required, len(t.Slots))
		}
		if got < t.Required {
			head = join(head, w.bad(n, at, "expected array of %s elements, found %d", want, got))
		}
	}
	kids := make([][]line, len(n.kids))
	for i, c := range n.kids {
		if i >= len(t.Slots) {
			sub := where{label: fmt.Sprintf("%d: not a slot of %s", i, t.Name), path: fmt.Sprintf("%s[%d]", at.path, i), skip: true}
			if t.Extensible && t.Unknown != "" {
				kids[i] = w.kept(c, where{label: fmt.Sprintf("%d: kept in %s (written by a newer version)", i, t.Unknown), path: sub.path})
				continue
			}
			if t.Extensible {
				sub.label = fmt.Sprintf("%d: skipped (written by a newer version)", i)
				kids[i] = w.generic(c, sub, "")
				continue
			}
			lines := w.generic(c, sub, "")
			if i == len(t.Slots) { // the decoder stops at the first
				lines[0].comment = join(lines[0].comment, w.bad(c, sub, "%s has %d slots; only an //cborgen:extensible type skips more", t.Name, len(t.Slots)))
			}
			kids[i] = lines
			continue
		}
		s := t.Slots[i]
		if s.Reserved {
			label := fmt.Sprintf("%d: reserved", i)
			if s.Name != "" {
				label += ", was " + s.Name
			}
			kids[i] = w.generic(c, where{label: label, path: fmt.Sprintf("%s[%d]", at.path, i), skip: true}, "")
			continue
		}
		kids[i] = w.value(c, parseKind(s.Kind), where{label: fmt.Sprintf("%d: %s", i, s.Name), path: at.path + "." + s.Name, skip: at.skip})
	}
	return container(n, kids, head, true)
}

// keyed annotates the map n of t: the legacy map of an array type, or a
// map type's map. Keys are matched as the generated decoder matches them:
// text keys exactly, then by case folding (the first field in field order
// that matches), integer keys against keyasint fields. Unknown keys and
// the keys of retired fields are skipped, and so is a field given twice
// (the first value stays).
func (w *walker) keyed(n *node, t *Type, at where, info, problem string) []line {
	kids := make([][]line, len(n.kids))
	seen := make([]bool, len(t.Slots))
	kept := map[string]bool{} // the unknown keys a runtime.Unknown field keeps
	for i := 0; i < len(n.kids); i += 2 {
		kn := n.kids[i]
		slot, how, msg := w.matchKey(kn, t, at)
		kids[i] = []line{{text: string(plain(nil, kn)), comment: msg}}
		if i+1 >= len(n.kids) {
			break
		}
		vn := n.kids[i+1]
		switch {
		case msg != "":
			kids[i+1] = w.generic(vn, where{path: at.path, skip: true}, "")
		case slot < 0 && t.Map && t.Unknown != "" && (how == "" || strings.HasPrefix(how, "key of the retired")):
			// A map type's decoder knows no retired key: it keeps it too.
			kids[i+1] = w.keptPair(kn, vn, t, kept, at)
		case slot < 0:
			label := "unknown key, skipped"
			if how != "" {
				label = how
			}
			kids[i+1] = w.generic(vn, where{label: label, path: at.path, skip: true}, "")
		default:
			s := t.Slots[slot]
			label := s.Name + how
			if !t.Map {
				label = fmt.Sprintf("%d: %s", slot, label) // the legacy key of a slot
			}
			if seen[slot] {
				// The first value stays, as in fxamacker/cbor; strict mode
				// refuses the map.
				kids[i+1] = w.generic(vn, where{label: s.Name + " given twice, skipped", path: at.path, skip: true}, "")
				break
			}
			seen[slot] = true
			sub := where{label: label, path: at.path + "." + s.Name, skip: at.skip}
			kids[i+1] = w.value(vn, parseKind(s.Kind), sub)
		}
	}
	return container(n, kids, join(at.label, info, problem), true)
}

// matchKey finds the slot that the key kn names: -1 for none, with how it
// matched (or why it was skipped), or a problem that the decoder refuses.
func (w *walker) matchKey(kn *node, t *Type, at where) (slot int, how, problem string) {
	switch kn.major {
	case majText:
		key := textOf(kn)
		if !utf8.Valid(key) {
			return -1, "", w.bad(kn, at, "map key is not valid UTF-8")
		}
		for i, s := range t.Slots {
			if s.HasKey && !s.Key.IsInt && s.Key.Text == string(key) {
				if s.Reserved {
					return -1, "key of the retired " + s.Name + ", skipped", ""
				}
				return i, "", ""
			}
		}
		// The decoders' fallback, genrt.FoldedField, over the text keys of
		// the slots in slot order ("" where a slot has none to match).
		keys := make([]string, len(t.Slots))
		for i, s := range t.Slots {
			if s.HasKey && !s.Reserved && !s.Key.IsInt {
				keys[i] = s.Key.Text
			}
		}
		if i := genrt.FoldedField(key, keys); i >= 0 {
			return i, " (key matched by case folding)", ""
		}
		return -1, "", ""
	case majUint, majNeg:
		if kn.arg > 1<<63-1 {
			return -1, "", w.bad(kn, at, "integer map key overflows int64")
		}
		v := int64(kn.arg)
		if kn.major == majNeg {
			v = -1 - v
		}
		for i, s := range t.Slots {
			if s.HasKey && s.Key.IsInt && s.Key.Int == v {
				if s.Reserved {
					return -1, "key of the retired " + s.Name + ", skipped", ""
				}
				return i, "", ""
			}
		}
		return -1, "", ""
	}
	return -1, "", w.bad(kn, at, "map key is a %s, which cannot name a field", kn.what())
}

// union annotates n as a value of the union u: the variant its tag
// number names, or for an untagged item the untagged variant written as
// its type.
func (w *walker) union(n *node, u *Union, at where) []line {
	if n.isNull() {
		return one(n, join(at.label, at.named(u.Name), "nil"))
	}
	if n.major == majTag && len(n.kids) > 0 && n.arg == 55799 {
		return wrapTag(n, w.union(n.kids[0], u, at))
	}
	vat := at
	vat.via = u.Name
	if u.By != "" {
		return w.contentUnion(n, u, at, vat)
	}
	var sure, maybe []*Type
	var catchAll *Type
	class := n.class()
	for _, name := range u.Variants {
		t := w.s.Types[name]
		if t == nil {
			t = &Type{Name: name} // not recorded as a type: nothing is known of it
		}
		switch {
		case t.CatchAll:
			catchAll = t
			continue
		case n.major == majTag && !n.partial:
			if t.HasTag && t.Tag == n.arg {
				return w.typed(n, t, vat.variant(t))
			}
			if t.opaque() && !t.HasTag {
				maybe = append(maybe, t) // perhaps a //cborgen:catchall, which keeps any item
			}
			continue
		case t.HasTag && !t.TagOptional:
			continue
		case t.opaque():
			maybe = append(maybe, t)
		case slices.Contains(t.classes(), class):
			sure = append(sure, t)
		}
	}
	if n.major == majTag && !n.partial || len(sure)+len(maybe) == 0 {
		what := "an untagged " + n.what()
		if n.major == majTag {
			what = fmt.Sprintf("tag %d", n.arg)
		}
		if catchAll != nil {
			return w.generic(n, at, join(at.named(u.Name), catchAll.Name+" (the catch-all variant: no other takes "+what+")"))
		}
		msg := fmt.Sprintf("no variant of %s takes %s", u.Name, what)
		if len(maybe) > 0 {
			msg += fmt.Sprintf(" (unless one of %s is its //cborgen:catchall, which keeps any item)", names(maybe))
		}
		return w.generic(n, at, join(at.named(u.Name), w.bad(n, at, "%s", msg)))
	}
	switch {
	case len(sure) == 1:
		return w.typed(n, sure[0], vat.variant(sure[0]))
	case len(sure) == 0 && len(maybe) == 1:
		return w.typed(n, maybe[0], vat.variant(maybe[0]))
	}
	return w.generic(n, at, join(at.named(u.Name), fmt.Sprintf("one of %s (the record does not say which)", names(append(sure, maybe...)))))
}

func names(ts []*Type) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.Name)
	}
	return strings.Join(s, ", ")
}

// contentUnion annotates n as a value of a union chosen by content: the
// variant whose //cborgen:case the first element of an array (By
// "first"), or the value of map key Key (By "key"), holds, as the
// generated dispatcher picks it.
func (w *walker) contentUnion(n *node, u *Union, at, vat where) []line {
	var disc *node
	where := "its first element"
	switch {
	case u.By == "first" && n.major == majArray && len(n.kids) > 0:
		disc = n.kids[0]
	case u.By == "key" && n.major == majMap:
		where = "key " + u.Key.String()
		for i := 0; i+1 < len(n.kids); i += 2 {
			if k, ok := keyOf(n.kids[i]); ok && k == u.Key {
				disc = n.kids[i+1]
				break
			}
		}
	}
	for disc != nil && disc.major == majTag && disc.arg == 55799 && len(disc.kids) > 0 {
		disc = disc.kids[0]
	}
	var catchAll *Type
	for _, name := range u.Variants {
		if t := w.s.Types[name]; t != nil && t.CatchAll {
			catchAll = t
		}
	}
	c, ok := Key{}, false
	if disc != nil {
		c, ok = keyOf(disc)
	}
	if ok {
		for _, name := range u.Variants {
			if t := w.s.Types[name]; t != nil && t.HasCase && t.Case == c {
				return w.typed(n, t, vat.variant(t))
			}
		}
		if catchAll != nil {
			return w.generic(n, at, join(at.named(u.Name), catchAll.Name+" (the catch-all variant: no other is case "+c.String()+")"))
		}
		return w.generic(n, at, join(at.named(u.Name), w.bad(n, at, "no variant of %s for case %s", u.Name, c)))
	}
	var why string
	switch {
	case disc != nil:
		why = where + " holds " + disc.what() + ", not an integer or text case"
	case u.By == "first" && n.major == majArray:
		why = "an empty array has no first element to name its variant"
	case u.By == "key" && n.major == majMap:
		why = "the map has no key " + u.Key.String() + " to name its variant"
	case u.By == "first":
		why = "takes an array whose first element names its variant, found " + n.what()
	default:
		why = "takes a map whose key " + u.Key.String() + " names its variant, found " + n.what()
	}
	return w.generic(n, at, join(at.named(u.Name), w.bad(n, at, "%s", why)))
}

// keyOf is the value of an integer or text item as a Key, as a case or a
// map key is compared.
func keyOf(n *node) (Key, bool) {
	switch n.major {
	case majUint:
		if n.arg <= 1<<63-1 {
			return Key{IsInt: true, Int: int64(n.arg)}, true
		}
	case majNeg:
		if n.arg <= 1<<63-1 {
			return Key{IsInt: true, Int: -1 - int64(n.arg)}, true
		}
	case majText:
		return Key{Text: string(textOf(n))}, true
	}
	return Key{}, false
}
