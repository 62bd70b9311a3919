package generator

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"
)

// wireKind names what a field is on the wire, in Go syntax over the wire
// scalars: named types are replaced by what they are written as (a
// "type Kind uint8" field is uint8), and a nested generated type by its
// name. Compatible kinds are those kindCompatible accepts.
func wireKind(t Type, pkg *types.Package) string {
	switch t := t.(type) {
	case Bool:
		return "bool"
	case Int:
		name := "int"
		if !t.Signed {
			name = "uint"
		}
		if t.Bits != 0 {
			name += strconv.Itoa(t.Bits)
		}
		return name
	case Float:
		return "float" + strconv.Itoa(t.Bits)
	case String:
		return "string"
	case Bytes:
		return "[]byte"
	case ByteArray:
		return "[" + strconv.FormatInt(t.N, 10) + "]byte"
	case Array:
		return "[" + strconv.FormatInt(t.N, 10) + "]" + wireKind(t.Elem, pkg)
	case Slice:
		return "[]" + wireKind(t.Elem, pkg)
	case Map:
		return "map[" + wireKind(t.Key, pkg) + "]" + wireKind(t.Elem, pkg)
	case Pointer:
		return "*" + wireKind(t.Elem, pkg)
	case Reserved:
		return "reserved"
	}
	// A nested generated type, or any kind written as fxamacker writes
	// it (time.Time, big.Int, ...): the Go type names the encoding, and
	// only the same type is compatible.
	if gt := t.goType(); gt != nil {
		return strings.ReplaceAll(types.TypeString(gt, types.RelativeTo(pkg)), " ", "")
	}
	return strings.ReplaceAll(fmt.Sprintf("%T", t), " ", "")
}

// intKind is an integer wire kind: its sign and width. int and uint count
// as 64 bits.
type intKind struct {
	signed bool
	bits   int
}

var intKinds = map[string]intKind{
	"int8": {true, 8}, "int16": {true, 16}, "int32": {true, 32}, "int64": {true, 64}, "int": {true, 64},
	"uint8": {false, 8}, "uint16": {false, 16}, "uint32": {false, 32}, "uint64": {false, 64}, "uint": {false, 64},
}

// holds reports whether every value of o fits in k.
func (k intKind) holds(o intKind) bool {
	switch {
	case k.signed == o.signed:
		return k.bits >= o.bits
	case k.signed:
		return k.bits > o.bits
	}
	return false // unsigned cannot hold negative values
}

// kindCompatible reports whether a field of wire kind new decodes every
// value stored under wire kind old to the same value. It is the lattice in
// docs/schema.md: integers widen (an unsigned one into a wider signed
// one), integers of up to 16 bits become float32 and of up to 32 bits
// float64, float32 becomes float64, [N]T becomes []T, T becomes *T, and
// containers are compatible when their elements are.
func kindCompatible(old, new string) bool {
	if old == new {
		return true
	}
	if rest, ok := strings.CutPrefix(new, "*"); ok {
		return kindCompatible(strings.TrimPrefix(old, "*"), rest)
	}
	if strings.HasPrefix(old, "*") {
		return false // a null in stored data has nowhere to go
	}
	if o, ok := intKinds[old]; ok {
		if n, ok := intKinds[new]; ok {
			return n.holds(o)
		}
		switch new {
		case "float32":
			return o.bits <= 16 // exact within float32's 24-bit significand
		case "float64":
			return o.bits <= 32 // exact within float64's 53-bit significand
		}
		return false
	}
	if old == "float32" && new == "float64" {
		return true
	}
	if oe, on, ok := splitList(old); ok {
		ne, nn, ok := splitList(new)
		if !ok || (nn >= 0 && nn != on) {
			return false // a slice may have any length; an array only its own
		}
		if oe == "byte" || ne == "byte" {
			return oe == ne // a byte string is not an array of integers
		}
		return kindCompatible(oe, ne)
	}
	if ok, ov, isMap := splitMap(old); isMap {
		nk, nv, isMap := splitMap(new)
		return isMap && kindCompatible(ok, nk) && kindCompatible(ov, nv)
	}
	return false
}

// splitList splits "[]T" into T and -1, and "[N]T" into T and N.
func splitList(k string) (elem string, n int64, ok bool) {
	if rest, ok := strings.CutPrefix(k, "[]"); ok {
		return rest, -1, true
	}
	if !strings.HasPrefix(k, "[") {
		return "", 0, false
	}
	end := strings.IndexByte(k, ']')
	if end < 0 {
		return "", 0, false
	}
	n, err := strconv.ParseInt(k[1:end], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return k[end+1:], n, true
}

// splitMap splits "map[K]V" into K and V.
func splitMap(k string) (key, elem string, ok bool) {
	rest, ok := strings.CutPrefix(k, "map[")
	if !ok {
		return "", "", false
	}
	depth := 1
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return rest[:i], rest[i+1:], true
			}
		}
	}
	return "", "", false
}
