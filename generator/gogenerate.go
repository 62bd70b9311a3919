package generator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// The //go:generate lines that run cbor-gen, read as go generate reads
// them. One reader serves every use: -check ./... (each package checked
// with its line's arguments), the command a message tells the user to run
// (the line go generate is running), the golden tests (a case's flags),
// and pending generation (the types another package's line will
// generate).

// A generateDirective is a //go:generate line that runs cbor-gen.
type generateDirective struct {
	file    string   // the Go file that holds it
	line    int      // its line number, from 1
	command []string // the words that run cbor-gen: go tool cbor-gen
	args    []string // cbor-gen's arguments, as go generate passes them
}

// maxDirective is the longest //go:generate line read; go generate
// refuses longer ones. Other lines may be of any length.
const maxDirective = 64 << 10

// fileDirectives returns the //go:generate lines of the Go file name that
// run cbor-gen.
func fileDirectives(name string) ([]generateDirective, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readDirectives(f, name, func() string { return packageClause(name) })
}

// readDirectives reads the //go:generate lines that run cbor-gen from
// the Go source r of the file name, whose package clause pkgName returns.
// Each line's words are split as go
// generate splits them (double-quoted Go strings are single words), a
// -command line defines a shorthand for the lines after it in the file,
// and $NAME and ${NAME} are expanded with the variables go generate sets
// ($GOFILE, $GOLINE, $GOPACKAGE, $GOOS, $GOARCH, $DOLLAR) or else the
// environment.
func readDirectives(r io.Reader, name string, pkgName func() string) ([]generateDirective, error) {
	br := bufio.NewReaderSize(r, 4096)
	var found []generateDirective
	shorthands := map[string][]string{}
	for n := 1; ; n++ {
		line, err := readLine(br)
		if isDirective(line) {
			if words, ok := generateWords(string(line), n, name, pkgName, shorthands); ok {
				if cmd, args, ok := splitInvocation(words); ok {
					found = append(found, generateDirective{file: name, line: n, command: cmd, args: args})
				}
			}
		}
		if err == io.EOF {
			return found, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", model.RelPath(name), n, err)
		}
	}
}

// readLine returns the next line of br without its line ending, valid
// until the next read. Of a line longer than br's buffer that is not a
// //go:generate directive, only its start is returned (it is read
// through, whatever its length: a test file may hold a line of a
// megabyte); a directive longer than maxDirective is an error, as go
// generate makes it.
func readLine(br *bufio.Reader) ([]byte, error) {
	chunk, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return bytes.TrimRight(chunk, "\r\n"), err
	}
	if !isDirective(chunk) {
		for err == bufio.ErrBufferFull {
			_, err = br.ReadSlice('\n')
		}
		return nil, err
	}
	line := append([]byte(nil), chunk...)
	for err == bufio.ErrBufferFull {
		chunk, err = br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxDirective {
			return nil, errors.New("//go:generate directive too long")
		}
	}
	return bytes.TrimRight(line, "\r\n"), err
}

// isDirective reports whether line starts a //go:generate directive (go
// generate takes a space or a tab after the word).
func isDirective(line []byte) bool {
	return bytes.HasPrefix(line, []byte("//go:generate ")) || bytes.HasPrefix(line, []byte("//go:generate\t"))
}

// generateWords splits the //go:generate line at line number n of file
// into the words of its command, as go generate does: on spaces and tabs,
// a double-quoted Go string as one word, the first word replaced by its
// -command shorthand, then each word expanded. A -command line records
// its shorthand and has no words; so has any other line.
func generateWords(line string, n int, file string, pkgName func() string, shorthands map[string][]string) ([]string, bool) {
	if !isDirective([]byte(line)) {
		return nil, false
	}
	rest := line[len("//go:generate "):]
	var words []string
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		if rest[0] == '"' {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil || len(q) < len(rest) && rest[len(q)] != ' ' && rest[len(q)] != '\t' {
				return nil, false // go generate stops with an error
			}
			w, _ := strconv.Unquote(q)
			words = append(words, w)
			rest = rest[len(q):]
			continue
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		words = append(words, rest[:end])
		rest = rest[end:]
	}
	if len(words) == 0 {
		return nil, false
	}
	if sub, ok := shorthands[words[0]]; ok {
		words = append(append([]string{}, sub...), words[1:]...)
	}
	expand := func(v string) string {
		switch v {
		case "GOFILE":
			return filepath.Base(file)
		case "GOLINE":
			return strconv.Itoa(n)
		case "GOPACKAGE":
			return pkgName()
		case "DOLLAR":
			return "$"
		case "GOOS":
			if s := os.Getenv(v); s != "" {
				return s
			}
			return runtime.GOOS
		case "GOARCH":
			if s := os.Getenv(v); s != "" {
				return s
			}
			return runtime.GOARCH
		}
		return os.Getenv(v)
	}
	for i, w := range words {
		words[i] = os.Expand(w, expand)
	}
	if words[0] == "-command" {
		if len(words) >= 2 {
			shorthands[words[1]] = words[2:]
		}
		return nil, false
	}
	return words, true
}

// packageClause is the package name of the Go file name, for $GOPACKAGE
// (go generate gives the name of the package, which a _test.go file may
// name with _test).
func packageClause(name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly)
	if err != nil {
		return ""
	}
	return f.Name.Name
}

// splitInvocation splits the words of a //go:generate line into the
// invocation of cbor-gen and its arguments, and reports whether the
// line runs cbor-gen at all: "go tool cbor-gen", "go tool
// github.com/cborgen/cborgen/cmd/cbor-gen", "go run [build flags]
// .../cmd/cbor-gen[@version]", or a cbor-gen binary ("cbor-gen" on PATH,
// or a path to one).
func splitInvocation(words []string) (cmd, args []string, ok bool) {
	isGen := func(w string) bool {
		w, _, _ = strings.Cut(w, "@")
		w = strings.TrimSuffix(filepath.ToSlash(w), ".exe")
		return w == "cbor-gen" || strings.HasSuffix(w, "/cbor-gen")
	}
	switch {
	case len(words) == 0:
		return nil, nil, false
	case words[0] == "go" && len(words) >= 3 && (words[1] == "tool" || words[1] == "run"):
		for i := 2; i < len(words); i++ {
			if w := words[i]; strings.HasPrefix(w, "-") {
				// A flag of go run or go tool; those of go run's build
				// flags that take a value may have it in the next word.
				name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
				if !hasValue && goValueFlags[name] {
					i++
				}
				continue
			}
			if !isGen(words[i]) {
				return nil, nil, false
			}
			return words[:i+1], words[i+1:], true
		}
		return nil, nil, false
	case isGen(words[0]):
		return words[:1], words[1:], true
	}
	return nil, nil, false
}

// goValueFlags are the flags of go run (the build flags) that take a
// value.
var goValueFlags = map[string]bool{
	"C": true, "p": true, "covermode": true, "coverpkg": true, "asmflags": true, "buildmode": true,
	"compiler": true, "gccgoflags": true, "gcflags": true, "installsuffix": true, "ldflags": true,
	"mod": true, "modfile": true, "overlay": true, "pgo": true, "pkgdir": true, "tags": true,
	"toolexec": true, "exec": true, "o": true,
}

// packageDirectives returns the //go:generate lines that run cbor-gen in
// the package in dir: in its Go files goFiles and its test files, which go
// generate reads too, in file name order.
func packageDirectives(dir string, goFiles []string) ([]generateDirective, error) {
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	seen := map[string]bool{}
	var files []string
	for _, f := range append(append([]string{}, goFiles...), tests...) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	sort.Strings(files)
	var all []generateDirective
	for _, name := range files {
		found, err := fileDirectives(name)
		if err != nil {
			return nil, err
		}
		all = append(all, found...)
	}
	return all, nil
}
