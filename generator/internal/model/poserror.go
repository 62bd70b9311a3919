package model

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// PosError is an error the user's code caused, at a position.
type PosError struct {
	Pos token.Position
	Msg string
}

func (e *PosError) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// PosLess orders two file:line:col positions of go/packages errors by
// file, then line and column; an error without a position sorts first.
func PosLess(a, b string) bool {
	af, al, ac := SplitPos(a)
	bf, bl, bc := SplitPos(b)
	if af != bf {
		return af < bf
	}
	if al != bl {
		return al < bl
	}
	return ac < bc
}

// SplitPos splits "file:line:col" (or "file:line"); anything else is a
// file name with line and column 0.
func SplitPos(pos string) (file string, line, col int) {
	parts := strings.Split(pos, ":")
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	file = strings.Join(parts, ":")
	switch len(nums) {
	case 2:
		return file, nums[0], nums[1]
	case 1:
		return file, nums[0], 0
	}
	return pos, 0, 0
}

// JoinPosErrors sorts errors by position and joins them, one a line.
func JoinPosErrors(errs []error) error {
	sort.SliceStable(errs, func(i, j int) bool {
		a, aok := errs[i].(*PosError)
		b, bok := errs[j].(*PosError)
		if !aok || !bok {
			return aok && !bok
		}
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		return a.Pos.Offset < b.Pos.Offset
	})
	msgs := make([]string, len(errs))
	for i, e := range errs {
		if pe, ok := e.(*PosError); ok {
			pos := pe.Pos
			pos.Filename = RelPath(pos.Filename)
			msgs[i] = fmt.Sprintf("%s: %s", pos, pe.Msg)
		} else {
			msgs[i] = e.Error()
		}
	}
	return errors.New(strings.Join(msgs, "\n"))
}

// RelPath shortens a path (or a file:line:col position) to one relative
// to the working directory, as go vet prints positions: always under the
// working directory, and elsewhere (../other/x.go) when that is shorter.
func RelPath(p string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && (!strings.HasPrefix(rel, "..") || len(rel) < len(p)) {
		return rel
	}
	return p
}

// NumberLines prefixes each line of src with its number.
func NumberLines(src []byte) string {
	var b strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, line)
	}
	return b.String()
}
