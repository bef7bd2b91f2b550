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
	or := []rune(old)
	for i, r := range or {
		or[i] = straightQuote(r)
	}
	// The runes of text and the byte offset of each, plus the end. A
	// byte that is not UTF-8 (a Latin-1 "é") is one U+FFFD of one byte,
	// the "�" Read showed and the model may copy into old_string.
	tr := make([]rune, 0, len(text))
	offs := make([]int, 0, len(text)+1)
	for o, r := range text {
		tr = append(tr, r)
		offs = append(offs, o)
	}
	offs = append(offs, len(text))
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

// keepInvalidBytes gives repl, the replacement for matched, back the
// bytes that Read showed as "�" (bytes that are not UTF-8, such as the
// Latin-1 letters of a Latin-1 file): when repl has as many "�" as
// matched, each stands for the bytes in the same place in matched, so an
// edit that keeps a line's "é" keeps its byte rather than writing "�".
func keepInvalidBytes(matched, repl string) string {
	var orig []string
	for i, r := range matched {
		if r == utf8.RuneError {
			_, n := utf8.DecodeRuneInString(matched[i:])
			orig = append(orig, matched[i:i+n])
		}
	}
	if len(orig) == 0 || strings.Count(repl, string(utf8.RuneError)) != len(orig) {
		return repl
	}
	var sb strings.Builder
	k := 0
	for _, r := range repl {
		if r == utf8.RuneError {
			sb.WriteString(orig[k])
			k++
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
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
