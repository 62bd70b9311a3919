package diag

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// CDDL writes the types of s as RFC 8610 CDDL, for implementations in
// other languages: one rule per type and union, by name. An array type's
// rule is its array, with the slots' field names as member keys (which
// CDDL takes as documentation in an array), "? " before the slots that
// older data lacks, and its legacy map as an alternative; a //cborgen:map
// type's rule is its map; a tag is #6.N(...), a union the choice of its
// variants. source names the record in the header comment.
func CDDL(s *Schema, source string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "; The wire format of the types of %s, as RFC 8610 CDDL.\n", source)
	b.WriteString("; Written by cbor-gen -cddl. Arrays list their slots in order; a member\n")
	b.WriteString("; key in an array is the Go field's name, for the reader only.\n")
	used, hoisted := map[string]bool{}, map[string]string{}
	instances := map[string]*Type{}
	for _, name := range s.names() {
		b.WriteByte('\n')
		if u := s.Unions[name]; u != nil && s.Types[name] == nil {
			switch u.By {
			case "first":
				fmt.Fprintf(&b, "; %s is a union chosen by content: the first element of the array names the variant (%s).\n", name, cases(s, u))
			case "key":
				fmt.Fprintf(&b, "; %s is a union chosen by content: the value of key %s names the variant (%s).\n", name, u.Key, cases(s, u))
			default:
				fmt.Fprintf(&b, "; %s is a union: one of its variants, told apart by tag or type.\n", name)
			}
			fmt.Fprintf(&b, "%s = %s\n", ruleName(name), strings.Join(mapStrings(u.Variants, ruleName), " / "))
			continue
		}
		c := &cddlType{s: s, used: used, hoisted: hoisted, instances: instances}
		c.write(&b, s.Types[name])
	}
	// The uses of generic types, each a rule of its own (Page-Customer
	// for Page[Customer]), written until they name no new one.
	for written := map[string]bool{}; ; {
		var next []string
		for name := range instances {
			if !written[name] {
				next = append(next, name)
			}
		}
		if len(next) == 0 {
			break
		}
		slices.Sort(next)
		for _, name := range next {
			written[name] = true
			b.WriteByte('\n')
			c := &cddlType{s: s, used: used, hoisted: hoisted, instances: instances}
			c.write(&b, instances[name])
		}
	}
	if len(hoisted) > 0 {
		b.WriteString("\n; Arrays and maps within arrays and maps, named after their Go kinds.\n")
		for _, name := range slices.Sorted(maps.Keys(hoisted)) {
			fmt.Fprintf(&b, "%s = %s\n", name, hoisted[name])
		}
	}
	var prelude []string
	for _, name := range []string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "cborgen-time"} {
		if used[name] {
			prelude = append(prelude, name+" = "+preludeRules[name])
		}
	}
	if len(prelude) > 0 {
		b.WriteString("\n; The Go kinds above, as the generated code writes them; the decoders also\n")
		b.WriteString("; read integers from bignums (tags 2 and 3) in range, and floats from integers.\n")
		if used["cborgen-time"] {
			b.WriteString("; time.Time is written as the run's -time mode says: epoch seconds or RFC 3339\n")
			b.WriteString("; text, in tag 1 or 0 with -timetag.\n")
		}
		b.WriteString(strings.Join(prelude, "\n") + "\n")
	}
	return []byte(b.String())
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

// ruleName is a CDDL rule name for a Go type name (the type's own, without
// type arguments).
func ruleName(name string) string {
	return cddlID(baseName(name))
}

// cddlID makes s a CDDL identifier: letters, digits and @_$.- that do not
// start with a digit and do not end with . or -.
func cddlID(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '@', r == '_', r == '$':
			b.WriteRune(r)
		case r >= '0' && r <= '9' || r == '.' || r == '-':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	id := b.String()
	if id == "" || strings.HasSuffix(id, ".") || strings.HasSuffix(id, "-") {
		id += "_"
	}
	return id
}

// preludeRules are the rules of the Go kinds that the CDDL prelude has no
// name for, written after the types that use them.
var preludeRules = map[string]string{
	"int8":         "-128..127",
	"int16":        "-32768..32767",
	"int32":        "-2147483648..2147483647",
	"int64":        "-9223372036854775808..9223372036854775807",
	"uint8":        "uint .size 1",
	"uint16":       "uint .size 2",
	"uint32":       "uint .size 4",
	"cborgen-time": "int / float / tstr / tdate / time",
}

// cddlType writes the rules of one type.
type cddlType struct {
	s         *Schema
	used      map[string]bool   // the prelude rules used
	hoisted   map[string]string // rules of choices within arrays and maps, by name
	instances map[string]*Type  // the uses of generic types, by rule name
}

// instance names the rule of text, a use of the generic type t
// (Page[Customer]): Page-Customer, t with the type arguments in place of
// its parameters (instantiate), written after the types. When the
// arguments do not match the parameters, the generic type's own rule.
func (c *cddlType) instance(text string, t *Type) string {
	inst := instantiate(t, text)
	if inst == nil {
		return ruleName(t.Name)
	}
	name := goKindRule(text)
	if c.instances[name] == nil {
		inst.Name = name
		c.instances[name] = inst
	}
	return name
}

// instantiate returns a copy of the generic type t for text, a use of it
// (Page[Customer]), named text, whose slots have the type arguments in
// place of its parameters; nil when text has no arguments or they do not
// match the parameters.
func instantiate(t *Type, text string) *Type {
	base := baseName(text)
	if len(t.Params) == 0 || base == text || !strings.HasSuffix(text, "]") {
		return nil
	}
	args := splitArgs(text[len(base)+1 : len(text)-1])
	if len(args) != len(t.Params) {
		return nil
	}
	with := map[string]string{}
	for i, a := range args {
		with[t.Params[i]] = a
	}
	inst := *t
	inst.Name, inst.Params = text, nil
	inst.Slots = slices.Clone(t.Slots)
	for i := range inst.Slots {
		inst.Slots[i].Kind = substitute(inst.Slots[i].Kind, with)
	}
	if inst.Value != "" {
		inst.Value = substitute(inst.Value, with)
	}
	return &inst
}

// splitArgs splits type arguments at their own commas.
func splitArgs(s string) []string {
	var args []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(args, strings.TrimSpace(s[start:]))
}

// substitute replaces the identifiers of kind text that with names (type
// parameters) by their values, leaving every other identifier (a
// package-qualified name, a longer name) as it is.
func substitute(text string, with map[string]string) string {
	var b strings.Builder
	isID := func(ch byte) bool {
		return ch == '_' || ch == '.' || ch == '/' || ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= 0x80
	}
	for i := 0; i < len(text); {
		if !isID(text[i]) {
			b.WriteByte(text[i])
			i++
			continue
		}
		j := i
		for j < len(text) && isID(text[j]) {
			j++
		}
		if v, ok := with[text[i:j]]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(text[i:j])
		}
		i = j
	}
	return b.String()
}

// use names a prelude rule.
func (c *cddlType) use(name string) string {
	c.used[name] = true
	return name
}

func (c *cddlType) write(b *strings.Builder, t *Type) {
	name := ruleName(t.Name)
	// The choice of alts, each in the type's tag (and without it too when
	// the tag is optional): #6.132(Order-array) / #6.132(Order-legacy).
	wrap := func(alts ...string) string {
		if !t.HasTag {
			return strings.Join(alts, " / ")
		}
		var out []string
		for _, a := range alts {
			out = append(out, fmt.Sprintf("#6.%d(%s)", t.Tag, a))
		}
		if t.TagOptional {
			out = append(out, alts...)
		}
		return strings.Join(out, " / ")
	}
	if len(t.Params) > 0 {
		fmt.Fprintf(b, "; %s[%s] is generic: its own rule has any for %s, and each use has a rule of\n; its own below, with the type arguments in place (%s-%s for %s[%s]).\n",
			t.Name, strings.Join(t.Params, ", "), strings.Join(t.Params, ", "), name, strings.Join(slices.Repeat([]string{"X"}, len(t.Params)), "-"),
			t.Name, strings.Join(slices.Repeat([]string{"X"}, len(t.Params)), ", "))
	}
	if t.Body {
		fmt.Fprintf(b, "; %s is //cborgen:body: its own MarshalCBOR and UnmarshalCBOR write and read\n; what follows, and may check or add more around it.\n", t.Name)
	}
	switch {
	case t.CatchAll:
		fmt.Fprintf(b, "; %s: the catch-all variant of its union, any item the others do not take.\n", t.Name)
		fmt.Fprintf(b, "%s = any\n", name)
	case t.Value != "":
		fmt.Fprintf(b, "; %s: a named %s.\n", t.Name, shortKind(t.Value))
		k := parseKind(t.Value)
		typ := c.kindOf(k)
		if t.HasTag && nilable(t.Value) {
			// A nil value is written as null, without the tag.
			alts := splitChoice(typ)
			typ = strings.Join(slices.DeleteFunc(alts, func(a string) bool { return a == "null" }), " / ")
			fmt.Fprintf(b, "%s = %s / null\n", name, wrap(typ))
			break
		}
		if len(splitChoice(typ)) > 1 && t.HasTag {
			typ = "(" + typ + ")"
		}
		fmt.Fprintf(b, "%s = %s\n", name, wrap(typ))
	case t.opaque():
		fmt.Fprintf(b, "; %s: the record does not describe its encoding (a named type of another kind).\n", t.Name)
		fmt.Fprintf(b, "%s = %s\n", name, wrap("any"))
	case t.Map:
		if t.Unknown != "" {
			fmt.Fprintf(b, "; %s: a map of its keys (//cborgen:map); unknown keys are kept in %s and written back.\n", t.Name, t.Unknown)
		} else {
			fmt.Fprintf(b, "; %s: a map of its keys (//cborgen:map); unknown keys are skipped.\n", t.Name)
		}
		fmt.Fprintf(b, "%s = %s\n", name, wrap(name+"-map"))
		c.keyedRule(b, name+"-map", t, false)
	default:
		n := len(t.Slots)
		count := strconv.Itoa(n)
		if t.Required < n {
			count = fmt.Sprintf("%d to %d", t.Required, n)
		}
		if t.HasOptional {
			count += fmt.Sprintf(" elements (zero fields from slot %d on left out at the end)", t.Optional)
		} else {
			count += " elements"
		}
		if t.NoLegacy {
			fmt.Fprintf(b, "; %s: an array of %s.\n", t.Name, count)
			fmt.Fprintf(b, "%s = %s\n", name, wrap(name+"-array"))
		} else {
			fmt.Fprintf(b, "; %s: an array of %s, or its legacy map (whose text keys the\n; decoder also matches by case folding).\n", t.Name, count)
			fmt.Fprintf(b, "%s = %s\n", name, wrap(name+"-array", name+"-legacy"))
		}
		fmt.Fprintf(b, "%s-array = [\n", name)
		// With //cborgen:optional, the elements that may be missing are
		// trailing groups, each inside the one before: ? (a, ? (b)).
		nested := 0
		for i, s := range t.Slots {
			opt, indent := "", strings.Repeat("  ", nested)
			if i >= t.Required && t.HasOptional {
				fmt.Fprintf(b, "  %s? (\n", indent)
				nested++
				indent += "  "
			} else if i >= t.Required {
				opt = "? "
			}
			member, typ := cddlID(s.Name), c.kind(s.Kind)
			note := strconv.Itoa(i)
			if s.Reserved {
				member, typ = fmt.Sprintf("reserved%d", i), "any"
				note += ": reserved"
				if s.Name != "" {
					note += ", was " + s.Name
				}
			}
			fmt.Fprintf(b, "  %s%s%s: %s,  ; %s\n", indent, opt, member, typ, note)
		}
		for ; nested > 0; nested-- {
			fmt.Fprintf(b, "  %s),\n", strings.Repeat("  ", nested-1))
		}
		if t.Extensible && t.Unknown != "" {
			fmt.Fprintf(b, "  * any,  ; elements of newer versions, kept in %s and written back\n", t.Unknown)
		} else if t.Extensible {
			b.WriteString("  * any,  ; elements of newer versions, skipped\n")
		}
		b.WriteString("]\n")
		if !t.NoLegacy {
			c.keyedRule(b, name+"-legacy", t, true)
		}
	}
}

// keyedRule writes the map of t: the legacy map of an array type, or a
// map type's map. Every key is optional; unknown keys are skipped.
func (c *cddlType) keyedRule(b *strings.Builder, name string, t *Type, legacy bool) {
	fmt.Fprintf(b, "%s = {\n", name)
	for _, s := range t.Slots {
		if s.Reserved || !s.HasKey {
			continue
		}
		key := strconv.FormatInt(s.Key.Int, 10)
		if !s.Key.IsInt {
			key = cddlText(s.Key.Text)
		}
		fmt.Fprintf(b, "  ? %s => %s,  ; %s\n", key, c.kind(s.Kind), s.Name)
	}
	if t.Map && t.Unknown != "" {
		b.WriteString("  * tstr => any,  ; other keys, kept in " + t.Unknown + "\n")
		b.WriteString("  * int => any,\n")
	} else {
		b.WriteString("  * tstr => any,  ; other keys are skipped\n")
		b.WriteString("  * int => any,\n")
	}
	b.WriteString("}\n")
}

// cddlText writes a text string as a CDDL text literal: printable ASCII
// but for the quote and backslash, else a \u escape.
func cddlText(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// kind is the CDDL type of a wire kind.
func (c *cddlType) kind(text string) string {
	return c.kindOf(parseKind(text))
}

// inner writes the kind of an element, a key or a value. A choice there
// goes in parentheses, and an array or map within it into a rule of its
// own named after its Go kind (slice-string for []string): what every
// CDDL parser reads.
func (c *cddlType) inner(k *kind) string {
	text := c.kindOf(k)
	alts := splitChoice(text)
	if len(alts) == 1 {
		return text
	}
	base := k
	for base.form == pointerKind {
		base = base.elem
	}
	for i, a := range alts {
		if strings.HasPrefix(a, "[") || strings.HasPrefix(a, "{") {
			name := goKindRule(base.text)
			c.hoisted[name] = a
			alts[i] = name
		}
	}
	return "(" + strings.Join(alts, " / ") + ")"
}

// key writes the kind of a map's key: a name, or a rule of its own named
// after its Go kind when it is more (a choice, a type with a control
// operator: float16-32 = float16 / float32, array32-byte = bstr .size 32),
// which RFC 8610 allows before "=>" but not every parser reads there (nor
// a choice with a control operator after it, which kindOf hoists too).
func (c *cddlType) key(k *kind) string {
	text := c.inner(k)
	if !strings.ContainsAny(text, " ()") {
		return text
	}
	return c.hoist(k, text)
}

// hoist names text, the CDDL of k, with a rule of its own named after
// k's Go kind, and returns the name; a pointer's name is its element's
// when text has no null (a map's key).
func (c *cddlType) hoist(k *kind, text string) string {
	base := k
	if !strings.Contains(text, "null") {
		for base.form == pointerKind {
			base = base.elem
		}
	}
	name := goKindRule(base.text)
	c.hoisted[name] = strings.TrimSuffix(strings.TrimPrefix(text, "("), ")")
	return name
}

// splitChoice splits a type at its own " / ", not at those within
// parentheses, arrays or maps.
func splitChoice(s string) []string {
	var alts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '/':
			if depth == 0 && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ' {
				alts = append(alts, s[start:i-1])
				start = i + 2
			}
		}
	}
	return append(alts, s[start:])
}

// goKindRule names a Go kind as a CDDL rule: *T is ptr-T, []T slice-T,
// [N]T arrayN-T, map[K]V map-K-V.
func goKindRule(text string) string {
	k := parseKind(text)
	switch k.form {
	case pointerKind:
		return "ptr-" + goKindRule(k.elem.text)
	case listKind:
		if k.n >= 0 {
			return fmt.Sprintf("array%d-%s", k.n, goKindRule(k.elem.text))
		}
		return "slice-" + goKindRule(k.elem.text)
	case mapKind:
		return "map-" + goKindRule(k.key.text) + "-" + goKindRule(k.elem.text)
	}
	if text == "float32" {
		return "float16-32" // not float32, the prelude's
	}
	if base := baseName(text); base != text && strings.HasSuffix(text, "]") {
		// A use of a generic type: Pair-string-Item for Pair[string, Item].
		name := ruleName(base)
		for _, a := range splitArgs(text[len(base)+1 : len(text)-1]) {
			name += "-" + goKindRule(a)
		}
		return cddlID(name)
	}
	return cddlID(shortKind(text))
}

// kindOf writes k.
func (c *cddlType) kindOf(k *kind) string {
	// A choice needs no parentheses where a kind goes (a member, an
	// element, a map's key or value), and a choice within a choice is
	// one choice: null appears once.
	group := func(s string) string {
		alts := splitChoice(s)
		out := alts[:0]
		for _, a := range alts {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
		return strings.Join(out, " / ")
	}
	switch k.form {
	case pointerKind:
		return group(c.kindOf(k.elem) + " / null")
	case listKind:
		if k.elem.text == "byte" {
			if k.n >= 0 {
				return fmt.Sprintf("bstr .size %d", k.n)
			}
			return group("bstr / null")
		}
		elem := c.inner(k.elem)
		if k.n >= 0 {
			return fmt.Sprintf("[%d*%d %s]", k.n, k.n, elem)
		}
		// null first: some parsers take a choice after an array or a
		// map within an array member for a member of its own.
		return group("null / [* " + elem + "]")
	case mapKind:
		elem := c.inner(k.elem)
		if strings.HasPrefix(elem, "(") && strings.Contains(elem, " .") {
			// A choice with a control operator: (bstr .size 32 / null).
			elem = c.hoist(k.elem, elem)
		}
		return group(fmt.Sprintf("null / {* %s => %s}", c.key(k.key), elem))
	}
	if r, ok := intKinds[k.text]; ok {
		switch {
		case r.bits == 64 && !r.signed:
			return "uint"
		case r.signed:
			return c.use(fmt.Sprintf("int%d", r.bits))
		}
		return c.use(fmt.Sprintf("uint%d", r.bits))
	}
	switch k.text {
	case "bool":
		return "bool"
	case "string":
		return "tstr"
	case "float64":
		return "float"
	case "float32":
		return group("float16 / float32") // the shortest form that holds the value
	}
	if isTime(k.text) {
		return c.use("cborgen-time")
	}
	if isBigInt(k.text) {
		return "integer"
	}
	name := baseName(k.text)
	if t := c.s.Types[name]; t != nil && len(t.Params) > 0 {
		return c.instance(k.text, t)
	}
	if c.s.Types[name] != nil || c.s.Unions[name] != nil {
		return ruleName(name)
	}
	return "any"
}

// rules lists the rule names of the CDDL text, in order, with the member
// names of each array rule: what a test compares with the record.
func rules(text string) (names []string, members map[string][]string) {
	members = map[string][]string{}
	current := ""
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, ";") || l == "":
		case strings.HasSuffix(l, "= ["):
			current = strings.TrimSuffix(l, "-array = [")
			names = append(names, current)
		case strings.HasPrefix(l, "  * ") && current != "": // the elements of newer versions
		case (strings.TrimSpace(l) == "? (" || strings.TrimSpace(l) == "),") && current != "": // optional trailing groups
		case strings.HasPrefix(l, "  ") && current != "":
			m, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(l), "? "), ":")
			members[current] = append(members[current], m)
		case l == "]":
			current = ""
		default:
			if name, _, ok := strings.Cut(l, " = "); ok && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	return names, members
}

// cases lists the //cborgen:case of each variant of u: "StakeReg 0,
// StakeDereg 1", the catch-all as such.
func cases(s *Schema, u *Union) string {
	var parts []string
	for _, name := range u.Variants {
		switch t := s.Types[name]; {
		case t != nil && t.HasCase:
			parts = append(parts, name+" "+t.Case.String())
		case t != nil && t.CatchAll:
			parts = append(parts, name+" any other")
		}
	}
	return strings.Join(parts, ", ")
}
