package diag

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The plain notation of RFC 8949 §8, as its Appendix A writes it: integers
// in decimal, byte strings as h'..', text as JSON strings with \u escapes
// for everything outside printable ASCII, floats always with a fraction
// or an exponent, tags as N(item), indefinite lengths with an underscore.

// plain appends the notation of n to b. A partial item ends where the
// input did.
func plain(b []byte, n *node) []byte {
	switch n.major {
	case majUint:
		return strconv.AppendUint(b, n.arg, 10)
	case majNeg:
		return appendNeg(b, n.arg)
	case majBytes, majText:
		if n.indef {
			return plainChunks(b, n)
		}
		if n.major == majBytes {
			return appendHex(b, n.data)
		}
		s, _ := quoteText(n.data)
		return append(b, s...)
	case majArray, majMap:
		return plainContainer(b, n)
	case majTag:
		b = strconv.AppendUint(b, n.arg, 10)
		b = append(b, '(')
		if len(n.kids) > 0 {
			b = plain(b, n.kids[0])
		}
		if n.partial {
			return b
		}
		return append(b, ')')
	}
	return append(b, simpleText(n)...)
}

func plainChunks(b []byte, n *node) []byte {
	if len(n.kids) == 0 && !n.partial {
		if n.major == majBytes {
			return append(b, "''_"...)
		}
		return append(b, `""_`...)
	}
	b = append(b, "(_ "...)
	for i, c := range n.kids {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = plain(b, c)
	}
	if n.partial {
		return b
	}
	return append(b, ')')
}

func plainContainer(b []byte, n *node) []byte {
	open, close := byte('['), byte(']')
	if n.major == majMap {
		open, close = '{', '}'
	}
	b = append(b, open)
	if n.indef {
		b = append(b, "_ "...)
	}
	for i, c := range n.kids {
		switch {
		case n.major == majMap && i%2 == 1:
			b = append(b, ": "...)
		case i > 0:
			b = append(b, ", "...)
		}
		b = plain(b, c)
	}
	if n.partial {
		return b
	}
	return append(b, close)
}

// appendNeg writes the negative integer -1-m.
func appendNeg(b []byte, m uint64) []byte {
	if m == math.MaxUint64 {
		return append(b, "-18446744073709551616"...)
	}
	b = append(b, '-')
	return strconv.AppendUint(b, m+1, 10)
}

func appendHex(b []byte, p []byte) []byte {
	const digits = "0123456789abcdef"
	b = append(b, "h'"...)
	for _, c := range p {
		b = append(b, digits[c>>4], digits[c&15])
	}
	return append(b, '\'')
}

// quoteText writes text as a JSON string: printable characters as they
// are (non-ASCII ones too, as UTF-8), \u escapes for the rest. ok is false
// when the text is not UTF-8; each bad byte is then written as \ufffd.
func quoteText(p []byte) (s string, ok bool) {
	var b strings.Builder
	b.Grow(len(p) + 2)
	b.WriteByte('"')
	ok = true
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		if r == utf8.RuneError && size <= 1 {
			ok = false
		}
		p = p[size:]
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r >= 0x80 && unicode.IsPrint(r) && !(r == utf8.RuneError && size <= 1):
			b.WriteRune(r)
		case r >= 0x10000:
			r -= 0x10000
			writeU(&b, 0xd800+(r>>10))
			writeU(&b, 0xdc00+(r&0x3ff))
		default:
			writeU(&b, r)
		}
	}
	b.WriteByte('"')
	return b.String(), ok
}

func writeU(b *strings.Builder, r rune) {
	const digits = "0123456789abcdef"
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(digits[(r>>shift)&15])
	}
}

// simpleText is the notation of a simple value or float.
func simpleText(n *node) string {
	switch {
	case n.ai == 20:
		return "false"
	case n.ai == 21:
		return "true"
	case n.ai == 22:
		return "null"
	case n.ai == 23:
		return "undefined"
	case n.ai >= 25 && n.ai <= 27:
		return formatFloat(n.f)
	}
	return "simple(" + strconv.FormatUint(n.arg, 10) + ")"
}

// formatFloat writes f as Appendix A does: the shortest decimal that reads
// back as f, in plain form for exponents from -7 to 20 and in exponent
// form otherwise (as JavaScript writes numbers), always with a fraction
// or an exponent so that it reads back as a float: 1.0, 1.0e+300.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	k := len(digits)
	point := exp + 1 // the decimal point sits after this many digits
	var s string
	switch {
	case k <= point && point <= 21:
		s = digits + strings.Repeat("0", point-k) + ".0"
	case 0 < point && point <= 21:
		s = digits[:point] + "." + digits[point:]
	case -6 < point && point <= 0:
		s = "0." + strings.Repeat("0", -point) + digits
	default:
		frac := ".0"
		if k > 1 {
			frac = "." + digits[1:]
		}
		esign := "+"
		if point-1 < 0 {
			esign = "-"
		}
		s = digits[:1] + frac + "e" + esign + strconv.Itoa(abs(point-1))
	}
	return sign + s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
