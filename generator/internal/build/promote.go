package build

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// Which fields of a struct are on the wire, as fxamacker/cbor reads them:
// its struct tags, its runtime.Reserved slots, and the fields promoted
// from the structs it embeds.

// fieldTag is a struct tag as fxamacker/cbor reads it.
type fieldTag struct {
	name                          string
	present                       bool // a cbor or json tag is there (it makes a field dominate)
	omitEmpty, omitZero, keyAsInt bool
}

// parseTag reads the cbor tag, else the json tag, as fxamacker/cbor does.
// It reports false for a field that is skipped ("-").
func parseTag(tag string) (fieldTag, bool) {
	st := reflect.StructTag(tag)
	s := st.Get("cbor")
	if s == "" {
		s = st.Get("json")
	}
	if s == "-" {
		return fieldTag{}, false
	}
	t := fieldTag{present: s != ""}
	for i, tok := range strings.Split(s, ",") {
		if i == 0 {
			t.name = tok
			continue
		}
		switch tok {
		case "omitempty":
			t.omitEmpty = true
		case "omitzero":
			t.omitZero = true
		case "keyasint":
			t.keyAsInt = true
		}
	}
	return t, true
}

// isReservedType reports whether t is runtime.Reserved.
func isReservedType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == model.ReservedName && n.Obj().Pkg() != nil && model.IsRuntimeType(n.Obj().Pkg().Path())
}

// reservedField returns the model of field i of st when it is a
// runtime.Reserved field (exported or not, blank or named), and ok false
// for every other field. A reserved field tagged "-" is skipped: fd nil,
// ok true.
func (p *promotion) reservedField(st *types.Struct, i int) (fd *model.Field, ok bool) {
	f := st.Field(i)
	if !isReservedType(f.Type()) {
		return nil, false
	}
	if _, on := parseTag(st.Tag(i)); !on {
		return nil, true
	}
	return &model.Field{Name: f.Name(), Pos: p.fset.Position(f.Pos()), Type: model.Reserved{Go: f.Type()}}, true
}

// candidate is a field that may be on the wire: one of the struct's own,
// or one promoted from an embedded struct.
type candidate struct {
	v      *types.Var
	tag    fieldTag
	name   string // the key: the tag name, else the Go name; digits for keyasint
	keyInt int64
	index  []int // field indexes from the outer struct, as reflect numbers them
	via    []model.Embed
	// reserved is the model of a runtime.Reserved field of the struct
	// itself (reservedField): it keeps its slot and has no key.
	reserved *model.Field
}

func tagged(c candidate) bool { return c.tag.present }

// promotion is the walk of one struct's fields, with the mistakes it
// finds in them.
type promotion struct {
	fset       *token.FileSet
	structName string
	errs       []error
}

func (p *promotion) errorf(pos token.Pos, format string, args ...any) {
	p.errs = append(p.errs, &model.PosError{Pos: p.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

// embedded is a struct whose fields are promoted: the struct itself, or
// one it embeds, at the indexes and through the embedded fields via.
type embedded struct {
	st    *types.Struct
	typ   types.Type
	index []int
	via   []model.Embed
}

// visibleFields lists the fields of a struct as fxamacker/cbor sees them,
// in its order: the struct's own exported fields, and the exported fields
// of embedded structs (value or pointer, exported or not) promoted as
// encoding/json promotes them. Level by level from the outside in, an
// embedded struct without a tag name is opened; one embedded twice at the
// same level, or already opened at a shallower level, is not. Of the
// fields with the same key, the least nested wins, then the one with a
// tag; a tie drops them all (dominant). The order is that of the field
// indexes (declaration order, an embedded struct's fields where it is
// embedded). The errors are the mistakes in the struct's tags.
func visibleFields(fset *token.FileSet, structName string, named types.Type) ([]candidate, []error) {
	p := &promotion{fset: fset, structName: structName}
	var all, reserved []candidate
	visited := []types.Type{named}
	level := []embedded{{st: named.Underlying().(*types.Struct), typ: named}}
	for len(level) > 0 {
		var next []embedded
		for _, e := range level {
			for i := 0; i < e.st.NumFields(); i++ {
				if len(e.index) == 0 {
					if fd, ok := p.reservedField(e.st, i); ok {
						if fd != nil {
							reserved = append(reserved, candidate{index: []int{i}, reserved: fd})
						}
						continue
					}
				}
				c, deeper, ok := p.fieldOf(e, i)
				switch {
				case deeper != nil:
					next = append(next, *deeper)
				case ok:
					all = append(all, c)
				}
			}
		}
		level = openLevel(next, visited)
		for _, e := range level {
			visited = append(visited, e.typ)
		}
	}
	out := append(p.dominant(all), reserved...)
	sort.Slice(out, func(i, j int) bool { return lessIndex(out[i].index, out[j].index) })
	return out, p.errs
}

// fieldOf reads field i of the struct e: a candidate, or an embedded
// struct to open at the next level (deeper), or neither (ok false) when
// the field is not on the wire.
func (p *promotion) fieldOf(e embedded, i int) (c candidate, deeper *embedded, ok bool) {
	f := e.st.Field(i)
	ft := types.Unalias(f.Type())
	ptr, isPtr := ft.(*types.Pointer)
	if isPtr {
		ft = types.Unalias(ptr.Elem())
	}
	embStruct, isStruct := ft.Underlying().(*types.Struct)
	if !f.Exported() && !(f.Embedded() && isStruct) {
		return c, nil, false // unexported fields, and the "_" field that may carry toarray
	}
	tag, on := parseTag(e.st.Tag(i))
	if !on {
		return c, nil, false
	}
	index := append(append([]int{}, e.index...), i)
	if f.Embedded() && isStruct && tag.name == "" {
		step := model.Embed{Name: f.Name()}
		if isPtr {
			step.Ptr = ptr
		}
		return c, &embedded{embStruct, ft, index, append(append([]model.Embed{}, e.via...), step)}, false
	}
	c = candidate{v: f, tag: tag, name: tag.name, index: index, via: e.via}
	if c.name == "" {
		c.name = f.Name()
	}
	if tag.keyAsInt {
		n, err := strconv.ParseInt(c.name, 10, 64)
		if err != nil {
			p.errorf(f.Pos(), "field %s.%s: keyasint needs an integer key, found %q", p.structName, f.Name(), c.name)
			return c, nil, false
		}
		c.keyInt, c.name = n, strconv.FormatInt(n, 10)
	}
	if len(e.via) > 0 && !f.Exported() {
		return c, nil, false
	}
	return c, nil, true
}

// openLevel picks the embedded structs of the next level to open: each
// type once, and not when it is embedded twice at that level.
func openLevel(next []embedded, visited []types.Type) []embedded {
	var level []embedded
	for i, e := range next {
		dup := false
		for j, o := range next {
			dup = dup || (i != j && types.Identical(e.typ, o.typ))
		}
		seen := false
		for _, t := range visited {
			seen = seen || types.Identical(t, e.typ)
		}
		if !dup && !seen {
			level = append(level, e)
		}
	}
	return level
}

// dominant picks the field of each key among all: the least nested, then
// the tagged one; a tie drops them all. Two fields of the struct itself
// with the same key are an error: that is a mistake, not a rule to apply
// silently.
func (p *promotion) dominant(all []candidate) []candidate {
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if a.tag.keyAsInt != b.tag.keyAsInt {
			return a.tag.keyAsInt
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		if tagged(a) != tagged(b) {
			return tagged(a)
		}
		return lessIndex(a.index, b.index)
	})
	var out []candidate
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name && all[j].tag.keyAsInt == all[i].tag.keyAsInt {
			j++
		}
		a := all[i]
		if j > i+1 && len(all[i+1].index) == 1 && len(a.index) == 1 {
			what := "key"
			if a.tag.keyAsInt {
				what = "integer key"
			}
			p.errorf(all[i+1].v.Pos(), "field %s.%s: %s %q is also used by field %s", p.structName, all[i+1].v.Name(), what, a.name, a.v.Name())
		} else if j == i+1 || len(a.index) < len(all[i+1].index) || tagged(a) && !tagged(all[i+1]) {
			out = append(out, a)
		}
		i = j
	}
	return out
}

// lessIndex orders field index paths as fxamacker/cbor does: by index at
// each level, the shorter first on a tie.
func lessIndex(a, b []int) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return len(a) < len(b)
}
