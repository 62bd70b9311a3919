package diag

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Options say how Decode writes the notation.
type Options struct {
	Plain  bool   // plain notation, one item a line, without the annotations
	Limits Limits // zero: DefaultLimits
	// Out, if set, receives the notation item by item, so that a long
	// CBOR sequence costs the memory of its largest item; Result.Text is
	// then empty.
	Out io.Writer
}

// Problem is something in the data that the generated decoder refuses:
// a wrong type, an integer out of range, an array of the wrong length.
type Problem struct {
	Offset int    // of the item in the input
	Path   string // where in the value: Order.Items[1].SKU
	Msg    string
}

func (p Problem) String() string { return fmt.Sprintf("offset %d: %s: %s", p.Offset, p.Path, p.Msg) }

// Result is what Decode found.
type Result struct {
	Text     []byte       // the notation, one line per element in the annotated form (unless Options.Out)
	Items    int          // the number of items read (a CBOR sequence may hold several)
	Problems []Problem    // what the generated decoder would refuse, the first maxProblems of them
	More     int          // the number of problems past those
	Err      *SyntaxError // the input is not well-formed CBOR within the limits; Text goes up to there
}

// OK reports whether the generated decoder takes every item: at least one
// item, well-formed, with no problem.
func (r *Result) OK() bool { return r.Items > 0 && r.Err == nil && len(r.Problems) == 0 }

// Decode reads a CBOR item, or a sequence of them, as values of the type
// or union named typeName, and writes it in diagnostic notation annotated
// with the slots, keys and variants of the schema s. The annotations are
// comments of the notation itself (/ ... /), so the text reads back as
// the same items.
func Decode(s *Schema, typeName string, data []byte, opt Options) (*Result, error) {
	if s.Types[typeName] == nil && s.Unions[typeName] == nil {
		return nil, fmt.Errorf("type %s is not in the schema record (it records %s)", typeName, strings.Join(s.names(), ", "))
	}
	lim := opt.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	p := &parser{data: data, lim: lim}
	w := &walker{s: s, data: data}
	res := &Result{}
	var out []byte
	k := &kind{text: typeName}
	for p.off < len(data) {
		n := p.item(0)
		res.Items++
		if n.headless {
			break // not even a head: the error says where
		}
		lines := w.value(n, k, where{path: typeName})
		if opt.Plain {
			out = plain(out, n)
			out = append(out, '\n')
		} else {
			out = render(out, lines)
		}
		if p.err != nil {
			break
		}
		if err := flush(opt.Out, &out); err != nil {
			return nil, err
		}
	}
	res.Problems, res.More = w.probs, w.more
	res.Err = p.err
	if p.err != nil && !opt.Plain {
		out = append(out, "/ "...)
		out = append(out, sanitize("not well-formed at "+p.err.Error())...)
		out = append(out, " /\n"...)
	}
	if err := flush(opt.Out, &out); err != nil {
		return nil, err
	}
	res.Text = out
	return res, nil
}

// flush writes the text so far to w, if there is one, and empties it.
func flush(w io.Writer, text *[]byte) error {
	if w == nil || len(*text) == 0 {
		return nil
	}
	_, err := w.Write(*text)
	*text = (*text)[:0]
	return err
}

func (s *Schema) names() []string {
	var names []string
	for name := range s.Types {
		names = append(names, name)
	}
	for name := range s.Unions {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// line is one line of the annotated notation.
type line struct {
	depth   int
	text    string
	comment string
}

// render writes lines with their comments aligned.
func render(b []byte, lines []line) []byte {
	col := 0
	for _, l := range lines {
		if l.comment != "" {
			col = max(col, 2*l.depth+utf8.RuneCountInString(l.text))
		}
	}
	col = min(col, 40) + 2
	for _, l := range lines {
		start := len(b)
		for range l.depth {
			b = append(b, "  "...)
		}
		b = append(b, l.text...)
		if l.comment != "" {
			w := utf8.RuneCount(b[start:])
			for pad := max(col-w, 1); pad > 0; pad-- {
				b = append(b, ' ')
			}
			b = append(b, "/ "...)
			b = append(b, sanitize(l.comment)...)
			b = append(b, " /"...)
		}
		b = append(b, '\n')
	}
	return b
}

// sanitize keeps a comment a comment: the notation ends one at a slash.
func sanitize(s string) string { return strings.ReplaceAll(s, "/", "|") }

// where is the position of an item in the value being decoded.
type where struct {
	label string // the slot or key: "2: Price"
	path  string // Order.Items[1]
	skip  bool   // the decoder skips the item unread (a reserved slot, an unknown key)
	via   string // the union whose variant this is
	// tagged: a tag other than 55799 is in front of the item, which the
	// decoder skipped; null there is not the null of a nilable kind.
	tagged bool
}

func (at where) at(label, path string) where { return where{label: label, path: path, skip: at.skip} }

// nullable reports whether n is the null that a nil pointer, slice or map
// is written as: null or undefined, with no tag but 55799 in front.
func (at where) nullable(n *node) bool { return n.isNull() && !at.tagged }

// walker annotates items from the schema and collects problems.
type walker struct {
	s     *Schema
	data  []byte // the input, which the nodes' offsets index
	probs []Problem
	more  int // problems past maxProblems
}

// bad records a problem at n and returns its text for the comment.
func (w *walker) bad(n *node, at where, format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	if len(w.probs) < maxProblems {
		w.probs = append(w.probs, Problem{Offset: n.off, Path: at.path, Msg: msg})
	} else {
		w.more++
	}
	return msg
}

// maxProblems is the most problems a Result lists; the notation marks
// every one.
const maxProblems = 1000

func join(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p == "" {
			continue
		}
		switch {
		case b.Len() > 0 && p[0] == '(':
			b.WriteByte(' ')
		case b.Len() > 0:
			b.WriteString(": ")
		}
		b.WriteString(p)
	}
	return b.String()
}

// one is n on one line.
func one(n *node, comment string) []line {
	return []line{{text: string(plain(nil, n)), comment: comment}}
}
