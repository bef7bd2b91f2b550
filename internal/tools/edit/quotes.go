package edit

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// straightQuote maps typographic quotes to their plain ASCII form; other
// runes map to themselves.
func straightQuote(r rune) rune {
	switch r {
	case '‘', '’', '‚', '‛', '′':
		return '\''
	case '“', '”', '„', '‟', '″':
		return '"'
	}
	return r
}

func hasCurly(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r != straightQuote(r) })
}

// span is a byte range in a text.
type span struct{ start, end int }

// findQuoteInsensitive finds the occurrences of old in text when curly and
// straight quotes are treated alike, as byte ranges of text.
func findQuoteInsensitive(text, old string) []span {
	if old == "" {
		return nil
	}
	tr := []rune(text)
	or := []rune(old)
	for i, r := range or {
		or[i] = straightQuote(r)
	}
	// Byte offset of each rune of text, plus the end.
	offs := make([]int, 0, len(tr)+1)
	o := 0
	for _, r := range tr {
		offs = append(offs, o)
		o += utf8.RuneLen(r)
	}
	offs = append(offs, o)
	var out []span
	for i := 0; i+len(or) <= len(tr); i++ {
		match := true
		for j, r := range or {
			if straightQuote(tr[i+j]) != r {
				match = false
				break
			}
		}
		if match {
			out = append(out, span{offs[i], offs[i+len(or)]})
			i += len(or) - 1
		}
	}
	return out
}

// curlQuotes gives the plain quotes of s the typographic style: an
// opening quote after a space, an opening bracket or at the start, a
// closing one (which is also the apostrophe) elsewhere.
func curlQuotes(s string) string {
	var sb strings.Builder
	prev := rune(-1)
	for _, r := range s {
		opening := prev == -1 || unicode.IsSpace(prev) || strings.ContainsRune("([{<—–-", prev)
		switch {
		case r == '"' && opening:
			sb.WriteRune('“')
		case r == '"':
			sb.WriteRune('”')
		case r == '\'' && opening:
			sb.WriteRune('‘')
		case r == '\'':
			sb.WriteRune('’')
		default:
			sb.WriteRune(r)
		}
		prev = r
	}
	return sb.String()
}
