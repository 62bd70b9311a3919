package diag

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// value annotates n as a value of kind k.
func (w *walker) value(n *node, k *kind, at where) []line {
	if k.form == pointerKind {
		switch {
		case n.major == majTag && n.arg == 55799 && len(n.kids) > 0:
			return wrapTag(n, w.value(n.kids[0], k, at))
		case at.nullable(n):
			return one(n, at.label)
		}
		return w.value(n, k.elem, at)
	}
	if n.major == majTag && (len(n.kids) == 0 || !w.tagMeaningful(k, n.arg)) {
		return w.skipTag(n, k, at)
	}
	switch k.form {
	case listKind:
		return w.list(n, k, at)
	case mapKind:
		return w.mapOf(n, k, at)
	}
	return w.leaf(n, k, at)
}

// skipTag annotates a tag that the decoder of k reads past: tag 55799,
// and any tag with no meaning for k (tags 0 to 3 must still hold what RFC
// 8949 says).
func (w *walker) skipTag(n *node, k *kind, at where) []line {
	if len(n.kids) == 0 {
		return one(n, at.label)
	}
	if !at.skip {
		if msg := w.tagContent(n, at); msg != "" {
			return wrapTag(n, one(n.kids[0], join(at.label, msg)))
		}
	}
	if n.arg != 55799 {
		at.tagged = true
	}
	return wrapTag(n, w.value(n.kids[0], k, at))
}

// wrapTag puts the tag n around the lines of its content.
func wrapTag(n *node, lines []line) []line {
	lines[0].text = strconv.FormatUint(n.arg, 10) + "(" + lines[0].text
	if !n.partial {
		lines[len(lines)-1].text += ")"
	}
	return lines
}

// tagMeaningful reports whether the decoder of k reads tag number tag
// (rather than skipping it).
func (w *walker) tagMeaningful(k *kind, tag uint64) bool {
	if tag == 55799 {
		return false
	}
	for k.form == pointerKind {
		k = k.elem
	}
	if k.form != leafKind {
		return false
	}
	if _, ok := intKinds[k.text]; ok || k.text == "float32" || k.text == "float64" || isBigInt(k.text) {
		return tag == 2 || tag == 3
	}
	name := baseName(k.text)
	if t := w.s.Types[name]; t != nil {
		return t.HasTag
	}
	return w.s.Unions[name] != nil
}

// tagContent checks that tags 0 to 3 hold the type of item RFC 8949 §3.4
// requires, as the decoders check: "" when they do.
func (w *walker) tagContent(n *node, at where) string {
	if len(n.kids) == 0 || n.partial {
		return ""
	}
	c := n.kids[0]
	switch n.arg {
	case 0:
		// The decoders look at the type of its content; only a time
		// field reads the text as a time (timeValue).
		if c.major != majText {
			return w.bad(c, at, "tag 0 must hold a text string, found %s", c.what())
		}
	case 1:
		if c.major != majUint && c.major != majNeg && !isFloat(c) {
			return w.bad(c, at, "tag 1 must hold a number, found %s", c.what())
		}
	case 2, 3:
		if c.major != majBytes {
			return w.bad(c, at, "tag %d must hold a byte string, found %s", n.arg, c.what())
		}
	}
	return ""
}

func isFloat(n *node) bool { return n.major == majSimple && n.ai >= 25 && n.ai <= 27 }

// isSimpleNumber reports whether n is a simple value that the decoders
// read as its code into an integer or a float (0-19, 32-255), as
// fxamacker/cbor does.
func isSimpleNumber(n *node) bool { return n.major == majSimple && (n.ai < 20 || n.ai == 24) }

// textOf is the content of a string, its chunks joined.
func textOf(n *node) []byte {
	if !n.indef {
		return n.data
	}
	var b []byte
	for _, c := range n.kids {
		b = append(b, c.data...)
	}
	return b
}

// strLen is the length of a string's content.
func strLen(n *node) int {
	if !n.indef {
		return len(n.data)
	}
	total := 0
	for _, c := range n.kids {
		total += len(c.data)
	}
	return total
}

// generic annotates n without a kind: on one line, with info and what the
// decoder refuses anywhere in it (text that is not UTF-8, tags 0 to 3
// with the wrong content), unless it skips n unread.
func (w *walker) generic(n *node, at where, info string) []line {
	msg := ""
	if !at.skip {
		msg = w.check(n, at)
	}
	return one(n, join(at.label, info, msg))
}

// check finds the first problem in n, records every one, and returns the
// text of the first.
func (w *walker) check(n *node, at where) string {
	first := ""
	note := func(m string) {
		if first == "" {
			first = m
		}
	}
	switch n.major {
	case majText:
		if !utf8.Valid(textOf(n)) {
			note(w.bad(n, at, "text string is not valid UTF-8"))
		}
	case majTag:
		note(w.tagContent(n, at))
	}
	for _, c := range n.kids {
		if n.major == majText {
			break
		}
		if m := w.check(c, at); m != "" {
			note(m)
		}
	}
	return first
}

// leaf annotates n as a value of a kind that is not a pointer, list or
// map.
func (w *walker) leaf(n *node, k *kind, at where) []line {
	text := k.text
	if n.isNull() && w.keepsNull(text) {
		return one(n, join(at.label, "kept"))
	}
	if r, ok := intKinds[text]; ok {
		return w.integer(n, r, text, at)
	}
	switch text {
	case "bool":
		if n.major == majSimple && (n.ai == 20 || n.ai == 21) {
			return one(n, at.label)
		}
		return w.mismatch(n, at, "bool")
	case "string":
		if n.major != majText {
			return w.mismatch(n, at, "text string")
		}
		return w.generic(n, at, "")
	case "float32", "float64":
		return w.float(n, text, at)
	case "reserved":
		at.skip = true
		return w.generic(n, at, "")
	case "any", "interface{}":
		return w.generic(n, at, "")
	}
	if isTime(text) {
		return w.timeValue(n, at)
	}
	if isBigInt(text) {
		return w.bigInt(n, at)
	}
	name := baseName(text)
	if t := w.s.Types[name]; t != nil {
		if inst := instantiate(t, text); inst != nil {
			t = inst // Page[Customer]: Customer in place of T
		}
		return w.typed(n, t, at)
	}
	if u := w.s.Unions[name]; u != nil {
		return w.union(n, u, at)
	}
	return w.generic(n, at, shortKind(text)+", which the record does not describe")
}

// keepsNull reports whether a decoder of the leaf kind text leaves the
// value as it is for a null, as fxamacker/cbor leaves a value that cannot
// be nil: not an interface (set to nil), and not a type whose tag is
// required (the tag is missing).
//
// A kind the record does not describe (an interface such as error or
// fmt.Stringer, or a type of another package) may be either, so it is not
// said to be kept.
func (w *walker) keepsNull(text string) bool {
	switch text {
	case "bool", "string", "float32", "float64":
		return true
	}
	if _, ok := intKinds[text]; ok || isTime(text) || isBigInt(text) {
		return true
	}
	if t := w.s.Types[baseName(text)]; t != nil {
		return !t.HasTag || t.TagOptional
	}
	return false
}

// baseName is the type a kind names, without type arguments: Page for
// Page[int].
func baseName(text string) string {
	if i := strings.IndexByte(text, '['); i > 0 {
		return text[:i]
	}
	return text
}

// shortKind writes a kind with package paths cut to their last element.
func shortKind(text string) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || strings.IndexByte("[]*(){},; ", text[i]) >= 0 {
			word := text[start:i]
			if j := strings.LastIndexByte(word, '/'); j >= 0 {
				word = word[j+1:]
			}
			b.WriteString(word)
			if i < len(text) {
				b.WriteByte(text[i])
			}
			start = i + 1
		}
	}
	return b.String()
}

// mismatch annotates n where the decoder wants an item of type want.
func (w *walker) mismatch(n *node, at where, want string) []line {
	return one(n, join(at.label, w.bad(n, at, "expected %s, found %s", want, n.what())))
}

// integer annotates n as an integer of range r.
func (w *walker) integer(n *node, r intRange, name string, at where) []line {
	var neg bool
	var mag uint64
	switch {
	case n.major == majUint:
		mag = n.arg
	case n.major == majNeg:
		neg, mag = true, n.arg
	case isSimpleNumber(n):
		mag = n.arg // fxamacker/cbor reads a simple value's code
	case n.major == majTag && (n.arg == 2 || n.arg == 3) && len(n.kids) > 0:
		c := n.kids[0]
		if c.major != majBytes {
			return wrapTag(n, one(c, join(at.label, w.bad(c, at, "tag %d must hold a byte string, found %s", n.arg, c.what()))))
		}
		b := textOf(c)
		for len(b) > 0 && b[0] == 0 {
			b = b[1:]
		}
		if len(b) > 8 {
			return one(n, join(at.label, w.bad(n, at, "bignum overflows %s", name)))
		}
		for _, x := range b {
			mag = mag<<8 | uint64(x)
		}
		neg = n.arg == 3
	default:
		return w.mismatch(n, at, "integer")
	}
	if !fits(r, neg, mag) {
		v := strconv.FormatUint(mag, 10)
		if neg {
			v = string(appendNeg(nil, mag))
		}
		return one(n, join(at.label, w.bad(n, at, "integer %s overflows %s", v, name)))
	}
	return one(n, at.label)
}

// fits reports whether the integer -1-mag (neg) or mag is in range r.
func fits(r intRange, neg bool, mag uint64) bool {
	switch {
	case neg && !r.signed:
		return false
	case r.signed:
		return mag <= 1<<(r.bits-1)-1 // -1-mag >= -2^(bits-1) is the same bound
	case r.bits == 64:
		return true
	}
	return mag <= 1<<r.bits-1
}

func (w *walker) float(n *node, name string, at where) []line {
	switch {
	case isFloat(n):
		if name == "float32" && !math.IsInf(n.f, 0) && !math.IsNaN(n.f) && math.Abs(n.f) > math.MaxFloat32 {
			return one(n, join(at.label, w.bad(n, at, "float %s overflows float32", formatFloat(n.f))))
		}
		return one(n, at.label)
	case n.major == majUint, isSimpleNumber(n):
		return one(n, at.label)
	case n.major == majNeg:
		if n.arg > math.MaxInt64 {
			return one(n, join(at.label, w.bad(n, at, "integer %s overflows float (int64 range)", appendNeg(nil, n.arg))))
		}
		return one(n, at.label)
	case n.major == majTag && (n.arg == 2 || n.arg == 3) && len(n.kids) > 0:
		c := n.kids[0]
		if c.major != majBytes {
			return wrapTag(n, one(c, join(at.label, w.bad(c, at, "tag %d must hold a byte string, found %s", n.arg, c.what()))))
		}
		// The decoders read a bignum within 64 bits, and a negative one
		// within int64, as they read an integer.
		b := textOf(c)
		for len(b) > 0 && b[0] == 0 {
			b = b[1:]
		}
		if len(b) > 8 || n.arg == 3 && len(b) == 8 && b[0] >= 0x80 {
			return one(n, join(at.label, w.bad(n, at, "bignum overflows float (int64 range)")))
		}
		return one(n, at.label)
	}
	return w.mismatch(n, at, "float")
}

// timeValue annotates a time.Time: epoch seconds (integer or float) or
// RFC 3339 text, in any tag; null is the zero time.
func (w *walker) timeValue(n *node, at where) []line {
	var t time.Time
	switch {
	case n.isNull():
		return one(n, at.label)
	case n.major == majUint && n.arg <= math.MaxInt64:
		t = time.Unix(int64(n.arg), 0)
	case n.major == majNeg && n.arg < math.MaxInt64:
		t = time.Unix(-1-int64(n.arg), 0)
	case n.major == majUint || n.major == majNeg:
		return one(n, join(at.label, w.bad(n, at, "time out of range")))
	case isFloat(n):
		if math.IsNaN(n.f) || math.IsInf(n.f, 0) {
			return one(n, join(at.label, "the zero time"))
		}
		if math.Abs(n.f) < 1<<62 {
			sec, frac := math.Modf(n.f)
			t = time.Unix(int64(sec), int64(frac*1e9))
		}
	case n.major == majText:
		s := textOf(n)
		p, err := time.Parse(time.RFC3339, string(s))
		if err != nil {
			return one(n, join(at.label, w.bad(n, at, "not an RFC 3339 time")))
		}
		t = p
	default:
		return w.mismatch(n, at, "time (a number or RFC 3339 text)")
	}
	info := ""
	if !t.IsZero() && n.major != majText {
		info = t.UTC().Format(time.RFC3339Nano)
	}
	return one(n, join(at.label, info))
}

// bigInt annotates a math/big.Int: an integer or a bignum.
func (w *walker) bigInt(n *node, at where) []line {
	switch {
	case n.major == majUint, n.major == majNeg, isSimpleNumber(n):
		return one(n, at.label)
	case n.major == majTag && (n.arg == 2 || n.arg == 3) && len(n.kids) > 0:
		c := n.kids[0]
		if c.major != majBytes {
			return wrapTag(n, one(c, join(at.label, w.bad(c, at, "tag %d must hold a byte string, found %s", n.arg, c.what()))))
		}
		info := ""
		if b := textOf(c); len(b) <= 64 {
			z := new(big.Int).SetBytes(b)
			if n.arg == 3 {
				z.Neg(z).Sub(z, big.NewInt(1))
			}
			info = z.String()
		}
		return one(n, join(at.label, info))
	}
	return w.mismatch(n, at, "integer or bignum")
}

// list annotates n as a []T or [N]T.
//
// As fxamacker/cbor reads them by default: a slice is nil for null, also
// in a tag; an array [N]T keeps its value for null, takes the first N
// elements of an array (those past them are skipped; missing ones are
// zero); a byte string type also takes an array of integers, and a
// [N]byte a byte string of any length (cut, or zero-filled).
func (w *walker) list(n *node, k *kind, at where) []line {
	if n.isNull() {
		if k.n < 0 {
			return one(n, at.label) // a nil slice
		}
		return one(n, join(at.label, "kept"))
	}
	if k.elem.text == "byte" && n.major != majArray {
		if n.major != majBytes {
			return w.mismatch(n, at, "byte string")
		}
		info := ""
		if k.n >= 0 && int64(strLen(n)) != k.n && !n.partial {
			info = fmt.Sprintf("%d bytes for %d", strLen(n), k.n)
		}
		return one(n, join(at.label, info))
	}
	if n.major != majArray {
		return w.mismatch(n, at, "array")
	}
	head := at.label
	if k.n >= 0 && int64(len(n.kids)) != k.n && !n.partial {
		head = join(head, fmt.Sprintf("%d elements for %d", len(n.kids), k.n))
	}
	elem := k.elem
	if elem.text == "byte" {
		elem = &kind{form: leafKind, text: "uint8"}
	}
	kids := make([][]line, len(n.kids))
	for i, c := range n.kids {
		sub := at.at("", fmt.Sprintf("%s[%d]", at.path, i))
		if k.n >= 0 && int64(i) >= k.n {
			sub.skip = true
			kids[i] = w.generic(c, sub, "skipped")
			continue
		}
		kids[i] = w.value(c, elem, sub)
	}
	return container(n, kids, head, false)
}

// mapOf annotates n as a map[K]V.
func (w *walker) mapOf(n *node, k *kind, at where) []line {
	if n.isNull() {
		return one(n, at.label) // nil, also in a tag
	}
	if n.major != majMap {
		return w.mismatch(n, at, "map")
	}
	kids := make([][]line, len(n.kids))
	for i, c := range n.kids {
		if i%2 == 0 {
			kids[i] = w.value(c, k.key, at.at("", at.path+" key"))
		} else {
			kids[i] = w.value(c, k.elem, at.at("", fmt.Sprintf("%s[%s]", at.path, short(n.kids[i-1]))))
		}
	}
	return container(n, kids, at.label, false)
}

// short is a key's notation for a path, cut to a few bytes.
func short(n *node) string {
	s := string(plain(nil, n))
	if len(s) > 24 {
		s = s[:21] + "..."
	}
	return s
}

// container lays out an array or a map (kids holds its keys and values in
// turn): on one line when no element needs a comment, else one element a
// line.
func container(n *node, kids [][]line, comment string, multi bool) []line {
	pairs := n.major == majMap
	open, close := "[", "]"
	if pairs {
		open, close = "{", "}"
	}
	if !multi {
		for _, k := range kids {
			if len(k) > 1 || k[0].comment != "" {
				multi = true
				break
			}
		}
	}
	if !multi || len(kids) == 0 {
		return one(n, comment)
	}
	if n.indef {
		open += "_"
	}
	lines := []line{{text: open, comment: comment}}
	step := 1
	if pairs {
		step = 2
	}
	for i := 0; i < len(kids); i += step {
		elem := kids[i]
		if pairs {
			key := elem
			if i+1 < len(kids) {
				elem = kids[i+1]
			} else {
				elem = nil
			}
			switch {
			case elem == nil:
				elem = key
			case len(key) == 1:
				elem[0].text = key[0].text + ": " + elem[0].text
				elem[0].comment = join(key[0].comment, elem[0].comment)
			default:
				key[len(key)-1].text += ":"
				elem = append(key, elem...)
			}
		}
		if i+step < len(kids) {
			elem[len(elem)-1].text += ","
		}
		for _, l := range elem {
			l.depth++
			lines = append(lines, l)
		}
	}
	if !n.partial {
		lines = append(lines, line{text: close})
	}
	return lines
}
