package schema

import (
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// What a schema refusal says, and what an -accept-break run says of the
// same change. Each problem the schema check finds is one sentence
// saying what would decode wrongly, then one saying what to do instead
// ("Keep a compatible type ...", "Add new fields at the end"). A run
// that refuses prints both, and the command that accepts the change; a
// run with -accept-break, which accepts it, prints only what it accepts.

// withoutAdvice returns the problems errs with their last sentence, the
// advice, cut off.
func withoutAdvice(errs []error) []error {
	out := make([]error, len(errs))
	for i, e := range errs {
		if pe, ok := e.(*model.PosError); ok {
			e = &model.PosError{Pos: pe.Pos, Msg: cutAdvice(pe.Msg)}
		}
		out[i] = e
	}
	return out
}

// cutAdvice cuts the last sentence off msg, whose sentences end in ". "
// (the last one without): none of the wire kinds, names and paths that
// the sentences quote holds ". ".
func cutAdvice(msg string) string {
	if i := strings.LastIndex(msg, ". "); i >= 0 {
		return msg[:i]
	}
	return msg
}

// withArticle is word after "a" or "an", as it reads aloud: "an int32
// field", "a uint8 field" (a wire kind's text, or a type name).
func withArticle(word string) string {
	if word != "" && strings.ContainsRune("aeioAEIO", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
