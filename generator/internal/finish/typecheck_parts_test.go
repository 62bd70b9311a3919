package finish

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestDeclarationsOnly: a part's stub keeps the tables of constants the
// legacy decoders declare, and refuses (nil) any other variable, whose
// initializer could need a body the stub leaves out.
func TestDeclarationsOnly(t *testing.T) {
	for _, c := range []struct {
		decl string
		ok   bool
	}{
		{`var cborKeysT = [...]string{"id", "kind", ""}`, true},
		{`var a, b = [2]int{1, 2}, []string{"x"}`, true},
		{`var e = [...]string{}`, true},
		{`var x = f()`, false},
		{`var x int`, false},
		{`var x [2]string = [2]string{"a", "b"}`, false},
		{`var x = [...]string{y}`, false},
		{`var x = [...]string{f()}`, false},
		{`var x = [...]string{0: "a"}`, false},
		{`var x = [len(y)]string{"a"}`, false},
		{`var x = [...]T{T{}}`, false},
		{`var x = map[string]int{"a": 1}`, false},
		{`var x = [...]pkg.T{1}`, false},
		{`var x = 1`, false},
		{`var (x = [...]string{"a"}; y = g())`, false},
	} {
		src := "package p\n\nfunc f() string { return \"\" }\n\n" + c.decl + "\n"
		f, err := parser.ParseFile(token.NewFileSet(), "", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.decl, err)
		}
		stub := declarationsOnly(f)
		if (stub != nil) != c.ok {
			t.Errorf("%s: stub %v, want a stub %v", c.decl, stub != nil, c.ok)
			continue
		}
		if stub != nil && stub.Decls[0].(*ast.FuncDecl).Body != nil {
			t.Errorf("%s: the stub keeps the function's body", c.decl)
		}
	}
}
