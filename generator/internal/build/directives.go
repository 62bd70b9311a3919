package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// A place is the kinds of declaration a directive's doc comment may
// belong to.
type place uint8

const (
	onStruct    place = 1 << iota // a struct type
	onValue                       // a named basic, slice, array or map type
	onInterface                   // an interface type
)

// A directive is one form of a //cborgen: line: its usage (the name, then
// its arguments: a word in capitals stands for one word, one that ends in
// ... for the rest of the line, and other words are written as they are),
// the kinds of type whose doc comment may hold it, and what it does.
type directive struct {
	usage string
	on    place
	doc   string
}

// directiveTable is every //cborgen: directive, one form a line, and
// where it may appear: only in the doc comment of a type of the kinds it
// names. Every //cborgen: line of the package is checked against it
// (checkDirectives, directivecheck.go), and the lists that errors print
// come from it, so a new directive is one line here (and its meaning in
// directives, and a row of the guide's table, which a test keeps equal).
var directiveTable = []directive{
	{"tag N", onStruct | onValue, "write every value as tag N followed by its encoding, and require the tag on decode, as fxamacker/cbor's TagSet"},
	{"tag N optional", onStruct | onValue, "as tag N, and accept the untagged item too"},
	{"union", onInterface, "its implementations in the run are its variants, told apart by tag number or major type"},
	{"union first", onInterface, "its variants are array structs whose first element is the constant that names each (//cborgen:case V)"},
	{"union key K", onInterface, "its variants are map structs in which key K (an integer or a quoted text) holds the constant that names each (//cborgen:case V)"},
	{"case V", onStruct, "on a variant of a union chosen by content (//cborgen:union first, or key K): the integer or quoted text that names it, written in the field that holds it"},
	{"catchall", onValue, "on a named []byte type that implements a union: the variant that keeps any item no other variant claims, and writes it back byte for byte"},
	{"array", onStruct, "on a struct with keyasint fields (a map under fxamacker/cbor): write it as an array all the same, as every struct without //cborgen:map is written; the legacy decoder still reads its map"},
	{"map", onStruct, "write the struct as a CBOR map keyed by field name (or integer, keyasint), as fxamacker/cbor writes a struct without toarray, honouring omitempty and omitzero; decode that map only"},
	{"nolegacy", onStruct, "decode the array format only: a map (the legacy format) is an error, as a signed or security-relevant format requires"},
	{"legacy", onStruct, "decode the legacy map format too, on a type with fxamacker's toarray option (which has none by default) or under -nolegacy"},
	{"required N", onStruct, "arrays of the type may end after N elements: the fields after them are optional (decoded as zero when missing; always written)"},
	{"optional N", onStruct, "the fields from slot N on are optional: the array ends before the trailing ones that are zero (fxamacker's omitzero), and arrays of N or more elements decode (it implies required N)"},
	{"raw F", onStruct, "field F ([]byte, not encoded: cbor:\"-\" or unexported) holds the exact bytes each value was decoded from, its tag included"},
	{"extensible", onStruct, "arrays may end with elements written by a newer version of the type; skip them"},
	{"embeddable", onStruct, "generate AppendCBOR, DecodeCBOR and SizeCBOR only, without fxamacker/cbor's MarshalCBOR and UnmarshalCBOR, for a type embedded in structs that cbor-gen does not generate"},
	{"body", onStruct | onValue, "on a type with hand-written MarshalCBOR and UnmarshalCBOR: generate AppendCBORBody, DecodeCBORBody and SizeCBORBody for them to call, and call the type's own methods where it is held"},
}

// directives reads the //cborgen: lines of the doc comment of tn into
// its model s. A line it does not know is an error (m.directiveErrs).
func (m *modeler) directives(s *model.Struct, tn *types.TypeName) {
	fail := func(cm *ast.Comment, format string, args ...any) {
		m.directiveErrs = append(m.directiveErrs, &model.PosError{Pos: m.fset.Position(cm.Pos()), Msg: fmt.Sprintf(format, args...)})
	}
	var requiredAt, optionalAt, rawAt, legacyAt, noLegacyAt, bodyAt, arrayAt *ast.Comment
	for _, cm := range typeDoc(m.syntax, tn) {
		name, ok := strings.CutPrefix(cm.Text, "//cborgen:")
		if !ok || m.refused[cm] {
			continue
		}
		name = strings.TrimSpace(name)
		if args, ok := strings.CutPrefix(name, "required "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(args))
			switch {
			case err != nil || n < 0:
				fail(cm, "type %s: %s: want //cborgen:required N, N a count of fields", s.Name, cm.Text)
			case n > len(s.Fields):
				fail(cm, "type %s: %s: the type has only %d fields", s.Name, cm.Text, len(s.Fields))
			default:
				s.HasRequired, s.Required = true, n
				requiredAt = cm
			}
			continue
		}
		if args, ok := strings.CutPrefix(name, "optional "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(args))
			switch {
			case err != nil || n < 0:
				fail(cm, "type %s: %s: want //cborgen:optional N, N the slot of the first optional field", s.Name, cm.Text)
			case n > len(s.Fields):
				fail(cm, "type %s: %s: the type has only %d fields", s.Name, cm.Text, len(s.Fields))
			case s.HasOptionalFrom:
				fail(cm, "type %s: a second //cborgen:optional directive", s.Name)
			default:
				s.HasOptionalFrom, s.OptionalFrom = true, n
				optionalAt = cm
			}
			continue
		}
		if args, ok := strings.CutPrefix(name, "raw "); ok {
			if f := strings.TrimSpace(args); !token.IsIdentifier(f) || s.Raw != "" {
				fail(cm, "type %s: %s: want one //cborgen:raw F, F the name of a []byte field", s.Name, cm.Text)
			} else {
				s.Raw, rawAt = f, cm
			}
			continue
		}
		if args, ok := strings.CutPrefix(name, "case "); ok {
			c, ok := model.ParseConstant(strings.TrimSpace(args))
			switch {
			case !ok:
				fail(cm, "type %s: %s: want //cborgen:case V, V an integer or a quoted text", s.Name, cm.Text)
			case s.Case != nil:
				fail(cm, "type %s: a second //cborgen:case directive", s.Name)
			default:
				s.Case = &model.Case{Constant: c, Field: -1}
			}
			continue
		}
		if args, ok := strings.CutPrefix(name, "tag "); ok {
			if err := parseTagDirective(s, args); err != nil {
				fail(cm, "type %s: %s: %v", s.Name, cm.Text, err)
			}
			continue
		}
		switch name {
		case "extensible":
			s.Extensible = true
		case "embeddable":
			s.Embeddable = true
		case "body":
			s.Body, bodyAt = true, cm
		case "nolegacy":
			s.NoLegacy, noLegacyAt = true, cm
		case "legacy":
			legacyAt = cm
		case "map":
			s.MapFormat = true
		case "array":
			s.ArrayChosen, arrayAt = true, cm
		case "catchall":
			if _, ok := s.Value.(model.Bytes); !ok {
				fail(cm, "type %s: //cborgen:catchall needs a named []byte type (type Unknown []byte), which holds the item's bytes", s.Name)
			}
			s.CatchAll = true
		default:
			// checkDirectives refused it already; this is its safety net.
			fail(cm, "type %s: unknown directive %s (known: %s)", s.Name, cm.Text, knownDirectives())
		}
	}
	if s.HasRequired && (s.Value != nil || s.MapFormat) {
		fail(requiredAt, "type %s: %s: only array structs have a required count (a map's keys are all optional)", s.Name, requiredAt.Text)
	}
	if optionalAt != nil {
		// //cborgen:optional N implies //cborgen:required N: arrays that
		// end after slot N decode. A required count of its own must say
		// the same.
		switch {
		case s.Value != nil || s.MapFormat:
			fail(optionalAt, "type %s: %s: only array structs have optional trailing elements (a map leaves out keys with omitempty or omitzero)", s.Name, optionalAt.Text)
		case s.HasRequired && s.Required != s.OptionalFrom:
			fail(optionalAt, "type %s: %s contradicts %s: the array may end after slot %d, so arrays of %d elements must decode; drop //cborgen:required (optional N implies required N)", s.Name, optionalAt.Text, requiredAt.Text, s.OptionalFrom, s.OptionalFrom)
		default:
			s.HasRequired, s.Required = true, s.OptionalFrom
		}
	}
	if rawAt != nil {
		m.rawDirective(s, tn, rawAt, fail) // optional.go
	}
	if s.MapFormat {
		m.mapDirective(s, tn)
	}
	m.unknownCheck(s, tn) // unknown.go
	m.arrayDirective(s, tn, arrayAt)
	if s.Body {
		m.bodyDirective(s, bodyAt) // body.go
	}
	if legacyAt != nil {
		switch {
		case noLegacyAt != nil:
			fail(legacyAt, "type %s: //cborgen:legacy and //cborgen:nolegacy contradict each other; keep one", s.Name)
		case s.Value != nil || s.MapFormat:
			fail(legacyAt, "type %s: //cborgen:legacy is about the legacy map form of an array struct", s.Name)
		}
		s.LegacyChosen = true
		return
	}
	// A struct with fxamacker's toarray option was always an array: it
	// has no map-format past, and reading maps would widen what it
	// accepts. It gets no legacy decoder unless //cborgen:legacy asks.
	if s.Value == nil && !s.MapFormat && !s.NoLegacy {
		switch {
		case hasToArray(tn):
			s.NoLegacy, s.NoLegacyBy = true, "toarray"
		case m.noLegacy:
			s.NoLegacy, s.NoLegacyBy = true, "run"
		}
	}
}

// hasToArray reports whether the struct type tn carries fxamacker's
// toarray option (structOptions).
func hasToArray(tn *types.TypeName) bool {
	st, ok := tn.Type().Underlying().(*types.Struct)
	return ok && hasStructOption(structOptions(st), ",toarray")
}

// structOptions is the options of the struct st as fxamacker/cbor reads
// them (collectFields): the cbor tag of the field "_" that reflect's
// FieldByName finds, "" when there is none or its tag is "-". That is
// the first "_" of st itself, else the one promoted from an embedded
// struct (or pointer to one) at the shallowest depth that has one, when
// it is the only one there: the marker type the Cardano libraries embed
// (type StructAsArray struct{ _ struct{} `cbor:",toarray"` }) gives its
// holder the option.
func structOptions(st *types.Struct) string {
	tag := func(s *types.Struct, i int) string {
		if t := reflect.StructTag(s.Tag(i)).Get("cbor"); t != "-" {
			return t
		}
		return ""
	}
	embedded := false
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "_" {
			return tag(st, i)
		}
		embedded = embedded || st.Field(i).Embedded()
	}
	if !embedded {
		return ""
	}
	// reflect's FieldByNameFunc: a breadth-first walk of the embedded
	// structs, each type once; a name found twice at one depth (or in a
	// type embedded twice there) is no field at all.
	type scan struct {
		st    *types.Struct
		twice bool // embedded more than once at its depth
	}
	var visited []types.Type
	seen := func(list []types.Type, t types.Type) int {
		for i, u := range list {
			if types.Identical(u, t) {
				return i
			}
		}
		return -1
	}
	next := []scan{{st: st}}
	nextTypes := []types.Type{st}
	for depth := 0; len(next) > 0; depth++ {
		current, currentTypes := next, nextTypes
		next, nextTypes = nil, nil
		found, opts := false, ""
		for k, sc := range current {
			if seen(visited, currentTypes[k]) >= 0 {
				continue
			}
			visited = append(visited, currentTypes[k])
			for i := 0; i < sc.st.NumFields(); i++ {
				f := sc.st.Field(i)
				if depth > 0 && f.Name() == "_" {
					if found || sc.twice {
						return ""
					}
					found, opts = true, tag(sc.st, i)
					continue
				}
				if found || !f.Embedded() {
					continue
				}
				ft := f.Type()
				if p, ok := types.Unalias(ft).(*types.Pointer); ok {
					ft = p.Elem()
				}
				est, ok := ft.Underlying().(*types.Struct)
				if !ok {
					continue
				}
				if j := seen(nextTypes, ft); j >= 0 {
					next[j].twice = true
					continue
				}
				next = append(next, scan{st: est, twice: sc.twice})
				nextTypes = append(nextTypes, ft)
			}
		}
		if found {
			return opts
		}
	}
	return ""
}

// hasStructOption reports whether the struct options tag hold opt
// (",toarray"), as fxamacker's hasToArrayOption reads them.
func hasStructOption(tag, opt string) bool {
	k := strings.Index(tag, opt)
	return k >= 0 && (len(tag) == k+len(opt) || tag[k+len(opt)] == ',')
}

// arrayDirective refuses //cborgen:array (at) where it has no meaning,
// and a struct that would change format silently: one with a keyasint
// field, which fxamacker/cbor writes as a map (every COSE, CWT and
// Cardano type is one), but which cbor-gen writes as an array unless
// //cborgen:map says otherwise. Such a struct must say which it is: a
// map (//cborgen:map) or an array (//cborgen:array, or fxamacker's own
// toarray option).
func (m *modeler) arrayDirective(s *model.Struct, tn *types.TypeName, at *ast.Comment) {
	fail := func(pos token.Pos, format string, args ...any) {
		m.directiveErrs = append(m.directiveErrs, &model.PosError{Pos: m.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
	}
	if at != nil {
		switch {
		case s.Value != nil:
			fail(at.Pos(), "type %s: //cborgen:array is for struct types; %s is not a struct", s.Name, s.Name)
		case s.MapFormat:
			fail(at.Pos(), "type %s: //cborgen:array and //cborgen:map contradict each other; keep one", s.Name)
		}
		return
	}
	if s.Value != nil || s.MapFormat || s.Anon != nil || hasToArray(tn) {
		return
	}
	for _, fd := range s.Fields {
		if !fd.KeyAsInt {
			continue
		}
		fail(tn.Pos(), "type %s: field %s has the keyasint option (key %d), so fxamacker/cbor writes %s as a map with integer keys, "+
			"but cbor-gen writes a struct as an array unless told otherwise, which would change its wire format. "+
			"Say which it is: add //cborgen:map to its doc comment to keep the map (fxamacker's bytes), "+
			"or //cborgen:array to write it as an array on purpose",
			s.Name, fd.Name, fd.KeyInt, s.Name)
		return
	}
}

// mapDirective refuses what contradicts //cborgen:map on s: it is for
// structs, whose map has no legacy form, no slots to extend, and no
// toarray option.
func (m *modeler) mapDirective(s *model.Struct, tn *types.TypeName) {
	var clash []string
	if s.Value != nil {
		clash = append(clash, "it is for struct types; "+s.Name+" is not a struct")
	}
	if s.NoLegacy {
		clash = append(clash, "//cborgen:nolegacy is about the legacy map form of an array type; a map type reads only its map")
	}
	if s.Extensible {
		clash = append(clash, "//cborgen:extensible is about array elements; a map type skips unknown keys anyway")
	}
	if hasToArray(tn) {
		clash = append(clash, "the struct's toarray option asks for an array")
	}
	for _, msg := range clash {
		m.directiveErrs = append(m.directiveErrs, &model.PosError{Pos: m.fset.Position(tn.Pos()), Msg: fmt.Sprintf("type %s: //cborgen:map: %s", s.Name, msg)})
	}
}

// typeDoc returns the doc comment lines of the declaration of tn, found
// in the package's files: the type spec's own, or the declaration's when
// it declares one type.
func typeDoc(files []*ast.File, tn *types.TypeName) []*ast.Comment {
	for _, file := range files {
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

// parseTagDirective reads the arguments of //cborgen:tag: a tag number,
// then optionally the word optional.
func parseTagDirective(s *model.Struct, args string) error {
	fields := strings.Fields(args)
	if len(fields) == 0 || len(fields) > 2 || (len(fields) == 2 && fields[1] != "optional") {
		return fmt.Errorf("want //cborgen:tag N or //cborgen:tag N optional")
	}
	n, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return fmt.Errorf("tag number %q: want an unsigned integer", fields[0])
	}
	switch n {
	case 0, 1, 2, 3, 55799:
		// The numbers fxamacker's TagSet.Add refuses: the ones it reads
		// itself (times, bignums, self-described CBOR).
		return fmt.Errorf("tag %d has a meaning of its own in CBOR; use another number", n)
	}
	if s.HasTag {
		return fmt.Errorf("a second tag directive")
	}
	s.HasTag, s.Tag, s.TagOptional = true, n, len(fields) == 2
	return nil
}

// hasTagDirective reports whether the doc comment of tn has a
// //cborgen:tag line: such a type is generated whatever its kind.
func hasTagDirective(l *load.Package, tn *types.TypeName) bool { return hasTagDoc(l.Pkg.Syntax, tn) }

// hasTagDoc is hasTagDirective on the package's files.
func hasTagDoc(syntax []*ast.File, tn *types.TypeName) bool {
	for _, cm := range typeDoc(syntax, tn) {
		if strings.HasPrefix(cm.Text, "//cborgen:tag ") {
			return true
		}
	}
	return false
}
