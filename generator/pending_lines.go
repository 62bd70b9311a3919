package generator

import (
	"bufio"
	"os"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
)

// pendingRuns returns the answer to build.Options.Pending for a run in
// the package directory dir with buildFlags: the -type lists of the
// //go:generate lines of another package that run cbor-gen.
func pendingRuns(dir string, buildFlags []string) func(path string) [][]string {
	return func(path string) [][]string {
		var runs [][]string
		for _, line := range generateLines(dir, buildFlags, path) {
			types, ok := typeFlag(line)
			if !ok {
				runs = append(runs, nil) // the default selection
				continue
			}
			var names []string
			for _, name := range strings.Split(types, ",") {
				names = append(names, strings.TrimSpace(name))
			}
			runs = append(runs, names)
		}
		return runs
	}
}

// generateLines returns the arguments of the //go:generate lines in the
// package at path that run cbor-gen.
func generateLines(dir string, buildFlags []string, path string) []string {
	files, ok := load.GoFiles(dir, buildFlags, path)
	if !ok {
		return nil
	}
	var lines []string
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "//go:generate ") {
				continue
			}
			fields := strings.Fields(line)
			for i, word := range fields {
				if word == "cbor-gen" || strings.HasSuffix(word, "/cbor-gen") {
					lines = append(lines, strings.Join(fields[i+1:], " "))
					break
				}
			}
		}
		f.Close()
	}
	return lines
}

// typeFlag returns the value of the -type flag in a cbor-gen argument
// list, and whether there is one.
func typeFlag(args string) (string, bool) {
	fields := strings.Fields(args)
	for i, f := range fields {
		f = strings.TrimPrefix(f, "-")
		switch {
		case f == "-type" || f == "type":
			if i+1 < len(fields) {
				return fields[i+1], true
			}
		case strings.HasPrefix(f, "type=") || strings.HasPrefix(f, "-type="):
			return f[strings.Index(f, "=")+1:], true
		}
	}
	return "", false
}
