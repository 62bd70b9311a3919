package generator

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// knownDirectives are the //cborgen: comment directives a generated type's
// doc comment may carry. Any other //cborgen: line is an error, so that a
// misspelt directive does not go unnoticed.
var knownDirectives = map[string]string{
	"extensible": "arrays may end with elements written by a newer version of the type; skip them",
	"nolegacy":   "decode the array format only: a map (the legacy format) is an error, as a signed or security-relevant format requires",
	"embeddable": "generate AppendCBOR, DecodeCBOR and SizeCBOR only, without fxamacker/cbor's MarshalCBOR and UnmarshalCBOR, for a type embedded in structs that cbor-gen does not generate",
}

// directives reads the //cborgen: lines of the doc comment of s.
func (c *schemaCheck) directives(s *Struct) {
	tn := c.typeName(s.Name)
	if tn == nil {
		return
	}
	for _, cm := range c.typeDoc(tn) {
		name, ok := strings.CutPrefix(cm.Text, "//cborgen:")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		switch name {
		case "extensible":
			s.Extensible = true
		case "embeddable":
			s.Embeddable = true
		case "nolegacy":
			s.NoLegacy = true
		default:
			known := make([]string, 0, len(knownDirectives))
			for k := range knownDirectives {
				known = append(known, "//cborgen:"+k)
			}
			sort.Strings(known)
			c.errs = append(c.errs, &posError{
				pos: c.l.pkg.Fset.Position(cm.Pos()),
				msg: fmt.Sprintf("type %s: unknown directive %s (known: %s)", s.Name, cm.Text, strings.Join(known, ", ")),
			})
		}
	}
}

// typeDoc returns the doc comment lines of the declaration of tn: the
// type spec's own, or the declaration's when it declares one type.
func (c *schemaCheck) typeDoc(tn *types.TypeName) []*ast.Comment {
	for _, file := range c.l.pkg.Syntax {
		if file.Pos() > tn.Pos() || tn.Pos() > file.End() {
			continue
		}
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				if ts.Name.Pos() != tn.Pos() {
					continue
				}
				var out []*ast.Comment
				if ts.Doc != nil {
					out = append(out, ts.Doc.List...)
				}
				if gd.Doc != nil && !gd.Lparen.IsValid() {
					out = append(out, gd.Doc.List...)
				}
				return out
			}
		}
	}
	return nil
}
