package hugeheap

// MapsRange parses the address range at the start of a line of
// /proc/self/maps ("00400000-00bde000 r-xp 00000000 fe:00 123  /path"),
// returning it and the rest of the line after the space that follows it.
// ok is false when the line does not start with a well-formed range.
func MapsRange(line string) (lo, hi uintptr, rest string, ok bool) {
	lo, i := parseHex(line, 0)
	if i == 0 || i >= len(line) || line[i] != '-' {
		return 0, 0, "", false
	}
	hi, j := parseHex(line, i+1)
	if j == i+1 || j >= len(line) || line[j] != ' ' || hi <= lo {
		return 0, 0, "", false
	}
	return lo, hi, line[j+1:], true
}

// parseHex reads lowercase hex digits from s[i:], returning the value and
// the index after them.
func parseHex(s string, i int) (uintptr, int) {
	var v uintptr
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return v, i
		}
	}
	return v, i
}
