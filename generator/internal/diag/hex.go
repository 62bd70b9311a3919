package diag

// Hex reads hex text: pairs of hex digits, with any white space between
// them. ok is false when data holds anything else, or an odd digit.
func Hex(data []byte) (out []byte, ok bool) {
	out = make([]byte, 0, len(data)/2)
	hi, half := byte(0), false
	digits := 0
	for _, c := range data {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		default:
			return nil, false
		}
		digits++
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	return out, !half && digits > 0
}
