package finish

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/build"
	"github.com/cborgen/cborgen/generator/internal/emit"
	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// output is a generated file, as the tests read it.
type output struct{ Source []byte }

// generated runs the stages up to the output of the package in dir,
// with the default settings: what Render gives with no schema record.
func generated(tb testing.TB, dir string) (*output, error) {
	tb.Helper()
	l, err := load.Load(dir, "", nil, false)
	if err != nil {
		return nil, err
	}
	tm, err := model.ParseTimeOptions("", false)
	if err != nil {
		return nil, err
	}
	f, err := build.Model(l, build.Options{Order: model.OrderBytewise, Time: tm})
	if err != nil {
		return nil, err
	}
	rendered, err := emit.File(f)
	if err != nil {
		return nil, err
	}
	src, err := Output(l, rendered)
	if err != nil {
		return nil, err
	}
	return &output{Source: src}, nil
}

// diff says where b, named bName, first differs from a.
func diff(aName, bName string, a, b []byte) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	line := bytes.Count(a[:n], []byte("\n")) + 1
	end := func(s []byte) []byte { return s[n:min(len(s), n+120)] }
	return fmt.Sprintf("first difference at line %d (byte %d):\n%s: %q\n%s: %q", line, n, aName, end(a), bName, end(b))
}
