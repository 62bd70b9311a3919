package build

import (
	"go/types"
	"sort"
	"strings"
)

// closeNames returns, for a -type name that names nothing in scope, a
// hint for the message: the struct types whose names are close to it
// (another case, a typo or two), or when none is, the package's struct
// types if there are few. It starts with "; " or is "".
func closeNames(scope *types.Scope, name string) string {
	var structs, close []string
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() || !isStructType(tn) {
			continue
		}
		structs = append(structs, n)
		if strings.EqualFold(n, name) || editDistance(strings.ToLower(n), strings.ToLower(name)) <= max(1, len(name)/4) {
			close = append(close, n)
		}
	}
	sort.Strings(close)
	switch {
	case len(close) > 0:
		return "; did you mean " + strings.Join(close, " or ") + "?"
	case len(structs) == 0:
		return "; the package has no struct types"
	case len(structs) <= 12:
		return "; its struct types are " + strings.Join(structs, ", ")
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
