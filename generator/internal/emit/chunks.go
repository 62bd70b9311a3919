package emit

import (
	"bytes"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The code of a large output is built and rendered by jennifer in chunks
// at once, one per CPU: each chunk is a jennifer file of its own with the
// code of a run of consecutive types, and the chunks' bodies are joined
// behind the header and the imports of them all. The result is the same
// byte for byte as rendering one file with every type:
//
//   - jennifer renders a file's items one after the other, each behind a
//     new line, so the bodies of consecutive chunks join by concatenation;
//   - each chunk names an import as the one file would, as long as the
//     chunks agree on every import's name and no two imports share one:
//     jennifer names an import by its hint (its package name, or an
//     alias) and numbers it only when another import took that name
//     first, which then shows as two imports with one name, or as chunks
//     that disagree. Then the output is rendered as one file instead.
const minChunkStructs = 32 // fewer types than this per chunk are not worth a goroutine

// ChunksForTests, when set, is the number of chunks of every output, so that
// the tests render small outputs in chunks too.
var ChunksForTests int

// emitChunks is the number of chunks the code of n types is rendered in.
func emitChunks(n int) int {
	if ChunksForTests > 0 {
		return ChunksForTests
	}
	return max(min(goruntime.GOMAXPROCS(0), model.MaxParts, n/minChunkStructs), 1)
}

// renderChunks renders the code of f, unformatted, in at most chunks
// chunks at once.
func renderChunks(f *model.File, chunks int) ([]byte, error) {
	if chunks < 2 || len(f.Structs) < 2 {
		return renderOne(f, 0, len(f.Structs), true, true)
	}
	chunks = min(chunks, len(f.Structs))
	texts := make([][]byte, chunks)
	errs := make([]error, chunks)
	var wg sync.WaitGroup
	for i := range chunks {
		from, to := i*len(f.Structs)/chunks, (i+1)*len(f.Structs)/chunks
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts[i], errs[i] = renderOne(f, from, to, i == 0, i == chunks-1)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return renderOne(f, 0, len(f.Structs), true, true)
		}
	}
	if joined, ok := joinChunks(texts, importNames(f)); ok {
		return joined, nil
	}
	return renderOne(f, 0, len(f.Structs), true, true)
}

// joinChunks joins rendered chunks into the text one file of them all
// renders as, or reports false when they name their imports differently
// (see above).
func joinChunks(texts [][]byte, hinted map[string]string) ([]byte, bool) {
	var head []byte
	names := map[string]string{} // import line by path
	byName := map[string]string{}
	bodies := make([][]byte, len(texts))
	for i, text := range texts {
		h, imports, body, ok := cutRendered(text)
		if !ok || (i > 0 && !bytes.Equal(h, head)) {
			return nil, false
		}
		head, bodies[i] = h, body
		for _, line := range imports {
			name, path, ok := importLine(line, hinted)
			if !ok {
				return nil, false
			}
			if prev, seen := names[path]; seen && prev != line {
				return nil, false
			}
			if other, seen := byName[name]; seen && other != path {
				return nil, false
			}
			names[path], byName[name] = line, path
		}
	}
	paths := make([]string, 0, len(names))
	for path := range names {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	var out bytes.Buffer
	out.Write(head)
	switch len(paths) {
	case 0:
	case 1:
		out.WriteString("import " + names[paths[0]] + "\n\n")
	default:
		out.WriteString("import (\n")
		for _, path := range paths {
			out.WriteString(names[path] + "\n")
		}
		out.WriteString(")\n\n")
	}
	for _, body := range bodies {
		out.Write(body)
	}
	return out.Bytes(), true
}

// cutRendered cuts a file jennifer rendered into its head (header
// comments and package clause, with the blank line after it), its import
// lines (`name "path"` or `"path"`) and its body.
func cutRendered(text []byte) (head []byte, imports []string, body []byte, ok bool) {
	i := bytes.Index(text, []byte("\npackage "))
	if i < 0 {
		return nil, nil, nil, false
	}
	j := bytes.Index(text[i+1:], []byte("\n\n"))
	if j < 0 {
		return nil, nil, nil, false
	}
	end := i + 1 + j + 2
	head, rest := text[:end], text[end:]
	switch {
	case bytes.HasPrefix(rest, []byte("import (\n")):
		k := bytes.Index(rest, []byte("\n)\n\n"))
		if k < 0 {
			return nil, nil, nil, false
		}
		imports = strings.Split(string(rest[len("import (\n"):k]), "\n")
		rest = rest[k+len("\n)\n\n"):]
	case bytes.HasPrefix(rest, []byte("import ")):
		k := bytes.Index(rest, []byte("\n\n"))
		if k < 0 {
			return nil, nil, nil, false
		}
		imports = []string{string(rest[len("import "):k])}
		rest = rest[k+2:]
	}
	return head, imports, rest, true
}

// importLine splits an import line as jennifer renders it into the name
// the file uses and the path. An import without an alias has the name
// hinted gives it, or else (a standard library package) the last element
// of its path; it is not ok when that element is a major version, which
// a standard library package is not named by (math/rand/v2).
func importLine(line string, hinted map[string]string) (name, path string, ok bool) {
	alias, quoted, found := strings.Cut(line, " ")
	if !found {
		alias, quoted = "", line
	}
	path, err := strconv.Unquote(quoted)
	if err != nil {
		return "", "", false
	}
	if alias != "" {
		return alias, path, true
	}
	if name, ok := hinted[path]; ok {
		return name, path, true
	}
	last := path[strings.LastIndex(path, "/")+1:]
	if len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		return "", "", false
	}
	return last, path, true
}
