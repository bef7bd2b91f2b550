package prompt

import (
	"strings"
)

// importRefs returns the @path references of a Markdown text, in order,
// leaving out those inside fenced or indented code blocks and inline code
// spans. A reference starts with "@" at the start of a line or after white
// space and runs to the next white space; "\ " keeps a space in the path.
// The "@" is not included.
func importRefs(text string) []string {
	var refs []string
	lines := strings.Split(text, "\n")
	var fence string // the opening fence while inside a fenced block
	indented := false
	prevBlank, prevList := true, false
	for _, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		blank := strings.TrimSpace(line) == ""
		if fence != "" {
			if closesFence(line, fence) {
				fence = ""
			}
			prevBlank = blank
			continue
		}
		if f := opensFence(line); f != "" {
			fence = f
			indented = false
			prevBlank = false
			continue
		}
		if isIndentedCode(line) && (indented || (prevBlank && !prevList)) {
			indented = true
			prevBlank = false
			continue
		}
		if !blank {
			indented = false
			prevList = isListItem(line) || (prevList && strings.HasPrefix(line, " "))
		}
		prevBlank = blank
		refs = append(refs, lineRefs(maskCodeSpans(line))...)
	}
	return refs
}

// opensFence returns the fence marker (``` or ~~~, three or more) that
// opens a fenced block on line, or "".
func opensFence(line string) string {
	t := trimIndent(line, 3)
	if t == "" {
		return ""
	}
	c := t[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return ""
	}
	if c == '`' && strings.ContainsRune(t[n:], '`') {
		return "" // an info string with a backtick: not a fence
	}
	return t[:n]
}

// closesFence reports whether line closes a block opened by fence: the
// same character, at least as many times, and nothing else.
func closesFence(line, fence string) bool {
	t := strings.TrimRight(trimIndent(line, 3), " \t")
	if len(t) < len(fence) || strings.Trim(t, fence[:1]) != "" {
		return false
	}
	return true
}

// trimIndent removes up to n leading spaces; it returns "" when more are
// present (the line is then indented code, not a fence).
func trimIndent(line string, n int) string {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i > n {
		return ""
	}
	return line[i:]
}

func isIndentedCode(line string) bool {
	return strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
}

func isListItem(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// maskCodeSpans replaces inline code spans (a run of backticks up to the
// next run of the same length) with spaces.
func maskCodeSpans(line string) string {
	if !strings.Contains(line, "`") {
		return line
	}
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		end := -1
		for j := i + n; j < len(b); {
			if b[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(b) && b[j+m] == '`' {
				m++
			}
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			i += n // an unmatched run is literal text
			continue
		}
		for k := i; k < end; k++ {
			b[k] = ' '
		}
		i = end
	}
	return string(b)
}

// lineRefs finds the references in one line with code masked.
func lineRefs(line string) []string {
	var refs []string
	for i := 0; i < len(line); i++ {
		if line[i] != '@' || (i > 0 && !isSpace(line[i-1])) {
			continue
		}
		var sb strings.Builder
		j := i + 1
		for j < len(line) {
			c := line[j]
			if c == '\\' && j+1 < len(line) && line[j+1] == ' ' {
				sb.WriteByte(' ')
				j += 2
				continue
			}
			if isSpace(c) {
				break
			}
			sb.WriteByte(c)
			j++
		}
		if sb.Len() > 0 {
			refs = append(refs, sb.String())
		}
		i = j - 1
	}
	return refs
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}
