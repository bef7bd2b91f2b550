package edit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// lineNumberPrefix spots old_strings copied with Read's line numbers.
var lineNumberPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\d+\t`) })

// change is the result of applying one replacement.
type change struct {
	text        string // the new text
	first, last int    // changed lines in the new text, 1-based
	count       int    // occurrences replaced
}

// replace applies one old→new replacement to text. field names the
// old_string in errors ("old_string" or "edits[2].old_string"), display
// the file.
func replace(text, old, repl string, all bool, field, display string) (change, error) {
	if old == repl {
		return change{}, fmt.Errorf("%s and its new_string are identical; there is nothing to change", field)
	}
	spans, with := findExact(text, old), []string(nil)
	if len(spans) == 0 {
		spans = findQuoteInsensitive(text, old)
		for _, sp := range spans {
			r := repl
			if hasCurly(text[sp.start:sp.end]) {
				r = curlQuotes(repl)
			}
			r = keepInvalidBytes(text[sp.start:sp.end], r)
			with = append(with, r)
		}
	}
	if len(spans) == 0 && strings.Contains(text, "\r\n") && strings.Contains(old, "\n") && !strings.Contains(old, "\r") {
		// A file with mixed line endings keeps its \r; match it.
		old, repl = strings.ReplaceAll(old, "\n", "\r\n"), strings.ReplaceAll(repl, "\n", "\r\n")
		spans = findExact(text, old)
	}
	if len(spans) == 0 && strings.Contains(old, "\r\n") && !strings.Contains(text, "\r") {
		// An old_string with \r\n endings (copied from a terminal dump of
		// a CRLF file, whose text here has \n endings): match it as \n.
		old, repl = strings.ReplaceAll(old, "\r\n", "\n"), strings.ReplaceAll(repl, "\r\n", "\n")
		spans = findExact(text, old)
	}
	latin1 := isLatin1(text)
	if len(spans) == 0 && latin1 && toLatin1(old) != old {
		// "é" typed in old_string, a Latin-1 byte in the file.
		spans, with = findExact(text, toLatin1(old)), nil
	}
	if len(spans) == 0 {
		msg := fmt.Sprintf("%s was not found in %s. It must match the file exactly, including whitespace and indentation; Read the file again to see its current content", field, display)
		if lineNumberPrefix().MatchString(old) {
			msg += ". It looks like it includes line numbers from Read's output: leave out the number and the tab before each line"
		} else if hint := whitespaceNearMiss(text, old); hint != "" {
			msg += ". " + hint
		}
		return change{}, fmt.Errorf("%s", msg)
	}
	if len(spans) > 1 && !all {
		return change{}, fmt.Errorf("%s occurs %d times in %s, but it must occur exactly once. Add surrounding lines to make it unique, or set replace_all to true to change every occurrence", field, len(spans), display)
	}
	if repl == "" && with == nil && !strings.HasSuffix(old, "\n") {
		// Deleting whole lines: take the line ending along.
		extend := true
		for _, sp := range spans {
			extend = extend && sp.end < len(text) && text[sp.end] == '\n'
		}
		if extend {
			for i := range spans {
				spans[i].end++
			}
		}
	}
	var sb strings.Builder
	prev := 0
	firstOff, lastOff := -1, 0
	for i, sp := range spans {
		r := repl
		if with != nil {
			r = with[i]
		}
		if latin1 {
			r = toLatin1(r)
		}
		sb.WriteString(text[prev:sp.start])
		if firstOff < 0 {
			firstOff = sb.Len()
		}
		sb.WriteString(r)
		lastOff = sb.Len()
		if strings.HasSuffix(r, "\n") {
			lastOff--
		}
		prev = sp.end
	}
	sb.WriteString(text[prev:])
	out := sb.String()
	first := lineOf(out, firstOff)
	last := max(first, lineOf(out, max(lastOff, firstOff)))
	return change{text: out, first: first, last: last, count: len(spans)}, nil
}

func findExact(text, old string) []span {
	if old == "" {
		return nil
	}
	var out []span
	for off := 0; ; {
		i := strings.Index(text[off:], old)
		if i < 0 {
			return out
		}
		out = append(out, span{off + i, off + i + len(old)})
		off += i + len(old)
	}
}

// whitespaceNearMiss looks for lines of text that match old's lines once
// the spaces and tabs around each line are ignored, the usual reason an
// old_string is not found (tabs given as spaces, or a changed indent).
// It returns a hint naming the first such place, or "".
func whitespaceNearMiss(text, old string) string {
	want := strings.Split(strings.TrimRight(old, "\r\n"), "\n")
	for i := range want {
		want[i] = strings.TrimSpace(want[i])
	}
	if strings.Join(want, "") == "" {
		return ""
	}
	lines := strings.Split(text, "\n")
	for start := 0; start+len(want) <= len(lines); start++ {
		match := true
		for j, w := range want {
			l := strings.TrimSpace(lines[start+j])
			if j == 0 && len(want) > 1 {
				match = strings.HasSuffix(l, w) // old may start mid-line
			} else if j == len(want)-1 && len(want) > 1 {
				match = strings.HasPrefix(l, w) // and end mid-line
			} else if len(want) == 1 {
				match = strings.Contains(l, w)
			} else {
				match = l == w
			}
			if !match {
				break
			}
		}
		if !match {
			continue
		}
		where := fmt.Sprintf("Line %d", start+1)
		if len(want) > 1 {
			where = fmt.Sprintf("Lines %d-%d", start+1, start+len(want))
		}
		how := "whitespace (spaces, tabs or line ends)"
		for _, l := range lines[start : start+len(want)] {
			if strings.Contains(leadingBlank(l), "\t") && !strings.Contains(old, "\t") {
				how = "indentation: the file indents with tabs, old_string with spaces"
				break
			}
		}
		return fmt.Sprintf("%s of the file match it except for %s; copy the whitespace exactly as Read shows it (after the line number and its tab)", where, how)
	}
	return ""
}

// leadingBlank returns the spaces and tabs that start s.
func leadingBlank(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// isLatin1 reports whether text looks like a Latin-1 (ISO 8859-1 or
// Windows-1252) file: it has bytes that are not UTF-8 and no UTF-8
// characters past ASCII.
func isLatin1(text string) bool {
	invalid := false
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			invalid = true
		case n > 1:
			return false
		}
		i += n
	}
	return invalid
}

// toLatin1 writes the characters of s that Latin-1 has (up to U+00FF)
// as their one-byte form, so text put into a Latin-1 file is in its
// encoding; bytes already not UTF-8 and characters Latin-1 lacks are
// left as they are.
func toLatin1(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && r <= 0xFF {
			sb.WriteByte(byte(r))
		} else {
			sb.WriteString(s[i : i+n])
		}
		i += n
	}
	return sb.String()
}

// InLatin1 returns text, the new content of a file whose content was
// old, in the file's encoding when old is Latin-1 (see isLatin1): the
// "�" that Read showed for its letters become those bytes again when
// text has as many of them as old, and the letters Latin-1 has are
// written as its bytes. ok reports whether old is Latin-1.
func InLatin1(old, text string) (out string, ok bool) {
	if !isLatin1(old) {
		return text, false
	}
	return toLatin1(keepInvalidBytes(old, text)), true
}
