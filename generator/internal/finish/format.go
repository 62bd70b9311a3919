package finish

import (
	"bytes"
	"go/format"
	"go/parser"
	"go/token"
	"sync"
)

// formatSource is format.Source for rendered code, with a large source
// formatted in parts at once, one per CPU; the result is the same byte
// for byte.
//
// gofmt formats each top-level function on its own: between two of them
// it keeps at most one blank line, and a blank line ends every alignment
// of columns. So the source is cut where a function ends at a line of its
// own and a blank line follows, before the next function (or its doc
// comment); each part after the first is formatted behind a bare package
// clause, which is taken off again, and the parts are joined with the
// blank line that gofmt would have kept. A part that does not format (a
// cut that is not between functions cannot parse) sends the whole source
// to format.Source, so errors read as its errors.
//
// Output uses it when it cannot format a large output in the parts
// it type-checks too.
func formatSource(src []byte) ([]byte, error) {
	return formatParts(src, checkParts(len(src)))
}

// formatParts is formatSource in at most parts parts.
func formatParts(src []byte, parts int) ([]byte, error) {
	if texts, clause := cutFunctions(src, parts); len(texts) > 1 {
		if out, ok := formatCut(texts, clause); ok {
			return out, nil
		}
	}
	return format.Source(src)
}

// formatCut formats the texts of cutFunctions at once and joins them. It
// reports false when a part does not format or does not start and end
// as a part cut between functions does.
func formatCut(texts [][]byte, clause []byte) ([]byte, bool) {
	out := make([][]byte, len(texts))
	ok := make([]bool, len(texts))
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 0 {
				text = append(append([]byte{}, clause...), text...)
			}
			res, err := format.Source(text)
			if err != nil {
				return
			}
			if i > 0 {
				// A part starts with its function or its doc comment,
				// right after the clause and one blank line.
				rest, found := bytes.CutPrefix(res, clause)
				if !found || len(rest) == 0 || rest[0] == '\n' {
					return
				}
				res = rest
			}
			if i < len(texts)-1 && !bytes.HasSuffix(res, []byte("}\n")) {
				return
			}
			out[i], ok[i] = res, true
		}()
	}
	wg.Wait()
	size := 0
	for i := range out {
		if !ok[i] {
			return nil, false
		}
		size += len(out[i]) + 1
	}
	joined := make([]byte, 0, size)
	for i, res := range out {
		if i > 0 {
			joined = append(joined, '\n')
		}
		joined = append(joined, res...)
	}
	return joined, true
}

// cutFunctions cuts src into at most parts texts of about the same size,
// each cut at the start of a line that begins a function ("func") or a
// comment ("//") and follows a line holding only "}" (and spaces), then a
// blank line. It returns the package clause (with the blank line that
// follows it) that the parts after the first are formatted behind, or nil
// when there is nothing to cut.
func cutFunctions(src []byte, parts int) (texts [][]byte, clause []byte) {
	if parts < 2 {
		return nil, nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly)
	if err != nil {
		return nil, nil
	}
	clause = []byte("package " + f.Name.Name + "\n\n")
	from := 0
	for k := 1; k < parts; k++ {
		at := max(k*len(src)/parts, from)
		cut := nextCut(src, at)
		if cut < 0 {
			break
		}
		texts = append(texts, src[from:cut])
		from = cut
	}
	if len(texts) == 0 {
		return nil, nil
	}
	return append(texts, src[from:]), clause
}

// nextCut is the first offset at or after at where cutFunctions may cut,
// or -1.
func nextCut(src []byte, at int) int {
	for {
		i := bytes.Index(src[at:], []byte("\n}"))
		if i < 0 {
			return -1
		}
		j := at + i + 2
		at = j
		for j < len(src) && src[j] == ' ' {
			j++
		}
		if !bytes.HasPrefix(src[j:], []byte("\n\n")) {
			continue
		}
		j += 2
		line := bytes.TrimLeft(src[j:], " \t")
		if bytes.HasPrefix(line, []byte("func ")) || bytes.HasPrefix(line, []byte("//")) {
			return j
		}
	}
}
