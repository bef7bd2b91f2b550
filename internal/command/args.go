package command

import "strings"

// SplitArgs splits a command's arguments into words the way a POSIX shell
// would, without expanding anything:
//
//   - spaces, tabs and newlines separate words;
//   - 'single quotes' keep everything up to the next single quote;
//   - "double quotes" keep everything up to the next unescaped double
//     quote; inside them a backslash escapes ", \, $, ` and newline and is
//     kept before any other character;
//   - outside quotes a backslash escapes the next character (a backslash
//     and newline vanish; a final lone backslash is kept);
//   - quoted and unquoted parts next to each other form one word, and ""
//     is an empty word;
//   - an unclosed quote runs to the end of the text.
func SplitArgs(s string) []string {
	var (
		words []string
		cur   strings.Builder
		in    bool // a word has started
	)
	end := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			end()
		case '\\':
			if i+1 >= len(s) {
				cur.WriteByte('\\')
				in = true
				continue
			}
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
				in = true
			}
		case '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				continue
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case '"':
			in = true
			i = readDouble(s, i+1, &cur)
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	end()
	return words
}

// readDouble reads a double-quoted part starting after its opening quote
// and returns the index of its closing quote (or the last index).
func readDouble(s string, i int, cur *strings.Builder) int {
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
				i++
				if s[i] != '\n' {
					cur.WriteByte(s[i])
				}
				continue
			}
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
		}
	}
	return len(s)
}
