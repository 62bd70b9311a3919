package diag

import (
	"errors"
	"fmt"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// What a type's runtime.Unknown field keeps (Type.Unknown): the pairs of
// a map type whose keys name no field, the elements of an extensible
// array type past its last slot. The generated decoder checks each as
// runtime.Valid checks an item, so the notation does too.

// kept annotates n, an item that a runtime.Unknown field keeps: what the
// decoder refuses anywhere in it, as runtime.Valid refuses it (text that
// is not UTF-8, tags 0 to 3 with the wrong content, a map key given
// twice).
func (w *walker) kept(n *node, at where) []line {
	lines := w.generic(n, at, "")
	if lines[0].comment != at.label || n.partial {
		return lines // a problem is noted already, or the item is cut short
	}
	if err := genrt.Valid(w.data[n.off:n.end]); err != nil {
		msg := err.Error()
		var re *genrt.Error
		if errors.As(err, &re) {
			msg = re.Msg
		}
		lines[0].comment = join(at.label, w.bad(n, at, "%s", msg))
	}
	return lines
}

// keptPair annotates vn, the value of the unknown key kn of the map type
// t, which t's runtime.Unknown field keeps, or skips when the key came
// before in the map (the first value stays; the decoder's DupMapKey
// option may refuse it instead).
func (w *walker) keptPair(kn, vn *node, t *Type, kept map[string]bool, at where) []line {
	id := fmt.Sprintf("%d:%d", kn.major, kn.arg)
	if kn.major == majText {
		id = "t:" + string(textOf(kn))
	}
	if kept[id] {
		return w.generic(vn, where{label: "unknown key given twice, skipped", path: at.path, skip: true}, "")
	}
	kept[id] = true
	return w.kept(vn, where{label: "unknown key, kept in " + t.Unknown, path: at.path + "." + t.Unknown})
}
