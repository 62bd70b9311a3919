package build

import (
	"fmt"
	"go/build/constraint"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// fileConstraint is the build constraint of one source file: its
// //go:build line and what its name says (stat_linux.go: linux), as one
// expression, or nil when the file builds everywhere.
func fileConstraint(l *load.Package, pos token.Pos) (constraint.Expr, error) {
	var expr constraint.Expr
	for _, file := range l.Pkg.Syntax {
		if file.FileStart > pos || pos > file.FileEnd {
			continue
		}
		for _, g := range file.Comments {
			if g.Pos() >= file.Package {
				break
			}
			for _, c := range g.List {
				if constraint.IsGoBuild(c.Text) {
					e, err := constraint.Parse(c.Text)
					if err != nil {
						return nil, err
					}
					expr = e
				}
			}
		}
		name := l.Pkg.Fset.File(file.Pos()).Name()
		if byName := nameConstraint(filepath.Base(name)); byName != nil {
			if expr == nil {
				expr = byName
			} else {
				expr = &constraint.AndExpr{X: expr, Y: byName}
			}
		}
	}
	return expr, nil
}

// nameConstraint is the constraint the go command reads from a file name:
// *_GOOS, *_GOARCH and *_GOOS_GOARCH (before .go, after any _test).
func nameConstraint(base string) constraint.Expr {
	name := strings.TrimSuffix(base, ".go")
	name = strings.TrimSuffix(name, "_test")
	parts := strings.Split(name, "_")
	if len(parts) < 2 {
		return nil
	}
	n := len(parts)
	tag := func(s string) constraint.Expr { return &constraint.TagExpr{Tag: s} }
	if n >= 3 && knownOS[parts[n-2]] && knownArch[parts[n-1]] {
		return &constraint.AndExpr{X: tag(parts[n-2]), Y: tag(parts[n-1])}
	}
	if knownOS[parts[n-1]] || knownArch[parts[n-1]] {
		return tag(parts[n-1])
	}
	return nil
}

// The GOOS and GOARCH values the go command recognises in file names.
var knownOS = setOf("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")
var knownArch = setOf("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// outputConstraint returns the //go:build line the output needs: that of
// the files declaring the chosen types, which must agree, since one file
// cannot hold methods of types that exist under different constraints. A
// type that exists only under some tags (cbor-gen -tags pro) so lands in
// an output that builds only under them, and the plain build never sees
// it.
func outputConstraint(l *load.Package, chosen []*types.TypeName) (string, error) {
	type origin struct {
		expr constraint.Expr
		tn   *types.TypeName
	}
	var first *origin
	for _, tn := range chosen {
		expr, err := fileConstraint(l, tn.Pos())
		if err != nil {
			return "", &model.PosError{Pos: l.Pkg.Fset.Position(tn.Pos()), Msg: err.Error()}
		}
		if first == nil {
			first = &origin{expr, tn}
			continue
		}
		if exprString(expr) != exprString(first.expr) {
			return "", &model.PosError{Pos: l.Pkg.Fset.Position(tn.Pos()), Msg: fmt.Sprintf(
				"%s builds under %s, but %s builds under %s: one output file cannot hold both. "+
					"Run cbor-gen once per build constraint, each with its own -type list and -o file (for example -o cbor_gen_%s.go)",
				tn.Name(), describe(expr), first.tn.Name(), describe(first.expr), suffixFor(expr, first.expr))}
		}
	}
	if first == nil || first.expr == nil {
		return "", nil
	}
	return "//go:build " + first.expr.String(), nil
}

func exprString(e constraint.Expr) string {
	if e == nil {
		return ""
	}
	return e.String()
}

func describe(e constraint.Expr) string {
	if e == nil {
		return "every build"
	}
	return "//go:build " + e.String()
}

// suffixFor suggests an output name for the constrained one of a and b.
func suffixFor(a, b constraint.Expr) string {
	e := a
	if e == nil {
		e = b
	}
	s := strings.NewReplacer("&&", "_", "||", "_or_", "!", "not_", "(", "", ")", "", " ", "").Replace(exprString(e))
	if s == "" {
		return "other"
	}
	return s
}
